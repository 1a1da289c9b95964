import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATE_TIME_RULE } from '../lib/time.js';
import { actors, seedCompanies, companyFixture, useTestApp } from '../../test/helpers/index.js';
import { serializeError } from './logging.js';

// Issue 11 finding 2 (bounded validation work and answers) and the text-input rule (no control characters).
describe('input bounds', () => {
  const t = useTestApp();
  const as = actors(t);

  it('answers a body of 60,000 unknown keys with one small 422', async () => {
    const body: Record<string, number> = {};
    for (let i = 0; i < 60_000; i++) body[`k${i}`] = i;
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/agent/register', payload: body });
    assert.equal(res.statusCode, 422);
    assert.ok(res.body.length < 2000, `answer of ${res.body.length} bytes`);
    assert.equal(res.json().detail[0].type, 'too_long');
  });

  it('reports at most 20 validation issues and never echoes a large value', async () => {
    const [id] = await seedCompanies(t.app, [companyFixture({ website_url: 'https://bounds.example.com' })]);
    const owner = await as.owner('owner@bounds.example.com', 'https://bounds.example.com');
    assert.equal(owner.companyId, id);
    const body: Record<string, string> = { description: 'x'.repeat(100_000) };
    for (let i = 0; i < 500; i++) body[`unknown_${i}`] = 'y';
    const res = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, headers: owner.headers, payload: body });
    assert.equal(res.statusCode, 422);
    assert.ok(res.json().detail.length <= 20);
    assert.ok(res.body.length < 10_000, `answer of ${res.body.length} bytes`);
  });

  it('refuses NUL and control characters in query, path and body with a 422 naming the field', async () => {
    const q = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?q=plumber%00x' });
    assert.equal(q.statusCode, 422);
    assert.deepEqual(q.json().detail[0].loc, ['query', 'q']);
    for (const field of ['city', 'country', 'industry']) {
      const r = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?q=a&${field}=x%00` });
      assert.equal(r.statusCode, 422, field);
    }
    const ask = await t.app.inject({ method: 'POST', url: '/api/ask', payload: { question: 'who \u0000 fixes boilers?' } });
    assert.equal(ask.statusCode, 422);
    assert.deepEqual(ask.json().detail[0].loc, ['body', 'question']);
    const path = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies/%00' });
    assert.equal(path.statusCode, 422);
    const esc = await t.app.inject({ method: 'POST', url: '/api/v1/agent/register', payload: { name: 'A\u001bB', owner_email: 'x@example.org' } });
    assert.equal(esc.statusCode, 422);
    // Tabs and new lines are ordinary text.
    const ok = await t.app.inject({ method: 'POST', url: '/api/ask', payload: { question: 'who fixes\nboilers?' } });
    assert.equal(ok.statusCode, 200);
  });

  it('refuses an unpaired UTF-16 surrogate with a 422 naming the field, on owner edits and MCP tools alike, and keeps emoji (issue 35 A3)', async () => {
    const [id] = await seedCompanies(t.app, [companyFixture({ website_url: 'https://surrogate.example.com' })]);
    const owner = await as.owner('owner@surrogate.example.com', 'https://surrogate.example.com');
    const headers = owner.headers;
    // JSON.stringify writes a lone surrogate as the escape \ud800, which JSON.parse turns back into one.
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ name: 'Broken \ud800 name' }, ['body', 'name']],
      [{ description: 'Ends in half a pair \ud83d' }, ['body', 'description']],
      [{ keywords: ['fine', 'lone low \udc00 half'] }, ['body', 'keywords', 1]],
      [{ services: ['reversed \ude00\ud83d pair'] }, ['body', 'services', 0]],
    ];
    for (const [payload, loc] of cases) {
      const res = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, headers, payload });
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`);
      assert.deepEqual(res.json().detail[0].loc, loc);
      assert.match(res.json().detail[0].msg, /unpaired UTF-16 surrogate/);
    }
    const key = await t.app.inject({ method: 'POST', url: '/api/ask', payload: { question: 'boilers?', ['\udfff']: 1 } });
    assert.equal(key.statusCode, 422);
    assert.deepEqual(key.json().detail[0].loc, ['body', '\udfff']);
    const mcp = await t.app.inject({
      method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_companies', arguments: { q: 'plumber \ud800' } } },
    });
    assert.equal(mcp.statusCode, 422, mcp.body);
    assert.deepEqual(mcp.json().detail[0].loc, ['body', 'params', 'arguments', 'q']);
    // Paired surrogates are ordinary text: stored, shown and in the edit history.
    const emoji = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, headers, payload: { name: 'Rocket 🚀 Repairs', keywords: ['😀 friendly'] } });
    assert.equal(emoji.statusCode, 200, emoji.body);
    assert.equal(emoji.json().name, 'Rocket 🚀 Repairs');
    const history = await t.app.inject({ method: 'GET', url: `/api/tools/${id}/history`, headers });
    assert.equal(history.statusCode, 200);
    assert.match(history.body, /Rocket 🚀 Repairs/);
  });

  it('refuses date-times PostgreSQL or Date cannot read with a 422 naming the field (issue 35 A1)', async () => {
    const refused = [
      '2020-01-01T00:00:00+16:00', '2020-01-01T00:00:00-16:00', '2020-01-01T00:00:00+23:59', '0000-01-01T00:00:00Z',
      '2020-12-31T23:59:60Z', `2020-01-01T00:00:00.${'1'.repeat(200)}Z`, '0001-01-01 00:00:00Z', '2020-01-01T00:00:00+01',
    ];
    for (const value of refused) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?updated_since=${encodeURIComponent(value)}` });
      assert.equal(res.statusCode, 422, `${value}: ${res.body}`);
      assert.deepEqual(res.json().detail[0].loc, ['query', 'updated_since']);
      assert.equal(res.json().detail[0].msg, DATE_TIME_RULE);
    }
    for (const value of ['2020-01-01T00:00:00+15:59', '2020-01-01T00:00:00-15:59', '0001-01-01T00:00:00+15:59', '9999-12-31T23:59:59.999999999-15:59', '2020-01-01t00:00:00z', '2020-01-01T00:00:00+0100']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?updated_since=${encodeURIComponent(value)}` });
      assert.equal(res.statusCode, 200, `${value}: ${res.body}`);
    }
    // The same rule for every date-time a route accepts: an administrator's subscription period, a promo code's expiry.
    const admin = (await as.admin()).headers;
    const [id] = await seedCompanies(t.app, [companyFixture()]);
    for (const period_start of ['2020-12-31T23:59:60Z', '2020-01-01T00:00:00+16:00']) {
      const res = await t.app.inject({ method: 'POST', url: `/api/tools/admin/companies/${id}/subscription`, headers: admin, payload: { plan: 'pro', period_start, period_months: 1 } });
      assert.equal(res.statusCode, 422, `${period_start}: ${res.body}`);
      assert.deepEqual(res.json().detail[0].loc, ['body', 'period_start']);
    }
    const promo = await t.app.inject({ method: 'POST', url: '/api/payments/admin/promo-codes', headers: admin, payload: { expires_at: '2030-01-01T00:00:00+16:00' } });
    assert.equal(promo.statusCode, 422);
    assert.ok(promo.json().detail.some((d: { loc: string[] }) => d.loc.join('.') === 'body.expires_at'), promo.body);
  });
});

describe('error logging', () => {
  it('logs a database error without its statement, parameters or row values', () => {
    const e = Object.assign(new Error('duplicate key value violates unique constraint "agents_owner_email"'), {
      code: '23505', constraint: 'agents_owner_email', detail: 'Key (lower(owner_email))=(secret@example.org) already exists.',
      query: 'INSERT INTO agents (name, owner_email) VALUES ($1, $2)', params: ['n', 'secret@example.org'],
    });
    const out = JSON.stringify(serializeError(e));
    assert.match(out, /23505/);
    assert.match(out, /agents_owner_email/);
    assert.ok(!out.includes('secret@example.org'));
    assert.ok(!out.includes('INSERT INTO'));
  });
});
