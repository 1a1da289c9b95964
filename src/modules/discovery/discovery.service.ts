import { displayName } from '../../lib/display-name.js';
import type { Config } from '../../config.js';
import type { McpEndpoint } from '../mcp/mcp.tools.js';
import { discoveryMarkdown } from './discovery.llms-txt.js';
import { aiPlugin, logoSvg, ucpNamespace, ucpProfile, type DiscoverySite } from './discovery.manifests.js';
import { AGENT_PREFIX, agentEndpoints, pathOf, type OpenApiDoc } from './discovery.openapi.js';
import { agentCard, apiCatalog, ownMcpServerCard, securityTxt, type ListedTool, type WellKnownSite } from './discovery.well-known.js';

export { AGENT_PREFIX, agentEndpoints, type AgentEndpoint, type OpenApiDoc } from './discovery.openapi.js';
export { UCP_VERSION, ucpNamespace } from './discovery.manifests.js';

/**
 * Machine-readable descriptions of the service for agents: the llms.txt-style discovery file
 * (discovery.llms-txt.ts), the plugin manifest and the UCP business profile (discovery.manifests.ts)
 * and the /.well-known cards (discovery.well-known.ts). They are generated from the OpenAPI document
 * (discovery.openapi.ts) and the MCP tool registry, so they cannot drift from the API.
 */
export interface DiscoveryServiceDeps {
  config: Pick<Config, 'baseUrl' | 'serviceName' | 'adminEmail' | 'rateLimit'>;
  version: string;
  /** The OpenAPI document of the running app (app.swagger()). */
  openapi: () => OpenApiDoc;
  /** The agent MCP server (tools listed in the discovery file). */
  mcpEndpoint: () => McpEndpoint;
  mcpConfig: () => object;
  /** The agent MCP server's tools as tools/list describes them, with whether each needs the API key. */
  mcpTools: () => ListedTool[];
  /** MCP protocol revisions the /mcp endpoint answers. */
  mcpProtocolVersions: readonly string[];
}

function siteOf(deps: DiscoveryServiceDeps): DiscoverySite {
  const { baseUrl: base, serviceName: svc, adminEmail } = deps.config;
  const human = displayName(svc);
  const summary =
    `${human} is a business directory built for AI agents: search companies by meaning and keywords, read clean plain-text profiles, ` +
    'and send proposals to verified companies on behalf of your customers, over REST or MCP.';
  return { base, svc, human, summary, contactEmail: adminEmail ?? `support@${new URL(base).hostname}`, version: deps.version };
}

export function createDiscoveryService(deps: DiscoveryServiceDeps) {
  const { config } = deps;
  const site = siteOf(deps);
  const { base, svc } = site;
  const wellKnownSite: WellKnownSite = {
    baseUrl: base, serviceName: svc, human: site.human, summary: site.summary, version: deps.version, namespace: ucpNamespace(base, svc), agentPrefix: AGENT_PREFIX,
  };
  const securityContact = `mailto:${config.adminEmail ?? `security@${new URL(base).hostname}`}`;

  // Built on first use: the OpenAPI document and the tool registry are complete once the app is ready.
  let cachedMarkdown: string | undefined;
  let cards: { mcp: object; agent: object; catalog: object } | undefined;

  function markdown(): string {
    cachedMarkdown ??= discoveryMarkdown(site, { endpoints: agentEndpoints(deps.openapi(), base), tools: deps.mcpEndpoint().tools, mcpConfig: deps.mcpConfig(), rateLimit: config.rateLimit });
    return cachedMarkdown;
  }

  function wellKnown() {
    if (cards) return cards;
    const doc = deps.openapi();
    const tools = deps.mcpTools();
    const server = deps.mcpEndpoint();
    cards = {
      mcp: ownMcpServerCard(wellKnownSite, server, tools, deps.mcpProtocolVersions),
      agent: agentCard(wellKnownSite, tools),
      catalog: apiCatalog(wellKnownSite, { apiBase: doc.servers?.[0]?.url ?? base, healthPath: pathOf(doc, 'health.live') }),
    };
    return cards;
  }

  return {
    markdown,
    aiPlugin: () => aiPlugin(site),
    ucpProfile: () => ucpProfile(site),
    logoSvg: () => logoSvg(site),
    mcpServerCard: () => wellKnown().mcp,
    agentCard: () => wellKnown().agent,
    apiCatalog: () => wellKnown().catalog,
    securityTxt: (now = new Date()) => securityTxt(wellKnownSite, securityContact, now),
    endpoints: () => agentEndpoints(deps.openapi(), base),
  };
}

export type DiscoveryService = ReturnType<typeof createDiscoveryService>;
