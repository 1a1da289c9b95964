import { evidenceOf, getJson, str, type ScanContext } from './scans.context.js';
import type { CheckDef, CheckOutcome } from './scans.types.js';

/**
 * Agent interfaces: APIs, MCP, A2A, commerce (X01–X07). A surface the listing does not claim and
 * the site does not have is `na` (a bakery is never failed for missing an MCP server); a surface
 * the site does publish is always judged.
 */
const missing = (applies: boolean, what: string, fix: CheckOutcome['fix']): CheckOutcome =>
  applies ? { status: 'fail', message: `Your listing says you offer ${what}, but the site publishes no description of it.`, fix } : { status: 'na', message: `No ${what} found, and the listing does not mention one.` };

async function openapiOf(ctx: ScanContext) {
  if (!ctx.memo.has('openapi')) {
    ctx.memo.set('openapi', (async () => {
      const link = /<([^>]+)>\s*;[^,]*rel="?service-desc"?/i.exec(ctx.home.headers.link ?? '')?.[1];
      const candidates = [...(link ? [new URL(link, ctx.origin).href] : []), '/.well-known/openapi.json', '/openapi.json'];
      for (const c of candidates) {
        if (/^https?:/.test(c) && !ctx.ownSite(c)) continue;
        const r = await getJson(ctx, c);
        if (r.present) return r;
      }
      return undefined;
    })());
  }
  return ctx.memo.get('openapi') as Promise<Awaited<ReturnType<typeof getJson>> | undefined>;
}

export async function mcpCardOf(ctx: ScanContext) {
  const a = await getJson(ctx, '/.well-known/mcp/server-card.json');
  return a.present ? a : getJson(ctx, '/.well-known/mcp.json');
}

