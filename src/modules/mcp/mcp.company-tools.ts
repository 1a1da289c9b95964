import { z } from 'zod';
import { agentFacingText } from '../../lib/untrusted-text.js';
import type { CompaniesService } from '../companies/companies.service.js';
import type { CompanyProfile } from '../companies/companies.schemas.js';
import type { WidgetService } from '../widget/widget.service.js';
import { OUTPUTS } from './mcp.outputs.js';
import { companyAnswerSummary, profileSummary, proposalSummary, servicesSummary } from './mcp.summaries.js';
import type { ToolCallContext, ToolDef } from './mcp.tools.js';

/** What a company's own server uses to answer questions about it: the chat widget's answerer. */
export type McpCompanyAnswersPort = Pick<WidgetService, 'answerForAgent'>;

export interface CompanyToolsDeps {
  companies: CompaniesService;
  answers?: McpCompanyAnswersPort | undefined;
  /** send_proposal, when the proposals service is there: create_proposal's arguments and call, for this company. */
  sendProposal?: { input: z.ZodObject; run: (companyId: string, args: Record<string, unknown>, ctx: ToolCallContext) => Promise<Record<string, unknown>> } | undefined;
  baseUrl: string;
  serviceName: string;
}

const QUESTION = z.object({
  question: z.string().min(1).max(2000).describe(
    'A question about this company, as a customer would ask it ("Do you repair flat roofs after storms?"); answered from its profile and website pages only',
  ),
});

/** How an agent reaches the company with a proposal, or why it cannot. */
function proposalRoute(p: CompanyProfile, baseUrl: string, serviceName: string): string {
  return p.accepts_proposals
    ? `${p.name} is verified and accepts proposals: send_proposal on this server, create_proposal on ${baseUrl}/mcp, or POST ${baseUrl}/api/v1/agent/proposals (each with an agent API key in X-API-Key).`
    : `${p.name} is not verified on ${serviceName} yet, so it cannot receive proposals here: contact it directly.`;
}

/** The tools of one company's MCP server: its profile, services and contact, questions about it, a proposal to it. */
export function companyTools(profile: CompanyProfile, deps: CompanyToolsDeps): ToolDef[] {
  const { companies, answers, sendProposal, baseUrl, serviceName } = deps;
  const id = profile.id;
  const fresh = async () => companies.toProfile(await companies.getById(id));
  const tools: ToolDef[] = [
    {
      name: 'get_profile',
      title: `${profile.name}: profile`,
      description: `The full profile of ${profile.name} (${profile.domain}): what it does, category, location, languages, whether it accepts proposals.`,
      input: z.object({}),
      needsKey: false,
      readOnly: true,
      output: OUTPUTS.profile,
      summary: profileSummary,
      run: async () => (await fresh()) as unknown as Record<string, unknown>,
    },
    {
      name: 'get_services_and_contact',
      title: `${profile.name}: services and contact`,
      description: `The services ${profile.name} offers and how to reach it (email, phone, website, address, social links).`,
      input: z.object({}),
      needsKey: false,
      readOnly: true,
      output: OUTPUTS.servicesAndContact,
      summary: servicesSummary,
      run: async () => {
        const p = await fresh();
        // location is a $ref in the TypeBox schema, so its static type is unknown.
        const loc = p.location as { address: string; city: string; country: string };
        return {
          company_id: p.id,
          name: p.name,
          services: p.services,
          service_type: p.service_type,
          languages: p.languages,
          contact: { ...p.contact, website: p.website_url, address: loc.address, city: loc.city, country: loc.country },
          social_links: p.social_links,
          accepts_proposals: p.accepts_proposals,
        };
      },
    },
  ];
  if (answers) {
    tools.push({
      name: 'ask_about_company',
      title: `Ask about ${profile.name}`,
      description:
        `Ask ${profile.name} a question ("Do you …?"); answered from its own profile and website pages only, as its website chat would. ` +
        'answer_status says yes (they state it), no (they state it does not) or not_stated (they do not say: ask the company); the result gives its contact route. ' +
        'It speaks for this company only and never names another.',
      input: QUESTION,
      needsKey: false,
      readOnly: true,
      output: OUTPUTS.companyAnswer,
      summary: companyAnswerSummary,
      run: async (args) => {
        const question = String(args.question);
        const [answer, p] = await Promise.all([answers.answerForAgent(id, question), fresh()]);
        return {
          company_id: p.id,
          company_name: p.name,
          question,
          answer_status: answer.answer_status,
          // Grounded in owner-written text: instruction-like sentences are dropped, as everywhere an agent reads it.
          answer: agentFacingText(answer.answer) || `Not stated: ask ${p.name} directly.`,
          answered_by: answer.answered_by,
          accepts_proposals: p.accepts_proposals,
          contact: { website: p.website_url, email: p.contact.email, phone: p.contact.phone, proposals: proposalRoute(p, baseUrl, serviceName) },
        };
      },
    });
  }
  if (sendProposal) {
    tools.push({
      name: 'send_proposal',
      title: `Send ${profile.name} a proposal`,
      description: `Sends ${profile.name} a proposal on behalf of an end customer (the company must be verified). Pass an idempotency_key to retry safely. Needs X-API-Key.`,
      input: sendProposal.input,
      needsKey: true,
      readOnly: false,
      output: OUTPUTS.proposal,
      summary: proposalSummary,
      run: (args, ctx) => sendProposal.run(id, args, ctx),
    });
  }
  return tools;
}
