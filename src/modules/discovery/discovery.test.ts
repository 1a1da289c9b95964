import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useTestApp } from '../../../test/helpers/index.js';
import { ucpNamespace } from './discovery.service.js';

const BASE = 'https://directory.example.org';

describe('discovery files', () => {
  const t = useTestApp({ baseUrl: BASE });
  let md: string;
  let openapi: { paths: Record<string, Record<string, { operationId?: string }>> };

  before(async () => {
    const res = await t.app.inject({ method: 'GET', url: `/${t.config.serviceName}.md` });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    md = res.body;
    openapi = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });

  it('follows the llms.txt format: H1 name, blockquote summary, H2 link lists', () => {
    const lines = md.split('\n');
    assert.match(lines[0]!, /^# \S/);
    const firstContent = lines.slice(1).find((l) => l.trim() !== '');
    assert.match(firstContent!, /^> \S/);
    // No H3+ headings anywhere; every H2 section starts with a link list.
    assert.doesNotMatch(md, /^#{3,} /m);
    const sections = md.split(/^## /m).slice(1);
    assert.ok(sections.length >= 3);
    for (const section of sections) {
      const body = section.split('\n').slice(1).find((l) => l.trim() !== '');
      assert.match(body!, /^- \[[^\]]+\]\([^)]+\)/, section.slice(0, 80));
    }
  });

  it('documents base URLs, authentication, MCP config, limits and error shapes from BASE_URL', () => {
    assert.ok(md.includes(`${BASE}/api/v1/agent`));
    assert.ok(md.includes(`${BASE}/mcp`));
    assert.ok(md.includes(`${BASE}/openapi.json`));
    assert.match(md, /X-API-Key/);
    assert.match(md, /"mcpServers"/);
    assert.match(md, /limit` 1 to 20/);
    // Bounds come from the route schemas.
    assert.match(md, /query `limit`: integer, 1 to 20, default 10/);
    assert.match(md, /query `status`: one of pending, approved, rejected, responded/);
    assert.match(md, /body `company_ids` \(required\): array of string \(uuid\), 1 to 10 items/);
    assert.match(md, /422/);
    assert.match(md, /"detail"/);
    assert.doesNotMatch(md, /localhost/);
  });

  it('lists every agent endpoint of the OpenAPI document, with an example, and nothing else', () => {
    const documented = [...md.matchAll(/^- \[(GET|POST|PUT|PATCH|DELETE) (\/[^\]]+)\]/gm)].map((m) => `${m[1]} ${m[2]}`);
    assert.ok(documented.length >= 10, documented.join(', '));
    for (const entry of documented) {
      const [method, path] = entry.split(' ') as [string, string];
      assert.ok(openapi.paths[path]?.[method.toLowerCase()], `${entry} is not in /openapi.json`);
    }
    const agentOps = Object.entries(openapi.paths)
      .filter(([p]) => p.startsWith('/api/v1/agent'))
      .flatMap(([p, ops]) => Object.keys(ops).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((m) => `${m.toUpperCase()} ${p}`));
    assert.deepEqual([...documented].sort(), [...agentOps].sort());
    for (const must of ['GET /api/v1/agent/companies', 'POST /api/v1/agent/register', 'POST /api/v1/agent/proposals', 'POST /api/v1/agent/proposals/{proposal_id}/reply']) {
      assert.ok(documented.includes(must), must);
    }
    // One example per endpoint, against BASE_URL; key endpoints send the header.
    const curls = md.match(/^ {2}curl /gm) ?? [];
    assert.equal(curls.length, documented.length);
    assert.match(md, new RegExp(`curl -X POST '${BASE}/api/v1/agent/proposals' \\\\\\n\\s+-H 'X-API-Key: <YOUR_API_KEY>'`));
    assert.match(md, new RegExp(`curl '${BASE}/api/v1/agent/companies\\?q=`));
  });

  it('redirects /llms.txt to the discovery file with 301', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/llms.txt' });
    assert.equal(res.statusCode, 301);
    assert.equal(res.headers.location, `/${t.config.serviceName}.md`);
  });

  it('serves a plugin manifest within its field limits', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/ai-plugin.json' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const m = JSON.parse(res.body);
    assert.equal(m.schema_version, 'v1');
    assert.ok(m.name_for_human.length > 0 && m.name_for_human.length <= 20);
    assert.match(m.name_for_model, /^[a-zA-Z0-9_]{1,50}$/);
    assert.ok(m.description_for_human.length <= 100);
    assert.ok(m.description_for_model.length > 100 && m.description_for_model.length <= 8000);
    assert.deepEqual(m.auth, { type: 'none' });
    assert.equal(m.api.type, 'openapi');
    assert.equal(m.api.url, `${BASE}/openapi.json`);
    for (const field of ['logo_url', 'legal_info_url']) assert.ok(m[field].startsWith(BASE), field);
    assert.match(m.contact_email, /^[^@\s]+@[^@\s]+$/);
    const logo = await t.app.inject({ method: 'GET', url: new URL(m.logo_url).pathname });
    assert.equal(logo.statusCode, 200);
    assert.match(String(logo.headers['content-type']), /image\/svg\+xml/);
    const legal = await t.app.inject({ method: 'GET', url: new URL(m.legal_info_url).pathname });
    assert.equal(legal.statusCode, 200);
  });

  it('serves the UCP business profile without redirect, cacheable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/ucp' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(res.headers['cache-control'], 'public, max-age=3600');
    const { ucp } = JSON.parse(res.body);
    assert.equal(ucp.version, '2026-04-08');
    assert.deepEqual(ucp.payment_handlers, {});
    const names = Object.keys(ucp.services);
    assert.deepEqual(names, ['org.example.directory.directory']);
    const bindings = ucp.services[names[0]!] as { transport: string; endpoint: string; version: string }[];
    assert.deepEqual(bindings.map((b) => b.transport).sort(), ['mcp', 'rest']);
    assert.equal(bindings.find((b) => b.transport === 'rest')!.endpoint, `${BASE}/api/v1/agent`);
    assert.equal(bindings.find((b) => b.transport === 'mcp')!.endpoint, `${BASE}/mcp`);
    for (const name of [...names, ...Object.keys(ucp.capabilities)]) assert.match(name, /^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9_]*)+$/);
    for (const b of bindings) assert.match(b.version, /^\d{4}-\d{2}-\d{2}$/);
  });

  it('derives a valid UCP namespace for any host', () => {
    assert.equal(ucpNamespace('https://agentpages.com', 'agentpages'), 'com.agentpages');
    assert.equal(ucpNamespace('https://my-dir.example.co.uk/', 'agentpages'), 'uk.co.example.my_dir');
    assert.equal(ucpNamespace('http://localhost:8000', 'agentpages'), 'localhost.agentpages');
    assert.equal(ucpNamespace('http://127.0.0.1:8000', 'agentpages'), 'local.agentpages');
    assert.equal(ucpNamespace('http://[::1]:8000', 'agent-pages'), 'local.agentpages');
  });

  it('gives the discovery routes operation ids in the OpenAPI document', () => {
    assert.equal(openapi.paths['/.well-known/ucp']?.get?.operationId, 'discovery.ucp');
    assert.equal(openapi.paths['/.well-known/ai-plugin.json']?.get?.operationId, 'discovery.aiPlugin');
    assert.equal(openapi.paths[`/${t.config.serviceName}.md`]?.get?.operationId, 'discovery.agentGuide');
    assert.equal(openapi.paths['/mcp']?.post?.operationId, 'mcp.agent');
    assert.equal(openapi.paths['/mcp/company/{tool_id}']?.post?.operationId, 'mcp.company');
  });
});
