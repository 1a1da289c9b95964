/**
 * Where the server's memory goes: `npx tsx scripts/dev/memory-probe.ts --data-dir DIR | --database-url URL
 * [--duration 10] [--snapshot]`
 * starts scripts/bench/bench-server.ts on a store that bench:search filled (`--data-dir` kept, or a PostgreSQL database
 * kept with `--database-name`), prints the resident
 * set (VmRSS, peak VmHWM) with the JavaScript heap, external and array-buffer memory of the main thread (from
 * /metrics) once ready and after each load (novel queries, near, a city in the words: 10 connections), then stops.
 * `--node-arg FLAG` (repeatable) passes a flag to the server's node (a V8 heap setting, say).
 * `--gc` also prints, after each stage, the heap in use after a full garbage collection (what stays alive: caches,
 * the index) beside what the load's garbage left.
 * `--snapshot` also writes a heap snapshot of the main thread at the end (Node's --heapsnapshot-signal) and prints its
 * path. Not run by CI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startProbeServer } from '../bench/bench-start.js';
import { PLACES } from '../bench/lib/synthetic-companies.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name: string, fallback?: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const duration = Number(option('--duration', '10'));
const snapshot = args.includes('--snapshot');
const collect = args.includes('--gc');
const nodeFlags = args.flatMap((a, i) => (a === '--node-arg' && args[i + 1] ? [args[i + 1]!] : []));
const snapshotDir = fs.mkdtempSync('/tmp/agp-heap-');

const server = await startProbeServer(root, args, {
  workers: process.env.PROBE_WORKERS,
  nodeArgs: [...nodeFlags, ...(collect ? ['--expose-gc'] : []), ...(snapshot ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshotDir}`] : [])],
});
const { base } = server;

async function report(stage: string): Promise<void> {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  const metrics = await (await fetch(`${base}/metrics`)).text();
  const metric = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(metrics)?.[1] ?? 0) / 2 ** 20;
  let live = '';
  if (collect) {
    const after = (await (await fetch(`${base}/bench/gc`, { method: 'POST' })).json()) as { heapUsed: number };
    live = `, ${(after.heapUsed / 2 ** 20).toFixed(0)} MB alive after a full collection`;
  }
  console.log(`${stage.padEnd(22)} rss ${kb('VmRSS').toFixed(0)} MB (peak ${kb('VmHWM').toFixed(0)}), main thread: heap used ${metric('nodejs_heap_size_used_bytes').toFixed(0)} of ${metric('nodejs_heap_size_total_bytes').toFixed(0)} MB${live}, external ${metric('nodejs_external_memory_bytes').toFixed(0)} MB`);
}

let n = 0;
const words = ['plumbing', 'tax advice', 'wedding', 'solar', 'bakery', 'security audit', 'dentist', 'logistics', 'cloud hosting', 'translation', 'roofing', 'payroll'];
const loads: [string, () => string][] = [
  ['novel', () => `/api/v1/agent/companies?q=${encodeURIComponent(`${words[n % words.length]} ${words[(n * 7 + 3) % words.length]} ${++n}`)}`],
  ['near', () => `/api/v1/agent/companies?q=${encodeURIComponent(`${words[n % words.length]} ${++n}`)}&near=${encodeURIComponent(PLACES[n % PLACES.length]![1])}`],
  ['in <city>', () => `/api/v1/agent/companies?q=${encodeURIComponent(`${words[n % words.length]} ${++n} in ${PLACES[n % PLACES.length]![1]}`)}`],
];
await report('ready');
for (const [name, next] of loads) {
  const result = await autocannon({ url: base, connections: 10, duration, requests: [{ setupRequest: (req: object) => ({ ...req, path: next() }) }] });
  await report(`after ${name} (${Math.round(result.requests.average)}/s)`);
}
if (snapshot) {
  process.kill(server.pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 60_000));
  console.log(`heap snapshot: ${fs.readdirSync(snapshotDir).filter((f) => f.endsWith('.heapsnapshot')).map((f) => path.join(snapshotDir, f)).join(', ')}`);
}
server.stop();
