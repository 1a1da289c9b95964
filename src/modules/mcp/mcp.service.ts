import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { agentFacingProfile } from '../../lib/untrusted-text.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../config.js';
import type { ApiKeyVerifier } from '../../platform/auth.js';
import { notFound } from '../../platform/errors.js';
import type { CompaniesService } from '../companies/companies.service.js';
import { CompanyIdParams, WebsiteParams } from '../companies/companies.schemas.js';
import type { CompanyProfile } from '../companies/companies.schemas.js';
import type { SearchService } from '../search/search.service.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { ProposalsService } from '../proposals/proposals.service.js';
import type { ProposalStatus } from '../proposals/proposal-status.js';
import { SearchQuerySchema } from '../search/search.schemas.js';
import {
  AgentListQuery,
  BatchProposalBody,
  CreateProposalBody,
  ProposalIdParams,
  ToolDetailsSchema,
  ReplyBody,
} from '../proposals/proposals.schemas.js';
import { RegisterBody } from '../agents/agents.schemas.js';
import { z } from 'zod';
import { companyTools, type McpCompanyAnswersPort } from './mcp.company-tools.js';
import { fieldsArgument, OUTPUTS, PROFILE_FIELDS, project, SUMMARY_FIELDS } from './mcp.outputs.js';
import { describeTool } from './mcp.protocol.js';
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
import { webhookTools, type McpWebhooksPort } from './mcp.webhook-tools.js';
import {
  REPLAYED,
  runTool,
  withIdempotencyKey,
  zodFromTypeBox,
  zodFromTypeBoxes,
  type McpEndpoint,
  type ToolCallContext,
  type ToolDef,
  type ToolRunnerDeps,
} from './mcp.tools.js';
import { isUuid } from '../../lib/ids.js';

/** What the key tools use of the agents and proposals services (the same calls as the REST routes). */
export type McpAgentsPort = Pick<AgentsService, 'me' | 'register'>;
export type McpProposalsPort = Pick<ProposalsService, 'create' | 'createBatch' | 'listForAgent' | 'getForAgent' | 'reply'>;
/** What the ask tools use of the ask service. */
export interface McpAskPort {
  /** TypeBox (JSON Schema) of the REST ask query, so the tool carries the same bounds. */
  inputSchema: unknown;
  ask(input: { question: string; context_company_ids?: string[] }): Promise<object>;
}

export interface McpServiceDeps {
  config: Config;
  version: string;
  search: SearchService;
  companies: CompaniesService;
  /** The verifier object of app.ts; its apiKey is read per call (the agents module sets it). */
  verifiers: { apiKey: ApiKeyVerifier };
  agents?: McpAgentsPort;
  proposals?: McpProposalsPort;
  ask?: McpAskPort;
  /** The chat widget's answerer: a company's own server answers questions about it from its profile and pages. */
  companyAnswers?: McpCompanyAnswersPort;
  webhooks?: McpWebhooksPort;
  log: ToolRunnerDeps['log'];
}

const asObject = (v: object) => v as Record<string, unknown>;

