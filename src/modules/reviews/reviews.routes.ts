import formbody from '@fastify/formbody';
import { Type } from 'typebox';
import { API_KEY_SECURITY, BEARER_SECURITY, callingAgentId, type Guards } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import { reviewFormPage, reviewResultPage } from './reviews.pages.js';
import type { ReviewsService } from './reviews.service.js';
import { AgentReviewBody, ReplyReviewBody, ReportReviewBody, ReviewIdParams, ReviewListQuery, ToolReviewParams } from './reviews.schemas.js';

export interface ReviewsRoutesOptions {
  reviews: ReviewsService;
  guards: Guards;
}

const Message = Type.Object({ message: Type.String() });
const ProposalParams = Type.Object({ proposal_id: Type.String({ format: 'uuid' }) });
const CompanyQuery = Type.Object({ company_id: Type.String({ format: 'uuid', description: 'The company whose reviews to list' }) });

/** Agent API (base /api/v1/agent): a company's reviews, a review on the customer's behalf, reports. */
export async function agentReviewsRoutes(app: App, { reviews, guards }: ReviewsRoutesOptions): Promise<void> {
  app.get('/reviews', {
    schema: {
      operationId: 'reviews.list',
      tags: ['agent'],
      summary: "A company's published reviews and its rating",
      description: 'Newest first, with the company\'s answer when it gave one. Every review comes from the customer of a proposal the company approved through the directory. An unknown company is 404.',
      querystring: Type.Intersect([CompanyQuery, ReviewListQuery]),
      response: { 200: Type.Ref('ReviewList'), 404: err, ...errorResponses },
    },
  }, async (req) => reviews.listForCompany(req.query.company_id, req.query.limit ?? 20, req.query.offset ?? 0));

  app.post('/proposals/:proposal_id/review', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'reviews.submit',
      tags: ['agent'],
      summary: "Submit the customer's review of an approved proposal (held until the customer confirms)",
      description:
        'Write what your customer said about the work (1 to 5 and their words). It is held, and the customer named on the proposal is mailed a link to confirm or change it: ' +
        'it is published only then (webhook review.published). Only after the company approved the proposal (409 before), one review per proposal (409 once published), ' +
        'never by the company\'s own people (403). Another agent\'s proposal is 404. Submitting again before the customer confirmed replaces the held text and mails a new link.',
      security: API_KEY_SECURITY,
      params: ProposalParams,
      body: AgentReviewBody,
      response: { 202: Type.Ref('AgentReviewResult'), 401: err, 403: err, 404: err, 409: err, ...errorResponses },
    },
  }, async (req, reply) => reply.status(202).send(await reviews.submitByAgent(callingAgentId(req), req.params.proposal_id, req.body)));

  app.post('/reviews/:review_id/report', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'reviews.reportByAgent',
      tags: ['agent'],
      summary: 'Report a review (fake, offensive, personal data, wrong company)',
      description: 'An administrator looks at reported reviews and hides them or keeps them. Reporting twice is harmless. An unknown review is 404.',
      security: API_KEY_SECURITY,
      params: ReviewIdParams,
      body: ReportReviewBody,
      response: { 200: Message, 401: err, 404: err, ...errorResponses },
    },
  }, async (req) => reviews.report(req.params.review_id, { agentId: callingAgentId(req) }, req.body.reason, req.body.note));
}

