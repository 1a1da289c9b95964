import { RATES_AS_OF } from '../../lib/price-range.js';
import { AGENT_PREFIX, type AgentEndpoint } from './discovery.openapi.js';
import type { DiscoverySite } from './discovery.manifests.js';

/** The discovery file (llms.txt style): how an agent uses the service, then every agent endpoint and the MCP servers. */
export interface DiscoveryFileInput {
  endpoints: AgentEndpoint[];
  tools: { name: string; needsKey: boolean }[];
  mcpConfig: object;
  rateLimit: { agentPerMinute: number; ipPerMinute: number };
}

/** One endpoint's entry: its summary, inputs and curl example. */
function endpointEntry(site: DiscoverySite, e: AgentEndpoint): string {
  const docsLink = `${site.base}/docs#/${encodeURIComponent('agent')}/${encodeURIComponent(e.operationId)}`;
  const lines = [`- [${e.method} ${e.path}](${docsLink}): ${e.summary}. Auth: ${e.needsKey ? 'X-API-Key' : 'none'}. Responses: ${e.statuses.join(', ')}.`];
  if (e.description) lines.push(`  ${e.description.replace(/\s*\n\s*/g, ' ')}`);
  for (const p of e.params) lines.push(`  - ${p.in} \`${p.name}\`${p.required ? ' (required)' : ''}: ${p.text}`);
  for (const b of e.body) lines.push(`  - body \`${b.name}\`${b.required ? ' (required)' : ''}: ${b.text}`);
  lines.push('', '  ```sh', ...e.curl.split('\n').map((l) => `  ${l}`), '  ```', '');
  return lines.join('\n');
}

export function discoveryMarkdown(site: DiscoverySite, input: DiscoveryFileInput): string {
  const { base, human, summary, contactEmail, version } = site;
  const { endpoints, tools } = input;
  const mcpConfig = JSON.stringify(input.mcpConfig, null, 2);
  const { rateLimit } = input;
  const endpointLines = endpoints.map((e) => endpointEntry(site, e));
  return `# ${human}

> ${summary}

- Service: ${base}
- Agent REST API base: ${base}${AGENT_PREFIX} (version ${version}, JSON, plain-text fields only)
- MCP server (Streamable HTTP): ${base}/mcp
- OpenAPI 3.1 document: ${base}/openapi.json (reference UI: ${base}/docs)

Authentication: searching, company lookups and categories need no credentials. Sending and following proposals needs an agent API key: register once with \`POST ${base}${AGENT_PREFIX}/register\` (body \`{"name": "...", "owner_email": "..."}\`, one agent per owner email, no disposable addresses). The key is shown once; send it as the \`X-API-Key\` header. \`POST ${AGENT_PREFIX}/rotate-key\` replaces it and invalidates the old one at once. A missing or invalid key is 401. Never put the key in logs, client-side code or public repositories.

Trust the verdicts, not the rank: every search result carries \`relevance\`. \`strong\` means the company does what was asked; \`partial\` means some evidence only, scoring close to the best result (check the profile before relying on it); \`weak\` results (little evidence, or far below the best) are left out unless you pass \`include_weak=true\`, and \`total_found\` counts what is returned. \`POST ${AGENT_PREFIX}/ask\` carries \`found\`: false means nothing in the directory meets the need (in the named place, when one was named), and its answer says so plainly; only strong results are ever called matches. An unknown \`category\` or \`country\` is a 422 naming the closest valid value. In MCP, \`fields\` projects companies to the fields you need, and \`idempotency_key\` makes a retried proposal or reply safe.

When a short request names something no profile mentions, search shows nothing and \`unmatched_words\` says which words (the closest profiles stay available with \`include_weak=true\`). Profiles carry \`opening_hours\` (in the company's own \`timezone\`), \`open_now\`, \`next_change_at\`, \`price_range\` (\`from\`, \`to\`, \`currency\`, \`unit\`) and \`service_prices\` (the same per named \`service\`, \`[]\` when none); search filters \`open_now=true\`, \`open_at=<RFC 3339>\`, and \`max_price\` with \`currency\` (converted by reference rates of ${RATES_AS_OF}).

Typical flow: search companies (\`GET ${AGENT_PREFIX}/companies?q=...\`), read a profile, then send a proposal to a company whose \`accepts_proposals\` is true (verified). The company answers in its dashboard; poll \`GET ${AGENT_PREFIX}/proposals/{proposal_id}\` for its status (pending, approved, rejected, responded) and the conversation thread, and reply with \`POST ${AGENT_PREFIX}/proposals/{proposal_id}/reply\` (the status returns to pending). Before proposing, read the profile's \`reachability\`: \`delivery\` is \`dashboard\` when an owner reads the inbox, \`email\` when the listing is unclaimed and the proposal will be announced to the company's public address as an invitation to claim the listing and answer (at most once every 30 days per company), \`none\` when nobody can read it yet. Every proposal says how it was delivered in \`delivery\` and \`delivery_note\`.

MCP: paste this into your MCP client's configuration (the registration response's \`usage.mcp_config\` is the same with your key). Revisions 2026-07-28 (stateless, \`server/discover\`) and 2025-11-25 and earlier (initialize) are served. Without a key, the key tools answer with a tool error explaining how to register.

\`\`\`json
${mcpConfig}
\`\`\`

Limits: search \`limit\` 1 to 20 (default 10), \`q\` at most 2000 characters; batch proposals at most 10 companies; list proposals \`limit\` 1 to 100 (default 50). Every bound is listed per endpoint below and in the OpenAPI document. Rate limits: about ${rateLimit.agentPerMinute} requests per minute per API key and ${rateLimit.ipPerMinute} per minute per IP without a key; a 429 carries Retry-After. Retry 429 and 5xx with exponential backoff and avoid bursts.

Errors: every error body is JSON. Most are \`{"detail": "readable message"}\` (400 bad request, 401 missing or invalid API key, 404 not found, 409 conflict such as an already registered email or an unverified company, 429 too many requests, 500 server error). Validation errors are 422 with a list, one entry per problem:

\`\`\`json
{"detail": [{"type": "less_than_equal", "loc": ["query", "limit"], "msg": "Input should be less than or equal to 20", "input": 50}]}
\`\`\`

Terms: the directory's data comes from companies' public websites and their owners; use it to help your customers find and contact companies, not for bulk scraping or unsolicited mass messages. Proposals must be sent on behalf of a real customer who asked for them. Contact: ${contactEmail}.

## Agent API

${endpointLines.join('\n')}
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
}
