/**
 * How long the name side's candidate step takes at 1M synthetic names (bench:search's names and novel queries):
 * `npx tsx scripts/dev/name-candidates-timing.ts [--n 1000000] [--queries 300]`. Prints the mean and p50 / p99 ms of
 * NameIndex.candidates and the mean candidates returned. Not run by CI.
 */
import { NameIndex } from '../../src/modules/search/name-index.js';
import { trigramSequence, WORD_SIMILARITY_THRESHOLD } from '../../src/lib/trigram.js';
import { loadTemplates, pick, PLACES, SUFFIXES, SYLLABLES } from '../bench/lib/synthetic-companies.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const n = Number(option('--n', '1000000'));
const queries = Number(option('--queries', '300'));
const index = new NameIndex('unicode');
for (let slot = 0; slot < n; slot++) {
  const word = pick(SYLLABLES) + pick(SYLLABLES) + pick(SYLLABLES);
  index.set(slot, `${word[0]!.toUpperCase()}${word.slice(1)} ${pick(SUFFIXES)}`);
}
const templates = loadTemplates(root);
const vocab = [...new Set(templates.flatMap((t) => [...t.keywords, t.industry]).map((s) => s.toLowerCase()))];
const times: number[] = [];
let found = 0;
for (let i = 0; i < queries; i++) {
  const q = i % 3 === 2 ? `${pick(SYLLABLES)}${pick(SYLLABLES)}${pick(SYLLABLES)} ${pick(SUFFIXES)}` : `${pick(vocab)} ${pick(vocab)}${i % 2 ? ` ${pick(PLACES)[1]}` : ''}`;
  const trigrams = new Set(trigramSequence(q.toLowerCase(), 'unicode'));
  const started = performance.now();
  found += index.candidates(trigrams, Math.ceil(WORD_SIMILARITY_THRESHOLD * trigrams.size - 1e-6)).length;
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const mean = times.reduce((a, b) => a + b, 0) / times.length;
console.log(`${n} names, ${queries} queries (a third of them names): candidates mean ${mean.toFixed(2)} ms, p50 ${times[times.length >> 1]!.toFixed(2)}, p99 ${times[Math.floor(times.length * 0.99)]!.toFixed(2)}; ${(found / queries).toFixed(1)} candidates a query`);
