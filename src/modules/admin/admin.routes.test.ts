import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, closeTestEmbeddings, companyFixture, seedCompanies, signInAdmin, signInOwner, type TestContext, useTestApp, bearer } from '../../../test/helpers/index.js';

describe("administrators' directory tools", () => {
  let t: TestContext;
  let admin: string;
  let owner: string;
  let ids: string[];

  before(async () => {
    t = await buildTestApp();
    ids = await seedCompanies(t.app, [
      companyFixture({ name: 'Echo Consulting', website_url: 'https://echo-consulting.com', is_verified: false }),
      ...Array.from({ length: 6 }, (_, i) => companyFixture({ name: `Paging Co ${i}` })),
    ]);
    admin = await signInAdmin(t);
    owner = (await signInOwner(t, 'owner@echo-consulting.com', 'https://echo-consulting.com')).token;
  });
  after(async () => {
    await t.close();
    await closeTestEmbeddings();
  });

  const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url, ...(token ? { headers: bearer(token) } : {}), ...(payload ? { payload } : {}) });

  it('refuses owners (403) and anonymous callers (401) on every admin route, before validating input', async () => {
    const routes: ['GET' | 'POST', string, object?][] = [
      ['GET', '/api/tools/admin/lookup-by-website?website_url=echo-consulting.com'],
      ['GET', '/api/tools/admin/lookup-by-website'],
      ['GET', '/api/tools/admin/companies?limit=9999'],
      ['POST', `/api/tools/admin/companies/${ids[0]}/verify`],
      ['POST', `/api/tools/admin/companies/${ids[0]}/unverify`],
      ['POST', `/api/tools/admin/companies/${ids[0]}/subscription`, { plan: 'pro' }],
      ['POST', `/api/tools/admin/companies/${ids[0]}/featured`, { featured: true }],
      ['POST', '/api/tools/admin/reindex'],
      ['GET', '/api/tools/admin/reindex'],
      ['GET', '/api/tools/admin/reindex/1'],
      ['GET', '/api/tools/admin/audit-log'],
    ];
    for (const [method, url, body] of routes) {
      assert.equal((await call(method, url, owner, body)).statusCode, 403, url);
      assert.equal((await call(method, url, undefined, body)).statusCode, 401, url);
    }
    const detail = (await call('GET', `/api/tools/${ids[0]}`)).json();
    assert.equal(detail.is_verified, false);
    assert.equal(detail.is_featured, false);
  });

  it('looks a company up by website', async () => {
    const found = (await call('GET', '/api/tools/admin/lookup-by-website?website_url=https://www.Echo-Consulting.com/about', admin)).json();
    assert.equal(found.exists, true);
    assert.equal(found.domain, 'echo-consulting.com');
    assert.equal(found.tool.id, ids[0]);
    const missing = (await call('GET', '/api/tools/admin/lookup-by-website?website_url=nobody.example.org', admin)).json();
    assert.deepEqual(missing, { exists: false, domain: 'nobody.example.org', tool: null });
    assert.equal((await call('GET', '/api/tools/admin/lookup-by-website?website_url=', admin)).statusCode, 422);
    assert.equal((await call('GET', '/api/tools/admin/lookup-by-website?website_url=notadomain', admin)).statusCode, 422);
  });

  it('pages companies with a keyset cursor that stays correct while companies are added', async () => {
    assert.equal((await call('GET', '/api/tools/admin/companies?limit=0', admin)).statusCode, 422);
    assert.equal((await call('GET', '/api/tools/admin/companies?limit=501', admin)).statusCode, 422);
    assert.equal((await call('GET', '/api/tools/admin/companies?cursor=bogus', admin)).statusCode, 422);
    const first = (await call('GET', '/api/tools/admin/companies?limit=3', admin)).json();
    assert.equal(first.companies.length, 3);
    assert.equal(first.total, 7);
    assert.ok(first.next_cursor);
    // a company added between pages must not shift or repeat rows
    await seedCompanies(t.app, [companyFixture({ name: 'Paging Co new' })]);
    const seen = first.companies.map((c: { id: string }) => c.id);
    let cursor: string | null = first.next_cursor;
    while (cursor) {
      const page = (await call('GET', `/api/tools/admin/companies?limit=3&cursor=${cursor}`, admin)).json();
      seen.push(...page.companies.map((c: { id: string }) => c.id));
      cursor = page.next_cursor;
    }
    assert.equal(seen.length, 7);
    assert.equal(new Set(seen).size, 7);
    assert.deepEqual([...seen].sort(), [...ids].sort());
    const byName = (await call('GET', '/api/tools/admin/companies?q=echo', admin)).json();
    assert.deepEqual(byName.companies.map((c: { name: string }) => c.name), ['Echo Consulting']);
    const offset = (await call('GET', '/api/tools/admin/companies?limit=2&offset=1', admin)).json();
    assert.equal(offset.offset, 1);
    assert.equal(offset.companies.length, 2);
  });

  it('offers views of the list: the verification queue (claimed, not verified), verified, featured, subscribed (issue 38)', async () => {
    const names = async (view: string) => (await call('GET', `/api/tools/admin/companies?limit=100&view=${view}`, admin)).json().companies.map((c: { name: string }) => c.name);
    assert.deepEqual(await names('to_verify'), ['Echo Consulting']);
    assert.deepEqual(await names('unverified'), ['Echo Consulting']);
    const verified = await names('verified');
    assert.ok(verified.length >= 6 && !verified.includes('Echo Consulting'));
    assert.deepEqual(await names('featured'), []);
    assert.deepEqual(await names('subscribed'), []);
    const page = (await call('GET', '/api/tools/admin/companies?view=to_verify', admin)).json();
    assert.equal(page.total, 1);
    assert.equal((await call('GET', '/api/tools/admin/companies?view=pending', admin)).statusCode, 422);
  });

  it('verifies, unverifies, features and sets a subscription, all audited', async () => {
    const id = ids[0]!;
    const v = await call('POST', `/api/tools/admin/companies/${id}/verify`, admin);
    assert.equal(v.statusCode, 200);
    assert.equal(v.json().is_verified, true);
    assert.equal(v.json().accepts_proposals, true);
    assert.equal((await call('POST', `/api/tools/admin/companies/${id}/unverify`, admin)).json().is_verified, false);
    // Featuring is the administrator's decision on any plan (issue 35.7): a free company is featured too.
    assert.deepEqual((await call('GET', '/api/tools/featured')).json(), []);
    const f = await call('POST', `/api/tools/admin/companies/${id}/featured`, admin, { featured: true });
    assert.equal(f.statusCode, 200, f.body);
    assert.equal(f.json().is_featured, true);
    const featured = (await call('GET', '/api/tools/featured')).json();
    assert.deepEqual(featured.map((c: { id: string }) => c.id), [id]);
    assert.equal((await call('POST', `/api/tools/admin/companies/${id}/featured`, admin, { is_featured: true })).statusCode, 422);

    const s = await call('POST', `/api/tools/admin/companies/${id}/subscription`, admin, { plan: 'pro', period_start: '2026-01-01T00:00:00Z', period_months: 12, note: 'invoice 42' });
    assert.equal(s.statusCode, 200, s.body);
    assert.equal(s.json().subscription.plan, 'pro');
    assert.equal(s.json().subscription.period_end, '2027-01-01T00:00:00.000Z');
    assert.equal((await call('GET', `/api/tools/${id}/edit-data`, owner)).json().subscription.plan, 'pro');
    assert.equal((await call('POST', `/api/tools/admin/companies/${id}/subscription`, admin, { plan: 'Pro Plan!' })).statusCode, 422);
    assert.equal((await call('POST', `/api/tools/admin/companies/${id}/subscription`, admin, { plan: 'business' })).statusCode, 422, 'only plans owners can buy (issue 38)');
    assert.equal((await call('POST', `/api/tools/admin/companies/${id}/subscription`, admin, { plan: 'pro', period_start: '2026-02-01T00:00:00Z', period_end: '2026-01-01T00:00:00Z' })).statusCode, 422);
    assert.equal((await call('POST', '/api/tools/admin/companies/00000000-0000-4000-8000-000000000000/verify', admin)).statusCode, 404);

    const log = (await call('GET', `/api/tools/admin/audit-log?target_id=${id}`, admin)).json();
    assert.deepEqual(log.entries.map((e: { action: string }) => e.action), ['companies.subscription', 'companies.featured', 'companies.unverify', 'companies.verify']);
    const verify = log.entries[3];
    assert.deepEqual([verify.before, verify.after], [{ is_verified: false }, { is_verified: true }]);
    assert.equal(verify.admin_email, 'admin@agentpages.test');
    assert.match(verify.target_name, /echo/i, 'the company is named, not only its id');
    assert.equal(log.entries[0].after.plan, 'pro');
    const list = (await call('GET', '/api/tools/admin/companies?q=echo', admin)).json();
    assert.equal(list.companies[0].subscription_plan, 'pro');
  });

  it('starts a reindex run and refuses a second one while it is active', async () => {
    assert.equal((await call('GET', '/api/tools/admin/reindex', admin)).statusCode, 404);
    const first = await call('POST', '/api/tools/admin/reindex', admin);
    assert.equal(first.statusCode, 202, first.body);
    assert.equal(first.json().status, 'queued');
    assert.equal(first.json().total, 8);
    const second = await call('POST', '/api/tools/admin/reindex', admin);
    assert.equal(second.statusCode, 409);
    assert.match(second.json().detail, /already/);
    assert.equal((await call('GET', `/api/tools/admin/reindex/${first.json().id}`, admin)).json().id, first.json().id);
    const log = (await call('GET', '/api/tools/admin/audit-log?action=reindex.start', admin)).json();
    assert.equal(log.total, 1);
  });
});

