/**
 * Public website load test: `npm run bench:site [-- --n 100000] [--database-url URL] [--duration 10]
 * [--workers 2] [--data-dir DIR]`.
 *
 * Seeds N synthetic companies the way scripts/bench/bench-search.ts does (real template texts from the
 * evaluation corpus and the demo directory, new names and places; each template embedded once with the
 * real model, each company its template's vector plus noise), with the 0013 slug trigger assigning
 * slugs during the load. Then starts the real server (src/server.ts) and load-tests it over HTTP with
 * autocannon, 10 connections: /api/health (ceiling), GET /companies/{slug} (company page), /search
 * with novel and repeated queries, a category page and the home page. Prints p50, p99, req/s and
 * the page sizes. The runs start once the in-process vector index is built (scripts/bench/bench-start.ts).
 * PGlite data goes to a temporary folder (or --data-dir, reused when it holds N).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startBenchServer, type BenchServer } from './bench-start.js';
import pg from 'pg';
import autocannon from 'autocannon';
import { loadConfig } from '../../src/config.js';
import { migrate, openDb, type Db } from '../../src/platform/db.js';
import { createEmbeddingProvider, toPgVector } from '../../src/platform/embeddings/embeddings.js';
import { embedProfiles } from '../../src/modules/companies/profile-vector.js';
import { countryCode } from '../../src/lib/countries.js';

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
const keepDir = option('--data-dir');

let seed = 42;
const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)]!;
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

interface Template { name: string; category: string; industry: string; description: string; keywords: string[] }

function loadTemplates(): Template[] {
  const files = [path.join(root, '../shared/eval/companies.jsonl'), path.join(root, 'seed/demo-companies.jsonl')].filter((f) => fs.existsSync(f));
  return files.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).map((l) => {
    const o = JSON.parse(l) as Template & { keywords?: string[] };
    return { name: o.name, category: o.category, industry: o.industry ?? '', description: o.description ?? '', keywords: o.keywords ?? [] };
  }));
}

const PLACES: [string, string, string][] = [
  ['United States', 'New York', '350 5th Ave'], ['United States', 'Austin', ''], ['United Kingdom', 'London', '10 Downing Street'], ['United Kingdom', 'Leeds', ''],
  ['Germany', 'Berlin', 'Hauptstrasse 1'], ['Germany', 'Munich', ''], ['France', 'Paris', '5 Rue de Rivoli'], ['Spain', 'Madrid', ''], ['Italy', 'Milan', ''],
  ['Netherlands', 'Amsterdam', 'Damrak 1'], ['Canada', 'Toronto', ''], ['Australia', 'Sydney', '1 George Street'], ['India', 'Bangalore', ''], ['Japan', 'Tokyo', ''],
  ['Brazil', 'São Paulo', ''], ['Ireland', 'Dublin', ''], ['Poland', 'Warsaw', ''], ['Kenya', 'Nairobi', ''],
];
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ven', 'tor', 'bel', 'sun', 'dal', 'ero', 'nix', 'qua', 'fen', 'lyn', 'ost', 'mar', 'pel', 'tri', 'zo', 'har'];
const SUFFIXES = ['Partners', 'Group', 'Studio', 'Works', 'Solutions', 'Co', 'Labs', 'Services', 'Collective', '& Sons'];
const SERVICE_TYPES = ['remote', 'local', 'nationwide', 'hybrid'];
const sentences = (text: string) => text.split(/(?<=[.!?])\s+/).filter(Boolean);

async function freshStore(): Promise<{ db: Db; env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (databaseUrl) {
    const name = `agp_bench_site_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(databaseUrl);
    u.pathname = `/${name}`;
    return {
      db: await openDb({ databaseUrl: u.toString(), poolSize: 4 }),
      env: { DATABASE_URL: u.toString() },
      cleanup: async () => {
        const c = new pg.Client({ connectionString: databaseUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = keepDir ? path.resolve(keepDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'agp-bench-site-'));
  return { db: await openDb({ pgliteDir: dir }), env: { DATA_DIR: dir }, cleanup: async () => (keepDir ? undefined : fs.rmSync(dir, { recursive: true, force: true })) };
}

async function load(db: Db, templates: Template[]): Promise<void> {
  log(`embedding ${templates.length} template texts with the real model`);
  const emb = createEmbeddingProvider(loadConfig({ EMBEDDINGS_WORKERS: workers }).embeddings);
  const profiles = templates.map((t) => ({ ...t, services: [], city: '', country: '' }));
  const vectors: number[][] = [];
  for (let i = 0; i < profiles.length; i += 64) vectors.push(...(await embedProfiles(emb, profiles.slice(i, i + 64))));
  await emb.close();
  const byCategory = new Map<string, Template[]>();
  for (const t of templates) byCategory.set(t.category, [...(byCategory.get(t.category) ?? []), t]);

  log(`inserting ${N} companies (slugs assigned by the 0013 trigger; HNSW index rebuilt after the load)`);
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
      address: [],
      service_type: [],
      is_verified: [],
      keywords: [],
      embedding: [],
    };
    for (let j = i; j < Math.min(i + batch, N); j++) {
      const ti = Math.floor(rnd() * templates.length);
      const t = templates[ti]!;
      const other = pick(byCategory.get(t.category)!);
      const [country, city, street] = pick(PLACES);
      const word = pick(SYLLABLES) + pick(SYLLABLES) + pick(SYLLABLES);
      const v = vectors[ti]!.map((x) => x + (rnd() - 0.5) * 0.07);
      const norm = Math.hypot(...v);
      cols.name!.push(`${word[0]!.toUpperCase()}${word.slice(1)} ${pick(SUFFIXES)}`);
      cols.website_url!.push(`https://${word}-${j}.example`);
      cols.domain!.push(`${word}-${j}.example`);
      cols.category!.push(t.category);
      cols.industry!.push(t.industry);
      cols.description!.push([...sentences(t.description), pick(sentences(other.description).length ? sentences(other.description) : [''])].join(' '));
      cols.country!.push(country);
      cols.country_code!.push(countryCode(country) ?? '');
      cols.city!.push(city);
      cols.address!.push(street ? `${street}, ${city}` : '');
      cols.service_type!.push(pick(SERVICE_TYPES));
      cols.is_verified!.push(rnd() < 0.6);
      cols.keywords!.push(`{${t.keywords.filter(() => rnd() < 0.8).map((k) => `"${k.replace(/["\\]/g, '')}"`).join(',')}}`);
      cols.embedding!.push(toPgVector(v.map((x) => Math.round((x / norm) * 1e5) / 1e5)));
    }
    await db.query(
      `INSERT INTO companies (name, website_url, domain, category, industry, description, country, country_code, city, address, service_type, is_verified, keywords, embedding, embedding_model, source)
       SELECT n, w, d, c, i, de, co, cc, ci, ad, st, v, k::text[], e::vector, 'use-lite-512', 'bench'
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::boolean[], $13::text[], $14::text[])
           AS t(n, w, d, c, i, de, co, cc, ci, ad, st, v, k, e)`,
      Object.values(cols),
    );
    if ((i / batch) % 10 === 0) log(`  ${Math.min(i + batch, N)}/${N} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  log(`inserted in ${((Date.now() - started) / 1000).toFixed(0)} s; building the HNSW index`);
  await db.exec(`SET maintenance_work_mem = '256MB'; CREATE INDEX companies_embedding ON companies USING hnsw (embedding vector_cosine_ops); ANALYZE companies;`);
}

function startServer(env: Record<string, string>, port: number): Promise<BenchServer> {
  return startBenchServer({
    script: path.join(root, 'src/server.ts'),
    cwd: root,
    env: {
      ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${port}`, SEED_DEMO: 'false', LOG_LEVEL: 'warn', NODE_ENV: 'production',
      EMBEDDINGS_WORKERS: workers, RATE_LIMIT_IP_PER_MINUTE: '1000000', RATE_LIMIT_AGENT_PER_MINUTE: '1000000', RUN_JOBS: 'false',
    },
    port,
    timeoutMs: Math.max(900_000, N * 3),
    log,
  });
}

interface Row { name: string; p50: number; p99: number; rps: number; errors: number }

async function cannon(name: string, base: string, paths: () => string): Promise<Row> {
  const result = await autocannon({ url: base, connections: 10, duration, requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths() }) }] });
  const row = { name, p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average, errors: result.errors + result.non2xx };
  log(`${name}: p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.rps.toFixed(0)} req/s${row.errors ? `, ${row.errors} errors/non-2xx` : ''}`);
  return row;
}

const templates = loadTemplates();
const { db, env, cleanup } = await freshStore();
let server: { pid: number; stop: () => void } | undefined;
try {
  await migrate(db);
  const existing = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies'))[0]!.n;
  if (keepDir && existing === N) log(`reusing the ${N} companies in ${keepDir}`);
  else await load(db, templates);
  const slugs = (await db.query<{ slug: string }>('SELECT slug FROM companies ORDER BY random() LIMIT 5000')).map((r) => r.slug);
  // Category pages that exist: up to 5 pages of 20 in each category that has companies.
  const categoryPages = (await db.query<{ category: string; n: number }>('SELECT category, count(*)::int AS n FROM companies WHERE deleted_at IS NULL GROUP BY category'))
    .flatMap((c) => Array.from({ length: Math.min(5, Math.ceil(c.n / 20)) }, (_, i) => ({ category: c.category, page: i + 1 })));
  await db.close();

  const port = 19000 + Math.floor(Math.random() * 1000);
  log('starting the server');
  server = await startServer(env, port);
  const base = `http://127.0.0.1:${port}`;
  const enc = encodeURIComponent;
  const vocab = [...new Set(templates.flatMap((t) => [...t.keywords, t.industry]).map((s) => s.toLowerCase()).filter(Boolean))];
  let novel = 0;
  const repeated = ['plumber in berlin', 'wedding photographer', 'accountant for small business', 'solar panel installation', 'seo agency'];
  let r = 0;
  const categories = [...new Set(templates.map((t) => t.category))];
  const categorySlug = (c: string) => c.toLowerCase().replace(/&/g, ' and ').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

  const sizes: string[] = [];
  for (const [label, p] of [['company page', `/companies/${slugs[0]}`], ['search page', `/search?q=${enc(repeated[0]!)}`], ['category page', `/categories/${categorySlug(categories[0]!)}`], ['home page', '/']] as const) {
    const res = await fetch(`${base}${p}`);
    sizes.push(`${label} ${res.status} ${((await res.arrayBuffer()).byteLength / 1024).toFixed(1)} KB`);
  }
  for (const q of repeated) await fetch(`${base}/search?q=${enc(q)}`);

  const rows: Row[] = [];
  rows.push(await cannon('ceiling: GET /api/health', base, () => '/api/health'));
  rows.push(await cannon('company page /companies/{slug}', base, () => `/companies/${pick(slugs)}`));
  rows.push(await cannon('search page, novel queries', base, () => `/search?q=${enc(`${pick(vocab)} ${pick(vocab)} ${++novel}`)}`));
  rows.push(await cannon('search page, repeated queries', base, () => `/search?q=${enc(repeated[r++ % repeated.length]!)}`));
  rows.push(await cannon('category page (page 1-5)', base, () => {
    const c = pick(categoryPages);
    return `/categories/${categorySlug(c.category)}${c.page > 1 ? `?page=${c.page}` : ''}`;
  }));
  rows.push(await cannon('home page', base, () => '/'));

  const ceiling = rows[0]!.rps;
  console.log(`\n${N} companies on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, 10 connections, ${duration} s per run`);
  console.log(`page sizes: ${sizes.join(', ')}`);
  console.log(`${'route'.padEnd(34)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'req/s'.padStart(9)}${'of ceiling'.padStart(12)}${'errors'.padStart(8)}`);
  for (const row of rows) {
    console.log(`${row.name.padEnd(34)}${String(row.p50).padStart(8)}${String(row.p99).padStart(8)}${row.rps.toFixed(0).padStart(9)}${`${((row.rps / ceiling) * 100).toFixed(1)} %`.padStart(12)}${String(row.errors).padStart(8)}`);
  }
} finally {
  server?.stop();
  await new Promise((res) => setTimeout(res, 1000));
  await cleanup();
}
