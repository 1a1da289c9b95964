/**
 * Retrieval-quality evaluation: `npm run eval:search -- <companies.jsonl> <queries.jsonl>`.
 *
 * Imports the corpus into a fresh in-memory PGlite (and, with TEST_DATABASE_URL or
 * --database-url, into a fresh temporary PostgreSQL database too), runs every query with its
 * filters through the search service in three modes (hybrid, keyword-only, semantic-only) and
 * prints nDCG@10 and recall@10 overall and per query type (metric: ../shared/eval/README.md).
 *
 * Options:
 *   --database-url URL   also evaluate on PostgreSQL (a temporary database is created and dropped)
 *   --pglite-only        ignore TEST_DATABASE_URL
 *   --sweep              also sweep the fusion weights and print the grid (hybrid nDCG@10)
 *   --embedding-cache F  keep document vectors in file F between runs (faster tuning iterations)
 *   --verbose            print each hybrid query's nDCG@10 and the first result keys with their match_score
 *   --verbose-weak       the same for the ranking with weak results included
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { migrate, openDb, type Db } from '../../src/platform/db.js';
import { createEmbeddingProvider, type EmbeddingProvider } from '../../src/platform/embeddings/embeddings.js';
import { createCompaniesService } from '../../src/modules/companies/companies.service.js';
import { parseCompaniesJsonl } from '../../src/modules/companies/companies.import.js';
import { createSearchRepo, type SearchRepo } from '../../src/modules/search/search.repo.js';
import { createSearchService } from '../../src/modules/search/search.service.js';
import { defaultTuning, type SearchMode, type SearchTuning } from '../../src/modules/search/search.tuning.js';
import { normalizeDomain } from '../../src/lib/url.js';
import { memoEmbeddings } from './lib/embedding-cache.js';
import { companiesForPeer, createOramaPeer, type PeerMode } from './peer/orama-peer.js';

interface EvalQuery {
  qid: string;
  query: string;
  filters: Record<string, string | boolean | number>;
  relevant: Record<string, number>;
  type: string;
}

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const positional = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && ['--database-url', '--embedding-cache'].includes(args[i - 1]!)));
const [companiesFile, queriesFile] = positional;
if (!companiesFile || !queriesFile) {
  console.error('usage: npm run eval:search -- <companies.jsonl> <queries.jsonl> [--database-url URL] [--sweep] [--verbose]');
  process.exit(2);
}

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const queries: EvalQuery[] = fs
  .readFileSync(queriesFile, 'utf8')
  .split(/\r?\n/)
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as EvalQuery);

/** nDCG@10 and recall@10 for one ranked key list (README: 2^grade - 1 gains, log2(i+1) discount). */
export function metrics(ranked: (string | undefined)[], relevant: Record<string, number>): { ndcg: number; recall: number } {
  const top = ranked.slice(0, 10);
  let dcg = 0;
  top.forEach((key, i) => {
    const g = key ? (relevant[key] ?? 0) : 0;
    dcg += (2 ** g - 1) / Math.log2(i + 2);
  });
  const ideal = Object.values(relevant)
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
  const judged = Object.entries(relevant).filter(([, g]) => g >= 1);
  const found = judged.filter(([k]) => top.includes(k)).length;
  return { ndcg: ideal > 0 ? dcg / ideal : 0, recall: judged.length ? found / judged.length : 0 };
}

