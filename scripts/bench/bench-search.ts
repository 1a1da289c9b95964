/**
 * Search load test: `npm run bench:search [-- --n 10000|100000|1000000] [--database-url URL]
 * [--duration 10] [--workers 2] [--data-dir DIR]`.
 *
 * 1. Generates N synthetic companies from the real texts of the evaluation corpus and the demo
 *    directory (each one a template's industry, keywords and description, with a sentence of
 *    another company of the same category, a new name, city and country).
 * 2. Loads them in bulk (multi-row INSERT ... SELECT unnest, HNSW index built after the load).
 *    Embeddings: the distinct template texts are embedded with the real model; each synthetic
 *    company gets its template's vector plus small random noise, renormalised. This is a
 *    documented shortcut (embedding 100k texts takes ~35 min here); the index and the query
 *    path are the same as with real vectors.
 *    With --database-url, `--database-name NAME` keeps that database afterwards and reuses it when it
 *    already holds N companies (as --data-dir does for PGlite).
 * 3. Starts the real app as a child process on that store (the compiled server, dist/src/server.js, as `npm start`
 *    runs it; with the peer, or `--tsx`, scripts/bench/bench-server.ts: src/app.ts plus the peer's routes, through
 *    tsx) and load-tests it over HTTP with autocannon, 10 connections:
 *    /api/health (ceiling), novel queries, repeated queries, both with and without filters, and
 *    GET /companies/{id}. Prints p50, p99, req/s, the ratio to the ceiling, the server's peak RSS
 *    (VmHWM; and, sampled, its own memory apart from the files it maps) and the mean time per search
 *    stage of each run (from /metrics: search_stage_seconds).
 * 4. The peer (issue 17): loads the same companies and vectors into Orama inside the same server
 *    process (after our runs and our RSS reading), runs the same novel query runs against its route
 *    and prints our figures as ratios to its.
 *    `--no-peer` skips it; above 300k companies it is always skipped (Orama held 4.2 GB at 100k).
 * PGlite data goes to a temporary folder; with --database-url a temporary database is created.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchSnapshotDir, startBenchServer, type BenchServer } from './bench-start.js';
import { loadTemplates, pick, PLACES, rnd, sentences, SERVICE_TYPES, SUFFIXES, SYLLABLES, type Template } from './lib/synthetic-companies.js';
import pg from 'pg';
import autocannon from 'autocannon';
import { loadConfig } from '../../src/config.js';
import { migrate, openDb, type Db } from '../../src/platform/db.js';
import { createEmbeddingProvider, toPgVector } from '../../src/platform/embeddings/embeddings.js';
import { embedProfiles } from '../../src/modules/companies/profile-vector.js';
import { countryCode } from '../../src/lib/countries.js';
import { cityCoordinates } from '../../src/lib/geo.js';
import { zoneAt } from '../../src/lib/time-zone.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name: string, fallback?: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const N = Number(option('--n', '100000'));
const duration = Number(option('--duration', '10'));
const workers = option('--workers', '2')!;
const databaseUrl = option('--database-url');
// Keep (or reuse) the PGlite store in this folder instead of a temporary one.
const keepDir = option('--data-dir');
// Keep (or reuse) the PostgreSQL database of this name instead of a temporary one.
const keepDatabase = option('--database-name');
if (keepDatabase && !/^[a-z_][a-z0-9_]*$/.test(keepDatabase)) throw new Error('--database-name: lower-case letters, digits and _');
const withPeer = !args.includes('--no-peer') && N <= 300_000;
// Without the peer the bench measures what production runs: the compiled server (`npm start`: dist/src/server.js, built
// first); `--tsx` runs src/ through tsx instead, as the benches before session 19 did (about 50-130 MB more resident).
// The peer's routes live in scripts/bench/bench-server.ts, which runs through tsx.
const compiled = !withPeer && !args.includes('--tsx');
const reusing = Boolean(keepDir || keepDatabase);

function log(msg: string) {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
}

async function freshStore(): Promise<{ db: Db; env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (databaseUrl) {
    const name = keepDatabase ?? `agp_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
    if (!exists) await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(databaseUrl);
    u.pathname = `/${name}`;
    const db = await openDb({ databaseUrl: u.toString(), poolSize: 4 });
    const snapshots = benchSnapshotDir(root, u.toString());
    return {
      db,
      env: { DATABASE_URL: u.toString(), VECTOR_INDEX_SNAPSHOT_DIR: snapshots },
      cleanup: async () => {
        if (keepDatabase) return;
        fs.rmSync(snapshots, { recursive: true, force: true });
        const c = new pg.Client({ connectionString: databaseUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = keepDir ? path.resolve(keepDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'agp-bench-'));
  const db = await openDb({ pgliteDir: dir });
  return { db, env: { DATA_DIR: dir }, cleanup: async () => (keepDir ? undefined : fs.rmSync(dir, { recursive: true, force: true })) };
}

async function load(db: Db, templates: Template[]): Promise<string[]> {
  log(`embedding ${templates.length} template texts with the real model`);
  const config = loadConfig({ EMBEDDINGS_WORKERS: workers });
  const emb = createEmbeddingProvider(config.embeddings);
  const profiles = templates.map((t) => ({ ...t, services: [], city: '', country: '' }));
  const vectors: number[][] = [];
  const chunks: (typeof profiles)[] = [];
  for (let i = 0; i < profiles.length; i += 64) chunks.push(profiles.slice(i, i + 64));
  const results = await Promise.all(chunks.map((c) => embedProfiles(emb, c)));
  for (const r of results) vectors.push(...r);
  await emb.close();

  const byCategory = new Map<string, Template[]>();
  for (const t of templates) byCategory.set(t.category, [...(byCategory.get(t.category) ?? []), t]);

  log(`generating and inserting ${N} companies (HNSW index dropped during the load, rebuilt after)`);
  await db.exec('DROP INDEX IF EXISTS companies_embedding');
  const started = Date.now();
  const batch = 1000;
  for (let i = 0; i < N; i += batch) {
    const cols: Record<string, unknown[]> = {
      name: [],
      website_url: [],
      domain: [],
      category: [],
      industry: [],
      description: [],
      country: [],
      country_code: [],
      city: [],
      service_type: [],
      is_verified: [],
      keywords: [],
      embedding: [],
      latitude: [],
      longitude: [],
      timezone: [],
    };
    for (let j = i; j < Math.min(i + batch, N); j++) {
      const ti = Math.floor(rnd() * templates.length);
      const t = templates[ti]!;
      const other = pick(byCategory.get(t.category)!);
      const [country, city] = pick(PLACES);
      const word = pick(SYLLABLES) + pick(SYLLABLES) + pick(SYLLABLES);
      const name = `${word[0]!.toUpperCase()}${word.slice(1)} ${pick(SUFFIXES)}`;
      const domain = `${word}-${j}.example`;
      const kws = t.keywords.filter(() => rnd() < 0.8);
      const desc = [...sentences(t.description), pick(sentences(other.description) .length ? sentences(other.description) : [''])].join(' ');
      // Template vector + noise (σ≈0.02 per dimension), renormalised: near but not equal to its template.
      const v = vectors[ti]!.map((x) => x + (rnd() - 0.5) * 0.07);
      const norm = Math.hypot(...v);
      cols.name!.push(name);
      cols.website_url!.push(`https://${domain}`);
      cols.domain!.push(domain);
      cols.category!.push(t.category);
      cols.industry!.push(t.industry);
      cols.description!.push(desc);
      cols.country!.push(country);
      cols.country_code!.push(countryCode(country) ?? '');
      cols.city!.push(city);
      cols.service_type!.push(pick(SERVICE_TYPES));
      cols.is_verified!.push(rnd() < 0.6);
      cols.keywords!.push(`{${kws.map((k) => `"${k.replace(/["\\]/g, '')}"`).join(',')}}`);
      cols.embedding!.push(toPgVector(v.map((x) => Math.round((x / norm) * 1e5) / 1e5)));
      const at = cityCoordinates(city, countryCode(country) ?? '');
      cols.latitude!.push(at.latitude);
      cols.longitude!.push(at.longitude);
      // stored at insert as the service stores it, or the service's start would fill it in row by row (a backfill for rows
      // stored before time zones existed: at 1M companies over an hour of updates through the HNSW index)
      cols.timezone!.push(at.latitude !== null && at.longitude !== null ? zoneAt(at.latitude, at.longitude) : null);
    }
    await db.query(
      `INSERT INTO companies (name, website_url, domain, category, industry, description, country, country_code, city, service_type, is_verified, keywords, embedding, embedding_model, source, latitude, longitude, timezone)
       SELECT n, w, d, c, i, de, co, cc, ci, st, v, k::text[], e::vector, 'use-lite-512', 'bench', lat, lng, tz
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::boolean[], $12::text[], $13::text[], $14::float8[], $15::float8[], $16::text[])
           AS t(n, w, d, c, i, de, co, cc, ci, st, v, k, e, lat, lng, tz)`,
      Object.values(cols),
    );
    if ((i / batch) % 10 === 0) log(`  ${Math.min(i + batch, N)}/${N} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  log(`inserted in ${((Date.now() - started) / 1000).toFixed(0)} s; building the HNSW index`);
  const t0 = Date.now();
  // The graph must fit in maintenance_work_mem or PostgreSQL builds it on disk, many times slower.
  const workMem = databaseUrl && N > 200_000 ? `${Math.ceil((N * 4) / 1000)}MB` : '256MB';
  await db.exec(`SET maintenance_work_mem = '${workMem}'; CREATE INDEX companies_embedding ON companies USING hnsw (embedding vector_cosine_ops); ANALYZE companies;`);
  log(`HNSW index built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const ids = await db.query<{ id: string }>('SELECT id FROM companies ORDER BY random() LIMIT 2000');
  return ids.map((r) => r.id);
}

function startServer(env: Record<string, string>, port: number): Promise<BenchServer> {
  if (compiled) execFileSync(process.execPath, [path.join(root, 'scripts/dev/build-server.mjs')], { cwd: root, stdio: 'ignore' });
  return startBenchServer({
    script: path.join(root, compiled ? 'dist/src/server.js' : 'scripts/bench/bench-server.ts'),
    cwd: root,
    env: {
      ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', LOG_LEVEL: 'warn', NODE_ENV: 'production',
      EMBEDDINGS_WORKERS: workers, RATE_LIMIT_IP_PER_MINUTE: '1000000', RATE_LIMIT_AGENT_PER_MINUTE: '1000000', RUN_JOBS: 'false',
    },
    port,
    timeoutMs: Math.max(900_000, N * 3),
    log,
  });
}

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * The resident set split by kind, sampled every half second, highest of each kept: the process's own memory (anonymous:
 * heap, buffers, native allocations) and the pages of files it maps (the graph read in place from its snapshot, code),
 * which the operating system shares between processes mapping the same file and can take back. VmHWM counts both.
 */
