import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { companyFixture, seedCompanies, useTestApp } from '../../../test/helpers/index.js';
import { trigramSequence, wordSimilarity } from '../../lib/trigram.js';
import { createSearchRepo, type SearchFilters, type SearchRepo } from './search.repo.js';
import { createSearchIndexSync, type SearchIndexSync } from './search-index.sync.js';
import { NameIndex } from './name-index.js';

// The name side of search answered in process: the same companies and scores as the database's trigram
// search (lower(name) %> q, word_similarity), after every kind of write, on both stores.
const silent = { warn: () => {}, info: () => {} };
const NAMES = [
  'Quillstack Labs', 'Nordhavn Data ApS', 'Wildtrail Safaris', 'Grzegorczyk & Partners', 'Müller Sanitär GmbH', 'Café Zoë',
  'São Paulo Contabilidade', 'ACME-42 Robotics', 'Blue Harbour Plumbing', 'Bluewater Pools', 'Harbor Lights Media', 'Data Dynamics',
  'Dynamo Data', 'Labs & Co', 'The Plumbing Co.', 'Plumb Perfect', 'Zahnarzt Praxis Hamburg', 'Öko Energie Köln', 'Saffron Kitchen',
  'Safari Tours Kenya', 'Nordic Design Studio', 'Nord Stream Logistics', 'A1 Cleaning', '24/7 Locksmiths', 'Łódź Software House',
];
const QUERIES = [
  'quillstack', 'quilstack', 'nordhavn', 'wildtrail safari', 'grzegorczyk', 'grzegorzcyk', 'müller', 'muller', 'cafe zoe', 'café',
  'sao paulo', 'são paulo', 'acme 42', 'acme-42 robotics', 'blue harbour', 'harbor', 'data', 'dynamics data', 'labs', 'plumbing',
  'plumb', 'zahnarzt hamburg', 'öko', 'koln', 'saffron', 'safari', 'nord', 'a1', '24/7', 'lodz', 'łódź software', 'xyz', 'the co',
];
const FILTERS: SearchFilters[] = [{}, { countryCode: 'DE' }, { verifiedOnly: true }, { category: 'Technology', verifiedOnly: true }, { city: 'berlin' }];

