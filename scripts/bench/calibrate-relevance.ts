/**
 * Calibration data for the relevance verdicts (src/modules/search/relevance.ts):
 * `npx tsx scripts/bench/calibrate-relevance.ts <companies.jsonl> <queries.jsonl> <queries-none.jsonl> [--out FILE] [--embedding-cache FILE]`.
 *
 * Imports the corpus into a fresh in-memory PGlite, runs every judged query (with its filters) and
 * every no-match need, and writes one JSON line per query: each ranked candidate's raw evidence
 * (cosine, keyword coverage, name similarity), fused score, verdict and judged grade (0 for every
 * candidate of a no-match need). Then prints, for the thresholds in use, how the verdicts agree
 * with the judgements: precision of strong and of strong+partial in the top 5, recall of grade-2
 * companies among strong ones, and the share of no-match needs left with nothing shown.
 */
import fs from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { migrate, openDb } from '../../src/platform/db.js';
import { createEmbeddingProvider } from '../../src/platform/embeddings/embeddings.js';
import { createCompaniesService } from '../../src/modules/companies/companies.service.js';
import { parseCompaniesJsonl } from '../../src/modules/companies/companies.import.js';
import { createSearchRepo } from '../../src/modules/search/search.repo.js';
import { createSearchService } from '../../src/modules/search/search.service.js';
import { bundledTypicalProfile, type MatchEvidence, type Relevance } from '../../src/modules/search/relevance.js';
import { normalizeDomain } from '../../src/lib/url.js';
import { memoEmbeddings } from './lib/embedding-cache.js';
import { createAskService } from '../../src/modules/ask/ask.service.js';
import type { InsightsService } from '../../src/modules/ask/insights.service.js';

interface Query { qid: string; query: string; filters: Record<string, string | boolean>; relevant?: Record<string, number>; type?: string }

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const positional = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1]!.startsWith('--')));
const [companiesFile, judgedFile, noneFile] = positional;
if (!companiesFile || !judgedFile || !noneFile) {
  console.error('usage: npx tsx scripts/bench/calibrate-relevance.ts <companies.jsonl> <queries.jsonl> <queries-none.jsonl> [--out FILE] [--embedding-cache FILE]');
  process.exit(2);
}
const read = (f: string): Query[] => fs.readFileSync(f, 'utf8').split(/\r?\n/).filter((l) => l.trim()).map((l) => JSON.parse(l) as Query);
const judged = read(judgedFile);
const none = read(noneFile);

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const embeddings = memoEmbeddings(createEmbeddingProvider(config.embeddings), option('--embedding-cache'));
const db = await openDb({});
await migrate(db);
const companies = createCompaniesService({ db, embeddings, baseUrl: config.baseUrl, audit: async () => {} });
const { lines } = parseCompaniesJsonl(fs.readFileSync(companiesFile, 'utf8'));
await companies.upsertMany(lines.map((l) => l.input));
const keyByDomain = new Map(lines.filter((l) => l.key).map((l) => [normalizeDomain(l.input.website_url)!, l.key!]));
const keyById = new Map((await db.query<{ id: string; website_url: string }>('SELECT id::text, website_url FROM companies')).map((r) => [r.id, keyByDomain.get(normalizeDomain(r.website_url) ?? '') ?? '?']));

type Row = { key: string; grade: number; score: number; relevance: Relevance } & MatchEvidence;
let captured: Row[] = [];
let grades: Record<string, number> = {};
const search = createSearchService({
  repo: createSearchRepo(db), companies, embeddings,
  explain: (_q, list) => {
    captured = list.map((c) => { const key = keyById.get(c.id) ?? '?'; return { key, grade: grades[key] ?? 0, score: c.score, relevance: c.relevance, ...c.evidence }; });
  },
});
const mean = bundledTypicalProfile(embeddings.model) ?? (JSON.parse((await db.query<{ v: string }>('SELECT avg(embedding)::text AS v FROM companies WHERE embedding IS NOT NULL'))[0]!.v) as number[]);
// Ask without a model, as the deterministic fallback answers (insights are not recorded here).
const ask = createAskService({ search, companies, llm: undefined, insights: { recordLater() {}, recordWeakLater() {} } as unknown as InsightsService });
const askStats = { judged: 0, found: 0, consistent: 0, none: 0, noneNotFound: 0 };
/** The answer names its first strong match first, and that is companies[0]. */
const consistent = (a: { found: boolean; answer: string; companies: { name: string; relevance?: string | null }[] }) =>
  !a.found ? !/^(Companies|Other companies) in the directory that match/.test(a.answer) : a.companies[0]?.relevance === 'strong' && a.answer.includes(`\n1. ${a.companies[0].name} (`);
