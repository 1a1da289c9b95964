/**
 * Where a search's CPU goes across the server's threads: `npx tsx scripts/dev/thread-cpu.ts --data-dir DIR | --database-url URL
 * [--duration 10] [--in-city] [--alloc]` starts scripts/bench/bench-server.ts on a store that bench:search filled (`--data-dir`
 * kept, or a PostgreSQL database kept with `--database-name`), sends bench:search's novel queries (with `--in-city`, a
 * town named in the words) from 10 connections, and prints each thread's CPU time (main thread, embedding workers, V8's
 * garbage-collection helpers; /proc/PID/task) and the PostgreSQL server's, per request and as a share of a core.
 * `--alloc` also samples every allocation of the main thread during the load (collected objects included) and prints
 * the bytes each function allocates per request. Linux only; not run by CI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startProbeServer } from '../bench/bench-start.js';
import { loadTemplates, pick, PLACES } from '../bench/lib/synthetic-companies.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name: string, fallback?: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const duration = Number(option('--duration', '10'));
const inCity = args.includes('--in-city');
const alloc = args.includes('--alloc');

const server = await startProbeServer(root, args);

/** CPU seconds (user + system) of each thread of a process, by "tid:name". */
function threadSeconds(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const fields = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(`${tid}:${name}`, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** CPU seconds of every PostgreSQL server process on this machine (0 for PGlite, which runs in the main thread). */
function postgresSeconds(): number {
  let sum = 0;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      sum += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // the process ended
    }
  }
  return sum;
}

// bench:search's novel queries: two words of the templates' vocabulary, then a number or a town to keep them novel.
const vocab = [...new Set(loadTemplates(root).flatMap((t) => [...t.keywords, t.industry]).map((s) => s.toLowerCase()))];
let n = 0;
const nextPath = () => {
  n++;
  const words = `${pick(vocab)} ${pick(vocab)} ${n % 2 ? pick(PLACES)[1] : n}`;
  return `/api/v1/agent/companies?q=${encodeURIComponent(inCity ? `${words} in ${pick(PLACES)[1]}` : words)}`;
};

if (alloc) await fetch(`${server.base}/bench/allocations/start`, { method: 'POST' });
const before = threadSeconds(server.pid);
const pgBefore = postgresSeconds();
const started = Date.now();
const result = await autocannon({ url: server.base, connections: 10, duration, requests: [{ setupRequest: (req) => ({ ...req, path: nextPath() }) }] });
const seconds = (Date.now() - started) / 1000;
const after = threadSeconds(server.pid);
const pgAfter = postgresSeconds();
const requests = result.requests.total;
console.log(`${inCity ? 'novel queries "in <city>"' : 'novel queries'}: ${result.requests.average} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (${requests} requests)`);
console.log('thread (main first)                  share of a core    CPU ms per request');
const rows = [...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const).filter(([, v]) => v > 0.05).sort((a, b) => b[1] - a[1]);
for (const [thread, cpu] of rows) console.log(`${thread.padEnd(36)}${`${((cpu / seconds) * 100).toFixed(1)} %`.padStart(10)}${((cpu * 1000) / requests).toFixed(2).padStart(20)}`);
console.log(`${'postgres (all its processes)'.padEnd(36)}${`${(((pgAfter - pgBefore) / seconds) * 100).toFixed(1)} %`.padStart(10)}${(((pgAfter - pgBefore) * 1000) / requests).toFixed(2).padStart(20)}`);
if (alloc) {
  const { sites } = (await (await fetch(`${server.base}/bench/allocations/stop`, { method: 'POST' })).json()) as { sites: { site: string; bytes: number }[] };
  const total = sites.reduce((s, x) => s + x.bytes, 0);
  console.log(`main thread allocations by function, top 40 (${(total / requests / 1024).toFixed(0)} KB a request among them):`);
  for (const { site, bytes } of sites) console.log(`${(bytes / requests / 1024).toFixed(1).padStart(8)} KB/request  ${site}`);
}
server.stop();
