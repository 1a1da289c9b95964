import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signInOwner, seedCompanies, companyFixture, useTestApp } from '../test/helpers.js';
import { serializeError } from './logging.js';

// Issue 11 finding 2 (bounded validation work and answers) and the text-input rule (no control characters).
describe('input bounds', () => {
  const t = useTestApp();

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
    const owner = await signInOwner(t, 'owner@bounds.example.com', 'https://bounds.example.com');
    assert.equal(owner.companyId, id);
    const body: Record<string, string> = { description: 'x'.repeat(100_000) };
    for (let i = 0; i < 500; i++) body[`unknown_${i}`] = 'y';
    const res = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, headers: { authorization: `Bearer ${owner.token}` }, payload: body });
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
