import { z } from 'zod';
import { CompanyIdParams, WebsiteParams } from '../companies/companies.schemas.js';
import { RegisterBody } from '../agents/agents.schemas.js';
import type { ProposalStatus } from '../proposals/proposal-status.js';
import { AgentListQuery, BatchProposalBody, CreateProposalBody, ProposalIdParams, ReplyBody, ToolDetailsSchema } from '../proposals/proposals.schemas.js';
import { SearchQuerySchema } from '../search/search.schemas.js';
import { fieldsArgument, OUTPUTS, PROFILE_FIELDS, project, SUMMARY_FIELDS } from './mcp.outputs.js';
import type { McpAgentsPort, McpAskPort, McpProposalsPort, McpServiceDeps } from './mcp.ports.js';
import {
  agentSummary,
  askSummary,
  batchSummary,
  categoriesSummary,
  profileSummary,
  proposalListSummary,
  proposalSummary,
  registrationSummary,
  searchSummary,
} from './mcp.summaries.js';
import { REPLAYED, withIdempotencyKey, zodFromTypeBox, zodFromTypeBoxes, type ToolCallContext, type ToolDef } from './mcp.tools.js';
import { reviewTools } from './mcp.review-tools.js';
import { webhookTools } from './mcp.webhook-tools.js';

/**
 * The tools of the agent MCP server (/mcp): the directory's reads, asking, registration and proposals,
 * each the same call as its REST route. Groups whose service is absent are left out.
 */
const asObject = (v: object) => v as Record<string, unknown>;

/** A create with an idempotency_key: the REST Idempotency-Key's result, and a note when it was a replay. */
async function once<T extends object>(ctx: ToolCallContext, create: Promise<{ body: T; replayed: boolean }>): Promise<Record<string, unknown>> {
  const out = await create;
  if (out.replayed) ctx.notes.push(REPLAYED);
  return asObject(out.body);
}
const keyOf = (args: Record<string, unknown>) => (typeof args.idempotency_key === 'string' ? args.idempotency_key : undefined);
const withoutKey = ({ idempotency_key: _key, ...rest }: Record<string, unknown>) => rest;

// The REST schema leaves a detail value untyped (its validator coerces types); zod does not coerce, so the tools say the types.
const typedDetails = (input: z.ZodObject) => input.extend({ details: z.fromJSONSchema(ToolDetailsSchema as Parameters<typeof z.fromJSONSchema>[0]).optional() });

/** send a proposal: create_proposal on the agent server, send_proposal (company id fixed) on a company's own server. */
export interface ProposalSender {
  input: z.ZodObject;
  run: (companyId: string | undefined, args: Record<string, unknown>, ctx: ToolCallContext) => Promise<Record<string, unknown>>;
}

export function proposalSender(proposals: McpProposalsPort): ProposalSender {
  return {
    input: withIdempotencyKey(typedDetails(zodFromTypeBox(CreateProposalBody))),
    run: (companyId, args, ctx) => {
      const body = { ...withoutKey(args), ...(companyId ? { company_id: companyId } : {}) } as unknown as Parameters<McpProposalsPort['create']>[1];
      return once(ctx, proposals.create(ctx.agent!.agentId, body, keyOf(args)));
    },
  };
}

function directoryTools({ search, companies }: Pick<McpServiceDeps, 'search' | 'companies'>): ToolDef[] {
  return [
    {
      name: 'search_companies',
      title: 'Search companies',
      description:
        'Hybrid (semantic + keyword) search of the business directory. Describe what the customer needs in q, in any words; ' +
        'narrow with category, country, city, industry, service_type, is_verified, updated_since. For local services pass near (a city, "City, CC" or "lat,lng") ' +
        'with radius_km (default 50) and sort=distance if wanted: results then carry distance_km; a place named in q ("a dentist in Munich") ranks companies there first. ' +
        'Each result carries relevance (strong: does what was asked; partial: adjacent). Only verified companies accept proposals. ' +
        'fields keeps only some fields of each company (e.g. "name,location,relevance"). The text lists one line per company; the records are in the structured content.',
      input: zodFromTypeBox(SearchQuerySchema).extend({ fields: fieldsArgument(SUMMARY_FIELDS, 'each company') }),
      needsKey: false,
      readOnly: true,
      output: OUTPUTS.search,
      summary: searchSummary,
      run: async ({ fields, ...query }) => {
        const result = await search.search(query);
        return { ...result, companies: result.companies.map((c) => project(c, fields)) };
      },
    },
    {
      name: 'get_company',
      title: 'Get company profile',
      description:
        'The full profile of one company by its id (from search_companies): description, services, location, contact, languages, whether it accepts proposals. ' +
        'fields keeps only some of them (e.g. "name,services,contact").',
      input: zodFromTypeBox(CompanyIdParams).extend({ fields: fieldsArgument(PROFILE_FIELDS, 'the profile') }),
      needsKey: false,
      readOnly: true,
      output: OUTPUTS.profile,
      summary: profileSummary,
      run: async (args) => project(companies.toProfile(await companies.getById(String(args.company_id))), args.fields),
    },
    {
      name: 'get_company_by_website',
      title: 'Get company by website',
      description: 'Looks a company up by its website: a URL or bare domain (acme.com, https://www.acme.com/about). 404 when the directory does not list it.',
      input: zodFromTypeBox(WebsiteParams).extend({ fields: fieldsArgument(PROFILE_FIELDS, 'the profile') }),
      needsKey: false,
      readOnly: true,
      output: OUTPUTS.profile,
      summary: profileSummary,
      run: async (args) => project(companies.toProfile(await companies.getByWebsite(String(args.website_url))), args.fields),
    },
    {
      name: 'list_categories',
      title: 'List categories',
      description: 'The 25 directory categories (use one as the category filter of search_companies).',
      input: z.object({}),
      needsKey: false,
      readOnly: true,
      output: OUTPUTS.categories,
      summary: categoriesSummary,
      run: async () => asObject(companies.categories()),
    },
  ];
}

