/**
 * Where the in-process search index's memory goes: `npm run bench:memory [-- --n 100000] [--threads 2] [--no-graph]`.
 * Builds each structure of the index from bench:search's synthetic directory (scripts/bench/lib/synthetic-index-rows.ts,
 * no database) one after the other, and prints what each holds, in total and per company: the change of the JS heap,
 * of array buffers (typed arrays, shared ones included) and of the resident set after a full collection (the script
 * runs with --expose-gc), plus the typed arrays the index itself reports and the HNSW graph's file size (usearch's
 * serialised form, about what it holds in memory; its binding has no memory report). No timing: the figures do not
 * depend on the machine's load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SearchIndex, type IndexRow } from '../../src/modules/search/search-index.js';
import { NameIndex } from '../../src/modules/search/name-index.js';
import { KeywordIndex } from '../../src/modules/search/keyword-index.js';
import { addRows, loadGraph, newGraph, type VectorGraph } from '../../src/modules/search/vector-graph.js';
import { defaultTuning } from '../../src/modules/search/search.tuning.js';
import { syntheticRows, syntheticSource } from './lib/synthetic-index-rows.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : fallback;
};
const N = Number(option('--n', '100000'));
const threads = Number(option('--threads', '2'));
const withGraph = !args.includes('--no-graph');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:memory does)');
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

interface Sample {
  heap: number;
  buffers: number;
  rss: number;
}
function sample(): Sample {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers, rss: m.rss };
}
const rows: { component: string; heap: number; buffers: number; rss: number; note: string }[] = [];
function record(component: string, before: Sample, note = ''): void {
  const after = sample();
  rows.push({ component, heap: after.heap - before.heap, buffers: after.buffers - before.buffers, rss: after.rss - before.rss, note });
  log(`${component}: heap ${mb(after.heap - before.heap)}, buffers ${mb(after.buffers - before.buffers)}, rss ${mb(after.rss - before.rss)}`);
}
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const perCompany = (bytes: number) => `${Math.round(bytes / N)}`;

const source = await syntheticSource(root, log);
/** Calls `use` with every row and its slot (in a function: no batch stays reachable from the module's frame). */
function eachRow(use: (row: IndexRow, slot: number) => void, n = N): void {
  let slot = 0;
  for (const batch of syntheticRows(source, n)) for (const row of batch) use(row, slot++);
}
// Warm the generator up before the first sample (the city table it reads is loaded on first use).
eachRow(() => {}, 5000);
const start = sample();

// 1. The vectors and the filter columns (SearchIndex alone: no names, no keywords), reserved as the load does.
let before = sample();
const index = new SearchIndex({ dimensions: 512, exactBelow: 10_000, oversample: 4 });
index.reserve(Math.ceil(N * 1.05) + 1024);
eachRow((row) => index.apply(row));
const typed = index.memory();
record('search index: vectors, filter columns, ids', before, Object.entries(typed).map(([k, v]) => `${k} ${mb(v)}`).join(', '));

// 2. Trigram postings of the names.
before = sample();
const names = new NameIndex('unicode');
eachRow((row, slot) => names.set(slot, row.name));
record('name index (trigram postings, names)', before);

// 3. The keyword index (search vectors: lexemes, contributions, postings).
before = sample();
const keywords = new KeywordIndex(defaultTuning.fieldWeights, defaultTuning.prefixMinLength);
eachRow((row, slot) => keywords.set(slot, row.searchVector));
record('keyword index (per-company terms, postings)', before);

// 4. The HNSW graph, built here (in the service a worker thread builds it and the main thread loads the file).
/** Builds the graph from the index's matrix and saves it; the built graph is garbage once this returns. */
function buildGraphFile(file: string): number {
  const start = sample();
  const source = index.snapshotForBuild();
  log(`building the HNSW graph of ${source.slots.length} vectors on ${threads} thread(s)`);
  const graph = newGraph(512);
  addRows(graph, source, 512, threads);
  graph.save(file);
  index.buildFailed();
  record('HNSW graph, as built', start, `file ${mb(fs.statSync(file).size)}`);
  return graph.size();
}
let graph: VectorGraph | undefined;
if (withGraph) {
  const file = path.join(os.tmpdir(), `index-memory-${process.pid}.usearch`);
  const count = buildGraphFile(file);
  before = sample();
  graph = loadGraph(file, 512, count);
  record('HNSW graph, loaded from its file (as a cold start holds it until its snapshot is saved)', before, `file ${mb(fs.statSync(file).size)}`);
  fs.rmSync(file, { force: true });
}
const end = sample();

console.log(`\n${N} synthetic companies (bench:search's directory), 512 dimensions; bytes after a full GC (node --expose-gc)`);
console.log(`${'component'.padEnd(58)}${'heap MB'.padStart(9)}${'buffers MB'.padStart(12)}${'rss MB'.padStart(9)}${'B/company'.padStart(11)}  typed arrays / notes`);
for (const r of rows) {
  // The component's own figure: heap + buffers for JavaScript structures, the resident set for usearch's native memory.
  const own = r.component.startsWith('HNSW') ? r.rss : r.heap + r.buffers;
  console.log(`${r.component.padEnd(58)}${(r.heap / 2 ** 20).toFixed(1).padStart(9)}${(r.buffers / 2 ** 20).toFixed(1).padStart(12)}${(r.rss / 2 ** 20).toFixed(1).padStart(9)}${perCompany(own).padStart(11)}  ${r.note}`);
}
console.log(`${'all of the above (resident set, graph loaded)'.padEnd(58)}${((end.heap - start.heap) / 2 ** 20).toFixed(1).padStart(9)}${((end.buffers - start.buffers) / 2 ** 20).toFixed(1).padStart(12)}${((end.rss - start.rss) / 2 ** 20).toFixed(1).padStart(9)}${perCompany(end.rss - start.rss).padStart(11)}`);
console.log(`process resident set now: ${mb(end.rss)} (includes the generator's templates and the runtime)`);
// Keep the structures alive until the figures are read.
if (index.size + keywords.prefixLength + (names.nameOf(0)?.length ?? 0) + (graph?.size() ?? 0) < 0) console.log('unreachable');
