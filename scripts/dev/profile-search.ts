/**
 * Where the server's main thread goes under load: `npx tsx scripts/dev/profile-search.ts --data-dir DIR | --database-url URL
 * [--duration 20] [--filters | --near | --in-city | --browse]` starts scripts/bench/bench-server.ts on a store that bench:search filled
 * (`--data-dir` kept, or a PostgreSQL database kept with `--database-name`), under `node --cpu-prof`, sends novel queries from 10 connections, stops the
 * server and prints the main thread's self time per function (top 30), the inclusive time of the functions that
 * hold the most (top 30), and how busy it was. `--near` adds near=<city>, `--in-city` names the city in the words, `--browse`
 * sends bench:search's browse with filters (a category, a country, verified, no words); `--node-args "--trace-gc …"`
 * passes flags to the server's node; `--bench-words` sends bench:search's novel queries instead (two words of the templates'
 * vocabulary, then a town or a number, as scripts/dev/thread-cpu.ts does).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startProbeServer } from '../bench/bench-start.js';
import { loadTemplates, pick, PLACES } from '../bench/lib/synthetic-companies.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name: string, fallback?: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const duration = Number(option('--duration', '20'));
const withFilters = args.includes('--filters');
const place = args.includes('--near') ? 'near' : args.includes('--in-city') ? 'in-city' : undefined;
const browse = args.includes('--browse');
const benchWords = args.includes('--bench-words');
const vocab = [...new Set(loadTemplates(root).flatMap((t) => [...t.keywords, t.industry]).map((s) => s.toLowerCase()))];
const categories = [...new Set(loadTemplates(root).map((t) => t.category))];
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agp-prof-'));

const server = await startProbeServer(root, args, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, ...(option('--node-args')?.split(' ').filter(Boolean) ?? [])] });
const words = ['plumbing', 'tax advice', 'wedding', 'solar', 'bakery', 'security audit', 'dentist', 'logistics', 'cloud hosting', 'translation', 'roofing', 'payroll'];
let n = 0;
const filters = ['&country=Germany&is_verified=true', '&country=United%20States&is_verified=true', '&category=Technology', '&country=France'];
function nextPath(): string {
  const words2 = benchWords ? `${pick(vocab)} ${pick(vocab)} ${++n % 2 ? pick(PLACES)[1] : n}` : `${words[n % words.length]} ${words[(n * 7 + 3) % words.length]} ${++n}`;
  const city = PLACES[n % PLACES.length]![1];
  if (browse) return `/api/v1/agent/companies?category=${encodeURIComponent(categories[n % categories.length]!)}&country=${encodeURIComponent(PLACES[(n * 7) % PLACES.length]![0])}&is_verified=true`;
  if (place === 'near') return `/api/v1/agent/companies?q=${encodeURIComponent(words2)}&near=${encodeURIComponent(city)}`;
  if (place === 'in-city') return `/api/v1/agent/companies?q=${encodeURIComponent(`${words2} in ${city}`)}`;
  return `/api/v1/agent/companies?q=${encodeURIComponent(words2)}${withFilters ? filters[n % filters.length] : ''}`;
}
// CPU profile timestamps are CLOCK_MONOTONIC microseconds, the clock of process.hrtime: the same in both processes.
const windowStart = Number(process.hrtime.bigint() / 1000n);
const result = await autocannon({
  url: server.base,
  connections: 10,
  duration,
  requests: [{ setupRequest: (req: object) => ({ ...req, path: nextPath() }) }],
});
const windowEnd = Number(process.hrtime.bigint() / 1000n);
console.log(`${browse ? 'browse with filters' : place ?? (withFilters ? 'novel + filters' : 'novel')}: ${result.requests.average} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`);
server.stop();
await new Promise((r) => setTimeout(r, 3000));

const file = fs.readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(profileDir, f)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
if (!file) throw new Error(`no profile written in ${profileDir}`);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { startTime: number; nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const inclusive = new Map<string, number>();
const self = new Map<string, number>();
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  // Only the load test: not the start (loading the index) nor the shutdown.
  if (at < windowStart || at > windowEnd) return;
  const frame = byId.get(id)!.callFrame;
  const key = frameKey(frame);
  self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  // Each function on the sample's stack once (recursion counted once).
  const onStack = new Set<string>();
  for (let at2: number | undefined = id; at2 !== undefined; at2 = parent.get(at2)) onStack.add(frameKey(byId.get(at2)!.callFrame));
  for (const k of onStack) inclusive.set(k, (inclusive.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
function frameKey(frame: { functionName: string; url: string; lineNumber: number }): string {
  return `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber}`;
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log(`main thread during the load test (${file}): ${(total / 1e6).toFixed(1)} s sampled, idle ${(((self.get('(idle) :-1') ?? 0) / total) * 100).toFixed(1)} %, ~${((total - (self.get('(idle) :-1') ?? 0)) / 1000 / Math.max(1, n)).toFixed(2)} ms busy per request`);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(us / 1000).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
console.log('inclusive (the function and what it called):');
for (const [key, us] of [...inclusive].filter(([k]) => !k.startsWith('(root)') && !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${(us / 1000).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