async function freshStore(kind: 'pglite' | 'postgres', url?: string): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openDb({});
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const name = `agp_eval_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url!);
  u.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: u.toString(), poolSize: 4 });
  await migrate(db);
  return {
    db,
    drop: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

function memoRepo(repo: SearchRepo): SearchRepo {
  const memo = new Map<string, Promise<unknown>>();
  const wrapped = { ...repo } as Record<string, unknown>;
  for (const [name, fn] of Object.entries(repo)) {
    if (typeof fn !== 'function' || name === 'browse') continue;
    wrapped[name] = (...a: unknown[]) => {
      const key = `${name}:${JSON.stringify(a)}`;
      if (!memo.has(key)) memo.set(key, (fn as (...x: unknown[]) => Promise<unknown>)(...a));
      return memo.get(key);
    };
  }
  return wrapped as SearchRepo;
}

type Scores = Map<string, { ndcg: number; recall: number }>;

function summarise(scores: Scores): Record<string, { ndcg: number; recall: number; n: number }> {
  const out: Record<string, { ndcg: number; recall: number; n: number }> = {};
  const add = (k: string, s: { ndcg: number; recall: number }) => {
    const o = (out[k] ??= { ndcg: 0, recall: 0, n: 0 });
    o.ndcg += s.ndcg;
    o.recall += s.recall;
    o.n++;
  };
  for (const q of queries) {
    const s = scores.get(q.qid)!;
    add('overall', s);
    add(q.type, s);
  }
  for (const o of Object.values(out)) {
    o.ndcg /= o.n;
    o.recall /= o.n;
  }
  return out;
}

async function evaluateStore(kind: 'pglite' | 'postgres', embeddings: EmbeddingProvider, url?: string) {
  const started = Date.now();
  const { db, drop } = await freshStore(kind, url);
  try {
    const companies = createCompaniesService({ db, embeddings, baseUrl: config.baseUrl, audit: async () => {} });
    const { lines, errors } = parseCompaniesJsonl(fs.readFileSync(companiesFile!, 'utf8'));
    for (const e of errors) console.error(`  line ${e.line}: ${e.message}`);
    const result = await companies.upsertMany(lines.map((l) => l.input));
    const keyByDomain = new Map<string, string>();
    for (const l of lines) if (l.key) keyByDomain.set(normalizeDomain(l.input.website_url)!, l.key);
    console.log(`\n== store: ${kind} · ${result.created} companies imported in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // Candidate lists depend on the query, not on fusion weights: memoise them so sweeps are cheap.
    const repo = memoRepo(createSearchRepo(db));
    /** What the default answers show beside the ranking: precision of the first five shown, total_found against the judged count. */
    const shown = { top5: 0, top5Relevant: 0, totalFound: 0, judged: 0 };
    const run = async (mode: SearchMode, tuning: SearchTuning = defaultTuning, verbose = false, includeWeak = false): Promise<Scores> => {
      const search = createSearchService({ repo, companies, embeddings, tuning });
      const scores: Scores = new Map();
      for (const q of queries) {
        const f = q.filters ?? {};
        const res = await search.search(
          {
            q: q.query,
            limit: 10,
            offset: 0,
            category: f.category as string | undefined,
            country: f.country as string | undefined,
            city: f.city as string | undefined,
            service_type: f.service_type as 'remote' | 'local' | 'nationwide' | 'hybrid' | undefined,
            is_verified: f.is_verified as boolean | undefined,
            near: f.near as string | undefined,
            radius_km: f.radius_km as number | undefined,
            include_weak: includeWeak,
          },
          mode,
        );
        const keys = res.companies.map((c) => keyByDomain.get(normalizeDomain(c.website_url) ?? ''));
        if (mode === 'hybrid' && !includeWeak && tuning === defaultTuning) {
          for (const k of keys.slice(0, 5)) { shown.top5++; if (k && (q.relevant[k] ?? 0) > 0) shown.top5Relevant++; }
          shown.totalFound += res.total_found;
          shown.judged += Object.keys(q.relevant).length;
        }
        const m = metrics(keys, q.relevant);
        scores.set(q.qid, m);
        if (verbose) console.log(`  ${q.qid} ${q.type.padEnd(12)} ndcg=${m.ndcg.toFixed(2)} [${keys.slice(0, 5).map((k, i) => `${k} ${res.companies[i]!.match_score.toFixed(3)}`).join(', ')}] want ${JSON.stringify(q.relevant)} :: ${q.query.slice(0, 70)}`);
      }
      return scores;
    };

    const t0 = Date.now();
    const modes: SearchMode[] = ['hybrid', 'keyword', 'semantic'];
    const summaries: Record<string, ReturnType<typeof summarise>> = {};
    for (const mode of modes) summaries[mode] = summarise(await run(mode, defaultTuning, flag('--verbose') && mode === 'hybrid'));
    const types = ['overall', ...[...new Set(queries.map((q) => q.type))].sort()];
    console.log(`${queries.length} queries × 3 modes in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    console.log(`${'type'.padEnd(14)}${'n'.padStart(4)}  ${modes.map((m) => `${m} nDCG  rec`.padStart(20)).join('')}`);
    for (const t of types) {
      const n = summaries.hybrid![t]!.n;
      console.log(
        `${t.padEnd(14)}${String(n).padStart(4)}  ${modes.map((m) => `${summaries[m]![t]!.ndcg.toFixed(3)}  ${summaries[m]![t]!.recall.toFixed(3)}`.padStart(20)).join('')}`,
      );
    }
    const h = summaries.hybrid!.overall!.ndcg;
    const ranking = summarise(await run('hybrid', defaultTuning, flag('--verbose-weak'), true)).overall!;
    console.log(`\nhybrid, what is shown by default (strong and partial): precision of the first five shown ${(shown.top5Relevant / shown.top5).toFixed(3)} (${shown.top5} shown, target ≥ 0.65); ` +
      `total_found ${(shown.totalFound / queries.length).toFixed(1)} per query against ${(shown.judged / queries.length).toFixed(1)} judged`);
    console.log(`hybrid ranking with weak results included (include_weak=true): nDCG@10 ${ranking.ndcg.toFixed(3)}, recall@10 ${ranking.recall.toFixed(3)}`);
    const best = Math.max(summaries.keyword!.overall!.ndcg, summaries.semantic!.overall!.ndcg);
    // The targets of the search-speed issue (17): quality must not drop while the search path gets faster.
    const semanticType = summaries.hybrid!.semantic?.ndcg;
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.log(`\nhybrid nDCG@10 ${h.toFixed(3)} (target ≥ 0.90): ${verdict(h >= 0.9)}; ` +
      `${(((h - best) / best) * 100).toFixed(1)}% above the better single method (target ≥ 10%): ${verdict(h >= best * 1.1)}` +
      (semanticType === undefined ? '' : `; semantic-type queries ${semanticType.toFixed(3)} (target ≥ 0.80): ${verdict(semanticType >= 0.8)}`));

    await peerEval(db, keyByDomain, summaries);
    if (flag('--sweep')) await sweep(run);
    return summaries;
  } finally {
    await drop();
  }
}

/**
 * The peer (issue 17): Orama loaded with the same companies and stored vectors, asked the same
 * queries with the same filters and the same query vectors; nDCG@10 per mode, and our hybrid as a
 * ratio to its hybrid. Its hybrid weight is reported at its default and at the best of a small grid.
 */
async function peerEval(db: Db, keyByDomain: Map<string, string>, ours: Record<string, ReturnType<typeof summarise>>) {
  const t0 = Date.now();
  const peer = createOramaPeer(embeddings.dimensions, defaultTuning.minSimilarity);
  const keyById = new Map<string, string>();
  const urls = await db.query<{ id: string; website_url: string }>('SELECT id::text, website_url FROM companies');
  for (const r of urls) keyById.set(r.id, keyByDomain.get(normalizeDomain(r.website_url) ?? '') ?? '');
  for await (const page of companiesForPeer(db)) await peer.insert(page);
  const vectors = new Map<string, number[]>();
  for (const q of queries) vectors.set(q.qid, await embeddings.embedQuery(q.query));
  const run = async (mode: PeerMode, textWeight = 0.5) => {
    const scores: Scores = new Map();
    for (const q of queries) {
      const f = q.filters ?? {};
      const { hits } = await peer.search({
        q: q.query,
        vector: vectors.get(q.qid)!,
        mode,
        textWeight,
        filters: {
          category: f.category as string | undefined,
          country: f.country as string | undefined,
          city: f.city as string | undefined,
          service_type: f.service_type as string | undefined,
          is_verified: f.is_verified as boolean | undefined,
        },
      });
      scores.set(q.qid, metrics(hits.map((h) => keyById.get(h.id)), q.relevant));
    }
    return summarise(scores);
  };
  const peerModes = { hybrid: await run('hybrid'), keyword: await run('fulltext'), semantic: await run('vector') };
  let best = { w: 0.5, ndcg: peerModes.hybrid.overall!.ndcg };
  for (const w of [0.2, 0.3, 0.4, 0.6, 0.7, 0.8]) {
    const n = (await run('hybrid', w)).overall!.ndcg;
    if (n > best.ndcg) best = { w, ndcg: n };
  }
  console.log(`
peer: Orama ${peerVersion()} (${peer.size()} companies, same vectors and query vectors; ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(`${'nDCG@10'.padEnd(14)}${'ours'.padStart(8)}${'Orama'.padStart(8)}${'ratio'.padStart(8)}`);
  for (const m of ['hybrid', 'keyword', 'semantic'] as const) {
    const a = ours[m]!.overall!.ndcg;
    const b = peerModes[m].overall!.ndcg;
    console.log(`${m.padEnd(14)}${a.toFixed(3).padStart(8)}${b.toFixed(3).padStart(8)}${(a / b).toFixed(2).padStart(8)}`);
  }
  const h = ours.hybrid!.overall!.ndcg;
  console.log(`Orama hybrid at its best text weight (${best.w}, tuned on these queries): ${best.ndcg.toFixed(3)}; ours ${h.toFixed(3)} = ${(h / best.ndcg).toFixed(2)}× its best`);
}

function peerVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(new URL('../../node_modules/@orama/orama/package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '';
  }
}

/** A grid over the fusion weights; a flat optimum (neighbours close to the best) is preferred. */
async function sweep(run: (mode: SearchMode, tuning: SearchTuning) => Promise<Scores>) {
  console.log('\nsweep (hybrid nDCG@10 overall / semantic-type): semanticWeight × fusion.scoreShare, keywordWeight = 1');
  const shares = [0, 0.25, 0.5, 0.75, 1];
  const weights = [0.8, 1, 1.25, 1.5, 2, 2.5, 3];
  console.log(`${'sem\\share'.padEnd(10)}${shares.map((s) => String(s).padStart(13)).join('')}`);
  for (const w of weights) {
    const cells: string[] = [];
    for (const s of shares) {
      const tuning: SearchTuning = { ...defaultTuning, semanticWeight: w, fusion: { ...defaultTuning.fusion, scoreShare: s } };
      const sum = summarise(await run('hybrid', tuning));
      cells.push(`${sum.overall!.ndcg.toFixed(3)}/${(sum.semantic?.ndcg ?? 0).toFixed(2)}`.padStart(13));
    }
    console.log(`${String(w).padEnd(10)}${cells.join('')}`);
  }
  console.log('\nsweep: rank constant k (semanticWeight, scoreShare at defaults)');
  const line: string[] = [];
  for (const k of [10, 20, 40, 60, 100]) {
    const sum = summarise(await run('hybrid', { ...defaultTuning, fusion: { ...defaultTuning.fusion, k } }));
    line.push(`k=${k}: ${sum.overall!.ndcg.toFixed(3)}`);
  }
  console.log(line.join('  '));
  const more: [string, Partial<SearchTuning>][] = [
    ['nameWeight=0', { nameWeight: 0 }],
    ['nameWeight=0.3', { nameWeight: 0.3 }],
    ['nameWeight=1', { nameWeight: 1 }],
    ['fields 2/1.5/1/0.5', { fieldWeights: [2, 1.5, 1, 0.5] }],
    ['fields 4/2/1/0.5', { fieldWeights: [4, 2, 1, 0.5] }],
    ['fields 3/3/1/0.5', { fieldWeights: [3, 3, 1, 0.5] }],
    ['k1=0.9 b=0.5', { k1: 0.9, b: 0.5 }],
    ['k1=1.5 b=0.9', { k1: 1.5, b: 0.9 }],
    ['minSimilarity=0.3', { minSimilarity: 0.3 }],
    ['prefixWeight=0', { prefixWeight: 0 }],
    ['prefixWeight=0.5', { prefixWeight: 0.5 }],
    ['keywordCap=20 (binding)', { keywordCap: 20 }],
    ['keywordCap=50 (binding)', { keywordCap: 50 }],
    ['nameMaxWords=4', { nameMaxWords: 4, nameMaxLength: 80 }],
    ['prefixWeight=1', { prefixWeight: 1 }],
    ['prefixMinLength=4', { prefixMinLength: 4 }],
    ['prefixMinLength=7', { prefixMinLength: 7 }],
    ['keywordBoundShare=0.25', { keywordBoundShare: 0.25 }],
    ['keywordBoundShare=0.5', { keywordBoundShare: 0.5 }],
    ['keywordBoundShare=0.75', { keywordBoundShare: 0.75 }],
    ['keywordBoundShare=1', { keywordBoundShare: 1 }],
  ];
  console.log('\nsweep: one setting changed from the defaults');
  for (const [label, change] of more) {
    const sum = summarise(await run('hybrid', { ...defaultTuning, ...change }));
    console.log(`  ${label.padEnd(20)} ${sum.overall!.ndcg.toFixed(3)}`);
  }
}

const inner = createEmbeddingProvider(config.embeddings);
const embeddings = memoEmbeddings(inner, option('--embedding-cache'));
try {
  await embeddings.ready();
  await evaluateStore('pglite', embeddings);
  const pgUrl = option('--database-url') ?? (flag('--pglite-only') ? undefined : process.env.TEST_DATABASE_URL);
  if (pgUrl) await evaluateStore('postgres', embeddings, pgUrl);
} finally {
  await embeddings.close();
}
