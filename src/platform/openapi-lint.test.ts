import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { useTestApp } from '../../test/helpers/index.js';
import { servedRoutes } from './openapi.js';

/** The published OpenAPI document passes Redocly's recommended rules with no error and no warning (issue 20). */
describe('OpenAPI document (Redocly recommended rules)', () => {
  // As deployed: the document's server is the public base URL (the linter flags localhost).
  const t = useTestApp({ baseUrl: 'https://directory.agentpages.dev' });

  it('has no error and no warning', async () => {
    const source = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body;
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    // A redirect has no 2XX answer: /llms.txt only ever answers 301 to the agent guide.
    const redirect = (p: (typeof problems)[number]) => p.ruleId === 'operation-2xx-response' && p.location[0]?.pointer === '#/paths/~1llms.txt/get/responses';
    const lines = problems.filter((p) => !redirect(p)).map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
    assert.deepEqual(lines, []);
  });
});

/**
 * Routes served on purpose without an operation in the document (`METHOD /fastify/url`). Anything else the
 * app serves is documented: a new route that forgets its schema, or hides it, fails the test below (issue 35).
 */
const UNDOCUMENTED: { routes: RegExp; why: string }[] = [
  { routes: /^GET \/openapi\.json$/, why: 'the document itself' },
  { routes: /^(GET|HEAD) \/docs(\/|$)/, why: 'the reference UI (@fastify/swagger-ui) and its static files' },
  { routes: /^GET \/metrics$/, why: "operators' Prometheus scrape: loopback or METRICS_TOKEN only, a 404 like an unknown path to everyone else" },
  { routes: /^GET \/dev\/mailbox$/, why: 'developer mailbox: outside production, without SMTP, direct loopback connections only (404 otherwise)' },
  {
    routes: /^GET \/(|search|categories|categories\/:slug|companies\/:slug|companies\/:slug\/quote|for-owners|for-agent-developers|sitemap\.xml|sitemaps\/:file|robots\.txt|assets\/:file)$/,
    why: 'the public website (HTML for people, sitemaps and robots.txt for crawlers, its stylesheet)',
  },
  { routes: /^GET \/(app|admin)(\/\*)?$|^GET \/app\/assets\/\*$/, why: 'the dashboard web app (one HTML page for every path under it) and its built assets' },
  { routes: /^GET \/\.well-known\/logo\.svg$/, why: 'a static asset (the logo the discovery files link to)' },
  {
    routes: /^(GET|POST) \/api\/(auth\/confirm|admin\/magic-link\/confirm)$|^GET \/api\/v1\/agent\/confirm-email$|^GET \/invitations\/unsubscribe$|^GET \/reviews\/:token$/,
    why: 'the HTML pages an emailed link opens (their JSON operations are documented: auth.verifyMagic, admin magic-link verify, agents.confirmEmail, invitations.unsubscribe, reviews.publishByLink)',
  },
  { routes: /^GET \/api\/v1\/agent\/companies\/by-url\/\*$/, why: 'the unencoded-URL form of the documented companies.getByWebsite (/by-url/{website_url}), same answers' },
  { routes: /^(GET|DELETE) \/mcp\/company\/:tool_id$|^DELETE \/mcp$/, why: 'answer only 405 with Allow (a stateless MCP server has no SSE stream and no session to end), as any wrong method on a documented path does' },
  { routes: /^OPTIONS \/api\/widget\/public\/:widget_public_id\/(chat|lead)$/, why: "the browser's CORS preflight of the documented widget chat and lead" },
];

describe('OpenAPI document lists every route served', () => {
  const t = useTestApp();

  it('has an operation for every method and path the app answers, but the commented exclusions', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)));
    const routes = servedRoutes(t.app);
    const served = routes.map((r) => `${r.method} ${r.url}`);
    assert.ok(served.length > 100, `only ${served.length} routes collected`);
    // Fastify's /a/:id is OpenAPI's /a/{id}.
    const missing = routes
      .filter((r) => !documented.has(`${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`) && !UNDOCUMENTED.some((u) => u.routes.test(`${r.method} ${r.url}`)))
      .map((r) => `${r.method} ${r.url}${r.hidden ? ' (schema.hide)' : ''}`);
    assert.deepEqual(missing, [], 'served but not in /openapi.json: document the route, or add it to UNDOCUMENTED with the reason');
    // Every exclusion still names a route, so the list cannot rot into a blanket pass.
    for (const u of UNDOCUMENTED) assert.ok(served.some((route) => u.routes.test(route)), `UNDOCUMENTED entry ${u.routes} (${u.why}) matches no route`);
    for (const route of ['HEAD /api/payments/webhook', 'GET /mcp', 'GET /llms.txt']) assert.ok(documented.has(route), `${route} is not documented`);
  });

  it('documents 415 on the MCP endpoints, which answer it to a body that is not JSON', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const res = await t.app.inject({ method: 'POST', url: '/mcp', payload: 'hello', headers: { 'content-type': '' } });
    assert.equal(res.statusCode, 415, res.body);
    assert.equal(res.json().code, 'unsupported_media_type');
    assert.ok(doc.paths['/mcp'].post.responses['415']);
    assert.ok(doc.paths['/mcp/company/{tool_id}'].post.responses['415']);
  });
});
