import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { companyFixture, seedCompanies, useTestApp } from '../../../test/helpers/index.js';
import { queryTerms } from '../../lib/search-query.js';
import { addContribution, finishRank, lexemeContribution, parseTsvector, rankWeights } from '../../lib/ts-rank.js';
import { createSearchRepo, type QueryLexeme, type SearchFilters, type SearchRepo } from './search.repo.js';
import { createSearchService } from './search.service.js';
import { defaultTuning } from './search.tuning.js';
import { createSearchIndexSync, type SearchIndexSync } from './search-index.sync.js';
import { KeywordIndex, type KeywordQuery } from './keyword-index.js';

// The keyword side of search answered in process: the same document frequencies, companies and scores as the
// database's BM25F over ts_rank (search.repo termLexemes and keywordCandidates), after every kind of write,
// on both stores.
const silent = { warn: () => {}, info: () => {} };
const settings = { fieldWeights: defaultTuning.fieldWeights, prefixLength: defaultTuning.prefixMinLength };
const WORDS = [
  'plumbing', 'plumber', 'plumbers', 'emergency', 'repair', 'dental', 'dentist', 'zahnarzt', 'zahnarztpraxis', 'software', 'consulting',
  'consultancy', 'consultant', 'accounting', 'tax', 'audit', 'wedding', 'photography', 'photographer', 'solar', 'installation', 'roofing',
  'café', 'müller', 'straße', "o'brien", 'back\\slash', 'e-commerce', 'ai', 'soc', '2', 'kubernetes', 'security', 'cleaning', 'office',
];
const QUERIES = [
  'plumber', 'plumbers berlin', 'emergency plumbing repair', 'dentist', 'zahnarzt', 'software consulting', 'consult', 'consultancy firm',
  'tax audit accounting', 'wedding photographer', 'solar installation', 'café müller', 'straße', "o'brien", 'e-commerce', 'soc 2 audit',
  'kubernetes security', 'office cleaning', 'the best', 'photograph', 'roofing repair emergency', 'xyzzy', 'ai', 'backslash',
];
const FILTERS: SearchFilters[] = [{}, { countryCode: 'DE' }, { verifiedOnly: true }, { category: 'Technology', verifiedOnly: true }, { city: 'berlin' }, { industry: 'repair' }];

let seed = 7;
const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]!);

function fixture(i: number) {
  return companyFixture({
    name: `${words(1)[0]!.replace(/^./, (c) => c.toUpperCase())} ${['Partners', 'Studio', 'Works', 'Group'][i % 4]}`,
    industry: `${words(2).join(' ')} services`,
    description: `${words(8).join(' ')}. We offer ${words(5).join(', ')} and ${words(3).join(' ')}.`,
    keywords: words(3),
    city: i % 2 ? 'Berlin' : 'Austin',
    country: i % 2 ? 'Germany' : 'United States',
    category: i % 3 ? 'Technology' : 'Finance',
    is_verified: i % 4 !== 0,
  });
}

