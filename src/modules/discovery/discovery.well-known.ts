import { mcpServerCard } from '../../lib/mcp-server-card.js';

/**
 * The /.well-known files for agents and scanners, built from the typed config and the running
 * code (the MCP tool registry, the OpenAPI document): the MCP Server Card, the A2A agent card,
 * the RFC 9727 API catalog and the RFC 9116 security.txt. Pure: no I/O, the clock passed in.
 */

export const API_KEY_HEADER = 'X-API-Key';
export const A2A_PROTOCOL_VERSION = '1.0';
/** RFC 9727 section 4.2: the profile URI of an API catalog linkset. */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
export const API_CATALOG_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;
export const OPENAPI_TYPE = 'application/vnd.oai.openapi+json;version=3.1';

export interface WellKnownSite {
  baseUrl: string;
  serviceName: string;
  /** Display name ("AgentPages"). */
  human: string;
  summary: string;
  version: string;
  /** Reverse-domain namespace of the service (ucpNamespace). */
  namespace: string;
  agentPrefix: string;
}

/** A tool of the agent MCP server: its registry entry and what tools/list answers for it. */
export interface ListedTool {
  name: string;
  needsKey: boolean;
  /** The tools/list descriptor (name, title, description, inputSchema, annotations). */
  listed: Record<string, unknown>;
}

const registerUrl = (s: WellKnownSite) => `${s.baseUrl}${s.agentPrefix}/register`;

export function ownMcpServerCard(site: WellKnownSite, server: { name: string; title: string; version: string }, tools: ListedTool[], protocolVersions: readonly string[]) {
  const keyTools = tools.filter((t) => t.needsKey).map((t) => t.name);
  const url = `${site.baseUrl}/mcp`;
  return mcpServerCard({
    name: `${site.namespace}/${site.serviceName}`,
    title: server.title,
    description: site.summary,
    version: server.version,
    serverName: server.name,
    url,
    documentation: `${site.baseUrl}/${site.serviceName}.md`,
    remote: {
      supportedProtocolVersions: [...protocolVersions],
      headers: [{
        name: API_KEY_HEADER,
        description: `Agent API key from POST ${registerUrl(site)}. Needed only by ${keyTools.join(', ')}; the other tools need no credentials.`,
        isRequired: false,
        isSecret: true,
      }],
      authentication: { required: false, schemes: ['apiKey'] },
    },
    extra: {
      websiteUrl: site.baseUrl,
      icons: [{ src: `${site.baseUrl}/.well-known/logo.svg`, mimeType: 'image/svg+xml', sizes: ['any'] }],
      capabilities: { tools: {} },
      tools: tools.map((t) => t.listed),
      _meta: { [`${site.namespace}/auth`]: { header: API_KEY_HEADER, register: registerUrl(site), required_by: keyTools } },
    },
  });
}

interface SkillDef {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  /** Which MCP tools carry the skill: every tool belongs to exactly one skill (tested). */
  owns: (t: ListedTool) => boolean;
}

const SKILLS: SkillDef[] = [
  {
    id: 'search-companies',
    name: 'Find companies',
    description: 'Searches the directory by meaning and keywords (filters: category, country, city, distance), reads plain-text company profiles and looks companies up by website.',
    tags: ['business directory', 'company search', 'suppliers', 'local services'],
    examples: ['Find a plumber in Berlin who can repair a leaking boiler this week.', 'Which company runs acme.com, and does it accept proposals?'],
    owns: (t) => !t.needsKey && t.name !== 'ask',
  },
  {
    id: 'ask-directory',
    name: 'Ask the directory',
    description: 'Answers a natural-language question with an answer grounded in matching company profiles.',
    tags: ['question answering', 'business directory'],
    examples: ['Who can translate legal documents from German to English in Munich?'],
    owns: (t) => t.name === 'ask',
  },
  {
    id: 'send-proposals',
    name: 'Send and follow proposals',
    description: 'Sends a customer\'s request to one or up to 10 verified companies, then follows their answers and replies. Needs an agent API key.',
    tags: ['proposals', 'quotes', 'lead generation'],
    examples: ['Ask three verified roofers in Hamburg for a quote to repair storm damage, on behalf of Jane Doe.', 'Has the company answered my proposal yet?'],
    owns: (t) => t.needsKey && !t.name.includes('webhook'),
  },
  {
    id: 'proposal-webhooks',
    name: 'Proposal webhooks',
    description: 'Pushes companies\' answers to the agent\'s own HTTPS endpoint as signed webhooks (Standard Webhooks). Needs an agent API key.',
    tags: ['webhooks', 'notifications'],
    examples: ['Notify https://agent.example.com/hooks when a company answers one of my proposals.'],
    owns: (t) => t.name.includes('webhook'),
  },
];