const out: string[] = [];
const stats = { judged: 0, strongTop5: 0, strongTop5Good: 0, shownTop5: 0, shownTop5Good: 0, grade2: 0, grade2Strong: 0, noneEmpty: 0, noneNoStrong: 0, none: 0 };
for (const [kind, list] of [['judged', judged], ['none', none]] as const) {
  for (const q of list) {
    grades = q.relevant ?? {};
    const f = q.filters ?? {};
    const res = await search.search({ q: q.query, limit: 20, include_weak: true, category: f.category as string | undefined, country: f.country as string | undefined, city: f.city as string | undefined, service_type: f.service_type as 'local' | undefined, is_verified: f.is_verified as boolean | undefined });
    if (!Object.keys(f).length) {
      const a = await ask.ask({ question: q.query });
      if (kind === 'none') {
        askStats.none++;
        if (!a.found) askStats.noneNotFound++;
      } else {
        askStats.judged++;
        if (a.found) askStats.found++;
      }
      if (consistent(a as unknown as Parameters<typeof consistent>[0])) askStats.consistent++;
    }
    const qv = await embeddings.embedQuery(q.query);
    const background = qv.reduce((acc, x, i) => acc + x * mean[i]!, 0);
    out.push(JSON.stringify({ qid: q.qid, kind, type: q.type ?? 'none', query: q.query, background, unmatched: (res as { unmatched_words?: string[] }).unmatched_words ?? [], judged: grades, candidates: captured.slice(0, 40) }));
    const shown = captured.filter((c) => c.relevance !== 'weak');
    if (kind === 'none') {
      stats.none++;
      if (shown.length === 0) stats.noneEmpty++;
      if (!shown.some((c) => c.relevance === 'strong')) stats.noneNoStrong++;
      continue;
    }
    stats.judged++;
    for (const c of shown.slice(0, 5)) {
      stats.shownTop5++;
      if (c.grade > 0) stats.shownTop5Good++;
      if (c.relevance === 'strong') { stats.strongTop5++; if (c.grade > 0) stats.strongTop5Good++; }
    }
    for (const [k, g] of Object.entries(grades)) if (g === 2) { stats.grade2++; if (captured.some((c) => c.key === k && c.relevance === 'strong')) stats.grade2Strong++; }
  }
}
if (option('--out')) fs.writeFileSync(option('--out')!, out.join('\n') + '\n');
const pct = (a: number, b: number) => (b ? (a / b).toFixed(3) : 'n/a');
console.log(`judged queries ${stats.judged}: precision of what is shown in the top 5 ${pct(stats.shownTop5Good, stats.shownTop5)} (${stats.shownTop5} shown), of strong ones ${pct(stats.strongTop5Good, stats.strongTop5)}; grade-2 companies judged strong ${pct(stats.grade2Strong, stats.grade2)}`);
console.log(`no-match needs ${stats.none}: nothing shown for ${pct(stats.noneEmpty, stats.none)}, no strong match (ask says found: false) for ${pct(stats.noneNoStrong, stats.none)}`);
const asked = askStats.judged + askStats.none;
console.log(`ask (no model; queries without filters): found for ${askStats.found} of ${askStats.judged} judged questions; found: false for ${pct(askStats.noneNotFound, askStats.none)} of no-match needs; answer consistent with its companies ${pct(askStats.consistent, asked)} (${askStats.consistent}/${asked})`);
await db.close();
await embeddings.close();