function residentSampler(pid: number): { stop: () => { anonMb: number; fileMb: number; pssMb: number } } {
  let anon = 0;
  let file = 0;
  let pss = 0;
  let reads = 0;
  const read = () => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      anon = Math.max(anon, Number(/RssAnon:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
      file = Math.max(file, Number(/RssFile:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
      // The proportional set every fourth sample (it walks the page tables): a file page mapped twice in the process
      // (the graph, by the main thread and by each graph search thread) counts twice in the resident set, once here.
      if (reads++ % 4 === 0) pss = Math.max(pss, Number(/\nPss:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024);
    } catch {
      // the server has exited
    }
  };
  read();
  const timer = setInterval(read, 500);
  return {
    stop: () => {
      clearInterval(timer);
      read();
      return { anonMb: anon, fileMb: file, pssMb: pss };
    },
  };
}

interface Row {
  name: string;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  /** Mean ms per search stage over the run (absent for routes that do not search). */
  stages?: Record<string, number>;
}

const STAGES = ['stats', 'embed', 'keyword', 'names', 'semantic_index', 'semantic_database', 'rows', 'total'];

/** Sum and count of search_stage_seconds per stage, read from the server's /metrics. */
async function stageTotals(base: string): Promise<Map<string, { sum: number; count: number }>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const out = new Map<string, { sum: number; count: number }>();
  for (const m of text.matchAll(/^search_stage_seconds_(sum|count)\{stage="(\w+)"\} ([\d.e+-]+)$/gm)) {
    const o = out.get(m[2]!) ?? { sum: 0, count: 0 };
    o[m[1] as 'sum' | 'count'] = Number(m[3]);
    out.set(m[2]!, o);
  }
  return out;
}

/** Runs `work` and adds the mean ms per stage of the searches it caused. */
async function withStages(base: string, work: () => Promise<Row>): Promise<Row> {
  const before = await stageTotals(base);
  const row = await work();
  const after = await stageTotals(base);
  const stages: Record<string, number> = {};
  for (const [stage, a] of after) {
    const b = before.get(stage) ?? { sum: 0, count: 0 };
    if (a.count > b.count) stages[stage] = ((a.sum - b.sum) / (a.count - b.count)) * 1000;
  }
  return Object.keys(stages).length ? { ...row, stages } : row;
}

/** One client, one request at a time: the latency a single agent sees (p50, p99 over n requests). */
async function oneClient(name: string, base: string, paths: () => string, n = 200, warmUp = 20): Promise<Row> {
  // Warm-up (JIT, caches of the first requests) not counted.
  for (let i = 0; i < warmUp; i++) await (await fetch(base + paths())).arrayBuffer();
  const times: number[] = [];
  let errors = 0;
  const started = Date.now();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await fetch(base + paths());
    await r.arrayBuffer();
    times.push(performance.now() - t0);
    if (!r.ok) errors++;
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 10) / 10;
  const row = { name, p50: at(0.5), p99: at(0.99), rps: n / ((Date.now() - started) / 1000), errors };
  log(`1 client, ${name}: p50 ${row.p50} ms, p99 ${row.p99} ms`);
  return row;
}

async function cannon(name: string, base: string, paths: () => string): Promise<Row> {
  const result = await autocannon({
    url: base,
    connections: 10,
    duration,
    requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths() }) }],
  });
  const row = { name, p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average, errors: result.errors + result.non2xx };
  log(`${name}: p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.rps.toFixed(0)} req/s${row.errors ? `, ${row.errors} errors/non-2xx` : ''}`);
  return row;
}