/** A2A AgentCard (protocol 1.0); skills listed only when the MCP server has their tools. */
export function agentCard(site: WellKnownSite, tools: ListedTool[]) {
  const base = site.baseUrl;
  const keyed = [{ schemes: { ApiKey: { list: [] as string[] } } }];
  const skills = SKILLS.flatMap((s) => {
    const own = tools.filter(s.owns);
    if (own.length === 0) return [];
    const needsKey = own.some((t) => t.needsKey);
    return [{
      id: s.id,
      name: s.name,
      description: `${s.description} MCP tools: ${own.map((t) => t.name).join(', ')}; the same operations over REST under ${base}${site.agentPrefix}.`,
      tags: s.tags,
      examples: s.examples,
      ...(needsKey ? { securityRequirements: keyed } : {}),
    }];
  });
  return {
    name: site.human,
    description: `${site.summary} It answers over MCP and REST, not over A2A task messages: the interfaces below name those protocols.`,
    // Custom bindings (URIs) for the two protocols the service really speaks: an A2A client that
    // supports neither finds no interface instead of sending A2A messages to an endpoint that has none.
    supportedInterfaces: [
      { url: `${base}/mcp`, protocolBinding: 'https://modelcontextprotocol.io/', protocolVersion: A2A_PROTOCOL_VERSION },
      { url: `${base}${site.agentPrefix}`, protocolBinding: 'https://spec.openapis.org/oas/v3.1.0', protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    provider: { organization: site.human, url: base },
    iconUrl: `${base}/.well-known/logo.svg`,
    version: site.version,
    documentationUrl: `${base}/${site.serviceName}.md`,
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    securitySchemes: {
      ApiKey: { apiKeySecurityScheme: { location: 'header', name: API_KEY_HEADER, description: `Agent API key from POST ${registerUrl(site)}; searching needs none.` } },
    },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json'],
    skills,
  };
}

/** RFC 9727 API catalog: one linkset entry for the API the OpenAPI document describes. */
export function apiCatalog(site: WellKnownSite, links: { apiBase: string; healthPath: string | undefined }) {
  const base = site.baseUrl;
  return {
    linkset: [{
      anchor: links.apiBase,
      'service-desc': [{ href: `${base}/openapi.json`, type: OPENAPI_TYPE }],
      'service-doc': [{ href: `${base}/docs`, type: 'text/html' }],
      ...(links.healthPath ? { status: [{ href: `${base}${links.healthPath}`, type: 'application/json' }] } : {}),
    }],
  };
}

/** The Link header of the catalog's answers (RFC 9727 section 2: HEAD answers with it). */
export function apiCatalogLink(baseUrl: string): string {
  return `<${baseUrl}/.well-known/api-catalog>; rel="api-catalog"; type="application/linkset+json"`;
}

/** RFC 9116 security.txt; Expires one year after `now`, whole seconds. */
export function securityTxt(site: WellKnownSite, contact: string, now: Date): string {
  const expires = new Date(now.getTime());
  expires.setUTCFullYear(expires.getUTCFullYear() + 1);
  return [
    `# Security contact of ${site.human} (${site.baseUrl})`,
    `Contact: ${contact}`,
    `Expires: ${expires.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    `Canonical: ${site.baseUrl}/.well-known/security.txt`,
    'Preferred-Languages: en',
    '',
  ].join('\n');
}
