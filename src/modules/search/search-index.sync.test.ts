import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { companyFixture, seedCompanies, testEmbeddings, useTestApp } from '../../../test/helpers/index.js';
import { toPgVector } from '../../platform/embeddings/embeddings.js';
import { createSearchRepo, type SearchFilters, type SearchRepo } from './search.repo.js';
import { createSearchIndexSync, type SearchIndexSync } from './search-index.sync.js';

// The in-process vector index against a real store: the same answers as the database, and every
// kind of write seen by the next search, also by an index in another services instance.
const silent = { warn: () => {}, info: () => {} };
const CITIES = [
  { city: 'Berlin', country: 'Germany' },
  { city: 'Munich', country: 'Germany' },
  { city: 'Austin', country: 'United States' },
  { city: 'Lyon', country: 'France' },
];
const KINDS = [
  { category: 'Construction & Home Services', industry: 'Plumbing', description: 'Emergency plumbers for leaking pipes and blocked drains.' },
  { category: 'Finance', industry: 'Accounting', description: 'Bookkeeping, payroll and annual accounts for small businesses.' },
  { category: 'Technology', industry: 'Software development', description: 'Custom web and mobile applications for startups.' },
  { category: 'Healthcare', industry: 'Dental care', description: 'Family dentist for check-ups, fillings and implants.' },
];
const TYPES = ['local', 'remote', 'hybrid', 'nationwide'] as const;

const FILTERS: SearchFilters[] = [
  {},
  { category: 'Finance' },
  { countryCode: 'DE' },
  { countryName: 'Narnia' },
  { city: 'lyon' },
  { industry: 'dental' },
  { serviceType: 'remote' },
  { verifiedOnly: true },
  { category: 'Technology', countryCode: 'US', verifiedOnly: true },
  { near: { latitude: 52.52, longitude: 13.405, radiusKm: 50, countryCode: 'DE', includeRemote: false } },
  { near: { latitude: 52.52, longitude: 13.405, radiusKm: 50, countryCode: 'DE', includeRemote: true } },
];