describe('name index kept in step with the store', () => {
  let repo: SearchRepo;
  let vs: SearchIndexSync;
  let ids: string[];
  after(async () => {
    await vs.close();
  });
  const t = useTestApp();

  async function fromIndex(query: string, filters: SearchFilters) {
    const { version, docs } = await repo.corpusStats();
    return vs.names(query, filters, 20, version, docs);
  }

  async function assertSameAsDatabase(label: string) {
    for (const q of QUERIES) {
      for (const f of FILTERS) {
        const want = await repo.nameCandidates(q, f, 20);
        const got = await fromIndex(q, f);
        assert.ok(got, `${label}: the index answers ${q}`);
        assert.deepEqual(got.map((r) => r.id), want.map((r) => r.id), `${label}: ${q} ${JSON.stringify(f)}`);
        for (let i = 0; i < got.length; i++) assert.ok(Math.abs(got[i]!.score - want[i]!.score) < 1e-6, `${label}: score of ${q}`);
      }
    }
  }

  before(async () => {
    ids = await seedCompanies(
      t.app,
      NAMES.map((name, i) => companyFixture({ name, city: i % 2 ? 'Berlin' : 'Austin', country: i % 2 ? 'Germany' : 'United States', category: i % 3 ? 'Technology' : 'Finance', is_verified: i % 4 !== 0, keywords: [] })),
    );
    repo = createSearchRepo(t.db);
    vs = createSearchIndexSync(repo, { dimensions: 512, exactBelow: 10_000, buildThreads: 1, log: silent });
    vs.start();
    await vs.ready();
  });

  it('finds the same companies with the same scores as the database, for every filter', async () => {
    await assertSameAsDatabase('loaded');
    // The queries above do match something (the comparison is not between two empty lists).
    assert.ok((await fromIndex('quilstack', {}))!.some((r) => r.id === ids[0]));
  });

  it('sees renames, deletes, restores and inserts on the next search', async () => {
    await t.db.query(`UPDATE companies SET name = 'Moonbeam Bakery' WHERE id = $1`, [ids[0]]);
    assert.deepEqual((await fromIndex('quillstack', {}))!.map((r) => r.id), []);
    assert.equal((await fromIndex('moonbeam', {}))![0]!.id, ids[0]);
    await t.db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [ids[1]]);
    assert.ok(!(await fromIndex('nordhavn', {}))!.some((r) => r.id === ids[1]));
    await t.db.query('UPDATE companies SET deleted_at = NULL WHERE id = $1', [ids[1]]);
    assert.equal((await fromIndex('nordhavn', {}))![0]!.id, ids[1]);
    await t.db.query('DELETE FROM companies WHERE id = $1', [ids[2]]);
    assert.ok(!(await fromIndex('wildtrail', {}))!.some((r) => r.id === ids[2]));
    const [fresh] = (await seedCompanies(t.app, [companyFixture({ name: 'Wildtrail Expeditions', keywords: [] })])) as [string];
    assert.equal((await fromIndex('wildtrail', {}))![0]!.id, fresh);
    await assertSameAsDatabase('after writes');
  });

  it('leaves the answer to the database while a live company has no embedding, and for updated_since', async () => {
    await t.db.query('UPDATE companies SET embedding = NULL WHERE id = $1', [ids[3]]);
    assert.equal(await fromIndex('grzegorczyk', {}), undefined);
    // The search service then asks the database, and still finds it by name.
    const body = (await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?q=grzegorczyk' })).json();
    assert.equal(body.companies[0].id, ids[3]);
    await t.db.query(`UPDATE companies SET embedding = (SELECT embedding FROM companies WHERE id = $2) WHERE id = $1`, [ids[3], ids[4]]);
    assert.ok(await fromIndex('grzegorczyk', {}));
    const { version, docs } = await repo.corpusStats();
    assert.equal(await vs.names('grzegorczyk', { updatedSince: '2020-01-01T00:00:00Z' }, 20, version, docs), undefined);
  });

  it("another instance (the app's own index) finds a company renamed through the database", async () => {
    await t.db.query(`UPDATE companies SET name = 'Zephyrine Kites' WHERE id = $1`, [ids[5]]);
    const body = (await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?q=zephyrine' })).json();
    assert.equal(body.companies[0].id, ids[5]);
  });
});

describe('name postings', () => {
  it('stay correct through many renames and removals (stale entries rebuilt away)', () => {
    const index = new NameIndex('unicode');
    const current = new Map<number, string>();
    let seed = 3;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const syllables = ['quil', 'stack', 'nord', 'havn', 'data', 'labs', 'sun', 'ray', 'blue', 'harb', 'our', 'ko'];
    const word = () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => syllables[Math.floor(rnd() * syllables.length)]).join('');
    for (let step = 0; step < 6000; step++) {
      const slot = Math.floor(rnd() * 300);
      if (rnd() < 0.15) {
        index.remove(slot);
        current.delete(slot);
      } else {
        const name = `${word()} ${word()}`;
        index.set(slot, name);
        current.set(slot, name);
      }
    }
    for (const q of ['quilstack', 'nordhavn data', 'sunray', 'blueharbour', 'labs']) {
      const trigrams = new Set(trigramSequence(q, 'unicode'));
      const want = [...current].filter(([, name]) => wordSimilarity(trigrams, trigramSequence(name, 'unicode')) >= 0.6).map(([slot]) => slot).sort((a, b) => a - b);
      const got = index.candidates(trigrams, 1).filter((slot) => wordSimilarity(trigrams, trigramSequence(index.nameOf(slot)!, 'unicode')) >= 0.6).sort((a, b) => a - b);
      assert.deepEqual(got, want, q);
      // With the bound the search uses, only the rarest postings are read: the same matches.
      const bounded = index.candidates(trigrams, Math.ceil(0.6 * trigrams.size)).filter((slot) => wordSimilarity(trigrams, trigramSequence(index.nameOf(slot)!, 'unicode')) >= 0.6).sort((a, b) => a - b);
      assert.deepEqual(bounded, want, `${q} (bounded)`);
      assert.ok(want.length > 0, q);
    }
  });
});

describe('name candidates from the rarest postings', () => {
  it('are the slots that share enough trigrams, whether the common ones are counted from the lists or from the names', () => {
    const index = new NameIndex('unicode');
    const names = [...Array.from({ length: 1500 }, (_, i) => `Common Labs ${i % 40}`), 'Zyxwv Labs', 'Zyxwv Works', 'Zyx Labs', 'Labs Zyxwv Common'];
    names.forEach((name, slot) => index.set(slot, name));
    for (const q of ['zyxwv labs', 'common labs', 'labs', 'zyxwv', 'common zyx']) {
      const trigrams = new Set(trigramSequence(q, 'unicode'));
      for (const minShared of [1, Math.ceil(0.6 * trigrams.size), trigrams.size]) {
        const want = names.flatMap((name, slot) => {
          const own = new Set(trigramSequence(name.toLowerCase(), 'unicode'));
          return [...trigrams].filter((t) => own.has(t)).length >= minShared ? [slot] : [];
        });
        assert.deepEqual(index.candidates(trigrams, minShared).sort((a, b) => a - b), want, `${q}, ${minShared}`);
      }
    }
  });
});
