import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SearchFilters } from './search.repo.js';
import { SearchIndex, type IndexRow } from './search-index.js';
import { addRows, inMemoryGraph, newGraph } from './vector-graph.js';
import { loadNativeKernels } from '../../platform/native.js';

// Pure tests of the in-memory index (no database): exact answers, the HNSW path and its fallbacks.
const D = 32;
let seed = 7;
const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const CATEGORIES = ['Technology', 'Finance', 'Healthcare', 'Legal'];
const CITIES: [string, string, string, number, number][] = [
  ['Berlin', 'DE', 'Germany', 52.52, 13.405],
  ['Munich', 'DE', 'Germany', 48.137, 11.575],
  ['Austin', 'US', 'United States', 30.267, -97.743],
  ['Lyon', 'FR', 'France', 45.764, 4.835],
];
const TYPES = ['local', 'remote', 'hybrid', 'nationwide'];

function randomVector(): Float32Array {
  const v = new Float32Array(D);
  for (let i = 0; i < D; i++) v[i] = rnd() * 2 - 1;
  return v;
}

function row(i: number): IndexRow {
  const [city, countryCode, country, latitude, longitude] = CITIES[i % CITIES.length]!;
  return {
    id: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
    name: `Company ${i}`,
    searchVector: `'compani':1A '${i}':2A`,
    vector: randomVector(),
    removed: false,
    category: CATEGORIES[i % 3 === 0 ? 0 : (i * 7) % CATEGORIES.length]!,
    countryCode,
    country,
    city,
    industry: i % 5 === 0 ? 'Software Development' : 'Consulting',
    serviceType: TYPES[(i * 3) % TYPES.length]!,
    verified: i % 4 !== 0,
    latitude: i % 11 === 0 ? null : latitude,
    longitude: i % 11 === 0 ? null : longitude,
  };
}

/** The reference: every row scored, filtered by plain code written from the SQL of search.repo. */
function bruteForce(rows: Map<string, IndexRow>, q: Float32Array, f: SearchFilters, limit: number) {
  const unit = (v: Float32Array) => {
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return [...v].map((x) => x / n);
  };
  const uq = unit(q);
  const out: { id: string; score: number }[] = [];
  for (const r of rows.values()) {
    if (f.category && r.category.toLowerCase() !== f.category.toLowerCase()) continue;
    if (f.countryCode && r.countryCode !== f.countryCode) continue;
    if (f.city && r.city.toLowerCase() !== f.city.toLowerCase()) continue;
    if (f.industry && !r.industry.toLowerCase().includes(f.industry.toLowerCase())) continue;
    if (f.serviceType && r.serviceType !== f.serviceType) continue;
    if (f.verifiedOnly && !r.verified) continue;
    const uv = unit(r.vector!);
    out.push({ id: r.id, score: uv.reduce((s, x, i) => s + x * uq[i]!, 0) });
  }
  return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
}

const FILTERS: SearchFilters[] = [
  {},
  { category: 'technology' },
  { countryCode: 'DE' },
  { city: 'LYON' },
  { industry: 'software' },
  { serviceType: 'remote' },
  { verifiedOnly: true },
  { category: 'Finance', countryCode: 'US', verifiedOnly: true },
  { category: 'Legal', city: 'Berlin', serviceType: 'hybrid' },
];

function ids(list: { id: string }[] | undefined) {
  return list?.map((x) => x.id);
}

/**
 * The index keeps vectors as half floats: each component is off by at most 2^-11 of itself, so a cosine by at most
 * 2^-11 (Cauchy-Schwarz; about 1e-5 for spread-out vectors, more for these seeded ones), and two companies whose
 * cosines differ by less may swap. `got` is exact up to that: its i-th score is the i-th best score, and each
 * company's score is its own cosine, within the bound.
 */
const HALF_TOLERANCE = 2 ** -11;
function assertNearlyExact(rows: Map<string, IndexRow>, q: Float32Array, f: SearchFilters, limit: number, got: { id: string; score: number }[] | undefined, message = '') {
  const all = bruteForce(rows, q, f, rows.size);
  const truth = new Map(all.map((r) => [r.id, r.score]));
  const want = all.slice(0, limit);
  assert.ok(got, message);
  assert.equal(got.length, want.length, message);
  got.forEach((g, i) => {
    assert.ok(Math.abs(g.score - want[i]!.score) < HALF_TOLERANCE, `${message}: rank ${i} scored ${g.score}, the exact ${want[i]!.score}`);
    assert.ok(truth.has(g.id) && Math.abs(truth.get(g.id)! - g.score) < HALF_TOLERANCE, `${message}: ${g.id} passes the filter and keeps its score`);
  });
}

