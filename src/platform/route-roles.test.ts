import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { BEARER_SECURITY, createGuards, guardEveryRoute, registerRouteRoles } from './auth.js';

/** The role of an operation comes from its guard; a route whose declaration and guard disagree does not start. */
describe('route roles', () => {
  const guards = createGuards({ bearer: async () => undefined, apiKey: async () => ({ ok: false, reason: 'unknown' }), owns: async () => false });

  it('writes the guard\'s role into the schema, the strictest when a route has two', async () => {
    const app = Fastify();
    registerRouteRoles(app);
    const schemas: Record<string, Record<string, unknown>> = {};
    app.addHook('onRoute', (r) => {
      if (r.method === 'GET') schemas[r.url] = r.schema as Record<string, unknown>;
    });
    app.get('/public', { schema: {} }, async () => 'ok');
    app.get('/owner', { schema: { security: BEARER_SECURITY }, onRequest: guards.requireUser }, async () => 'ok');
    app.get('/both', { schema: { security: BEARER_SECURITY }, onRequest: [guards.requireUser, guards.requireAdmin] }, async () => 'ok');
    await app.register(async (admin) => {
      guardEveryRoute(admin, guards.requireAdmin);
      admin.get('/x', { schema: { security: BEARER_SECURITY } }, async () => 'ok');
    }, { prefix: '/admin' });
    await app.ready();
    assert.deepEqual(Object.fromEntries(Object.entries(schemas).map(([u, s]) => [u, s['x-role']])), { '/public': 'public', '/owner': 'owner', '/both': 'admin', '/admin/x': 'admin' });
    assert.equal((await app.inject({ url: '/admin/x' })).statusCode, 401, 'the guard runs');
    await app.close();
  });

  it('refuses to start when security is declared but no guard checks it, or the reverse', async () => {
    const declaredOnly = Fastify();
    registerRouteRoles(declaredOnly);
    declaredOnly.get('/forgot-guard', { schema: { security: BEARER_SECURITY } }, async () => 'ok');
    await assert.rejects(async () => declaredOnly.ready(), /GET \/forgot-guard: declares a credential in security but no guard checks one/);
    const guardOnly = Fastify();
    registerRouteRoles(guardOnly);
    guardOnly.get('/forgot-security', { schema: {}, onRequest: guards.requireAgent }, async () => 'ok');
    await assert.rejects(async () => guardOnly.ready(), /GET \/forgot-security: has the agent guard but declares no security/);
  });
});
