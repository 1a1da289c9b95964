/**
 * Crawl throughput: `npm run bench:crawl [-- --sites 48] [--concurrency 16] [--delay 1000]
 * [--max-pages 10] [--timeout 2000] [--analyse]`.
 *
 * Starts the fixture farm (test/fixtures/crawl/farm.ts) and serves `--sites` distinct
 * hosts (copy-N.<fixture>.test, cycling through the fixture sites except the robots-refused
 * one), then crawls them all through the real fetcher and engine with politeness on: robots.txt,
 * Crawl-delay, at most 2 requests in flight per host and `--delay` ms between two requests to
 * one host (default 1000, the service default). `--concurrency` sites are crawled at once.
 * With --analyse each site is also analysed (deterministic analyser, local embedding model).
 * Prints pages/s, sites/min, failures and the per-site duration percentiles.
 */
import { loadConfig } from '../../src/config.js';
import { createEmbeddingProvider } from '../../src/platform/embeddings/embeddings.js';
import { createAnalyser } from '../../src/modules/crawl/crawl.analyse.js';
import { assembleMaterial } from '../../src/modules/crawl/crawl.material.js';
import { createEngine, HostPacer } from '../../src/modules/crawl/crawl.engine.js';
import { createFetcher } from '../../src/modules/crawl/crawl.fetcher.js';
import { FIXTURE_SITES, fixtureResolver, startFixtureFarm } from '../../test/fixtures/crawl/farm.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} needs a number`);
  return n;
}

const sites = arg('sites', 48);
const concurrency = arg('concurrency', 16);
const delayMs = arg('delay', 1000);
const maxPages = arg('max-pages', 10);
const timeoutMs = arg('timeout', 2000);
const analyse = process.argv.includes('--analyse');

const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent' });
const farm = await startFixtureFarm();
const fetcher = createFetcher({ userAgent: config.crawl.userAgent, allowPrivate: true, allowedPorts: [farm.port], timeoutMs, resolver: fixtureResolver });
const engine = createEngine({ fetcher, userAgent: config.crawl.userAgent, pacer: new HostPacer(2) });
const embeddings = analyse ? createEmbeddingProvider(config.embeddings) : undefined;
const analyser = embeddings ? createAnalyser({ embeddings }) : undefined;
if (embeddings) await embeddings.ready();

const templates = FIXTURE_SITES.filter((s) => s.expected);
const hosts = Array.from({ length: sites }, (_, i) => `copy-${i}.${templates[i % templates.length]!.host}`);

console.log(`bench:crawl ${sites} sites, ${concurrency} at once, delay ${delayMs} ms per host, max ${maxPages} pages, timeout ${timeoutMs} ms${analyse ? ', with analysis' : ''}`);
let pages = 0;
let failedSites = 0;
const durations: number[] = [];
const started = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < hosts.length) {
      const host = hosts[next++]!;
      const t0 = Date.now();
      const o = await engine.crawl(farm.url(host), { maxPages, maxDepth: 2, delayMs, adaptiveRetry: true });
      if (o.fatal) failedSites++;
      else if (analyser) await analyser.analyse(assembleMaterial(o.pages, o.origin));
      pages += o.pages.length;
      durations.push(Date.now() - t0);
    }
  }),
);
const seconds = (Date.now() - started) / 1000;
durations.sort((a, b) => a - b);
const pct = (p: number) => durations[Math.min(durations.length - 1, Math.floor((p / 100) * durations.length))]!;
console.log(`requests served by the farm: ${farm.requests.length}`);
console.log(`pages fetched: ${pages} in ${seconds.toFixed(1)} s`);
console.log(`pages/s: ${(pages / seconds).toFixed(2)}`);
console.log(`sites/min: ${((sites / seconds) * 60).toFixed(1)}`);
console.log(`failed sites: ${failedSites}`);
console.log(`per-site duration ms: p50 ${pct(50)}, p90 ${pct(90)}, max ${durations.at(-1)}`);
await fetcher.close();
await farm.close();
await embeddings?.close();