describe('keyword index kept in step with the store', () => {
  let repo: SearchRepo;
  let vs: SearchIndexSync;
  let ids: string[];
  after(async () => {
    await vs.close();
  });
  const t = useTestApp();

  /** A plan as search.service makes one: every present lexeme finds candidates. */
  function plan(lexemes: QueryLexeme[], docs: number, lexemeTotal: number): KeywordQuery {
    const present = lexemes.filter((l) => l.df > 0);
    const idf = (df: number) => Math.log(1 + (docs - df + 0.5) / (df + 0.5));
    return { match: present, scored: present.map((l) => ({ ...l, idf: idf(l.df) * (l.prefix ? 0.75 : 1) })), avgLength: lexemeTotal / docs, k1: 1.2, b: 0.75 };
  }

  async function assertSameAsDatabase(label: string) {
    const stats = await repo.corpusStats();
    for (const text of QUERIES) {
      const terms = queryTerms(text);
      const fromDb = await repo.termLexemes(terms, settings.prefixLength);
      const forms = await repo.termForms(terms, settings.prefixLength);
      const order = (l: { term: number; lexeme: string; prefix: boolean }) => `${l.term}|${l.lexeme}|${l.prefix}`;
      for (const f of FILTERS) {
        const got = await vs.keywords(stats.version, stats.docs, settings, (index) => {
          const lexemes = index.frequencies(forms);
          assert.deepEqual(lexemes.map((l) => [order(l), l.df]).sort(), fromDb.map((l) => [order(l), l.df]).sort(), `${label}: frequencies of ${text}`);
          const q = plan(lexemes, stats.docs, stats.lexemes);
          return { q, rows: index.candidates(q, f, 200, 10_000) };
        });
        assert.ok(got?.rows, `${label}: the index answers ${text}`);
        const want = got.q.match.length ? await repo.keywordCandidates({ ...got.q, fieldWeights: settings.fieldWeights }, f, 200, 10_000) : [];
        assert.deepEqual(got.rows.map((r) => r.id), want.map((r) => r.id), `${label}: ${text} ${JSON.stringify(f)}`);
        for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got.rows[i]!.score - want[i]!.score) <= 1e-9 * Math.max(1, want[i]!.score), `${label}: score of ${text}: ${got.rows[i]!.score} vs ${want[i]!.score}`);
      }
    }
  }

  before(async () => {
    ids = await seedCompanies(t.app, Array.from({ length: 40 }, (_, i) => fixture(i)));
    repo = createSearchRepo(t.db);
    vs = createSearchIndexSync(repo, { dimensions: 512, exactBelow: 10_000, buildThreads: 1, keywords: settings, log: silent });
    vs.start();
    await vs.ready();
  });

  it('computes ts_rank as the database does, in single precision', async () => {
    const weights = rankWeights(settings.fieldWeights);
    const vectors = ["'plumb':1A,4,9B 'plumber':2C,3,5,7,8,10A", "'a':1 'b':2B,3C", "'x':5,6,7,8,9,10,11,12,13,14,15,16,17A"];
    for (const v of vectors) {
      for (const query of ['plumb', 'plumber:*', 'a | b', 'x', 'plumb | plumber']) {
        const [row] = await t.db.query<{ r: number }>(`SELECT ts_rank($1::float4[], $2::tsvector, $3::tsquery, 0)::float8 AS r`, [weights.sql, v, query]);
        const items = query.split(' | ');
        let sum = 0;
        for (const item of items) {
          const prefix = item.endsWith(':*');
          const word = item.replace(':*', '');
          for (const e of parseTsvector(v)) if (prefix ? e.lexeme.startsWith(word) : e.lexeme === word) sum = addContribution(sum, lexemeContribution(e.labels, weights.labels));
        }
        assert.equal(finishRank(sum, items.length), row!.r, `${v} / ${query}`);
      }
    }
  });

  it('reads the database text form of tsvectors, quotes and backslashes included', async () => {
    const [row] = await t.db.query<{ v: string; w: string }>(
      `SELECT $1::tsvector::text AS v, setweight(array_to_tsvector($2::text[]), 'B')::text AS w`,
      ["'o''brien':1B,3A 'back\\\\slash':2 'x y':4C", ["it's", 'a\\b']],
    );
    assert.deepEqual(parseTsvector(row!.v), [
      { lexeme: 'back\\slash', labels: [0] },
      { lexeme: "o'brien", labels: [2, 3] },
      { lexeme: 'x y', labels: [1] },
    ]);
    // Without positions, a lexeme counts as one position of weight D.
    assert.deepEqual(parseTsvector(row!.w), [{ lexeme: 'a\\b', labels: [0] }, { lexeme: "it's", labels: [0] }]);
  });

  it('finds the same companies with the same scores and frequencies as the database, for every filter', async () => {
    await assertSameAsDatabase('loaded');
    const stats = await repo.corpusStats();
    // The queries do match something (the comparison is not between two empty lists).
    const found = await vs.keywords(stats.version, stats.docs, settings, (index) => index.candidates(plan(index.frequencies([{ term: 0, lexeme: 'plumber', prefix: false }]), stats.docs, stats.lexemes), {}, 50, 400));
    assert.ok(found && found.length > 0);
  });

  it('sees edits, deletes, restores and inserts on the next search', async () => {
    await t.db.query(`UPDATE companies SET description = 'Harpsichord tuning and restoration.' WHERE id = $1`, [ids[0]]);
    await t.db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [ids[1]]);
    await assertSameAsDatabase('after an edit and a soft delete');
    await t.db.query('UPDATE companies SET deleted_at = NULL WHERE id = $1', [ids[1]]);
    await t.db.query('DELETE FROM companies WHERE id = $1', [ids[2]]);
    await seedCompanies(t.app, Array.from({ length: 5 }, (_, i) => fixture(100 + i)));
    await assertSameAsDatabase('after a restore, a hard delete and inserts');
    const stats = await repo.corpusStats();
    const harpsichord = await vs.keywords(stats.version, stats.docs, settings, (index) =>
      index.candidates(plan(index.frequencies([{ term: 0, lexeme: 'harpsichord', prefix: false }]), stats.docs, stats.lexemes), {}, 10, 400),
    );
    assert.deepEqual(harpsichord?.map((r) => r.id), [ids[0]]);
  });

  it('leaves to the database a search at another version, one with a company the index lacks, or other tuning', async () => {
    const stats = await repo.corpusStats();
    const use = () => 'index';
    assert.equal(await vs.keywords(stats.version, stats.docs, settings, use), 'index');
    assert.equal(await vs.keywords(stats.version, stats.docs + 1, settings, use), undefined);
    assert.equal(await vs.keywords(stats.version, stats.docs, { ...settings, fieldWeights: [2, 1.5, 1, 0.5] }, use), undefined);
    // A live company without an embedding is not in the index: the database answers.
    await t.db.query('UPDATE companies SET embedding = NULL WHERE id = $1', [ids[3]]);
    const now = await repo.corpusStats();
    assert.equal(await vs.keywords(now.version, now.docs, settings, use), undefined);
    await t.db.query(`UPDATE companies SET embedding = array_fill(0.01, ARRAY[512])::vector WHERE id = $1`, [ids[3]]);
  });

  it('gives the search the same answer with and without the index, and sees another instance\'s writes', async () => {
    const withIndex = t.app.services.search;
    const without = createSearchService({ repo, companies: t.app.services.companies, embeddings: t.app.services.embeddings });
    await t.app.services.search.search({ q: 'warm up' });
    // Written through the database directly (as another instance would): the app's own index catches up.
    await t.db.query(`UPDATE companies SET description = 'Clavichord voicing specialists.' WHERE id = $1`, [ids[4]]);
    for (const q of [...QUERIES, 'clavichord voicing']) {
      for (const filters of [{}, { country: 'Germany', is_verified: true }]) {
        const a = await withIndex.search({ q, ...filters }, 'keyword');
        const b = await without.search({ q, ...filters }, 'keyword');
        assert.deepEqual(a.companies.map((c) => [c.id, c.match_score]), b.companies.map((c) => [c.id, c.match_score]), q);
      }
    }
    assert.equal((await withIndex.search({ q: 'clavichord voicing' }, 'keyword')).companies[0]?.id, ids[4]);
  });
});

