import type { Config } from '../../config.js';
import type { ApiKeyVerifier } from '../../platform/auth.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { CompaniesService } from '../companies/companies.service.js';
import type { ProposalsService } from '../proposals/proposals.service.js';
import type { SearchService } from '../search/search.service.js';
import type { McpCompanyAnswersPort } from './mcp.company-tools.js';
import type { ToolRunnerDeps } from './mcp.tools.js';
import type { McpReviewsPort } from './mcp.review-tools.js';
import type { McpWebhooksPort } from './mcp.webhook-tools.js';

/** What the MCP servers use of the other modules (ports: tests pass only what they exercise). */

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
  reviews?: McpReviewsPort;
  log: ToolRunnerDeps['log'];
}
