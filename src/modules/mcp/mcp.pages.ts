import type { CompanyProfile } from '../companies/companies.schemas.js';
import { escapeHtml } from '../../lib/html.js';
import { toPlainLine, toPlainText } from '../../lib/text.js';
import { ALL_VERSIONS, MODERN_VERSION } from './mcp.protocol.js';
import type { McpEndpoint } from './mcp.tools.js';

/** GET /mcp: how a person connects a client to the agent MCP server. */
export function landingPage(opts: { baseUrl: string; serviceName: string; endpoint: McpEndpoint; mcpConfig: object }): string {
  const { baseUrl, serviceName, endpoint } = opts;
  const config = JSON.stringify(opts.mcpConfig, null, 2);
  const rows = endpoint.tools
    .map((t) => `<tr><td><code>${escapeHtml(t.name)}</code></td><td>${t.needsKey ? 'API key' : 'none'}</td><td>${escapeHtml(t.description)}</td></tr>`)
    .join('\n');
  const register = `curl -X POST ${baseUrl}/api/v1/agent/register \\
  -H 'Content-Type: application/json' \\
  -d '{"name": "My agent", "owner_email": "you@example.com"}'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(serviceName)} MCP server</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1f}
pre{background:#f4f4f6;padding:1rem;overflow:auto;border-radius:6px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
</style>
</head>
<body>
<h1>${escapeHtml(serviceName)} MCP server</h1>
<p>${escapeHtml(endpoint.instructions)}</p>
<p>Endpoint: <code>${escapeHtml(baseUrl)}/mcp</code> (Streamable HTTP, POST only, stateless). Protocol revisions: ${ALL_VERSIONS.map((v) => `<code>${v}</code>`).join(', ')} (${MODERN_VERSION} without initialize).</p>
<h2>1. Get an API key</h2>
<p>Searching needs no key. Sending proposals does: register once (the <code>register_agent</code> tool, or the request below), and store the key (it is shown only once).</p>
<pre><code>${escapeHtml(register)}</code></pre>
<h2>2. Add the server to your MCP client</h2>
<p>Paste this into the client's configuration (the registration response's <code>usage.mcp_config</code> is the same, with your key filled in):</p>
<pre><code>${escapeHtml(config)}</code></pre>
<p>Or test it from a terminal: <code>npx @modelcontextprotocol/inspector --cli ${escapeHtml(baseUrl)}/mcp --transport http --method tools/list</code></p>
<h2>Tools</h2>
<table><thead><tr><th>Tool</th><th>Auth</th><th>What it does</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p>Each company also has its own MCP server at <code>${escapeHtml(baseUrl)}/mcp/company/{company_id}</code> with a skill file at <code>${escapeHtml(baseUrl)}/mcp/company/{company_id}/SKILL.md</code>.</p>
<p>Full agent documentation: <a href="${escapeHtml(baseUrl)}/${escapeHtml(serviceName)}.md">${escapeHtml(baseUrl)}/${escapeHtml(serviceName)}.md</a> · OpenAPI: <a href="${escapeHtml(baseUrl)}/openapi.json">${escapeHtml(baseUrl)}/openapi.json</a></p>
</body>
</html>
`;
}

/** Front matter values are quoted YAML strings: no line breaks, escaped quotes. */
const yamlString = (s: string) => JSON.stringify(s);

/**
 * GET /mcp/company/{id}/SKILL.md: an Agent Skills file for one company's MCP server
 * (name ≤ 64 lowercase slug, description ≤ 1024 characters, then how to use it).
 */
export function skillFile(opts: { baseUrl: string; serviceName: string; name: string; profile: CompanyProfile; endpoint: McpEndpoint }): string {
  const { baseUrl, serviceName, profile, endpoint } = opts;
  const url = `${baseUrl}/mcp/company/${profile.id}`;
  const loc = profile.location as { city: string; country: string };
  const where = [loc.city, loc.country].filter(Boolean).join(', ');
  const summary = toPlainText(profile.description).replace(/\s+/g, ' ').trim();
  let description =
    `Information about ${toPlainLine(profile.name)} (${profile.domain}), a ${profile.category} company${where ? ` in ${where}` : ''}` +
    `${summary ? `: ${summary}` : '.'} Use when a user asks about this company, its services or contact details` +
    `${profile.accepts_proposals ? ', or wants to send it a proposal' : ''}.`;
  if (description.length > 1024) description = `${description.slice(0, 1020).replace(/\s+\S*$/, '')}...`;
  const tools = endpoint.tools.map((t) => `- \`${t.name}\`${t.needsKey ? ' (needs X-API-Key)' : ''}: ${t.description}`).join('\n');
  const config = JSON.stringify({ mcpServers: { [opts.name]: { url, headers: { 'X-API-Key': '<YOUR_API_KEY>' } } } }, null, 2);
  const asking = endpoint.tools.some((t) => t.name === 'ask_about_company')
    ? `\nTo ask whether ${toPlainLine(profile.name)} does something, call \`ask_about_company\`: it answers from this company's own profile and website pages only, ` +
      'with `answer_status` yes (they state it), no (they state it does not) or not_stated (they do not say: ask the company), and its contact route ' +
      `(website, email and phone when listed${profile.accepts_proposals ? ', proposals through send_proposal or create_proposal' : ''}). ` +
      `It never names another company: to compare companies, search the directory at ${baseUrl}/mcp.\n`
    : '';
  return `---
name: ${opts.name}
description: ${yamlString(description)}
---

# ${toPlainLine(profile.name)}

${summary || `${toPlainLine(profile.name)} is listed in the ${serviceName} directory.`}

- Website: ${profile.website_url}
- Category: ${profile.category}${profile.industry ? ` (${profile.industry})` : ''}
- Location: ${where || 'not stated'}
- Accepts proposals: ${profile.accepts_proposals ? 'yes (verified company)' : 'no (not verified yet)'}

## How to use

Connect an MCP client to \`${url}\` (Streamable HTTP, POST, stateless; protocol revisions ${ALL_VERSIONS.join(', ')}):

\`\`\`json
${config}
\`\`\`

The X-API-Key header is needed only to send proposals; get a key with \`POST ${baseUrl}/api/v1/agent/register\` (or the register_agent tool of ${baseUrl}/mcp).
${asking}
## Tools

${tools}

The same data is available over REST: \`GET ${baseUrl}/api/v1/agent/companies/${profile.id}\`. Directory-wide search: ${baseUrl}/mcp and ${baseUrl}/${serviceName}.md.
`;
}
