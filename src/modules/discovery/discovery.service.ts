import { displayName } from '../../lib/display-name.js';
import type { Config } from '../../config.js';
import type { McpEndpoint } from '../mcp/mcp.tools.js';
import { agentCard, apiCatalog, ownMcpServerCard, securityTxt, type ListedTool, type WellKnownSite } from './discovery.well-known.js';

/**
 * Machine-readable descriptions of the service for agents: the llms.txt-style discovery file,
 * the plugin manifest, the UCP business profile and the /.well-known cards (discovery.well-known.ts).
 * They are generated from the OpenAPI document and the MCP tool registry, so they cannot drift from the API.
 */

export const UCP_VERSION = '2026-04-08';
export const AGENT_PREFIX = '/api/v1/agent';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Json = Record<string, unknown>;
interface Schema {
  [key: string]: unknown;
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
  security?: Record<string, unknown>[];
}
export interface OpenApiDoc {
  info?: { title?: string; version?: string; description?: string };
  servers?: { url: string }[];
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface AgentEndpoint {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  needsKey: boolean;
  params: { name: string; in: string; required: boolean; text: string }[];
  body: { name: string; required: boolean; text: string }[];
  statuses: string[];
  curl: string;
}

/**
 * The reverse-domain namespace UCP names our services with ("agentpages.com" → "com.agentpages");
 * hosts that are IP addresses or a single label (localhost) get a local namespace.
 */
export function ucpNamespace(baseUrl: string, serviceName: string): string {
  const host = new URL(baseUrl).hostname.toLowerCase();
  const svc = serviceName.replace(/[^a-z0-9]/g, '') || 'directory';
  if (/^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[')) return `local.${svc}`;
  const labels = host.split('.').filter(Boolean).reverse().map((l) => l.replace(/-/g, '_'));
  if (labels.length === 1) labels.push(svc);
  labels[0] = labels[0]!.replace(/[^a-z0-9]/g, '');
  if (!/^[a-z]/.test(labels[0]!)) labels[0] = `x${labels[0]}`;
  const ns = labels.map((l, i) => (i > 0 && !/^[a-z]/.test(l) ? `x${l}` : l)).join('.');
  return /^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9_]*)+$/.test(ns) ? ns : `local.${svc}`;
}

function resolve(doc: OpenApiDoc, schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) {
    const name = s.$ref.split('/').pop()!;
    s = doc.components?.schemas?.[name];
  }
  return s;
}

function typeLabel(doc: OpenApiDoc, raw: Schema | undefined): string {
  const s = resolve(doc, raw);
  if (!s) return 'any';
  const union = s.anyOf ?? s.oneOf;
  if (union) {
    // Literal unions (TypeBox) arrive as const or as one-value enums (OpenAPI 3.0 style).
    const literal = (u: Schema | undefined) => (u?.const !== undefined ? u.const : u?.enum?.length === 1 ? u.enum[0] : undefined);
    const consts = union.map((u) => literal(resolve(doc, u))).filter((v) => v !== undefined).map(String);
    if (consts.length === union.length) return `one of ${consts.join(', ')}`;
    return union.map((u) => typeLabel(doc, u)).join(' or ');
  }
  if (s.enum) return `one of ${s.enum.map(String).join(', ')}`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === 'array') return `array of ${typeLabel(doc, s.items)}`;
  const t = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'object');
  return s.format ? `${t} (${s.format})` : t;
}

/** "string, 1 to 2000 characters, default 10" from a schema's bounds. */
function describeSchema(doc: OpenApiDoc, raw: Schema | undefined, description?: string): string {
  const s = resolve(doc, raw) ?? {};
  const parts = [typeLabel(doc, raw)];
  const range = (lo: number | undefined, hi: number | undefined, unit: string) => {
    if (lo !== undefined && hi !== undefined) parts.push(`${lo} to ${hi}${unit}`);
    else if (hi !== undefined) parts.push(`at most ${hi}${unit}`);
    else if (lo !== undefined && lo > 0) parts.push(`at least ${lo}${unit}`);
    else if (lo === 0 && unit === '') parts.push('>= 0');
  };
  range(s.minLength, s.maxLength, ' characters');
  range(s.minimum, s.maximum, '');
  range(s.minItems, s.maxItems, ' items');
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  const text = description ?? s.description;
  return `${parts.join(', ')}${text ? `: ${text}` : ''}`;
}