const A2A_REQUIRED = ['name', 'description', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills'];

export const interfaceChecks: CheckDef<ScanContext>[] = [
  {
    id: 'X01', key: 'openapi', group: 'interfaces', title: 'OpenAPI description of the API', severity: 'high', spec_url: 'https://spec.openapis.org/oas/latest.html',
    run: async (ctx) => {
      const r = await openapiOf(ctx);
      if (!r) return missing(ctx.applies.has_api, 'an API', { summary: 'Publish your OpenAPI 3 description at /.well-known/openapi.json and link it with rel="service-desc".', bundle_file: 'headers.md' });
      const j = r.json;
      const paths = j?.paths && typeof j.paths === 'object' ? Object.keys(j.paths).length : 0;
      const evidence = [evidenceOf(r.probe)];
      if (!j || !/^3\./.test(str(j.openapi))) return { status: 'fail', evidence, message: `${new URL(r.probe.final_url).pathname} is not an OpenAPI 3 document.`, fix: { summary: 'Publish a valid OpenAPI 3.x document.' } };
      if (!paths) return { status: 'warn', evidence, message: 'The OpenAPI document describes no paths.', fix: { summary: 'Describe your operations under paths.' } };
      return { status: 'pass', evidence, facts: { url: r.probe.final_url, paths }, message: `OpenAPI ${str(j.openapi)} with ${paths} path(s) at ${new URL(r.probe.final_url).pathname}.` };
    },
  },
  {
    id: 'X02', key: 'api_catalog', group: 'interfaces', title: 'API catalog (RFC 9727)', severity: 'low', spec_url: 'https://www.rfc-editor.org/rfc/rfc9727',
    run: async (ctx) => {
      const r = await getJson(ctx, '/.well-known/api-catalog');
      if (!r.present) return (await openapiOf(ctx)) || ctx.applies.has_api ? { status: 'warn', message: 'No /.well-known/api-catalog pointing agents to your API description.', fix: { summary: 'Publish an RFC 9727 api-catalog linkset.', bundle_file: 'api-catalog.json' } } : { status: 'na', message: 'No API, so no API catalog is expected.' };
      const ok = Array.isArray(r.json?.linkset);
      return ok ? { status: 'pass', message: `api-catalog lists ${(r.json!.linkset as unknown[]).length} entr(ies).`, evidence: [evidenceOf(r.probe)] } : { status: 'fail', message: 'api-catalog is not a linkset (no "linkset" array).', evidence: [evidenceOf(r.probe)], fix: { summary: 'Serve application/linkset+json with a "linkset" array.', bundle_file: 'api-catalog.json' } };
    },
  },
  {
    id: 'X03', key: 'mcp.card', group: 'interfaces', title: 'MCP server card', severity: 'medium', spec_url: 'https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127',
    run: async (ctx) => {
      const r = await mcpCardOf(ctx);
      if (!r.present) return missing(ctx.applies.has_mcp, 'an MCP server', { summary: 'Publish an MCP server card at /.well-known/mcp/server-card.json.', bundle_file: 'mcp-server-card.json' });
      const j = r.json ?? {};
      const remotes = Array.isArray(j.remotes) ? (j.remotes as Record<string, unknown>[]) : [];
      const endpoint = str(remotes[0]?.url) || str(j.url) || str(j.endpoint) || str((j.transport as Record<string, unknown> | undefined)?.url);
      const evidence = [evidenceOf(r.probe)];
      const name = str(j.name) || str((j.serverInfo as Record<string, unknown> | undefined)?.name);
      if (!name || !endpoint) return { status: 'fail', evidence, message: `The MCP card lacks ${[!name && 'a name', !endpoint && 'a remote endpoint URL'].filter(Boolean).join(' and ')}.`, fix: { summary: 'Give the card a name and remotes[{type, url}].', bundle_file: 'mcp-server-card.json' } };
      return { status: 'pass', evidence, facts: { endpoint }, message: `MCP server "${name}" at ${endpoint}.` };
    },
  },
  {
    id: 'X04', key: 'a2a.card', group: 'interfaces', title: 'A2A agent card', severity: 'medium', spec_url: 'https://a2a-protocol.org/latest/specification/',
    run: async (ctx) => {
      let r = await getJson(ctx, '/.well-known/agent-card.json');
      if (!r.present) r = await getJson(ctx, '/.well-known/agent.json');
      if (!r.present) return missing(ctx.applies.has_agent, 'an AI agent', { summary: 'Publish an A2A agent card at /.well-known/agent-card.json.', bundle_file: 'agent-card.json' });
      const j = r.json ?? {};
      const evidence = [evidenceOf(r.probe)];
      const lacks = A2A_REQUIRED.filter((k) => j[k] === undefined);
      const ifaces = Array.isArray(j.supportedInterfaces) ? (j.supportedInterfaces as Record<string, unknown>[]) : [];
      const ifaceOk = ifaces.length > 0 && ifaces.every((i) => str(i.url) && str(i.protocolBinding) && str(i.protocolVersion));
      const skillsOk = Array.isArray(j.skills) && (j.skills as Record<string, unknown>[]).every((s) => str(s.id) && str(s.name) && str(s.description) && Array.isArray(s.tags));
      const endpoint = str(ifaces[0]?.url) || str(j.url);
      // Kept small: the files generator upgrades a legacy card from it.
      const facts = { legacy_url: str(j.url) || null, name: str(j.name), endpoint: endpoint || null, card: r.probe.bytes <= 16_384 ? j : { name: j.name } };
      if (!str(j.name) || !skillsOk) return { status: 'fail', evidence, facts, message: `The agent card is incomplete: ${[...lacks, !skillsOk && 'skills[id, name, description, tags]'].filter(Boolean).join(', ')}.`, fix: { summary: 'Complete the A2A v1.0 agent card.', bundle_file: 'agent-card.json' } };
      if (!ifaceOk || lacks.length) return { status: 'warn', evidence, facts, message: `The agent card uses the older shape${str(j.url) ? ' (top-level url)' : ''}: missing ${[...lacks, !ifaceOk && 'supportedInterfaces[url, protocolBinding, protocolVersion]'].filter(Boolean).join(', ')}.`, fix: { summary: 'Move to the A2A v1.0 card (supportedInterfaces).', bundle_file: 'agent-card.json' } };
      return { status: 'pass', evidence, facts, message: `A2A agent "${str(j.name)}" with ${(j.skills as unknown[]).length} skill(s).` };
    },
  },
  {
    id: 'X05', key: 'oauth.discovery', group: 'interfaces', title: 'Auth metadata for protected APIs', severity: 'low', spec_url: 'https://www.rfc-editor.org/rfc/rfc9728',
    run: async (ctx) => {
      const api = await openapiOf(ctx);
      const secured = Boolean(api?.json && ((api.json.components as Record<string, unknown> | undefined)?.securitySchemes || api.json.security));
      if (!secured) return { status: 'na', message: 'No API that declares authentication.' };
      const prm = await getJson(ctx, '/.well-known/oauth-protected-resource');
      const as = prm.present ? prm : await getJson(ctx, '/.well-known/oauth-authorization-server');
      return as.present ? { status: 'pass', message: `Auth metadata at ${new URL(as.probe.final_url).pathname}.`, evidence: [evidenceOf(as.probe)] } : { status: 'warn', message: 'The API declares authentication but publishes no OAuth metadata (RFC 9728/8414); agents cannot find how to sign in.', fix: { summary: 'Publish /.well-known/oauth-protected-resource.' } };
    },
  },
  {
    id: 'X06', key: 'ucp.profile', group: 'interfaces', title: 'Commerce profile (UCP)', severity: 'info', spec_url: 'https://ucp.dev/',
    run: async (ctx) => {
      const r = await getJson(ctx, '/.well-known/ucp');
      if (!r.present) return ctx.applies.sells_online ? { status: 'warn', message: 'No /.well-known/ucp commerce profile (emerging standard; not scored).' } : { status: 'na', message: 'No online shop, so no commerce profile is expected.' };
      const version = str((r.json?.ucp as Record<string, unknown> | undefined)?.version);
      return version ? { status: 'pass', message: `UCP profile version ${version}.`, evidence: [evidenceOf(r.probe)] } : { status: 'warn', message: 'The UCP profile has no ucp.version.', evidence: [evidenceOf(r.probe)] };
    },
  },
  {
    id: 'X07', key: 'ai_plugin', group: 'interfaces', title: 'Legacy ChatGPT plugin manifest', severity: 'info',
    run: async (ctx) => {
      const r = await getJson(ctx, '/.well-known/ai-plugin.json');
      if (!r.present) return { status: 'na', message: 'No ai-plugin.json (deprecated; never required).' };
      const keys = ['schema_version', 'name_for_model', 'description_for_model', 'api'].filter((k) => !r.json?.[k]);
      return keys.length ? { status: 'warn', message: `ai-plugin.json lacks ${keys.join(', ')} (deprecated format).`, evidence: [evidenceOf(r.probe)] } : { status: 'pass', message: 'ai-plugin.json is complete (deprecated format; an OpenAPI description is what agents use today).', evidence: [evidenceOf(r.probe)] };
    },
  },
];
