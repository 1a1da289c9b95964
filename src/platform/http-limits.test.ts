import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { useTestApp } from '../../test/helpers/index.js';
import { MAX_OFFSET } from './http.js';

// Issue 20: bounds of the HTTP layer answered in the {detail} shape, and integer bounds as 422.
describe('HTTP limits', () => {
  const t = useTestApp();
  let base: string;
  before(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('accepts a 2,000-character CJK query (about 18 KB encoded) and answers 431 in the detail shape past 64 KB', async () => {
    const cjk = await fetch(`${base}/api/v1/agent/companies?q=${encodeURIComponent('水'.repeat(2000))}`);
    assert.notEqual(cjk.status, 431);
    assert.ok(cjk.status < 500, String(cjk.status));
    const huge = await fetch(`${base}/api/v1/agent/companies?q=a`, { headers: { 'x-filler': 'x'.repeat(70 * 1024) } });
    assert.equal(huge.status, 431);
    assert.match((await huge.json()).detail, /larger than 64 KB/);
  });

  it('gives every non-validation error a machine-readable code and the request id (issue 12)', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/no-such-route', headers: { 'x-request-id': 'req-err-1' } });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { detail: 'Not found: GET /api/no-such-route', code: 'not_found', request_id: 'req-err-1' });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/agent/me' });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().code, 'unauthorized');
    assert.equal(anonymous.json().request_id, anonymous.headers['x-request-id']);
    // Validation keeps FastAPI's shape: a list under detail, nothing else.
    const invalid = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?limit=abc' });
    assert.equal(invalid.statusCode, 422);
    assert.deepEqual(Object.keys(invalid.json()), ['detail']);
  });

  it('answers a known path asked with the wrong method 405 with Allow, an unknown path 404 (issue 13)', async () => {
    const webhook = await t.app.inject({ method: 'GET', url: '/api/payments/webhook' });
    assert.equal(webhook.statusCode, 405);
    assert.equal(webhook.headers.allow, 'HEAD, POST');
    assert.equal(webhook.json().code, 'method_not_allowed');
    assert.match(webhook.json().detail, /GET \/api\/payments\/webhook answers HEAD, POST/);
    // Path parameters match one segment: a company id path knows GET (and HEAD), not DELETE.
    const company = await t.app.inject({ method: 'DELETE', url: '/api/v1/agent/companies/00000000-0000-4000-8000-000000000000' });
    assert.equal(company.statusCode, 405);
    assert.match(String(company.headers.allow), /^GET, HEAD$/);
    assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/v1/agent/companies/a/b/c' })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/no-such-route' })).statusCode, 404);
  });

  it('answers an over-long path segment with 414 in the detail shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${'a'.repeat(600)}` });
    assert.equal(res.statusCode, 414);
    assert.match(res.json().detail, /longer than 500/);
  });

  it('answers offsets past the bound (2^63, 1e21) with 422, not a database error', async () => {
    for (const offset of ['9223372036854775808', '1e21', String(MAX_OFFSET + 1)]) {
      for (const url of [`/api/v1/agent/companies?offset=${offset}`, `/api/tools/admin/companies?offset=${offset}`]) {
        const res = await t.app.inject({ method: 'GET', url });
        assert.ok([401, 422].includes(res.statusCode), `${url}: ${res.statusCode}`);
      }
      const browse = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?offset=${offset}` });
      assert.equal(browse.statusCode, 422);
    }
  });

  it('every integer in every operation (parameters and bodies) has an upper bound in /openapi.json', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, Schema> };
    };
    type Operation = { parameters?: { name: string; in: string; schema: Schema }[]; requestBody?: { content: Record<string, { schema: Schema }> } };
    type Schema = {
      type?: string | string[]; maximum?: number; exclusiveMaximum?: number; $ref?: string;
      properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[];
    };
    const unbounded: string[] = [];
    const walk = (s: Schema | undefined, where: string, seen: Set<string>): void => {
      if (!s) return;
      if (s.$ref) {
        const name = s.$ref.split('/').pop()!;
        if (!seen.has(name)) walk(doc.components.schemas[name], where, new Set([...seen, name]));
        return;
      }
      const types = Array.isArray(s.type) ? s.type : [s.type];
      if (types.includes('integer') && s.maximum === undefined && s.exclusiveMaximum === undefined) unbounded.push(where);
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${where}.${k}`, seen);
      walk(s.items, `${where}[]`, seen);
      for (const v of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) walk(v, where, seen);
    };
    let integers = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const p of op.parameters ?? []) {
          if (JSON.stringify(p.schema).includes('integer')) integers++;
          walk(p.schema, `${method.toUpperCase()} ${path} ${p.in}.${p.name}`, new Set());
        }
        for (const c of Object.values(op.requestBody?.content ?? {})) walk(c.schema, `${method.toUpperCase()} ${path} body`, new Set());
      }
    }
    assert.ok(integers > 10, `only ${integers} integer parameters found: the walk is broken`);
    assert.deepEqual(unbounded, [], 'integers without a maximum (2^63 would reach the database)');
  });

  it('POST /mcp without an Accept header is served, not 406', async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    assert.equal(res.status, 200, await res.clone().text());
  });
});