describe('keyword postings', () => {
  it('keep frequencies and candidates right through many edits and removals (stale postings rebuilt away)', () => {
    const index = new KeywordIndex(settings.fieldWeights, settings.prefixLength);
    const current = new Map<number, string[]>();
    let seed = 11;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const vocab = ['plumb', 'plumber', 'plumbing', 'dental', 'dentist', 'solar', 'solaris', 'roof', 'roofing', 'tax', 'audit', 'cafe'];
    for (let step = 0; step < 8000; step++) {
      const slot = Math.floor(rnd() * 400);
      if (rnd() < 0.15) {
        index.remove(slot);
        current.delete(slot);
      } else {
        const lexemes = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => vocab[Math.floor(rnd() * vocab.length)]!))].sort();
        index.set(slot, lexemes.map((l, i) => `'${l}':${i + 1}${'ABC'[i % 3]}`).join(' '));
        current.set(slot, lexemes);
      }
    }
    for (const [lexeme, prefix] of [['plumb', true], ['plumber', false], ['dent', true], ['solar', true], ['cafe', false]] as const) {
      const matches = (l: string) => (prefix ? l.startsWith(lexeme) : l === lexeme);
      const holding = (l: string) => [...current.values()].filter((ls) => ls.includes(l)).length;
      const df = prefix ? vocab.filter((l) => l !== lexeme && l.startsWith(lexeme)).reduce((n, l) => n + holding(l), 0) : holding(lexeme);
      assert.equal(index.frequencies([{ term: 0, lexeme, prefix }])[0]!.df, df, lexeme);
      const got: number[] = [];
      const q = { match: [{ lexeme, prefix }], scored: [{ term: 0, lexeme, prefix, idf: 1 }], avgLength: 3, k1: 1.2, b: 0.75 };
      index.score(q, () => true, 10_000, (slot, score) => {
        assert.ok(score > 0);
        got.push(slot);
      });
      const want = [...current].filter(([, ls]) => ls.some(matches)).map(([slot]) => slot);
      assert.deepEqual(got.sort((a, b) => a - b), want.sort((a, b) => a - b), lexeme);
      assert.ok(want.length > 0, lexeme);
    }
  });
});