describe('vector index kept in step with the store', () => {
  let repo: SearchRepo;
  let vs: SearchIndexSync;
  let ids: string[];
  // Registered before useTestApp's own `after`, so the index stops before the store it reads closes.
  after(async () => {
    await vs.close();
  });
  const t = useTestApp();

  /** The database's exact answer (no HNSW): the reference. */
  async function exact(vector: number[], filters: SearchFilters, limit: number) {
    const rows = await repo.semanticCandidates(toPgVector(vector), { ...filters, category: filters.category ?? undefined }, limit, 1_000_000);
    if (Object.values(filters).some((v) => v !== undefined)) return rows;
    // Unfiltered, semanticCandidates uses HNSW: score every row instead.
    return t.db.query<{ id: string; score: number }>(
      `SELECT id, 1 - (embedding <=> $1::vector) AS score FROM companies WHERE deleted_at IS NULL AND embedding IS NOT NULL ORDER BY (embedding <=> $1::vector) + 0, id LIMIT $2`,
      [toPgVector(vector), limit],
    );
  }

  async function fromIndex(index: SearchIndexSync, vector: number[], filters: SearchFilters, limit: number) {
    const { version } = await repo.corpusStats();
    return index.candidates(Float32Array.from(vector), filters, limit, version);
  }

  before(async () => {
    const inputs = [];
    for (let i = 0; i < 32; i++) {
      inputs.push(companyFixture({ ...KINDS[i % 4]!, ...CITIES[Math.floor(i / 4) % 4]!, name: `Vector Co ${i}`, service_type: TYPES[(i * 3) % 4]!, is_verified: i % 3 !== 0, keywords: [] }));
    }
    ids = await seedCompanies(t.app, inputs);
    repo = createSearchRepo(t.db);
    vs = createSearchIndexSync(repo, { dimensions: 512, exactBelow: 10_000, buildThreads: 1, log: silent });
    vs.start();
    await vs.ready();
  });

  it('loads every live company with an embedding', () => {
    assert.deepEqual(vs.status(), { state: 'ready', companies: 32, graph: 'none', rows: 'in memory', graphSearchesOnThreads: 0, syncedVersion: vs.status().syncedVersion });
  });

  it('gives the database exact answer for every filter', async () => {
    for (const q of ['leaking pipe', 'accountant for my shop', 'app developer']) {
      const v = await testEmbeddings().embedQuery(q);
      for (const f of FILTERS) {
        const want = await exact(v, f, 10);
        const got = (await fromIndex(vs, v, f, 10))!;
        assert.deepEqual(got.map((r) => r.id), want.map((r) => r.id), `${q} ${JSON.stringify(f)}`);
        for (let i = 0; i < got.length; i++) assert.ok(Math.abs(got[i]!.score - want[i]!.score) < 1e-4);
      }
    }
  });

  it("gives a browse's total as the database counts it, and leaves near and updated_since to the database", async () => {
    const { version, docs } = await repo.corpusStats();
    for (const f of FILTERS) {
      const counted = await vs.count(f, version, docs);
      if (f.near) {
        assert.equal(counted, undefined);
        continue;
      }
      assert.equal(counted, (await repo.browse(f, 1, 0)).total, JSON.stringify(f));
    }
    assert.equal(await vs.count({ updatedSince: '2020-01-01T00:00:00Z' }, version, docs), undefined);
    // A live company without an embedding is not in the index: the database counts.
    assert.equal(await vs.count({}, version, docs + 1), undefined);
  });

  it('sees every write on the next search: update, soft delete, restore, hard delete, insert', async () => {
    const v = await testEmbeddings().embedQuery('family dentist');
    const dentist = (await exact(v, {}, 1))[0]!;
    // Update a filtered column.
    await t.db.query(`UPDATE companies SET category = 'Legal' WHERE id = $1`, [dentist.id]);
    assert.deepEqual((await fromIndex(vs, v, { category: 'Legal' }, 5))!.map((r) => r.id), [dentist.id]);
    // Soft delete, then restore.
    await t.db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [dentist.id]);
    assert.ok(!(await fromIndex(vs, v, {}, 32))!.some((r) => r.id === dentist.id));
    await t.db.query('UPDATE companies SET deleted_at = NULL WHERE id = $1', [dentist.id]);
    assert.equal((await fromIndex(vs, v, {}, 1))![0]!.id, dentist.id);
    // A new embedding moves the company.
    const other = await testEmbeddings().embedQuery('tax lawyer for inheritance disputes');
    await t.db.query('UPDATE companies SET embedding = $2::vector WHERE id = $1', [ids[5], toPgVector(other)]);
    assert.equal((await fromIndex(vs, other, {}, 1))![0]!.id, ids[5]);
    // Hard delete.
    await t.db.query('DELETE FROM companies WHERE id = $1', [ids[5]]);
    assert.ok(!(await fromIndex(vs, other, {}, 40))!.some((r) => r.id === ids[5]));
    // Insert through the service.
    const [fresh] = (await seedCompanies(t.app, [companyFixture({ name: 'Glacier Ice Sculptures', category: 'Technology', industry: 'Ice sculpture', description: 'Ice sculptures carved for weddings and gala dinners.', keywords: [] })])) as [string];
    const ice = await testEmbeddings().embedQuery('ice sculptures for a wedding');
    assert.equal((await fromIndex(vs, ice, {}, 1))![0]!.id, fresh);
    // After all of it, still the database's answer.
    for (const f of FILTERS) assert.deepEqual((await fromIndex(vs, v, f, 10))!.map((r) => r.id), (await exact(v, f, 10)).map((r) => r.id), JSON.stringify(f));
  });

  it("another instance (the app's own index) sees the same writes, and health reports it", async () => {
    const own = t.app.services.search;
    const status = own.vectorIndexStatus();
    assert.ok(status && ['loading', 'ready'].includes(status.state));
    const health = (await t.app.inject({ method: 'GET', url: '/api/health/deep' })).json();
    assert.equal(health.checks.vector_index.ok, true);
    assert.match(health.checks.vector_index.detail, /companies, graph/);
    // A write through the database is found by a search through the app's HTTP route.
    const [id] = (await seedCompanies(t.app, [companyFixture({ name: 'Harbour Sail Repairs', category: 'Construction & Home Services', industry: 'Sail repair', description: 'Sailmakers repairing torn sails and canvas covers.', keywords: [] })])) as [string];
    const body = (await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?q=fix%20a%20torn%20sail&search_type=semantic' })).json();
    assert.equal(body.companies[0].id, id);
  });

  it('answers through the HNSW graph above exactBelow, and keeps it updated', async () => {
    const graphIndex = createSearchIndexSync(repo, { dimensions: 512, exactBelow: 8, buildThreads: 1, log: silent });
    graphIndex.start();
    await graphIndex.ready();
    try {
      assert.equal(graphIndex.status().graph, 'ready');
      let overlap = 0;
      for (const q of ['plumber', 'bookkeeping', 'dentist implants', 'mobile apps', 'accounting Berlin']) {
        const v = await testEmbeddings().embedQuery(q);
        const want = new Set((await exact(v, {}, 5)).map((r) => r.id));
        for (const r of (await fromIndex(graphIndex, v, {}, 5))!) if (want.has(r.id)) overlap++;
        // Filtered: only rows that pass; rare filters fall to the exact scan.
        for (const f of FILTERS.slice(1)) {
          const got = (await fromIndex(graphIndex, v, f, 5))!;
          assert.deepEqual(got.map((r) => r.id), (await exact(v, f, 5)).map((r) => r.id), JSON.stringify(f));
        }
      }
      assert.ok(overlap >= 24, `recall ${overlap}/25`);
      const [id] = (await seedCompanies(t.app, [companyFixture({ name: 'Falcon Drone Surveys', category: 'Technology', industry: 'Drone surveying', description: 'Aerial drone surveys and roof inspections.', keywords: [] })])) as [string];
      const v = await testEmbeddings().embedQuery('drone roof inspection');
      assert.equal((await fromIndex(graphIndex, v, {}, 1))![0]!.id, id);
    } finally {
      await graphIndex.close();
    }
  });

  it('leaves updated_since to the database, and answers undefined until loaded and after close', async () => {
    const v = await testEmbeddings().embedQuery('plumber');
    assert.equal(await fromIndex(vs, v, { updatedSince: '2020-01-01T00:00:00Z' }, 5), undefined);
    const idle = createSearchIndexSync(repo, { dimensions: 512, exactBelow: 10_000, buildThreads: 1, log: silent });
    assert.equal(await fromIndex(idle, v, {}, 5), undefined);
    idle.start();
    await idle.ready();
    await idle.close();
    assert.equal(await fromIndex(idle, v, {}, 5), undefined);
  });
});