function askTool(ask: McpAskPort): ToolDef {
  return {
    name: 'ask',
    title: 'Ask the directory',
    description: 'Ask a natural-language question ("who can repair a leaking boiler in Berlin?"); returns an answer grounded in matching company profiles (found says whether any company meets the need). Pass context_company_ids from an earlier search to focus the answer.',
    input: zodFromTypeBox(ask.inputSchema),
    needsKey: false,
    readOnly: true,
    output: OUTPUTS.ask,
    summary: askSummary,
    run: async (args) => asObject(await ask.ask(args as { question: string; context_company_ids?: string[] })),
  };
}

function agentKeyTools(agents: McpAgentsPort): ToolDef[] {
  return [
    {
      name: 'register_agent',
      title: 'Register an agent',
      description:
        'Registers this agent (no key needed) and returns its API key, shown only once: store it, then reconnect to this server with the X-API-Key header ' +
        '(usage.mcp_config is the client configuration to use). One agent per owner email; a confirmation link is mailed to owner_email and a registration left unconfirmed for 24 hours expires. ' +
        'The same as POST /api/v1/agent/register.',
      input: zodFromTypeBox(RegisterBody),
      needsKey: false,
      readOnly: false,
      output: OUTPUTS.agentKey,
      summary: registrationSummary,
      run: async (args) => asObject(await agents.register(args as { name: string; owner_email: string })),
    },
    {
      name: 'get_me',
      title: 'Current agent',
      description: 'The agent the X-API-Key belongs to (id, name, owner email, whether it is active). Needs X-API-Key.',
      input: z.object({}),
      needsKey: true,
      readOnly: true,
      output: OUTPUTS.agentInfo,
      summary: agentSummary,
      run: async (_args, ctx) => asObject(await agents.me(ctx.agent!.agentId)),
    },
  ];
}

function proposalTools(proposals: McpProposalsPort, sender: ProposalSender): ToolDef[] {
  return [
    {
      name: 'create_proposal',
      title: 'Send a proposal',
      description:
        'Sends a proposal on behalf of an end customer to one verified company (accepts_proposals true). The company answers in its dashboard; poll get_proposal. ' +
        'Pass an idempotency_key to retry safely. Needs X-API-Key.',
      input: sender.input,
      needsKey: true,
      readOnly: false,
      output: OUTPUTS.proposal,
      summary: proposalSummary,
      run: async (args, ctx) => sender.run(undefined, args, ctx),
    },
    {
      name: 'create_batch_proposals',
      title: 'Send a proposal to several companies',
      description:
        'Sends the same proposal to up to 10 verified companies; each company id gets its own outcome (created or refused with a reason). Pass an idempotency_key to retry safely. Needs X-API-Key.',
      input: withIdempotencyKey(typedDetails(zodFromTypeBox(BatchProposalBody))),
      needsKey: true,
      readOnly: false,
      output: OUTPUTS.proposalBatch,
      summary: batchSummary,
      run: async (args, ctx) => once(ctx, proposals.createBatch(ctx.agent!.agentId, withoutKey(args) as unknown as Parameters<McpProposalsPort['createBatch']>[1], keyOf(args))),
    },
    {
      name: 'list_proposals',
      title: 'List my proposals',
      description: 'Proposals this agent sent, newest first, optionally filtered by status (pending, approved, rejected, responded). Needs X-API-Key.',
      input: zodFromTypeBox(AgentListQuery),
      needsKey: true,
      readOnly: true,
      output: OUTPUTS.proposalList,
      summary: proposalListSummary,
      run: async (args, ctx) =>
        asObject(await proposals.listForAgent(ctx.agent!.agentId, { status: args.status as ProposalStatus | undefined, limit: Number(args.limit ?? 50), offset: Number(args.offset ?? 0) })),
    },
    {
      name: 'get_proposal',
      title: 'Get a proposal',
      description: 'One proposal of this agent with its conversation thread (the request, company responses, agent replies). Needs X-API-Key.',
      input: zodFromTypeBox(ProposalIdParams),
      needsKey: true,
      readOnly: true,
      output: OUTPUTS.proposal,
      summary: proposalSummary,
      run: async (args, ctx) => asObject(await proposals.getForAgent(ctx.agent!.agentId, String(args.proposal_id))),
    },
    {
      name: 'reply_to_proposal',
      title: 'Reply to a proposal',
      description:
        'Adds the agent\'s reply to a proposal the company has answered; the status returns to pending so the company sees it. Pass an idempotency_key to retry safely (one reply). Needs X-API-Key.',
      input: withIdempotencyKey(zodFromTypeBoxes(ProposalIdParams, ReplyBody)),
      needsKey: true,
      readOnly: false,
      output: OUTPUTS.proposal,
      summary: proposalSummary,
      run: async (args, ctx) => once(ctx, proposals.reply(ctx.agent!.agentId, String(args.proposal_id), String(args.message), keyOf(args))),
    },
  ];
}

export function agentTools(deps: McpServiceDeps, sender: ProposalSender | undefined): ToolDef[] {
  const { agents, proposals, ask, webhooks, reviews } = deps;
  const tools = directoryTools(deps);
  if (ask) tools.push(askTool(ask));
  if (agents) tools.push(...agentKeyTools(agents));
  if (proposals && sender) tools.push(...proposalTools(proposals, sender));
  if (webhooks) tools.push(...webhookTools(webhooks));
  if (reviews) tools.push(...reviewTools(reviews));
  return tools;
}
