/**
 * The server `npm run bench:search` measures: the real app (src/app.ts, as src/server.ts builds it)
 * plus two bench-only routes for the peer of issue 17, so the peer answers from the same process
 * over the same HTTP stack and its figures compare with ours:
 *   POST /bench/peer/load        loads every company and its stored vector into Orama (after our
 *                                runs, so our peak RSS is read before the peer's memory exists)
 *   GET  /bench/peer/companies   ?q=&category=&country=&city=&service_type=&is_verified=&limit=
 *                                embeds q with the service's own provider (same micro-batching and
 *                                cost as ours), searches Orama in hybrid mode, answers JSON.
 *   POST /bench/gc               a full garbage collection when node runs with --expose-gc (memory-probe's
 *                                --gc), then the heap in use: what the load left alive, not its garbage
 *   POST /bench/allocations/start  samples every allocation of the main thread (V8's sampling heap profiler,
 *   POST /bench/allocations/stop   collected objects included) until stop, which answers the bytes allocated
 *                                by function (scripts/dev/thread-cpu.ts --alloc)
 * Never started by the service itself.
 */
import { Session } from 'node:inspector/promises';
import { buildApp } from '../../src/app.js';
import { loadConfigOrExit } from '../../src/config.js';
import { loadGazetteer } from '../../src/lib/gazetteer.js';
import { limitHeapGrowth } from '../../src/platform/heap.js';
import { companiesForPeer, createOramaPeer, type OramaPeer } from './peer/orama-peer.js';

const config = loadConfigOrExit();
// As src/server.ts does before building the app.
limitHeapGrowth(config.heapGrowingPercent);
const app = await buildApp(config);
let peer: OramaPeer | undefined;
// As src/server.ts does before listening.
loadGazetteer();

app.post('/bench/gc', async () => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) return { collected: false };
  collect();
  const m = process.memoryUsage();
  return { collected: true, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, rss: m.rss };
});

let sampling: Session | undefined;
app.post('/bench/allocations/start', async () => {
  sampling = new Session();
  sampling.connect();
  await sampling.post('HeapProfiler.enable');
  await sampling.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  return { sampling: true };
});

interface SamplingNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: SamplingNode[] }
app.post('/bench/allocations/stop', async (_req, reply) => {
  if (!sampling) return reply.code(409).send({ detail: 'POST /bench/allocations/start first' });
  const { profile } = (await sampling.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SamplingNode } };
  sampling.disconnect();
  sampling = undefined;
  const bySite = new Map<string, number>();
  const walk = (n: SamplingNode) => {
    const site = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
    n.children.forEach(walk);
  };
  walk(profile.head);
  return { sites: [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([site, bytes]) => ({ site, bytes })) };
});

app.post('/bench/peer/load', async () => {
  const started = Date.now();
  const loading = createOramaPeer(app.services.embeddings.dimensions);
  for await (const page of companiesForPeer(app.services.db)) await loading.insert(page);
  peer = loading;
  return { companies: loading.size(), seconds: (Date.now() - started) / 1000 };
});

app.get<{ Querystring: Record<string, string | undefined> }>('/bench/peer/companies', async (req, reply) => {
  if (!peer) return reply.code(409).send({ detail: 'POST /bench/peer/load first' });
  const q = req.query.q ?? '';
  const vector = await app.services.embeddings.embedQuery(q);
  const { hits, total } = await peer.search({
    q,
    vector,
    limit: Math.min(Number(req.query.limit ?? 10) || 10, 50),
    filters: {
      category: req.query.category,
      country: req.query.country,
      city: req.query.city,
      service_type: req.query.service_type,
      is_verified: req.query.is_verified === undefined ? undefined : req.query.is_verified === 'true',
    },
  });
  return { companies: hits, total };
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
await app.listen({ port: config.port, host: config.host });
