import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, closeTestEmbeddings, useTestApp, type TestContext } from '../../../test/helpers/index.js';

describe('health, public config, OpenAPI and the platform behaviour every route shares', () => {
  let t: TestContext;
  const logLines: string[] = [];

  before(async () => {
    t = await buildTestApp({ logLevel: 'info' }, {}, { logStream: { write: (line: string) => void logLines.push(line) } });
    await t.app.services.embeddings.ready();
  });
  after(async () => {
    await t.close();
    await closeTestEmbeddings();
  });

  it('answers liveness', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  it('reports every deep check and 200 when all pass', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/deep' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.status, 'ok');
    assert.deepEqual(Object.keys(body.checks).sort(), ['database', 'embeddings', 'jobs', 'migrations', 'read_replicas', 'shutdown', 'vector_index']);
    assert.equal(body.checks.read_replicas.detail, 'none: every read goes to the primary');
    for (const check of Object.values(body.checks) as { ok: boolean }[]) assert.equal(check.ok, true);
    assert.match(body.checks.embeddings.detail, /^use-lite-512 \((native|tfjs)\)$/, 'names the model and how it runs');
    assert.equal(body.version, '2.0.0');
  });

  it('answers 503 with the failing check when a migration is pending', async () => {
    await t.db.query('DELETE FROM schema_migrations WHERE name = (SELECT max(name) FROM schema_migrations)');
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health/deep' });
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().status, 'degraded');
      assert.equal(res.json().checks.migrations.ok, false);
    } finally {
      const files = (await import('../../platform/db.js')).listMigrations();
      await t.db.query('INSERT INTO schema_migrations(name) VALUES ($1) ON CONFLICT DO NOTHING', [files.at(-1)]);
    }
  });

  it('publishes non-secret runtime values only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/public-config' });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.service_name, 'agentpages');
    assert.equal(body.version, '2.0.0');
    assert.equal(body.features.llm, false);
    assert.equal(body.mcp_url, `${t.config.baseUrl}/mcp`);
    assert.doesNotMatch(res.body, /secret|password|api_key/i);
  });

  it('serves an OpenAPI 3.1 document, version 2.0.0, with an operation id on every operation', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '2.0.0');
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { operationId?: string; responses?: object }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        assert.ok(op.operationId, `${method} ${path} has no operationId`);
        assert.ok(!ids.has(op.operationId), `duplicate operationId ${op.operationId}`);
        // CODE_STYLE.md: <area>.<verb>, with an optional sub-area (admin.agents.list).
        assert.match(op.operationId, /^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*){1,2}$/, `${method} ${path}: operationId ${op.operationId} is not <area>.<verb>`);
        ids.add(op.operationId);
        assert.ok(op.responses && Object.keys(op.responses).length > 0, `${method} ${path} has no responses`);
      }
    }
    for (const path of ['/api/v1/agent/companies', '/api/v1/agent/register', '/api/proposals', '/api/tools/{tool_id}', '/api/crawl']) {
      assert.ok(doc.paths[path], `${path} missing from the document`);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/docs/' })).statusCode, 200);
  });

  it('answers invalid JSON with a 422 json_invalid and an unknown route with a 404 detail', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/agent/register', headers: { 'content-type': 'application/json' }, payload: '{"name": ' });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['body']);
    assert.equal(bad.json().detail[0].type, 'json_invalid');
    const missing = await t.app.inject({ method: 'GET', url: '/no/such/route' });
    assert.equal(missing.statusCode, 404);
    assert.equal(typeof missing.json().detail, 'string');
  });

  it('reports every violated bound at once, each with its location', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?limit=0&offset=-1' });
    assert.equal(res.statusCode, 422);
    const locs = res.json().detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    assert.ok(locs.includes('query.limit') && locs.includes('query.offset'), locs.join(','));
  });

  it('echoes a request id and never logs secrets from headers or query strings', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/verify-magic?token=super-secret-magic-token&purpose=login',
      headers: { 'x-api-key': 'agp_live_secretkeyvalue', authorization: 'Bearer secret.jwt.value', cookie: 'session=secret-cookie', 'x-request-id': 'req-123' },
    });
    assert.equal(res.headers['x-request-id'], 'req-123');
    const logged = logLines.join('');
    assert.match(logged, /req-123/);
    for (const secret of ['super-secret-magic-token', 'agp_live_secretkeyvalue', 'secret.jwt.value', 'secret-cookie']) {
      assert.ok(!logged.includes(secret), `log contains ${secret}`);
    }
  });
});

describe('shutdown', () => {
  const t = useTestApp();

  it('drains: readiness turns 503 (checks.shutdown) while requests are still served', async () => {
    t.app.services.system.beginDrain();
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/deep' });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json().status, 'degraded');
    assert.deepEqual(ready.json().checks.shutdown, { ok: false, detail: 'shutting down: finishing requests, routing should stop' });
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode, 200, 'still serving while draining');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/agent/categories' })).statusCode, 200);
  });
});