const templates = loadTemplates(root);
const { db, env, cleanup } = await freshStore();
let server: { pid: number; stop: () => void } | undefined;
try {
  await migrate(db);
  const existing = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies');
  const ids = reusing && existing[0]!.n === N
    ? (await db.query<{ id: string }>('SELECT id FROM companies ORDER BY random() LIMIT 2000')).map((r) => r.id)
    : await load(db, templates);
  if (reusing && existing[0]!.n === N) log(`reusing the ${N} companies in ${keepDir ?? keepDatabase}`);
  await db.close();

  const port = 18000 + Math.floor(Math.random() * 1000);
  log('starting the server');
  server = await startServer(env, port);
  const resident = residentSampler(server.pid);
  const base = `http://127.0.0.1:${port}`;
  const enc = encodeURIComponent;

  // Novel queries: each request a combination not sent before (words from the corpus's own
  // vocabulary, so they match like real queries do).
  const vocab = [...new Set(templates.flatMap((t) => [...t.keywords, t.industry]).map((s) => s.toLowerCase()))];
  let novel = 0;
  const novelQuery = () => `${pick(vocab)} ${pick(vocab)} ${++novel}`.replace(/ \d+$/, (m) => (novel % 2 ? m.replace(/\d+/, pick(PLACES)[1]) : ''));
  const seen = new Set<string>();
  const freshQuery = () => {
    for (;;) {
      const q = novelQuery();
      if (!seen.has(q)) {
        seen.add(q);
        return q;
      }
    }
  };
  const repeated = ['plumber in berlin', 'SOC 2 audit for a startup', 'wedding photographer', 'accountant for small business', 'solar panel installation'];
  let r = 0;
  const filters = () => `&country=${enc(pick(PLACES)[0])}&is_verified=true`;

  // One client: novel queries alone and with each filter of the evaluation set, alone and combined.
  const single: Row[] = [];
  const oneFilters: [string, () => string][] = [
    ['no filter', () => ''],
    ['city', () => `&city=${enc(pick(PLACES)[1])}`],
    ['country', () => `&country=${enc(pick(PLACES)[0])}`],
    ['service_type', () => `&service_type=${pick(SERVICE_TYPES)}`],
    ['is_verified', () => '&is_verified=true'],
    ['category', () => `&category=${enc(pick(templates).category)}`],
    ['category+country+verified', () => `&category=${enc(pick(templates).category)}&country=${enc(pick(PLACES)[0])}&is_verified=true`],
    ['city+service_type', () => { const [country, city] = pick(PLACES); return `&city=${enc(city)}&country=${enc(country)}&service_type=${pick(SERVICE_TYPES)}`; }],
  ];
  for (const [name, extra] of oneFilters) single.push(await withStages(base, () => oneClient(name, base, () => `/api/v1/agent/companies?q=${enc(freshQuery())}${extra()}`)));

  const rows: Row[] = [];
  const searchRun = (name: string, paths: () => string) => withStages(base, () => cannon(name, base, paths));
  rows.push(await cannon('ceiling: GET /api/health', base, () => '/api/health'));
  rows.push(await searchRun('novel queries', () => `/api/v1/agent/companies?q=${enc(freshQuery())}`));
  rows.push(await searchRun('novel queries + filters', () => `/api/v1/agent/companies?q=${enc(freshQuery())}${filters()}`));
  // Places: a novel query with near (a filter), and one naming its place in the words (a second, local ranking).
  rows.push(await searchRun('novel queries + near', () => `/api/v1/agent/companies?q=${enc(freshQuery())}&near=${enc(pick(PLACES)[1])}`));
  rows.push(await searchRun('novel queries "in <city>"', () => `/api/v1/agent/companies?q=${enc(`${freshQuery()} in ${pick(PLACES)[1]}`)}`));
  for (const q of repeated) await fetch(`${base}/api/v1/agent/companies?q=${enc(q)}`);
  for (const q of repeated) await fetch(`${base}/api/v1/agent/companies?q=${enc(q)}&country=Germany&is_verified=true`);
  rows.push(await searchRun('repeated queries', () => `/api/v1/agent/companies?q=${enc(repeated[r++ % repeated.length]!)}`));
  rows.push(await searchRun('repeated queries + filters', () => `/api/v1/agent/companies?q=${enc(repeated[r++ % repeated.length]!)}&country=Germany&is_verified=true`));
  rows.push(await searchRun('browse with filters (no q)', () => `/api/v1/agent/companies?category=${enc(pick(templates).category)}${filters()}`));
  rows.push(await cannon('GET /companies/{id}', base, () => `/api/v1/agent/companies/${pick(ids)}`));
  const rss = peakRssMb(server.pid);
  const split = resident.stop();

  // The peer, in the same process, after our peak RSS was read.
  const peerSingle: Row[] = [];
  const peerRows: Row[] = [];
  let peerRss = NaN;
  if (withPeer) {
    log('loading the peer (Orama) with the same companies and vectors');
    const loaded = (await (await fetch(`${base}/bench/peer/load`, { method: 'POST' })).json()) as { companies: number; seconds: number };
    log(`peer loaded: ${loaded.companies} companies in ${loaded.seconds.toFixed(0)} s`);
    // Fewer requests for the peer: at 100k it needs about half a second per query (a full scan of the vectors).
    for (const [name, extra] of oneFilters) peerSingle.push(await oneClient(`peer: ${name}`, base, () => `/bench/peer/companies?q=${enc(freshQuery())}${extra()}`, 60, 5));
    peerRows.push(await cannon('peer: novel queries', base, () => `/bench/peer/companies?q=${enc(freshQuery())}`));
    peerRows.push(await cannon('peer: novel queries + filters', base, () => `/bench/peer/companies?q=${enc(freshQuery())}${filters()}`));
    peerRss = peakRssMb(server.pid);
  }

  const ceiling = rows[0]!.rps;
  console.log(`\n${N} companies on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, 10 connections, ${duration} s per run, ${workers} embedding worker(s)`);
  console.log('vectors: template vectors + noise (see the header of scripts/bench/bench-search.ts)');
  console.log(`${'route'.padEnd(30)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'req/s'.padStart(9)}${'of ceiling'.padStart(12)}${'errors'.padStart(8)}`);
  for (const row of rows) {
    console.log(`${row.name.padEnd(30)}${String(row.p50).padStart(8)}${String(row.p99).padStart(8)}${row.rps.toFixed(0).padStart(9)}${`${((row.rps / ceiling) * 100).toFixed(1)} %`.padStart(12)}${String(row.errors).padStart(8)}`);
  }
  console.log(`server peak RSS: ${rss.toFixed(0)} MB (${compiled ? 'compiled server' : 'through tsx'})${withPeer ? ` (with the peer loaded as well: ${peerRss.toFixed(0)} MB)` : ''}`);
  console.log(`  of which, sampled every 0.5 s from ready to the last run: own memory (anonymous) peak ${split.anonMb.toFixed(0)} MB, mapped files peak ${split.fileMb.toFixed(0)} MB; proportional set (Pss: a page mapped twice counts once) peak ${split.pssMb.toFixed(0)} MB`);
  console.log(`\none client over HTTP, novel queries (${single.length} runs of 200 requests${withPeer ? ', 60 for the peer); peer = Orama on the same companies, vectors and query embedding' : ')'}`);
  console.log(`${'filters'.padEnd(30)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${withPeer ? `${'peer p50'.padStart(10)}${'peer p99'.padStart(10)}${'p50 ratio'.padStart(11)}` : ''}`);
  single.forEach((row, i) => {
    const peer = peerSingle[i];
    const versus = peer ? `${String(peer.p50).padStart(10)}${String(peer.p99).padStart(10)}${(row.p50 / peer.p50).toFixed(2).padStart(11)}` : '';
    const errors = row.errors + (peer?.errors ?? 0);
    console.log(`${row.name.padEnd(30)}${String(row.p50).padStart(8)}${String(row.p99).padStart(8)}${versus}${errors ? `  ${errors} errors` : ''}`);
  });
  if (withPeer) console.log('\n10 connections, ours vs the peer (req/s ratio > 1: we are faster)');
  for (const [i, peer] of peerRows.entries()) {
    const ours = rows[i + 1]!;
    console.log(`${ours.name.padEnd(30)}ours ${ours.rps.toFixed(0)} req/s p99 ${ours.p99} ms · peer ${peer.rps.toFixed(0)} req/s p99 ${peer.p99} ms · ratio ${(ours.rps / peer.rps).toFixed(2)}${peer.errors ? ` · peer errors ${peer.errors}` : ''}`);
  }
  console.log(`\nmean ms per search stage (stages overlap: keyword, names and embed+semantic run in parallel; total = one uncached search)`);
  console.log(`${'run'.padEnd(34)}${STAGES.map((st) => st.replace('semantic_', 'sem_').padStart(10)).join('')}`);
  for (const row of [...single.map((x) => ({ ...x, name: `1 client, ${x.name}` })), ...rows]) {
    if (!row.stages) continue;
    console.log(`${row.name.padEnd(34)}${STAGES.map((st) => (row.stages![st] === undefined ? '-' : row.stages![st]!.toFixed(1)).padStart(10)).join('')}`);
  }
} finally {
  server?.stop();
  await new Promise((res) => setTimeout(res, 1000));
  await cleanup();
}
