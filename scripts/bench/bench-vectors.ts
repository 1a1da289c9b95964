/**
 * The in-process vector index alone: `npm run bench:vectors -- (--data-dir DIR | --database-url URL | --synthetic N)
 * [--queries 200] [--threads 2] [--variants i8,f16,f32] [--connectivity 16,32] [--expansion-add 128,256] [--ef 96,256]
 * [--oversample 3,10]`, on a store filled by `npm run bench:search -- --data-dir DIR` (or any
 * directory), or on bench:search's synthetic directory of N companies made without a database. Loads every company
 * with an embedding, builds the HNSW graph (timed), then for real query embeddings (the evaluation queries and word
 * pairs from the corpus, embedded with the bundled model) compares the graph's answers with the exact answer:
 * recall@10 and per-query latency, without filters and with filters of several selectivities. The exact answer is
 * float32: the index's exact scan (half floats) picks the best 100, re-ranked from the float32 vectors. A second recall
 * column counts a company found as right when its float32 cosine is within TIE of the 10th best: the synthetic
 * directory's near-copies can be closer to each other than the index's rounding, and are then equally good answers.
 * Last, the scans of the filters' rows as the service makes them (sign sketches first, from 8 192 rows): recall@10 and
 * recall@100 against the scan of every row, and both scans' times.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.js';
import { openDb } from '../../src/platform/db.js';
import { createEmbeddingProvider } from '../../src/platform/embeddings/embeddings.js';
import { createSearchRepo, type SearchFilters } from '../../src/modules/search/search.repo.js';
import { SearchIndex, type IndexRow } from '../../src/modules/search/search-index.js';
import { unitVector } from '../../src/modules/search/vector-math.js';
import { syntheticRows, syntheticSource } from './lib/synthetic-index-rows.js';
import usearch from 'usearch';
import { addRows, graphConfig, inMemoryGraph, newGraph, searchBreadth, type Graph } from '../../src/modules/search/vector-graph.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name: string, fallback?: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const dataDir = option('--data-dir');
const databaseUrl = option('--database-url');
const synthetic = option('--synthetic');
const queryCount = Number(option('--queries', '200'));
const threads = Number(option('--threads', '2'));
if (!dataDir && !databaseUrl && !synthetic) throw new Error('give --data-dir DIR, --database-url URL or --synthetic N');
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

const D = 512;
const graphIndex = new SearchIndex({ dimensions: D, exactBelow: 10_000, oversample: 3 });
const exactIndex = new SearchIndex({ dimensions: D, exactBelow: Number.MAX_SAFE_INTEGER, oversample: 3, sketchScanFrom: Infinity });
/** Always scans, as the service scans a filter's rows: from 8 192 rows by the sign sketches first (search-index.ts). */
const sketchIndex = new SearchIndex({ dimensions: D, exactBelow: Number.MAX_SAFE_INTEGER, oversample: 3 });
const t0 = Date.now();
const categories = new Map<string, number>();
const countries = new Map<string, number>();
/** Every company's unit vector in float32, for the exact answer. */
const unit = new Map<string, Float32Array>();
const take = (r: IndexRow) => {
  graphIndex.apply(r);
  exactIndex.apply(r);
  sketchIndex.apply(r);
  categories.set(r.category, (categories.get(r.category) ?? 0) + 1);
  if (r.countryCode) countries.set(r.countryCode, (countries.get(r.countryCode) ?? 0) + 1);
  if (r.vector && !r.removed) unit.set(r.id, unitVector(D, r.vector));
};
if (synthetic) {
  for (const rows of syntheticRows(await syntheticSource(root, log), Number(synthetic))) rows.forEach(take);
} else {
  const db = await openDb(databaseUrl ? { databaseUrl, poolSize: 2 } : { pgliteDir: path.resolve(dataDir!) });
  const repo = createSearchRepo(db);
  let after: string | null = null;
  for (;;) {
    const rows = await repo.vectorRows(after, 5000);
    rows.forEach(take);
    if (rows.length < 5000) break;
    after = rows[rows.length - 1]!.id;
  }
  await db.close();
}
const n = graphIndex.size;
log(`loaded ${n} companies in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

// Graph variants: --variants i8,f16,f32 (quantisation of the graph's vectors), --oversample 3,10
// (graph candidates per result wanted); each combination is measured on the same queries.
const quantisations = option('--variants', 'i8')!.split(',');
const oversamples = option('--oversample', '3')!.split(',').map(Number);
// The default breadth is the service's for this many companies (vector-graph.ts searchBreadth).
const efs = option('--ef', String(searchBreadth(n)))!.split(',').map(Number);
const quantKind = (q: string) => (q === 'f16' ? usearch.ScalarKind.F16 : q === 'f32' ? usearch.ScalarKind.F32 : usearch.ScalarKind.I8);
const source = graphIndex.snapshotForBuild();
const connectivities = option('--connectivity', String(graphConfig(D).connectivity))!.split(',').map(Number);
const expansionAdds = option('--expansion-add', String(graphConfig(D).expansion_add))!.split(',').map(Number);
const graphs: { quant: string; graph: Graph; seconds: number }[] = [];
for (const quant of quantisations) {
  for (const connectivity of connectivities) {
    for (const expansionAdd of expansionAdds) {
      const built = { quantization: quantKind(quant), connectivity, expansion_add: expansionAdd };
      const started = Date.now();
      const graph = newGraph(D, built);
      addRows(graph, source, D, threads);
      const seconds = (Date.now() - started) / 1000;
      const label = `${quant}, ${connectivity} links, expansion_add ${expansionAdd}`;
      log(`HNSW graph (${label}) built in ${seconds.toFixed(1)} s with ${threads} thread(s)`);
      // The search breadth is a setting of the loaded index (as in the service: built, saved, loaded).
      const file = path.join(os.tmpdir(), `bench-vectors-${process.pid}.usearch`);
      graph.save(file);
      for (const ef of efs) {
        const loaded = newGraph(D, { ...built, expansion_search: ef });
        loaded.load(file);
        graphs.push({ quant: `${label}, expansion_search ${ef}`, graph: loaded, seconds });
      }
      fs.rmSync(file, { force: true });
    }
  }
}

// Queries: the public evaluation queries, then pairs of corpus words.
const texts: string[] = [];
const evalFile = path.join(root, '../shared/eval/queries-public.jsonl');
if (fs.existsSync(evalFile)) for (const line of fs.readFileSync(evalFile, 'utf8').split('\n')) if (line.trim()) texts.push((JSON.parse(line) as { query: string }).query);
const words = ['plumber', 'accountant', 'dentist', 'lawyer', 'web design', 'solar', 'roofing', 'bakery', 'yoga', 'translation', 'payroll', 'cloud hosting', 'wedding', 'veterinary', 'logistics', 'tax', 'security audit', 'interior design', 'marketing', 'tutoring'];
for (let i = 0; texts.length < queryCount; i++) texts.push(`${words[i % words.length]} ${words[(i * 7 + 3) % words.length]} ${i}`);
const embeddings = createEmbeddingProvider(loadConfig({ ...process.env, EMBEDDINGS_WORKERS: String(threads) }).embeddings);
await embeddings.ready();
const vectors = (await embeddings.embed(texts.slice(0, queryCount))).map((v) => Float32Array.from(v));
await embeddings.close();

const byCount = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
const topCategory = byCount(categories)[0]![0];
const topCountry = byCount(countries)[0]![0];
const rareCountry = byCount(countries).at(-1)![0];
const cases: [string, SearchFilters][] = [
  ['no filter', {}],
  ['is_verified', { verifiedOnly: true }],
  [`country ${topCountry}`, { countryCode: topCountry }],
  [`category ${topCategory}`, { category: topCategory }],
  [`category + country ${topCountry}`, { category: topCategory, countryCode: topCountry }],
  [`country ${rareCountry} + verified`, { countryCode: rareCountry, verifiedOnly: true }],
];

/** How close to the 10th best a company counts as tied with it (the second recall column). */
const TIE = 1e-3;
const pct = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))]!;
/** The float32 top 10: the index's exact scan (half floats, off by about 1e-5) keeps the best 100, re-ranked here. */
const exactTop10 = (q: Float32Array, filters: SearchFilters) => {
  const uq = unitVector(D, q);
  const dot = (v: Float32Array) => v.reduce((s, x, i) => s + x * uq[i]!, 0);
  return (exactIndex.search(q, filters, 100) ?? []).map((r) => ({ id: r.id, score: dot(unit.get(r.id)!) })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, 10);
};
const exactAnswers = cases.map(([, filters]) => vectors.map((q) => exactTop10(q, filters)));
const exactP50 = cases.map(([, filters]) => {
  const times = vectors.slice(0, 50).map((q) => {
    const t = performance.now();
    exactIndex.search(q, filters, 10);
    return performance.now() - t;
  });
  return pct(times, 0.5);
});
const matchCounts = cases.map(([, filters]) => (exactIndex.search(vectors[0]!, filters, 1_000_000) ?? []).length);
console.log(`\n${n} companies, ${vectors.length} queries, usearch HNSW, exact re-scoring`);
for (const { quant, graph, seconds } of graphs) {
  graphIndex.snapshotForBuild();
  graphIndex.installGraph(inMemoryGraph(graph));
  for (const oversample of oversamples) {
    graphIndex.tune({ oversample });
    console.log(`\ngraph ${quant} (built in ${seconds.toFixed(1)} s, ${threads} thread(s)), oversample ${oversample}`);
    console.log(`${'filters'.padEnd(40)}${'matches'.padStart(9)}${'recall@10'.padStart(11)}${`±${TIE}`.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'exact p50'.padStart(11)}`);
    cases.forEach(([name, filters], c) => {
      let found = 0;
      let foundTied = 0;
      let wanted = 0;
      const times: number[] = [];
      vectors.forEach((q, i) => {
        const t = performance.now();
        const got = graphIndex.search(q, filters, 10) ?? [];
        times.push(performance.now() - t);
        const exact = exactAnswers[c]![i]!;
        const want = new Set(exact.map((r) => r.id));
        wanted += want.size;
        for (const r of got) if (want.has(r.id)) found++;
        const tenth = exact.at(-1)?.score ?? -Infinity;
        const uq = unitVector(D, q);
        for (const r of got.slice(0, exact.length)) if (want.has(r.id) || unit.get(r.id)!.reduce((sum, x, k) => sum + x * uq[k]!, 0) >= tenth - TIE) foundTied++;
      });
      console.log(`${name.padEnd(40)}${String(matchCounts[c]).padStart(9)}${(found / Math.max(wanted, 1)).toFixed(3).padStart(11)}${(foundTied / Math.max(wanted, 1)).toFixed(3).padStart(9)}${pct(times, 0.5).toFixed(2).padStart(9)}${pct(times, 0.99).toFixed(2).padStart(9)}${exactP50[c]!.toFixed(1).padStart(11)}`);
    });
  }
}

// The service's scans of a filter's rows: the sign sketches first, then the nearest rows re-scored (search-index.ts).
console.log(`\nscans of a filter's rows: sign sketches, then the nearest rows re-scored, against every row scanned`);
console.log(`${'filters'.padEnd(40)}${'matches'.padStart(9)}${'recall@10'.padStart(11)}${`±${TIE}`.padStart(9)}${'recall@100'.padStart(12)}${'p50 ms'.padStart(9)}${'every row p50'.padStart(15)}`);
cases.forEach(([name, filters], c) => {
  if (!Object.keys(filters).length) return;
  let found = 0;
  let foundTied = 0;
  let wanted = 0;
  let found100 = 0;
  let wanted100 = 0;
  const times: number[] = [];
  const fullTimes: number[] = [];
  vectors.forEach((q, i) => {
    let t = performance.now();
    const got = sketchIndex.search(q, filters, 100) ?? [];
    times.push(performance.now() - t);
    t = performance.now();
    const all = exactIndex.search(q, filters, 100) ?? [];
    fullTimes.push(performance.now() - t);
    const exact = exactAnswers[c]![i]!;
    const want = new Set(exact.map((r) => r.id));
    wanted += want.size;
    const top = got.slice(0, exact.length);
    for (const r of top) if (want.has(r.id)) found++;
    const tenth = exact.at(-1)?.score ?? -Infinity;
    const uq = unitVector(D, q);
    for (const r of top) if (want.has(r.id) || unit.get(r.id)!.reduce((sum, x, k) => sum + x * uq[k]!, 0) >= tenth - TIE) foundTied++;
    const want100 = new Set(all.map((r) => r.id));
    wanted100 += want100.size;
    for (const r of got) if (want100.has(r.id)) found100++;
  });
  console.log(`${name.padEnd(40)}${String(matchCounts[c]).padStart(9)}${(found / Math.max(wanted, 1)).toFixed(3).padStart(11)}${(foundTied / Math.max(wanted, 1)).toFixed(3).padStart(9)}${(found100 / Math.max(wanted100, 1)).toFixed(3).padStart(12)}${pct(times, 0.5).toFixed(2).padStart(9)}${pct(fullTimes, 0.5).toFixed(2).padStart(15)}`);
});