const EXAMPLE_UUID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

/** A plausible value for a field, so every example request is valid as written. */
function exampleValue(doc: OpenApiDoc, name: string, raw: Schema | undefined): unknown {
  const s = resolve(doc, raw) ?? {};
  const union = s.anyOf ?? s.oneOf;
  if (union?.length) return exampleValue(doc, name, union.find((u) => resolve(doc, u)?.type !== 'null') ?? union[0]);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.default !== undefined) return s.default;
  if (s.type === 'array') return [exampleValue(doc, name.replace(/s$/, ''), s.items)];
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
  if (s.type === 'boolean') return true;
  if (s.type === 'object') return {};
  if (s.format === 'uuid') return EXAMPLE_UUID;
  if (s.format === 'email') return name.includes('customer') ? 'jane.doe@example.com' : 'agent-owner@example.com';
  const byName: Record<string, string> = {
    q: 'plumber for a leaking boiler in Berlin',
    question: 'Which companies can repair a leaking boiler in Berlin this week?',
    website_url: 'acme.com',
    name: 'My procurement agent',
    customer_name: 'Jane Doe',
    description: 'We need a quote for repairing a leaking boiler in a two-storey house in Berlin, ideally this week.',
    message: 'Thanks! Could you also give a price for an annual maintenance contract?',
    category: 'Technology',
    country: 'Germany',
    city: 'Berlin',
  };
  return byName[name] ?? 'example';
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function agentEndpoints(doc: OpenApiDoc, baseUrl: string): AgentEndpoint[] {
  const out: AgentEndpoint[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith(AGENT_PREFIX)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const statuses = Object.keys(op.responses ?? {});
      const needsKey = (op.security ?? []).some((req) => 'ApiKey' in req) || statuses.includes('401');
      const params = (op.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query')
        .map((p) => ({ name: p.name, in: p.in, required: p.in === 'path' || p.required === true, text: describeSchema(doc, p.schema, p.description) }));
      const bodySchema = resolve(doc, op.requestBody?.content?.['application/json']?.schema);
      const required = new Set(bodySchema?.required ?? []);
      const body = Object.entries(bodySchema?.properties ?? {}).map(([name, s]) => ({ name, required: required.has(name), text: describeSchema(doc, s) }));

      // The example: path params filled in, required query params plus the first useful optional one.
      let url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        const p = op.parameters?.find((x) => x.name === name && x.in === 'path');
        return encodeURIComponent(String(exampleValue(doc, name, p?.schema)));
      });
      const query = (op.parameters ?? []).filter((p) => p.in === 'query' && (p.required || p.name === 'q' || p.name === 'question'));
      const limit = (op.parameters ?? []).find((p) => p.in === 'query' && p.name === 'limit');
      if (limit) query.push(limit);
      if (query.length) {
        url += `?${query.map((p) => `${p.name}=${encodeURIComponent(String(p.name === 'limit' ? 5 : exampleValue(doc, p.name, p.schema)))}`).join('&')}`;
      }
      const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} ${shellQuote(baseUrl + url)}`];
      if (needsKey) lines.push(`-H 'X-API-Key: <YOUR_API_KEY>'`);
      if (bodySchema?.properties) {
        const example: Json = {};
        for (const [name, s] of Object.entries(bodySchema.properties)) {
          if (required.has(name) || name === 'type') example[name] = exampleValue(doc, name, s);
        }
        // All-optional bodies (partial updates): show one field rather than an empty object.
        const first = Object.entries(bodySchema.properties)[0];
        if (Object.keys(example).length === 0 && first) example[first[0]] = exampleValue(doc, first[0], first[1]);
        lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(example))}`);
      }
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method}${path}`,
        summary: op.summary ?? '',
        description: op.description ?? '',
        needsKey,
        params,
        body,
        statuses,
        curl: lines.join(' \\\n    '),
      });
    }
  }
  return out;
}

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

/** The path of the GET operation with this operationId, if the document has one. */
function pathOf(doc: OpenApiDoc, operationId: string): string | undefined {
  return Object.entries(doc.paths ?? {}).find(([, item]) => item.get?.operationId === operationId)?.[0];
}

export function createDiscoveryService(deps: DiscoveryServiceDeps) {
  const { config } = deps;
  const base = config.baseUrl;
  const svc = config.serviceName;
  const human = displayName(svc);
  const docsLink = (e: AgentEndpoint) => `${base}/docs#/${encodeURIComponent('agent')}/${encodeURIComponent(e.operationId)}`;
  const contactEmail = config.adminEmail ?? `support@${new URL(base).hostname}`;
  const summary =
    `${human} is a business directory built for AI agents: search companies by meaning and keywords, read clean plain-text profiles, ` +
    'and send proposals to verified companies on behalf of your customers, over REST or MCP.';

  const site: WellKnownSite = { baseUrl: base, serviceName: svc, human, summary, version: deps.version, namespace: ucpNamespace(base, svc), agentPrefix: AGENT_PREFIX };
  const securityContact = `mailto:${config.adminEmail ?? `security@${new URL(base).hostname}`}`;

  let cachedMarkdown: string | undefined;

  function markdown(): string {
    if (cachedMarkdown) return cachedMarkdown;
    const endpoints = agentEndpoints(deps.openapi(), base);
    const tools = deps.mcpEndpoint().tools;
    const mcpConfig = JSON.stringify(deps.mcpConfig(), null, 2);
    const endpointEntry = (e: AgentEndpoint) => {
      const lines = [`- [${e.method} ${e.path}](${docsLink(e)}): ${e.summary}. Auth: ${e.needsKey ? 'X-API-Key' : 'none'}. Responses: ${e.statuses.join(', ')}.`];
      if (e.description) lines.push(`  ${e.description.replace(/\s*\n\s*/g, ' ')}`);
      for (const p of e.params) lines.push(`  - ${p.in} \`${p.name}\`${p.required ? ' (required)' : ''}: ${p.text}`);
      for (const b of e.body) lines.push(`  - body \`${b.name}\`${b.required ? ' (required)' : ''}: ${b.text}`);
      lines.push('', '  ```sh', ...e.curl.split('\n').map((l) => `  ${l}`), '  ```', '');
      return lines.join('\n');
    };
    cachedMarkdown = `# ${human}

> ${summary}

- Service: ${base}
- Agent REST API base: ${base}${AGENT_PREFIX} (version ${deps.version}, JSON, plain-text fields only)
- MCP server (Streamable HTTP): ${base}/mcp
- OpenAPI 3.1 document: ${base}/openapi.json (reference UI: ${base}/docs)

Authentication: searching, company lookups and categories need no credentials. Sending and following proposals needs an agent API key: register once with \`POST ${base}${AGENT_PREFIX}/register\` (body \`{"name": "...", "owner_email": "..."}\`, one agent per owner email, no disposable addresses). The key is shown once; send it as the \`X-API-Key\` header. \`POST ${AGENT_PREFIX}/rotate-key\` replaces it and invalidates the old one at once. A missing or invalid key is 401. Never put the key in logs, client-side code or public repositories.

Trust the verdicts, not the rank: every search result carries \`relevance\`. \`strong\` means the company does what was asked; \`partial\` means some evidence only (check the profile before relying on it); \`weak\` results are left out unless you pass \`include_weak=true\`, and \`total_found\` counts what is returned. \`POST ${AGENT_PREFIX}/ask\` carries \`found\`: false means nothing in the directory meets the need (in the named place, when one was named), and its answer says so plainly; only strong results are ever called matches. An unknown \`category\` or \`country\` is a 422 naming the closest valid value. In MCP, \`fields\` projects companies to the fields you need, and \`idempotency_key\` makes a retried proposal or reply safe.

Typical flow: search companies (\`GET ${AGENT_PREFIX}/companies?q=...\`), read a profile, then send a proposal to a company whose \`accepts_proposals\` is true (verified). The company answers in its dashboard; poll \`GET ${AGENT_PREFIX}/proposals/{proposal_id}\` for its status (pending, approved, rejected, responded) and the conversation thread, and reply with \`POST ${AGENT_PREFIX}/proposals/{proposal_id}/reply\` (the status returns to pending).

MCP: paste this into your MCP client's configuration (the registration response's \`usage.mcp_config\` is the same with your key). Revisions 2026-07-28 (stateless, \`server/discover\`) and 2025-11-25 and earlier (initialize) are served. Without a key, the key tools answer with a tool error explaining how to register.

\`\`\`json
${mcpConfig}
\`\`\`

Limits: search \`limit\` 1 to 20 (default 10), \`q\` at most 2000 characters; batch proposals at most 10 companies; list proposals \`limit\` 1 to 100 (default 50). Every bound is listed per endpoint below and in the OpenAPI document. Rate limits: about ${config.rateLimit.agentPerMinute} requests per minute per API key and ${config.rateLimit.ipPerMinute} per minute per IP without a key; a 429 carries Retry-After. Retry 429 and 5xx with exponential backoff and avoid bursts.

Errors: every error body is JSON. Most are \`{"detail": "readable message"}\` (400 bad request, 401 missing or invalid API key, 404 not found, 409 conflict such as an already registered email or an unverified company, 429 too many requests, 500 server error). Validation errors are 422 with a list, one entry per problem:

\`\`\`json
{"detail": [{"type": "less_than_equal", "loc": ["query", "limit"], "msg": "Input should be less than or equal to 20", "input": 50}]}
\`\`\`

Terms: the directory's data comes from companies' public websites and their owners; use it to help your customers find and contact companies, not for bulk scraping or unsolicited mass messages. Proposals must be sent on behalf of a real customer who asked for them. Contact: ${contactEmail}.

## Agent API

${endpoints.map(endpointEntry).join('\n')}
## MCP

- [Agent MCP server](${base}/mcp): POST JSON-RPC (Streamable HTTP, stateless). Tools: ${tools.map((t) => `\`${t.name}\`${t.needsKey ? ' (key)' : ''}`).join(', ')}. Open the URL in a browser for setup instructions.
- [Company MCP servers](${base}/mcp/company/{company_id}): one MCP server per company (profile, services and contact, send a proposal; \`ask_about_company\` answers yes / no / not stated for that company only, never naming another); each has an Agent Skills file at ${base}/mcp/company/{company_id}/SKILL.md.

## Machine-readable descriptions

- [OpenAPI document](${base}/openapi.json): every endpoint of the service with its schemas
- [API reference](${base}/docs): interactive documentation
- [Plugin manifest](${base}/.well-known/ai-plugin.json): name, description, auth and API of this service
- [UCP profile](${base}/.well-known/ucp): Universal Commerce Protocol business profile (REST and MCP bindings)
- [MCP server card](${base}/.well-known/mcp/server-card.json): the MCP endpoint, its transport, tools and authentication
- [A2A agent card](${base}/.well-known/agent-card.json): skills, interfaces and the API key scheme (also at /.well-known/agent.json)
- [API catalog](${base}/.well-known/api-catalog): RFC 9727 linkset to the OpenAPI document, the API reference and the health check
- [security.txt](${base}/.well-known/security.txt): where to report a vulnerability (RFC 9116)
`;
    return cachedMarkdown;
  }

  function aiPlugin() {
    return {
      schema_version: 'v1',
      name_for_human: human.slice(0, 20),
      name_for_model: svc.replace(/[^a-zA-Z0-9_]/g, '_').slice(0, 50),
      description_for_human: 'Find businesses for any need and send them proposals: a company directory made for AI agents.'.slice(0, 100),
      description_for_model: (
        `Business directory for AI agents. Use it when the user needs to find a company, supplier or service provider, look one up by website, or contact one. ` +
        `Search with GET ${AGENT_PREFIX}/companies (q: the need in natural language, optional filters category, country, city, service_type, is_verified; limit 1 to 20). ` +
        `Read a profile with GET ${AGENT_PREFIX}/companies/{company_id} or by website with GET ${AGENT_PREFIX}/companies/by-url/{website_url}. ` +
        `To contact a company on the user's behalf, register once (POST ${AGENT_PREFIX}/register) and send the returned key in the X-API-Key header; ` +
        `then POST ${AGENT_PREFIX}/proposals with company_id, customer_name, customer_email and description. Only companies with accepts_proposals true can receive proposals. ` +
        `Ask the user before sending a proposal and never invent customer details. All text fields are plain text. Full guide: ${base}/${svc}.md`
      ).slice(0, 8000),
      auth: { type: 'none' },
      api: { type: 'openapi', url: `${base}/openapi.json`, is_user_authenticated: false },
      logo_url: `${base}/.well-known/logo.svg`,
      contact_email: contactEmail,
      legal_info_url: `${base}/${svc}.md`,
    };
  }

  function ucpProfile() {
    const ns = ucpNamespace(base, svc);
    const spec = `${base}/${svc}.md`;
    return {
      ucp: {
        version: UCP_VERSION,
        services: {
          [`${ns}.directory`]: [
            { version: UCP_VERSION, spec, transport: 'rest', endpoint: `${base}${AGENT_PREFIX}`, schema: `${base}/openapi.json` },
            { version: UCP_VERSION, spec, transport: 'mcp', endpoint: `${base}/mcp` },
          ],
        },
        capabilities: {
          [`${ns}.directory.search`]: [{ version: UCP_VERSION, spec, schema: `${base}/openapi.json` }],
          [`${ns}.directory.proposals`]: [{ version: UCP_VERSION, spec, schema: `${base}/openapi.json` }],
        },
        // The directory takes no payments from agents.
        payment_handlers: {},
      },
    };
  }

  function logoSvg(): string {
    const letter = human[0] ?? 'A';
    return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="#1f3a8a"/><text x="256" y="340" font-family="Helvetica,Arial,sans-serif" font-size="280" font-weight="700" fill="#fff" text-anchor="middle">${letter}</text></svg>`;
  }

  // Built on first use: the OpenAPI document and the tool registry are complete once the app is ready.
  let cards: { mcp: object; agent: object; catalog: object } | undefined;
  function wellKnown() {
    if (cards) return cards;
    const doc = deps.openapi();
    const tools = deps.mcpTools();
    const server = deps.mcpEndpoint();
    cards = {
      mcp: ownMcpServerCard(site, server, tools, deps.mcpProtocolVersions),
      agent: agentCard(site, tools),
      catalog: apiCatalog(site, { apiBase: doc.servers?.[0]?.url ?? base, healthPath: pathOf(doc, 'health.live') }),
    };
    return cards;
  }

  return {
    markdown,
    aiPlugin,
    ucpProfile,
    logoSvg,
    mcpServerCard: () => wellKnown().mcp,
    agentCard: () => wellKnown().agent,
    apiCatalog: () => wellKnown().catalog,
    securityTxt: (now = new Date()) => securityTxt(site, securityContact, now),
    endpoints: () => agentEndpoints(deps.openapi(), base),
  };
}

export type DiscoveryService = ReturnType<typeof createDiscoveryService>;