/** What the builder thread does, here in-process. */
function buildGraph(index: SearchIndex) {
  const graph = newGraph(D);
  addRows(graph, index.snapshotForBuild(), D, 1);
  return inMemoryGraph(graph);
}

describe('vector index', () => {
  it('answers exactly like a full scan under every filter (small directory: exact scan)', () => {
    const index = new SearchIndex({ dimensions: D, exactBelow: 10_000, oversample: 3 });
    const rows = new Map<string, IndexRow>();
    for (let i = 0; i < 600; i++) {
      const r = row(i);
      rows.set(r.id, r);
      index.apply(r);
    }
    for (const f of FILTERS) {
      const q = randomVector();
      assertNearlyExact(rows, q, f, 10, index.search(q, f, 10), JSON.stringify(f));
    }
    // A filter nothing matches, and updated_since (left to the database).
    assert.deepEqual(index.search(randomVector(), { city: 'Nowhere' }, 10), []);
    assert.equal(index.search(randomVector(), { updatedSince: '2026-01-01T00:00:00Z' }, 10), undefined);
  });

  it('gives the same exact-scan answers with the native kernel and with the JavaScript loop', (t) => {
    if (!loadNativeKernels()) return t.skip('native kernels not built');
    const plain = new SearchIndex({ dimensions: D, exactBelow: 10_000, oversample: 3, nativeKernels: false });
    const native = new SearchIndex({ dimensions: D, exactBelow: 10_000, oversample: 3 });
    for (let i = 0; i < 500; i++) {
      const r = row(i);
      plain.apply(r);
      native.apply(r);
    }
    for (const f of FILTERS.filter((x) => Object.keys(x).length > 0)) {
      const q = randomVector();
      const a = plain.search(q, f, 20)!;
      const b = native.search(q, f, 20)!;
      assert.deepEqual(ids(b), ids(a), JSON.stringify(f));
      b.forEach((x, i) => assert.ok(Math.abs(x.score - a[i]!.score) < 1e-6));
    }
  });

  it('evaluates near like the SQL: within the radius, and remote providers when asked', () => {
    const index = new SearchIndex({ dimensions: D, exactBelow: 10_000, oversample: 3 });
    for (let i = 0; i < 200; i++) index.apply(row(i));
    const berlin = { latitude: 52.52, longitude: 13.405, radiusKm: 50, countryCode: 'DE' };
    const local = index.search(randomVector(), { near: { ...berlin, includeRemote: false } }, 200)!;
    // Rows 0, 4, 8, ... are in Berlin; those with i % 11 === 0 have no coordinates.
    const expectLocal = new Set([...Array(200).keys()].filter((i) => i % 4 === 0 && i % 11 !== 0).map((i) => row(i).id));
    assert.deepEqual(new Set(ids(local)), expectLocal);
    const wide = index.search(randomVector(), { near: { ...berlin, includeRemote: true } }, 200)!;
    const expectWide = [...Array(200).keys()].filter((i) => {
      const r = row(i);
      return expectLocal.has(r.id) || r.serviceType === 'remote' || r.serviceType === 'hybrid' || (r.serviceType === 'nationwide' && r.countryCode === 'DE');
    });
    assert.equal(wide.length, expectWide.length);
  });

  it('gives each held company\'s place facts as the database has them, and leaves out what it does not hold', () => {
    const index = new SearchIndex({ dimensions: D, exactBelow: 10_000, oversample: 3 });
    for (let i = 0; i < 30; i++) index.apply(row(i));
    index.apply({ ...row(5), removed: true });
    const facts = index.placeFacts([row(1).id, row(11).id, row(5).id, 'not-held']);
    assert.deepEqual(facts.get(row(1).id), { latitude: 48.137, longitude: 11.575, service_type: row(1).serviceType, country_code: 'DE' });
    // No coordinates: null, as the columns of the companies table.
    assert.deepEqual(facts.get(row(11).id), { latitude: null, longitude: null, service_type: row(11).serviceType, country_code: row(11).countryCode });
    assert.deepEqual([...facts.keys()].sort(), [row(1).id, row(11).id].sort());
  });

  it('follows writes: replace, remove, re-add, and rows without an embedding are not indexed', () => {
    const index = new SearchIndex({ dimensions: D, exactBelow: 10_000, oversample: 3 });
    const a = row(1);
    index.apply(a);
    index.apply(row(2));
    const q = a.vector!;
    assert.equal(index.search(q, {}, 1)![0]!.id, a.id);
    index.apply({ ...a, category: 'Legal' });
    assert.deepEqual(ids(index.search(q, { category: 'legal' }, 5)), [a.id]);
    index.apply({ ...a, removed: true });
    assert.equal(index.size, 1);
    assert.notEqual(index.search(q, {}, 1)![0]!.id, a.id);
    index.apply(a);
    assert.equal(index.search(q, {}, 1)![0]!.id, a.id);
    index.apply({ ...a, vector: null });
    assert.equal(index.size, 1);
    index.remove(row(2).id);
    assert.deepEqual(index.search(q, {}, 5), []);
  });

  it('uses the HNSW graph above exactBelow with high recall, and the exact scan when a filter is rare', () => {
    const index = new SearchIndex({ dimensions: D, exactBelow: 100, oversample: 3 });
    const rows = new Map<string, IndexRow>();
    for (let i = 0; i < 3000; i++) {
      const r = row(i);
      rows.set(r.id, r);
      index.apply(r);
    }
    // No graph yet and too many rows for an exact scan: the database answers.
    assert.equal(index.search(randomVector(), {}, 10), undefined);
    const graph = buildGraph(index);
    // A write while the graph was being built is replayed on install.
    const late = { ...row(5000), id: 'ffffffff-0000-0000-0000-000000000000' };
    index.apply(late);
    rows.set(late.id, late);
    index.installGraph(graph);
    assert.ok(index.hasGraph);

    let found = 0;
    for (let t = 0; t < 50; t++) {
      const q = randomVector();
      const want = new Set(ids(bruteForce(rows, q, {}, 10)));
      for (const id of ids(index.search(q, {}, 10))!) if (want.has(id)) found++;
    }
    assert.ok(found / 500 >= 0.95, `recall@10 ${found / 500}`);
    assert.equal(index.search(late.vector!, {}, 1)![0]!.id, late.id);

    // Rare combination (under exactBelow): exact, the full scan's answer (up to half-float near-ties).
    const rare: SearchFilters = { category: 'Legal', city: 'Berlin', serviceType: 'hybrid' };
    const q = randomVector();
    assertNearlyExact(rows, q, rare, 10, index.search(q, rare, 10), 'rare');
    // A broad filter goes through the graph and keeps only rows that pass it.
    for (const r of index.search(randomVector(), { countryCode: 'DE' }, 20)!) assert.equal(rows.get(r.id)!.countryCode, 'DE');

    // Too few graph neighbours pass a broad filter (here: far too few asked for): the exact scan answers.
    const stingy = new SearchIndex({ dimensions: D, exactBelow: 100, oversample: 0.05 });
    for (const r of rows.values()) stingy.apply(r);
    stingy.installGraph(buildGraph(stingy));
    const broad: SearchFilters = { countryCode: 'DE' };
    const q2 = randomVector();
    assertNearlyExact(rows, q2, broad, 10, stingy.search(q2, broad, 10), 'fallback');

    // Writes after install update the graph in place.
    const added = { ...row(6000), id: 'eeeeeeee-0000-0000-0000-000000000000' };
    index.apply(added);
    assert.equal(index.search(added.vector!, {}, 1)![0]!.id, added.id);
    index.remove(added.id);
    assert.notEqual(index.search(added.vector!, {}, 1)![0]!.id, added.id);
  });

  it('chooses between the graph and an exact scan of a filter\'s rows by measured cost, the scan giving the full answer', () => {
    const index = new SearchIndex({ dimensions: D, exactBelow: 100, oversample: 3, chooseByCost: true });
    const rows = new Map<string, IndexRow>();
    for (let i = 0; i < 3000; i++) {
      const r = row(i);
      rows.set(r.id, r);
      index.apply(r);
    }
    index.installGraph(buildGraph(index));
    const costs = index as unknown as { scanCost: number; graphCost: number };
    // A filter over a quarter of the directory (750 rows, above exactBelow): cheap rows, dear neighbours → scan.
    costs.scanCost = 0.01;
    costs.graphCost = 100;
    const broad: SearchFilters = { countryCode: 'DE' };
    for (let t = 0; t < 5; t++) {
      const q = randomVector();
      assertNearlyExact(rows, q, broad, 10, index.search(q, broad, 10), 'the scan is exact');
    }
    assert.equal(index.paths.scan, 5);
    assert.equal(index.paths.graph, 0);
    // Dear rows, cheap neighbours → the graph; and what each path costs is measured as it runs.
    costs.scanCost = 100;
    costs.graphCost = 0.001;
    for (const r of index.search(randomVector(), broad, 20)!) assert.equal(rows.get(r.id)!.countryCode, 'DE');
    assert.equal(index.paths.graph, 1);
    assert.ok(costs.graphCost > 0.001, 'the graph search updated its measured cost');
    // More than half the directory: always the graph (a scan would read most rows).
    costs.scanCost = 0.000001;
    index.search(randomVector(), { verifiedOnly: true }, 10);
    assert.equal(index.paths.graph, 2);
  });
});