describe('reindex runs in the background with progress', () => {
  const t = useTestApp({ runJobs: true });

  it('rebuilds every company from stored data while search keeps answering', async () => {
    const ids = await seedCompanies(t.app, Array.from({ length: 40 }, (_, i) => companyFixture({ name: `Reindex Co ${i}`, keywords: [`kw${i}`] })));
    // break the indexes of one company behind the service's back
    await t.db.query('UPDATE companies SET embedding = NULL, embedding_model = NULL WHERE id = $1', [ids[0]]);
    await t.db.query("UPDATE companies SET search_vector = to_tsvector('simple', 'nothing') WHERE id = $1", [ids[0]]);
    const admin = await signInAdmin(t);
    const start = await t.app.inject({ method: 'POST', url: '/api/tools/admin/reindex', headers: bearer(admin) });
    assert.equal(start.statusCode, 202);
    let run = start.json();
    for (let i = 0; i < 600 && run.status !== 'done' && run.status !== 'failed'; i++) {
      // search answers during the run
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?q=reindex' })).statusCode, 200);
      await new Promise((r) => setTimeout(r, 100));
      run = (await t.app.inject({ method: 'GET', url: `/api/tools/admin/reindex/${run.id}`, headers: bearer(admin) })).json();
      assert.ok(run.done <= run.total);
    }
    assert.equal(run.status, 'done', JSON.stringify(run));
    assert.equal(run.done, 40);
    assert.equal(run.progress, 1);
    const rows = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies WHERE embedding IS NULL');
    assert.equal(rows[0]!.n, 0);
    const found = (await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?q=kw0' })).json();
    assert.equal(found.companies[0]?.id, ids[0]);
    // a finished run no longer blocks the next one
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/tools/admin/reindex', headers: bearer(admin) })).statusCode, 202);
  });
});
