import { Type } from 'typebox';
import type { ReviewsService } from '../reviews/reviews.service.js';
import { AgentReviewBody, AgentReviewResultSchema, ReportReviewBody, ReviewIdParams, ReviewListQuery, ReviewListSchema } from '../reviews/reviews.schemas.js';
import { inlineSchema } from './mcp.outputs.js';
import { reviewListSummary } from './mcp.summaries.js';
import { zodFromTypeBoxes, type ToolDef } from './mcp.tools.js';

/** What the review tools use of the reviews service (the same calls as the REST routes). */
export type McpReviewsPort = Pick<ReviewsService, 'listForCompany' | 'submitByAgent' | 'report'>;

const asObject = (v: object) => v as Record<string, unknown>;
const CompanyIdInput = Type.Object({ company_id: Type.String({ format: 'uuid', description: 'The company whose reviews to list' }) });
const ProposalIdInput = Type.Object({ proposal_id: Type.String({ format: 'uuid' }) });

/** Reviews as MCP tools: read a company's reviews, submit the customer's review of an approved proposal, report one. */
export function reviewTools(reviews: McpReviewsPort): ToolDef[] {
  return [
    {
      name: 'list_reviews',
      title: "List a company's reviews",
      description:
        "A company's published reviews (newest first, with its answers) and its rating (average, count, per star). Every review comes from the customer of a proposal " +
        'the company approved through this directory, never from anyone else.',
      input: zodFromTypeBoxes(CompanyIdInput, ReviewListQuery),
      needsKey: false,
      readOnly: true,
      output: inlineSchema(ReviewListSchema),
      summary: reviewListSummary,
      run: async (args) => asObject(await reviews.listForCompany(String(args.company_id), Number(args.limit ?? 20), Number(args.offset ?? 0))),
    },
    {
      name: 'submit_review',
      title: "Submit the customer's review of an approved proposal",
      description:
        'What your customer said about the work (rating 1 to 5 and their words), for a proposal of yours the company approved. It is held and the customer named on the proposal ' +
        'is mailed a link to confirm it; it is published only then. One review per proposal; submitting again before the customer confirmed replaces the held text. Needs X-API-Key.',
      input: zodFromTypeBoxes(ProposalIdInput, AgentReviewBody),
      needsKey: true,
      readOnly: false,
      output: inlineSchema(AgentReviewResultSchema),
      summary: (d) => String(d.message ?? ''),
      run: async (args, ctx) => asObject(await reviews.submitByAgent(ctx.agent!.agentId, String(args.proposal_id), { rating: Number(args.rating), text: String(args.text) })),
    },
    {
      name: 'report_review',
      title: 'Report a review',
      description: 'Reports a review as fake, offensive, carrying personal data or about the wrong company; an administrator decides. Reporting twice is harmless. Needs X-API-Key.',
      input: zodFromTypeBoxes(ReviewIdParams, ReportReviewBody),
      needsKey: true,
      readOnly: false,
      output: inlineSchema(Type.Object({ message: Type.String() })),
      summary: (d) => String(d.message ?? ''),
      run: async (args, ctx) => asObject(await reviews.report(String(args.review_id), { agentId: ctx.agent!.agentId }, String(args.reason), args.note === undefined ? undefined : String(args.note))),
    },
  ];
}