/** Dashboard (base /api/tools): the owner's reviews, the one public answer, reports; the administrators' queue. */
export async function ownerReviewsRoutes(app: App, { reviews, guards }: ReviewsRoutesOptions): Promise<void> {
  const manager = guards.requireCompanyManager('tool_id');
  app.get('/:tool_id/reviews', {
    onRequest: manager,
    schema: {
      operationId: 'reviews.ownerList',
      tags: ['tools'],
      summary: "The company's published and hidden reviews, with open reports",
      security: BEARER_SECURITY,
      params: Type.Object({ tool_id: Type.String({ format: 'uuid' }) }),
      response: { 200: Type.Ref('ManagedReviewList'), 401: err, 404: err, ...errorResponses },
    },
  }, async (req) => reviews.listForOwner(req.params.tool_id));

  app.post('/:tool_id/reviews/:review_id/reply', {
    onRequest: manager,
    schema: {
      operationId: 'reviews.reply',
      tags: ['tools'],
      summary: 'Answer a review publicly (once)',
      description: 'The answer is shown under the review to agents and on the company page. A second answer is 409; another company\'s review is 404.',
      security: BEARER_SECURITY,
      params: ToolReviewParams,
      body: ReplyReviewBody,
      response: { 200: Type.Ref('ManagedReview'), 401: err, 404: err, 409: err, ...errorResponses },
    },
  }, async (req) => reviews.reply(req.params.tool_id, req.params.review_id, req.body.text));

  app.post('/:tool_id/reviews/:review_id/report', {
    onRequest: manager,
    schema: {
      operationId: 'reviews.reportByOwner',
      tags: ['tools'],
      summary: 'Report a review of your company to the administrators',
      security: BEARER_SECURITY,
      params: ToolReviewParams,
      body: ReportReviewBody,
      response: { 200: Message, 401: err, 404: err, ...errorResponses },
    },
  }, async (req) => reviews.report(req.params.review_id, { companyId: req.params.tool_id }, req.body.reason, req.body.note));

  app.get('/admin/reviews/reported', {
    onRequest: guards.requireAdmin,
    schema: {
      operationId: 'reviews.adminReported',
      tags: ['admin'],
      summary: 'Reviews with open reports, oldest report first',
      security: BEARER_SECURITY,
      response: { 200: Type.Ref('ReportedReviewList'), 401: err, 403: err, ...errorResponses },
    },
  }, async () => reviews.reported());

  app.post('/admin/reviews/:review_id/moderate', {
    onRequest: guards.requireAdmin,
    schema: {
      operationId: 'reviews.moderate',
      tags: ['admin'],
      summary: 'Hide a review, keep it, or restore a hidden one',
      description: 'hide takes it off the company page and out of the rating; keep leaves it; restore publishes a hidden one again. Its open reports are resolved either way.',
      security: BEARER_SECURITY,
      params: ReviewIdParams,
      body: Type.Object({ decision: Type.Union([Type.Literal('hide'), Type.Literal('keep'), Type.Literal('restore')]) }),
      response: { 200: Type.Ref('ManagedReview'), 401: err, 403: err, 404: err, ...errorResponses },
    },
  }, async (req) => reviews.moderate(req.params.review_id, req.body.decision));
}

const TokenParams = Type.Object({ token: Type.String({ minLength: 10, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' }) });

/** The customer's link (base /reviews): a page with the form, and its POST (form or JSON). */
export async function customerReviewRoutes(app: App, { reviews }: { reviews: ReviewsService }): Promise<void> {
  await app.register(formbody);
  const noStore = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };
  app.get('/:token', { schema: { hide: true, params: TokenParams } }, async (req, reply) => {
    const r = await reviews.byLink(req.params.token);
    reply.headers(noStore).type('text/html; charset=utf-8');
    if (!r) return reply.status(404).send(reviewResultPage(false, 'This review link is unknown. Use the link from the email as it was sent.'));
    return reply.send(reviewFormPage(r, req.params.token));
  });

  app.post('/:token', {
    schema: {
      operationId: 'reviews.publishByLink',
      tags: ['agent'],
      summary: 'The customer publishes the review through the emailed link',
      description: 'The page of the link posts here (form); JSON works too. An unknown or expired link is 404; a review already published is 409.',
      security: [],
      params: TokenParams,
      body: Type.Object({ rating: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.String({ pattern: '^[1-5]$' })]), text: Type.String({ maxLength: 2000 }) }),
      response: { 200: Message, 404: err, 409: err, ...errorResponses },
    },
  }, async (req, reply) => {
    const isForm = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const input = { rating: Number(req.body.rating), text: req.body.text };
    if (!isForm) {
      await reviews.publishByLink(req.params.token, input);
      return { message: 'Published.' };
    }
    reply.headers(noStore).type('text/html; charset=utf-8');
    try {
      const r = await reviews.publishByLink(req.params.token, input);
      return reply.send(reviewResultPage(true, `Your review of ${r.company_name} (${r.rating} of 5) is published. Thank you for helping others choose.`));
    } catch (e) {
      if (!(e instanceof AppError) || e.status >= 500) throw e;
      const r = e.code === 'validation' ? await reviews.byLink(req.params.token) : undefined;
      if (r) return reply.status(422).send(reviewFormPage({ ...r, body: input.text, rating: input.rating || null }, req.params.token, e.message));
      return reply.status(e.status as 404).send(reviewResultPage(false, e.message));
    }
  });
}
