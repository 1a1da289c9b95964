import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { companyFixture, seedCompanies, useTestApp } from '../../../test/helpers/index.js';

const url = (qs: string) => `/api/v1/agent/companies${qs ? `?${qs}` : ''}`;

describe('agent company search', () => {
  const t = useTestApp();
  let deletedId: string;

  before(async () => {
    await seedCompanies(t.app, [
      companyFixture({ name: 'Berlin Pipe Doctors', category: 'Construction & Home Services', industry: 'Plumbing', description: 'Emergency plumbers for leaking pipes, blocked drains and boiler repairs.', keywords: ['plumber', 'drains'], country: 'Germany', city: 'Berlin', service_type: 'local', is_verified: true }),
      companyFixture({ name: 'Munich Leak Stop', category: 'Construction & Home Services', industry: 'Plumbing', description: 'Plumbing repairs and bathroom installations in Munich.', keywords: ['plumber'], country: 'DE', city: 'Munich', service_type: 'local', is_verified: false }),
      companyFixture({ name: 'Lyon Ledger', category: 'Finance', industry: 'Accounting', description: 'Bookkeeping and annual accounts for small businesses.', keywords: ['accountant'], country: 'France', city: 'Lyon', service_type: 'remote', is_verified: true }),
      companyFixture({ name: 'Austin Audit Co', category: 'Finance', industry: 'Accounting', description: 'SOC 2 readiness and financial audits for startups.', keywords: ['SOC 2', 'audit'], country: 'United States', city: 'Austin', service_type: 'nationwide', is_verified: true }),
    ]);
    [deletedId] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Gone Plumbing GmbH', category: 'Construction & Home Services', industry: 'Plumbing', description: 'Plumbers that closed down.', keywords: ['plumber'], country: 'Germany', city: 'Berlin' }),
    ])) as [string];
    await t.db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [deletedId]);
  });

  it('finds companies by meaning and words, with the exact envelope and company fields', async () => {
    const res = await t.app.inject({ method: 'GET', url: url('q=plumber%20for%20a%20leaking%20pipe%20in%20Berlin') });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    // "in Berlin" is understood as a place: the envelope says so.
    assert.deepEqual(Object.keys(body).sort(), ['companies', 'has_more', 'limit', 'offset', 'place', 'query', 'total_found']);
    assert.equal(body.place.name, 'Berlin');
    assert.equal(body.place.source, 'q');
    assert.equal(body.query, 'plumber for a leaking pipe in Berlin');
    assert.equal(body.offset, 0);
    assert.equal(body.limit, 10);
    assert.equal(body.companies[0].name, 'Berlin Pipe Doctors');
    const c = body.companies[0];
    assert.equal(typeof c.match_score, 'number');
    assert.ok(c.match_score > 0 && c.match_score <= 1);
    assert.ok(Array.isArray(c.match_sources) && c.match_sources.length > 0);
    for (const s of c.match_sources) assert.ok(['semantic', 'keyword'].includes(s));
    for (const f of ['id', 'name', 'website_url', 'category', 'industry', 'description', 'location', 'service_type', 'is_verified', 'profile_url', 'distance_km']) assert.ok(f in c, f);
    // Scores are sorted best first.
    const scores = body.companies.map((x: { match_score: number }) => x.match_score);
    assert.deepEqual(scores, [...scores].sort((a: number, b: number) => b - a));
  });

  it('finds a rare exact token through the keyword side', async () => {
    const body = (await t.app.inject({ method: 'GET', url: url('q=SOC%202') })).json();
    assert.equal(body.companies[0].name, 'Austin Audit Co');
    assert.ok(body.companies[0].match_sources.includes('keyword'));
  });

  it('never returns deleted companies', async () => {
    for (const qs of ['q=plumbing', 'q=Gone%20Plumbing%20GmbH', '', 'city=berlin']) {
      const body = (await t.app.inject({ method: 'GET', url: url(qs) })).json();
      assert.ok(!body.companies.some((c: { id: string }) => c.id === deletedId), qs);
    }
  });

  it('filters case-insensitively; country by name, ISO2 and ISO3', async () => {
    for (const country of ['germany', 'GERMANY', 'DE', 'de', 'DEU']) {
      const body = (await t.app.inject({ method: 'GET', url: url(`q=plumber&country=${country}`) })).json();
      assert.equal(body.companies.length, 2, country);
      for (const c of body.companies) assert.equal(c.location.country_code, 'DE');
    }
    const city = (await t.app.inject({ method: 'GET', url: url('q=plumber&city=BERLIN') })).json();
    assert.deepEqual(city.companies.map((c: { name: string }) => c.name), ['Berlin Pipe Doctors']);
    const cat = (await t.app.inject({ method: 'GET', url: url('q=accounts&category=FINANCE') })).json();
    assert.ok(cat.companies.length >= 1);
    for (const c of cat.companies) assert.equal(c.category, 'Finance');
    const verified = (await t.app.inject({ method: 'GET', url: url('q=plumber&is_verified=true&country=de') })).json();
    assert.deepEqual(verified.companies.map((c: { name: string }) => c.name), ['Berlin Pipe Doctors']);
    const st = (await t.app.inject({ method: 'GET', url: url('service_type=nationwide') })).json();
    assert.deepEqual(st.companies.map((c: { name: string }) => c.name), ['Austin Audit Co']);
  });

  it('browses without q in the documented order (verified first, then by name) with total_found', async () => {
    const body = (await t.app.inject({ method: 'GET', url: url('') })).json();
    assert.equal(body.query, '');
    assert.equal(body.total_found, 4);
    assert.deepEqual(body.companies.map((c: { name: string }) => c.name), ['Austin Audit Co', 'Berlin Pipe Doctors', 'Lyon Ledger', 'Munich Leak Stop']);
    const again = (await t.app.inject({ method: 'GET', url: url('') })).json();
    assert.deepEqual(again.companies, body.companies);
  });

  it('pages with offset, limit and has_more', async () => {
    const first = (await t.app.inject({ method: 'GET', url: url('limit=3') })).json();
    assert.equal(first.companies.length, 3);
    assert.equal(first.has_more, true);
    const second = (await t.app.inject({ method: 'GET', url: url('limit=3&offset=3') })).json();
    assert.equal(second.companies.length, 1);
    assert.equal(second.has_more, false);
    assert.equal(second.offset, 3);
    const q1 = (await t.app.inject({ method: 'GET', url: url('q=plumbing%20repairs&limit=1') })).json();
    assert.equal(q1.companies.length, 1);
    assert.equal(q1.has_more, q1.total_found > 1);
    const q2 = (await t.app.inject({ method: 'GET', url: url('q=plumbing%20repairs&limit=1&offset=1') })).json();
    assert.ok(q1.total_found > 1, `the fixture has several plumbing companies: ${q1.total_found}`);
    assert.notEqual(q2.companies[0].id, q1.companies[0].id);
  });

  const bounds: [string, (string | number)[]][] = [
    ['limit=0', ['query', 'limit']],
    ['limit=21', ['query', 'limit']],
    ['offset=-1', ['query', 'offset']],
    [`q=${'a'.repeat(2001)}`, ['query', 'q']],
    ['service_type=teleport', ['query', 'service_type']],
    ['is_verified=maybe', ['query', 'is_verified']],
  ];
  for (const [qs, loc] of bounds) {
    it(`answers 422 for ${qs.slice(0, 20)}`, async () => {
      const res = await t.app.inject({ method: 'GET', url: url(qs) });
      assert.equal(res.statusCode, 422);
      const detail = res.json().detail;
      assert.ok(Array.isArray(detail));
      assert.ok(detail.some((d: { loc: unknown[] }) => JSON.stringify(d.loc) === JSON.stringify(loc)), JSON.stringify(detail));
      for (const d of detail) for (const f of ['type', 'loc', 'msg']) assert.ok(f in d);
    });
  }

  it('accepts the bounds themselves (limit 1 and 20, q of 2000 chars)', async () => {
    for (const qs of ['limit=1', 'limit=20', `q=${'a'.repeat(2000)}`]) {
      assert.equal((await t.app.inject({ method: 'GET', url: url(qs) })).statusCode, 200, qs.slice(0, 20));
    }
  });

  it('keeps the term statistics equal to a recount after inserts, updates and deletes', async () => {
    await t.db.query("UPDATE companies SET description = 'Now only gutters and roofs.' WHERE name = 'Munich Leak Stop'");
    const stored = await t.db.query<{ lexeme: string; df: number }>('SELECT lexeme, df FROM search_term_stats WHERE df <> 0 ORDER BY lexeme');
    const recount = await t.db.query<{ lexeme: string; df: number }>(
      'SELECT u.lexeme, count(*)::int AS df FROM companies c, unnest(c.search_vector) u WHERE c.deleted_at IS NULL GROUP BY u.lexeme ORDER BY u.lexeme',
    );
    assert.deepEqual(stored, recount);
    const [stats] = await t.db.query<{ docs: number; lexemes: number }>('SELECT docs::int AS docs, lexemes::int AS lexemes FROM search_corpus_stats');
    const [real] = await t.db.query<{ docs: number; lexemes: number }>('SELECT count(*)::int AS docs, sum(length(search_vector))::int AS lexemes FROM companies WHERE deleted_at IS NULL');
    assert.deepEqual(stats, real);
  });

  it('reflects a write in the next identical search (cache invalidated by writes)', async () => {
    const before = (await t.app.inject({ method: 'GET', url: url('q=harpsichord%20tuning') })).json();
    assert.ok(!before.companies.some((c: { name: string }) => c.name === 'Cembalo Care'));
    await seedCompanies(t.app, [companyFixture({ name: 'Cembalo Care', industry: 'Instrument repair', description: 'Harpsichord tuning and restoration.', keywords: ['harpsichord'] })]);
    const after = (await t.app.inject({ method: 'GET', url: url('q=harpsichord%20tuning') })).json();
    assert.equal(after.companies[0].name, 'Cembalo Care');
  });
});