describe('SearchIndex snapshot (issue 41: a restart reads the index instead of every row)', () => {
  it('restores an index that answers exactly as the one saved, and keeps taking writes', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { openArrayFile } = await import('../../lib/array-file.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentpages-index-'));
    try {
      const make = () => {
        const index = new SearchIndex({ dimensions: D, exactBelow: 50, oversample: 4, chooseByCost: true });
        index.indexNames('unicode');
        index.indexKeywords([0.1, 0.2, 0.4, 1], 4);
        return index;
      };
      const saved = make();
      const rows = Array.from({ length: 300 }, (_, i) => ({ ...row(i), name: `Company ${i} ${['Zürich Plumbing', 'Lyon Legal', 'Austin Apps'][i % 3]}`, searchVector: `'compani':1A '${['plumb', 'legal', 'app'][i % 3]}':2B 'n${i}':3C` }));
      for (const r of rows) saved.apply(r);
      for (let i = 0; i < 300; i += 7) saved.remove(rows[i]!.id);
      // A rewrite with other terms and a graph, as a large directory has.
      saved.apply({ ...rows[1]!, searchVector: `'legal':1A 'extra':2B`, category: 'Legal' });
      const graph = newGraph(D);
      addRows(graph, saved.snapshotForBuild(), D, 1);
      saved.installGraph(inMemoryGraph(graph));
      const file = path.join(dir, 'index.bin');
      saved.writeSnapshot(file);
      const graphFile = path.join(dir, 'graph.usearch');
      saved.saveGraph(graphFile);
      const { createHash } = await import('node:crypto');
      const fileHash = () => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
      const hashWhenSaved = fileHash();
      // With the native mapping call, the rows are read in place from the file (privately: writes never reach it).
      const mapping = Boolean(loadNativeKernels()?.mapFile);

      const restored = make();
      const reader = await openArrayFile(file);
      await restored.restoreSnapshot(reader);
      await reader.close();
      assert.equal(restored.mappedRows, mapping, 'restored rows are mapped');
      // VECTOR_INDEX_MAP_SNAPSHOT=false: copied into the process instead, answering the same.
      const copied = new SearchIndex({ dimensions: D, exactBelow: 50, oversample: 4, chooseByCost: true, mapArrays: false });
      copied.indexNames('unicode');
      copied.indexKeywords([0.1, 0.2, 0.4, 1], 4);
      const copyReader = await openArrayFile(file);
      await copied.restoreSnapshot(copyReader);
      await copyReader.close();
      assert.equal(copied.mappedRows, false);
      const probe = randomVector();
      assert.deepEqual(copied.search(probe, { category: 'Legal' }, 10), restored.search(probe, { category: 'Legal' }, 10));
      // The index just saved can let go of its own copies for the file it wrote, answering as before.
      const sides = (index: SearchIndex) => {
        const q = { match: [{ lexeme: 'legal', prefix: false }, { lexeme: 'plu', prefix: true }], scored: [{ term: 0, lexeme: 'legal', prefix: false, idf: 1.2 }, { term: 1, lexeme: 'plu', prefix: true, idf: 0.7 }], avgLength: 3, k1: 1.2, b: 0.75 };
        return JSON.stringify([index.names('lyon legal', {}, 300), index.names('company 4 lyon', {}, 300), index.keywords(index.keywordsFor([0.1, 0.2, 0.4, 1], 4)!, q, {}, 300, 1000), index.search(unitQuery, { category: 'Legal' }, 20)]);
      };
      const unitQuery = randomVector();
      const answersBefore = sides(saved);
      assert.equal(saved.mapSnapshotArrays(path.join(dir, 'other.bin')), false, 'not the file it wrote');
      assert.equal(saved.mapSnapshotArrays(file), mapping);
      assert.equal(sides(saved), answersBefore);
      // What it holds now is exactly what it held: written again, the file is the same, byte for byte.
      const again = path.join(dir, 'again.bin');
      saved.writeSnapshot(again);
      assert.ok(fs.readFileSync(again).equals(fs.readFileSync(file)), 'the mapped arrays hold the state they replaced');
      assert.equal(saved.mappedRows, mapping);
      const loaded = newGraph(D);
      loaded.load(graphFile);
      assert.ok(restored.installSavedGraph(inMemoryGraph(loaded)));
      assert.equal(restored.size, saved.size);
      assert.deepEqual(restored.slotIds(), saved.slotIds());

      const keywordQuery = { match: [{ lexeme: 'legal', prefix: false }], scored: [{ term: 0, lexeme: 'legal', prefix: false, idf: 1.2 }], avgLength: 3, k1: 1.2, b: 0.75 };
      const same = (label: string) => {
        const q = randomVector();
        for (const f of [{}, { category: 'Legal' }, { countryCode: 'DE', verifiedOnly: true }, { city: 'Austin', serviceType: 'remote' }] as SearchFilters[]) {
          const [a, b] = [restored.search(q, f, 10)!, saved.search(q, f, 10)!];
          // Before any write the two graphs are one; after, each took its own random levels for the new nodes.
          if (label === 'restored') assert.deepEqual(a, b, `${label}: search ${JSON.stringify(f)}`);
          else assert.ok(a.filter((r) => b.some((s) => s.id === r.id)).length >= Math.min(8, b.length), `${label}: search ${JSON.stringify(f)} ${JSON.stringify(a)} ${JSON.stringify(b)}`);
          assert.deepEqual(restored.names('zurich plumbing', f, 10), saved.names('zurich plumbing', f, 10), `${label}: names`);
          const ka = restored.keywords(restored.keywordsFor([0.1, 0.2, 0.4, 1], 4)!, keywordQuery, f, 10, 1000);
          const kb = saved.keywords(saved.keywordsFor([0.1, 0.2, 0.4, 1], 4)!, keywordQuery, f, 10, 1000);
          assert.deepEqual(ka, kb, `${label}: keywords`);
        }
        const ids = rows.slice(0, 40).map((r) => r.id);
        assert.deepEqual(restored.placeFacts(ids), saved.placeFacts(ids), `${label}: place facts`);
        assert.deepEqual(restored.keywordsFor([0.1, 0.2, 0.4, 1], 4)!.frequencies([{ term: 0, lexeme: 'legal', prefix: false }, { term: 1, lexeme: 'plu', prefix: true }]), saved.keywordsFor([0.1, 0.2, 0.4, 1], 4)!.frequencies([{ term: 0, lexeme: 'legal', prefix: false }, { term: 1, lexeme: 'plu', prefix: true }]));
      };
      same('restored');
      // A few writes into the mapped rows (each copies its page), then many: past the room after the rows, where
      // they are copied into a buffer of their own.
      for (let i = 2; i < 40; i += 3) for (const index of [saved, restored]) index.apply({ ...rows[i]!, vector: randomVector() });
      same('after writes to mapped rows');
      assert.equal(restored.mappedRows, mapping);
      assert.equal(fileHash(), hashWhenSaved, 'the file is unchanged by writes to its mapped rows');
      // The same writes to both: new companies (free slots first, then growth), rewrites, removals.
      for (let i = 300; i < 1400; i++) {
        const added = { ...row(i), searchVector: `'legal':1A 'n${i}':2B` };
        for (const index of [saved, restored]) index.apply(added);
      }
      for (let i = 2; i < 300; i += 5) for (const index of [saved, restored]) index.apply({ ...rows[i]!, searchVector: `'legal':1A 'plumb':2B 'more':3C 'words':4D` });
      for (let i = 3; i < 300; i += 11) for (const index of [saved, restored]) index.remove(rows[i]!.id);
      same('after writes');
      assert.equal(restored.mappedRows, false, 'grown into memory');
      assert.equal(fileHash(), hashWhenSaved);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sketch scans (issue 41: a large filter reads sign bits first, then re-scores the nearest rows)', () => {
  const DIMS = 128;
  const centres = Array.from({ length: 41 }, () => Float32Array.from({ length: DIMS }, () => rnd() * 2 - 1));
  // 41 clusters: every filter of row() (cycles of 3, 4, 5 and 11) holds members of each.
  const clustered = (i: number): IndexRow => {
    const base = centres[i % centres.length]!;
    return { ...row(i), vector: Float32Array.from(base, (x) => x + (rnd() - 0.5) * 0.8) };
  };
  const native = loadNativeKernels();
  const build = (sketchScanFrom: number, n: number) => {
    const index = new SearchIndex({ dimensions: DIMS, exactBelow: 100_000, oversample: 3, sketchScanFrom });
    for (let i = 0; i < n; i++) index.apply(clustered(i));
    return index;
  };

  it('finds what the full scan finds under a broad filter, and follows writes', (t) => {
    if (!native?.nearestBySigns) return t.skip('native kernels not built');
    seed = 11;
    const full = build(Infinity, 6000);
    seed = 11;
    const sketched = build(1000, 6000);
    assert.equal(full.memory()['vector sign sketches'], 0, 'no sketches where every scan reads every row');
    assert.ok(sketched.memory()['vector sign sketches']! >= 6000 * (DIMS / 8), 'a sketch of 16 bytes per company');
    let found = 0;
    const filters: SearchFilters[] = [{ countryCode: 'DE' }, { verifiedOnly: true }, { category: 'Technology' }];
    for (let t = 0; t < 30; t++) {
      const q = Float32Array.from(centres[t % centres.length]!, (x) => x + (rnd() - 0.5));
      const f = filters[t % filters.length]!;
      const want = new Set(ids(full.search(q, f, 10)));
      const got = sketched.search(q, f, 10)!;
      assert.equal(got.length, 10);
      found += got.filter((r) => want.has(r.id)).length;
    }
    assert.ok(found / 300 >= 0.95, `recall@10 ${found / 300}`);
    // A company rewritten to the query's own vector is found first: its sketch follows the write.
    const q = Float32Array.from({ length: DIMS }, () => rnd() * 2 - 1);
    const target = clustered(8);
    sketched.apply({ ...target, vector: q });
    assert.equal(sketched.search(q, { countryCode: 'DE' }, 5)![0]!.id, target.id);
  });

  it('keeps the sketches in a snapshot, and makes them from the rows when a snapshot has none', async (t) => {
    if (!native?.nearestBySigns) return t.skip('native kernels not built');
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { openArrayFile } = await import('../../lib/array-file.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentpages-sketch-'));
    try {
      seed = 5;
      const withSketches = build(1000, 3000);
      seed = 5;
      const without = build(Infinity, 3000);
      const restore = async (from: SearchIndex, name: string) => {
        const file = path.join(dir, name);
        from.writeSnapshot(file);
        const index = new SearchIndex({ dimensions: DIMS, exactBelow: 100_000, oversample: 3, sketchScanFrom: 1000 });
        const reader = await openArrayFile(file);
        assert.equal(reader.has('signs'), from === withSketches);
        await index.restoreSnapshot(reader);
        await reader.close();
        return index;
      };
      const a = await restore(withSketches, 'with.bin');
      const b = await restore(without, 'without.bin');
      for (let t = 0; t < 5; t++) {
        const q = Float32Array.from(centres[t]!, (x) => x + (rnd() - 0.5));
        const answer = withSketches.search(q, { countryCode: 'DE' }, 10);
        assert.deepEqual(a.search(q, { countryCode: 'DE' }, 10), answer);
        assert.deepEqual(b.search(q, { countryCode: 'DE' }, 10), answer);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