export function createMcpService(deps: McpServiceDeps) {
  const { config, search, companies, agents, proposals, ask, webhooks } = deps;
  const baseUrl = config.baseUrl;
  const service = config.serviceName;
  const runner: ToolRunnerDeps = { baseUrl, verifyKey: () => deps.verifiers.apiKey, log: deps.log };

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
  const createProposalInput = withIdempotencyKey(typedDetails(zodFromTypeBox(CreateProposalBody)));
  const createProposal = (companyId: string | undefined, args: Record<string, unknown>, ctx: ToolCallContext) => {
    const body = { ...withoutKey(args), ...(companyId ? { company_id: companyId } : {}) } as unknown as Parameters<McpProposalsPort['create']>[1];
    return once(ctx, proposals!.create(ctx.agent!.agentId, body, keyOf(args)));
  };

  function agentTools(): ToolDef[] {
    const tools: ToolDef[] = [
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
    if (ask) {
      tools.push({
        name: 'ask',
        title: 'Ask the directory',
        description: 'Ask a natural-language question ("who can repair a leaking boiler in Berlin?"); returns an answer grounded in matching company profiles (found says whether any company meets the need). Pass context_company_ids from an earlier search to focus the answer.',
        input: zodFromTypeBox(ask.inputSchema),
        needsKey: false,
        readOnly: true,
        output: OUTPUTS.ask,
        summary: askSummary,
        run: async (args) => asObject(await ask.ask(args as { question: string; context_company_ids?: string[] })),
      });
    }
    if (agents) {
      tools.push(
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
      );
    }
    if (proposals) {
      tools.push(
        {
          name: 'create_proposal',
          title: 'Send a proposal',
          description:
            'Sends a proposal on behalf of an end customer to one verified company (accepts_proposals true). The company answers in its dashboard; poll get_proposal. ' +
            'Pass an idempotency_key to retry safely. Needs X-API-Key.',
          input: createProposalInput,
          needsKey: true,
          readOnly: false,
          output: OUTPUTS.proposal,
          summary: proposalSummary,
          run: async (args, ctx) => createProposal(undefined, args, ctx),
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
      );
    }
    if (webhooks) tools.push(...webhookTools(webhooks));
    return tools;
  }

  const agentEndpoint: McpEndpoint = {
    name: service,
    title: `${service} business directory`,
    version: deps.version,
    instructions:
      `${service} is a business directory for AI agents. Find companies with search_companies (describe the customer's need in q), ` +
      `read one with get_company, and, with an agent API key in the X-API-Key header, send proposals to verified companies and follow their answers ` +
      `(create_proposal, list_proposals, get_proposal, reply_to_proposal), or have their answers pushed to you as signed webhooks (create_webhook). Register for a key with register_agent (or POST ${baseUrl}/api/v1/agent/register), then reconnect with it. Docs: ${baseUrl}/${service}.md`,
    tools: agentTools(),
  };

  /** A lowercase slug of at most 64 characters for a company (Agent Skills `name`). */
  function skillName(profile: CompanyProfile): string {
    const slug = profile.name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
    return (slug || profile.domain.replace(/[^a-z0-9]+/g, '-')).slice(0, 64).replace(/-+$/g, '') || 'company';
  }

  // Converted once: the company server is rebuilt per request, its schemas need not be.
  const sendProposal = proposals ? { input: createProposalInput.omit({ company_id: true }), run: createProposal } : undefined;
  const companyToolsDeps = { companies, answers: deps.companyAnswers, sendProposal, baseUrl, serviceName: service };

  return {
    runner,
    agentEndpoint: () => agentEndpoint,

    /** The MCP server of one company; unknown, malformed or deleted ids are 404. */
    async companyEndpoint(toolId: string): Promise<{ endpoint: McpEndpoint; profile: CompanyProfile }> {
      if (!isUuid(toolId)) throw notFound('Company');
      // Owner-written text becomes tool descriptions and SKILL.md, which agents read as guidance: filtered once here.
      const profile = agentFacingProfile(companies.toProfile(await companies.getById(toolId.toLowerCase())));
      const endpoint: McpEndpoint = {
        name: `${service}-${skillName(profile)}`.slice(0, 100),
        title: `${profile.name} on ${service}`,
        version: deps.version,
        instructions:
          `Tools about one company, ${profile.name} (${profile.website_url}), listed in the ${service} directory. ` +
          `ask_about_company answers questions about ${profile.name} from its own profile and website pages only (yes, no or not stated) and never names another company. ` +
          (profile.accepts_proposals ? 'It is verified and accepts proposals (send_proposal, with an agent API key).' : 'It is not verified yet, so it cannot receive proposals.'),
        tools: companyTools(profile, companyToolsDeps),
      };
      return { endpoint, profile };
    },

    skillName,

    /** The registration response's usage.mcp_config, with a placeholder key. */
    mcpConfig(apiKey = '<YOUR_API_KEY>') {
      return { mcpServers: { [service]: { url: `${baseUrl}/mcp`, headers: { 'X-API-Key': apiKey } } } };
    },

    /**
     * An SDK server (initialize-era protocol) for one request: stateless, so a fresh one per
     * POST. tools/list and tools/call are answered by the same code as the 2026-07-28 handler,
     * so both generations list identical schemas and check the key before the arguments.
     */
    legacyServer(endpoint: McpEndpoint, apiKey: string | undefined): Server {
      const server = new Server(
        { name: endpoint.name, title: endpoint.title, version: endpoint.version },
        { capabilities: { tools: {} }, instructions: endpoint.instructions },
      );
      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: endpoint.tools.map(describeTool) }));
      server.setRequestHandler(CallToolRequestSchema, async (request) => {
        const tool = endpoint.tools.find((t) => t.name === request.params.name);
        // Not McpError: its message repeats the code ("MCP error -32602: …") next to the code field.
        if (!tool) throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), { code: ErrorCode.InvalidParams });
        return runTool(tool, request.params.arguments ?? {}, apiKey, runner);
      });
      return server;
    },
  };
}

export type McpService = ReturnType<typeof createMcpService>;
