import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useTestApp, type TestContext } from '../../../test/helpers/index.js';
import { MODERN_VERSION } from '../mcp/mcp.protocol.js';

const BASE = 'https://directory.example.org';
const CACHE = 'public, max-age=3600';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON documents read field by field
type Json = Record<string, any>;

/** A stateless 2026-07-28 MCP request to /mcp through app.inject. */
async function mcpCall(t: TestContext, method: string, params: Json = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
    payload: { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION } } },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().result as Json;
}

async function getJson(t: TestContext, url: string, type = /^application\/json/) {
  const res = await t.app.inject({ method: 'GET', url });
  assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 200)}`);
  assert.match(String(res.headers['content-type']), type, url);
  assert.equal(res.headers['cache-control'], CACHE, url);
  return { res, body: res.json() as Json };
}

describe('/.well-known discovery files', () => {
  const t = useTestApp({ baseUrl: BASE });
  let openapi: Json;
  let listedTools: Json[];

  before(async () => {
    openapi = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    listedTools = (await mcpCall(t, 'tools/list')).tools;
    assert.ok(listedTools.length >= 5);
  });

  it('serves the MCP Server Card of /mcp with exactly the tools the server lists', async () => {
    const { body: card } = await getJson(t, '/.well-known/mcp/server-card.json');
    assert.match(card.$schema, /^https:\/\/static\.modelcontextprotocol\.io\//);
    assert.equal(card.name, 'org.example.directory/agentpages');
    assert.equal(card.version, openapi.info.version);
    assert.ok(card.serverInfo.name && card.title && card.description);
    assert.deepEqual(card.transport, { type: 'streamable-http', url: `${BASE}/mcp` });
    assert.equal(card.remotes.length, 1);
    const [remote] = card.remotes;
    assert.equal(remote.type, 'streamable-http');
    assert.equal(remote.url, `${BASE}/mcp`);
    assert.ok(remote.supportedProtocolVersions.includes(MODERN_VERSION));
    assert.deepEqual(remote.authentication, { required: false, schemes: ['apiKey'] });
    assert.deepEqual(remote.headers.map((h: Json) => [h.name, h.isRequired, h.isSecret]), [['X-API-Key', false, true]]);
    assert.deepEqual(card.capabilities, { tools: {} });
    // The same descriptors, in the same order, as an MCP tools/list request answers.
    assert.deepEqual(card.tools, listedTools);
    assert.equal((await t.app.inject({ method: 'GET', url: new URL(card.documentation).pathname })).statusCode, 200);
  });

  it('names the tools that need the API key, and only those refuse a call without one', async () => {
    const { body: card } = await getJson(t, '/.well-known/mcp/server-card.json');
    const auth = card._meta['org.example.directory/auth'];
    assert.equal(auth.header, 'X-API-Key');
    assert.equal(auth.register, `${BASE}/api/v1/agent/register`);
    const keyTools: string[] = auth.required_by;
    for (const name of ['create_proposal', 'list_proposals', 'get_proposal', 'reply_to_proposal']) assert.ok(keyTools.includes(name), name);
    for (const name of ['search_companies', 'get_company', 'list_categories']) assert.ok(!keyTools.includes(name), name);
    for (const name of keyTools) {
      const result = await mcpCall(t, 'tools/call', { name, arguments: {} });
      assert.equal(result.isError, true, name);
      assert.match(result.content[0].text, /Missing API key/, name);
    }
    const open = await mcpCall(t, 'tools/call', { name: 'list_categories', arguments: {} });
    assert.notEqual(open.isError, true);
  });

  it('serves an A2A agent card with skills covering every MCP tool, at both paths', async () => {
    const { body: card } = await getJson(t, '/.well-known/agent-card.json');
    const { body: legacy } = await getJson(t, '/.well-known/agent.json');
    assert.deepEqual(legacy, card);
    for (const field of ['name', 'description', 'version', 'documentationUrl', 'iconUrl']) assert.equal(typeof card[field], 'string', field);
    assert.equal(card.version, openapi.info.version);
    assert.deepEqual(card.provider, { organization: card.name, url: BASE });
    assert.deepEqual(card.capabilities, { streaming: false, pushNotifications: false, extendedAgentCard: false });
    assert.ok(card.defaultInputModes.includes('text/plain'));
    assert.deepEqual(card.defaultOutputModes, ['application/json']);
    assert.deepEqual(card.supportedInterfaces.map((i: Json) => i.url), [`${BASE}/mcp`, `${BASE}/api/v1/agent`]);
    for (const i of card.supportedInterfaces) assert.ok(i.protocolBinding && i.protocolVersion === '1.0');
    assert.deepEqual(card.securitySchemes, {
      ApiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key', description: card.securitySchemes.ApiKey.apiKeySecurityScheme.description } },
    });

    const byTool = new Map<string, string>();
    for (const skill of card.skills) {
      for (const field of ['id', 'name', 'description']) assert.ok(typeof skill[field] === 'string' && skill[field].length > 0, `${skill.id} ${field}`);
      assert.ok(skill.tags.length > 0 && skill.examples.length > 0, skill.id);
      const tools = /MCP tools: ([a-z_, ]+);/.exec(skill.description)![1]!.split(', ');
      for (const tool of tools) {
        assert.ok(!byTool.has(tool), `${tool} in two skills`);
        byTool.set(tool, skill.id);
      }
    }
    assert.deepEqual([...byTool.keys()].sort(), listedTools.map((tool) => tool.name).sort());
    const skill = (id: string) => card.skills.find((s: Json) => s.id === id);
    assert.equal(skill('search-companies').securityRequirements, undefined);
    assert.deepEqual(skill('send-proposals').securityRequirements, [{ schemes: { ApiKey: { list: [] } } }]);
    assert.equal(byTool.get('create_proposal'), 'send-proposals');
  });

  it('serves the RFC 9727 API catalog as a linkset, with its Link header on GET and HEAD', async () => {
    const { res, body } = await getJson(t, '/.well-known/api-catalog', /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"(; charset=utf-8)?$/);
    const link = `<${BASE}/.well-known/api-catalog>; rel="api-catalog"; type="application/linkset+json"`;
    assert.equal(res.headers.link, link);
    const head = await t.app.inject({ method: 'HEAD', url: '/.well-known/api-catalog' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers.link, link);
    assert.match(String(head.headers['content-type']), /^application\/linkset\+json/);
    assert.equal(head.body, '');

    assert.equal(body.linkset.length, 1);
    const [entry] = body.linkset;
    assert.equal(entry.anchor, openapi.servers[0].url);
    for (const rel of ['service-desc', 'service-doc', 'status']) assert.ok(Array.isArray(entry[rel]) && entry[rel].length === 1, rel);

    const desc = entry['service-desc'][0];
    assert.match(desc.type, /^application\/vnd\.oai\.openapi\+json/);
    assert.ok(desc.href.startsWith(BASE));
    const served = await t.app.inject({ method: 'GET', url: new URL(desc.href).pathname });
    assert.equal(served.statusCode, 200);
    assert.match(served.json().openapi, /^3\.1\./);
    assert.deepEqual(Object.keys(served.json().paths), Object.keys(openapi.paths));

    const doc = await t.app.inject({ method: 'GET', url: new URL(entry['service-doc'][0].href).pathname });
    assert.equal(doc.statusCode, 200);
    assert.match(String(doc.headers['content-type']), /^text\/html/);
    const status = await t.app.inject({ method: 'GET', url: new URL(entry.status[0].href).pathname });
    assert.equal(status.statusCode, 200);
    assert.deepEqual(status.json(), { status: 'ok' });
  });

  it('serves an RFC 9116 security.txt with Contact, a future Expires and its Canonical URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/security.txt' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; charset=utf-8/);
    assert.equal(res.headers['cache-control'], CACHE);
    const fields = new Map<string, string[]>();
    for (const line of res.body.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      const m = /^([A-Za-z-]+): (\S.*)$/.exec(line);
      assert.ok(m, `not a field: ${line}`);
      fields.set(m[1]!, [...(fields.get(m[1]!) ?? []), m[2]!]);
    }
    assert.deepEqual(fields.get('Contact'), [`mailto:${t.config.adminEmail ?? 'security@directory.example.org'}`]);
    assert.deepEqual(fields.get('Canonical'), [`${BASE}/.well-known/security.txt`]);
    assert.deepEqual(fields.get('Preferred-Languages'), ['en']);
    const expires = fields.get('Expires') ?? [];
    assert.equal(expires.length, 1);
    assert.match(expires[0]!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const ahead = Date.parse(expires[0]!) - Date.now();
    assert.ok(ahead > 364 * 86_400_000 && ahead <= 366 * 86_400_000, expires[0]);
  });

  it('lists the new files in the OpenAPI document and in the agent discovery file', async () => {
    const ops: Record<string, string> = {
      '/.well-known/mcp/server-card.json': 'discovery.mcpServerCard',
      '/.well-known/agent-card.json': 'discovery.agentCard',
      '/.well-known/agent.json': 'discovery.agentCardLegacy',
      '/.well-known/api-catalog': 'discovery.apiCatalog',
      '/.well-known/security.txt': 'discovery.securityTxt',
    };
    for (const [path, operationId] of Object.entries(ops)) {
      assert.equal(openapi.paths[path]?.get?.operationId, operationId, path);
      assert.deepEqual(openapi.paths[path].get.tags, ['discovery'], path);
    }
    assert.ok(openapi.paths['/.well-known/api-catalog'].get.responses['200'].content['application/linkset+json']);
    const md = (await t.app.inject({ method: 'GET', url: '/llms.txt' }).then((r) => t.app.inject({ method: 'GET', url: r.headers.location as string }))).body;
    for (const path of ['/.well-known/mcp/server-card.json', '/.well-known/agent-card.json', '/.well-known/api-catalog', '/.well-known/security.txt']) {
      assert.equal(md.split('\n').filter((l) => l.startsWith('- [') && l.includes(`(${BASE}${path})`)).length, 1, path);
    }
  });
});
