import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { actors, companyFixture, seedCompanies, useTestApp, type Owner } from '../../test/helpers/index.js';

/**
 * Generated from /openapi.json, so a new route cannot skip it: every operation that requires a
 * credential refuses a missing or malformed one with 401 (before validation: the body sent is
 * invalid), an owner token on an administrator operation is 403, and an owner acting on another
 * owner's company (a {tool_id} path) is 404.
 */
type Operation = { operationId?: string; security?: Record<string, string[]>[]; requestBody?: unknown; 'x-role'?: string };
type Doc = { paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** The role each operation declares (`x-role`, written from the guard the route runs: platform/auth.ts). */
const roleOf = (op: Operation) => op['x-role'];

describe('route security (generated from the OpenAPI document)', () => {
  const t = useTestApp();
  const as = actors(t);
  let doc: Doc;
  let ownerA: Owner;
  let ownerB: Owner;

  before(async () => {
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    await seedCompanies(t.app, [companyFixture({ website_url: 'https://route-a.example.com' })]);
    ownerA = await as.owner('owner@route-a.example.com', 'https://route-a.example.com');
    ownerB = await as.owner('owner@route-b.example.com', 'https://route-b.example.com');
  });

  function operations(filter: (path: string, op: Operation) => boolean) {
    const out: { method: string; path: string; op: Operation }[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (op && filter(path, op)) out.push({ method, path, op });
      }
    }
    return out;
  }
  // Required credentials only: an operation that also lists {} works without one.
  const secured = (op: Operation) => Boolean(op.security?.length) && !op.security!.some((s) => Object.keys(s).length === 0);
  const schemeOf = (op: Operation) => Object.keys(op.security![0]!)[0]!;

  function url(path: string, toolId: string): string {
    return path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'tool_id') return toolId;
      if (/job_id|promo_id/.test(name)) return '1';
      return randomUUID();
    });
  }
  const invalidBody = (method: string) => (['post', 'put', 'patch'].includes(method) ? { payload: { __not_a_field__: [1, 2, 3] } } : {});

  it('finds secured operations of every kind', () => {
    const all = operations((_p, op) => secured(op));
    assert.ok(all.length >= 40, `only ${all.length} secured operations`);
    assert.ok(all.some((o) => schemeOf(o.op) === 'ApiKey'));
    assert.ok(all.some((o) => roleOf(o.op) === 'admin'));
  });

  it('every operation declares its role, and every administrator path is an administrator operation', () => {
    const roles = new Set(['public', 'optional', 'agent', 'owner', 'company-manager', 'admin']);
    for (const { method, path, op } of operations(() => true)) {
      assert.ok(roles.has(roleOf(op) ?? ''), `${method.toUpperCase()} ${path} declares no role`);
      if (/\/admin(\/|$)/.test(path) && !/^\/api\/admin\/(login|magic-link)/.test(path)) assert.equal(roleOf(op), 'admin', `${method.toUpperCase()} ${path}`);
    }
  });

  it('401 without a credential and with a malformed one, before validation', async () => {
    for (const { method, path, op } of operations((_p, o) => secured(o))) {
      const target = url(path, ownerA.companyId!);
      const none = await t.app.inject({ method: method.toUpperCase() as 'GET', url: target, ...invalidBody(method) });
      assert.equal(none.statusCode, 401, `${method.toUpperCase()} ${path} (${op.operationId}) without a credential: ${none.statusCode} ${none.body.slice(0, 200)}`);
      assert.equal(typeof none.json().detail, 'string');
      const malformed = schemeOf(op) === 'ApiKey' ? { 'x-api-key': 'agp_live_not-a-real-key' } : { authorization: 'Bearer not.a.token' };
      const bad = await t.app.inject({ method: method.toUpperCase() as 'GET', url: target, headers: malformed, ...invalidBody(method) });
      assert.equal(bad.statusCode, 401, `${method.toUpperCase()} ${path} with a malformed credential: ${bad.statusCode} ${bad.body.slice(0, 200)}`);
    }
  });

  it('403 for an owner token on every administrator operation', async () => {
    for (const { method, path } of operations((_p, o) => roleOf(o) === 'admin')) {
      const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url: url(path, ownerA.companyId!), headers: ownerA.headers, ...invalidBody(method) });
      assert.equal(res.statusCode, 403, `${method.toUpperCase()} ${path} as an owner: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
  });

  it("404 for an owner acting on another owner's company", async () => {
    const companyOps = operations((_p, o) => roleOf(o) === 'company-manager');
    assert.ok(companyOps.length >= 8, `only ${companyOps.length} company operations`);
    for (const { method, path } of companyOps) {
      const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url: url(path, ownerA.companyId!), headers: ownerB.headers, ...invalidBody(method) });
      assert.equal(res.statusCode, 404, `${method.toUpperCase()} ${path} as another owner: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
  });
});
