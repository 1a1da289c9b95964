import { CATEGORY_TOPICS, OTHER_TOPIC, topicFor } from '../../lib/insight-topics.js';
import { toPlainLine } from '../../lib/text.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { jobName, type Jobs } from '../../platform/jobs.js';
import type { WeakSearchEvent } from '../search/search.service.js';
import type { Entitlements } from '../payments/index.js';
import type { InsightReason, InsightSource, InsightsRepo, InsightWrite } from './insights.repo.js';

/** Insight rows older than this are deleted (documented in the insights route description). */
export const INSIGHT_RETENTION_DAYS = 180;
/** Daily retention purge; scheduled in the database so it runs wherever jobs are worked (web or `npm run worker`). */
export const INSIGHT_PURGE_JOB = jobName<object>('insights.purge');
const PURGE_CRON = '17 3 * * *';
const EXAMPLES_PER_CATEGORY = 5;
/** Minimum cosine similarity between a question and a category description to take that category. */
const CATEGORY_SIMILARITY = 0.35;

export interface InsightEvent {
  /** Companies the question concerns; empty = directory-wide (stored with company_id NULL). */
  companyIds: string[];
  question: string;
  source: InsightSource;
  reason: InsightReason;
  /** Category the caller already knows (a search filter); otherwise the topic is derived from the text. */
  category?: string | undefined;
}

export interface InsightsServiceDeps {
  repo: InsightsRepo;
  /** Runs the daily retention purge. */
  jobs: Jobs;
  /** Optional: places questions no keyword rule recognises into the nearest directory category. */
  embeddings?: EmbeddingProvider;
  log?: { warn: (obj: object, msg: string) => void; info?: (obj: object, msg: string) => void };
  /** The company's plan limits (payments entitlements): how far back insights show, and whether CSV export is unlocked. */
  entitlements?: Pick<Entitlements, 'entitlementsOf' | 'require'>;
}

/** Without a plan lookup (scripts, unit tests) the whole retention window shows. */
const NO_PLAN = { history: INSIGHT_RETENTION_DAYS, plan: 'free' };
/** Rows in one CSV export (the pro window holds far fewer for any real company). */
const CSV_MAX_ROWS = 50_000;

/** One CSV cell (RFC 4180), neutralised against formula injection when a spreadsheet opens it. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot; // both unit length
}

export function createInsightsService({ repo, jobs, embeddings, log, entitlements }: InsightsServiceDeps) {
  const pending = new Set<Promise<void>>();
  let categoryVectors: Promise<[string, number[]][]> | undefined;

  /** How many days of insights the company's plan shows. */
  async function windowOf(companyId: string): Promise<{ history: number; plan: string }> {
    if (!entitlements) return NO_PLAN;
    const e = await entitlements.entitlementsOf(companyId);
    return { history: Math.min(e.limits.insights_history_days, INSIGHT_RETENTION_DAYS), plan: e.effective_plan };
  }

  async function purge(): Promise<number> {
    const deleted = await repo.purgeOlderThan(INSIGHT_RETENTION_DAYS);
    if (deleted) log?.info?.({ deleted }, 'old insight questions deleted');
    return deleted;
  }
  // Idempotent, so a retry or a duplicate run is harmless.
  jobs.define({ name: INSIGHT_PURGE_JOB, retryLimit: 3, handler: async () => { await purge(); } });
  jobs.schedule(INSIGHT_PURGE_JOB, PURGE_CRON);

  /** Deterministic topic: keyword rules first, then (directory questions) the nearest category by embedding. */
  async function topic(question: string, source: InsightSource): Promise<string> {
    const t = topicFor(question, source === 'widget' ? 'intent' : 'category');
    if (t !== OTHER_TOPIC || !embeddings || source === 'widget') return t;
    categoryVectors ??= (async () => {
      const names = Object.keys(CATEGORY_TOPICS);
      const texts = names.map((n) => `${n}: ${CATEGORY_TOPICS[n]!.map((w) => w.replace(/\\w[*+]|[?\\]/g, '')).join(', ')}`);
      const vectors = await embeddings.embed(texts);
      return names.map((n, i) => [n, vectors[i]!] as [string, number[]]);
    })();
    const [cats, v] = await Promise.all([categoryVectors, embeddings.embedQuery(question)]);
    let best = OTHER_TOPIC;
    let bestScore = CATEGORY_SIMILARITY;
    for (const [name, vec] of cats) {
      const s = cosine(v, vec);
      if (s > bestScore) {
        best = name;
        bestScore = s;
      }
    }
    return best;
  }

  async function record(event: InsightEvent): Promise<void> {
    // Only the question text is kept: no IP, no visitor id, no email.
    const question = toPlainLine(event.question).slice(0, 500);
    if (!question) return;
    const category = event.category ?? (await topic(question, event.source));
    const ids = [...new Set(event.companyIds)];
    const rows: InsightWrite[] = (ids.length ? ids : [null]).map((company_id) => ({ company_id, category, question, source: event.source, reason: event.reason }));
    await repo.insertMany(rows);
  }

  /** Fire-and-forget: never throws, never delays the caller's answer. */
  function recordLater(event: InsightEvent): void {
    const p = record(event)
      .catch((err: unknown) => log?.warn({ err }, 'insight not recorded'))
      .finally(() => pending.delete(p));
    pending.add(p);
  }

  /** Weak matches only: the top three shown companies in the question's own topic are concerned. */
  function recordWeakLater(e: { question: string; source: InsightSource; companies: { id: string; category: string }[]; category?: string | undefined }): void {
    const p = (async () => {
      const category = e.category ?? (await topic(toPlainLine(e.question), e.source));
      const concerned = e.companies.slice(0, 3).filter((c) => c.category === category).map((c) => c.id);
      await record({ companyIds: concerned, question: e.question, source: e.source, reason: 'low_score', category });
    })()
      .catch((err: unknown) => log?.warn({ err }, 'insight not recorded'))
      .finally(() => pending.delete(p));
    pending.add(p);
  }

  return {
    record,
    recordLater,

    /**
     * A weak directory search. Nothing found: one directory-wide row. Weak matches: a row for each of
     * the top three companies whose own category is the question's topic (their profile came up but
     * did not answer it well); directory-wide when none is in that topic.
     */
    onWeakSearch(e: WeakSearchEvent): void {
      if (e.companies.length === 0) recordLater({ companyIds: [], question: e.query, source: 'search', reason: 'no_result', category: e.category });
      else recordWeakLater({ question: e.query, source: 'search', companies: e.companies, category: e.category });
    },

    recordWeakLater,

    /** Waits for outstanding fire-and-forget writes (tests, graceful shutdown). */
    async flush(): Promise<void> {
      while (pending.size) await Promise.all([...pending]);
    },

    async list(companyId: string, limit: number) {
      const { history, plan } = await windowOf(companyId);
      const [rows, totals] = await Promise.all([repo.aggregate(companyId, limit, EXAMPLES_PER_CATEGORY, history), repo.totals(companyId, history)]);
      return {
        tool_id: companyId,
        categories: rows.map((r) => ({
          category: r.category,
          count: r.count,
          examples: r.examples,
          sources: r.sources,
          last_seen: new Date(r.last_seen).toISOString(),
        })),
        total_categories: totals.categories,
        total_queries: totals.queries,
        retention_days: INSIGHT_RETENTION_DAYS,
        history_days: history,
        plan,
      };
    },

    /** Every question of the plan's window as CSV (pro only: 402 otherwise), newest first. */
    async exportCsv(companyId: string): Promise<string> {
      await entitlements?.require(companyId, 'insights_csv_export', 'Exporting insights as CSV');
      const { history } = await windowOf(companyId);
      const rows = await repo.questions(companyId, history, CSV_MAX_ROWS);
      const lines = ['asked_at,category,source,reason,question'];
      for (const r of rows) lines.push([new Date(r.created_at).toISOString(), r.category, r.source, r.reason, r.question].map(csvCell).join(','));
      return `${lines.join('\r\n')}\r\n`;
    },

    async clear(companyId: string, category: string) {
      // Idempotent: clearing an empty or unknown category reports deleted: 0.
      const deleted = await repo.clearCategory(companyId, category.trim());
      return { tool_id: companyId, category: category.trim(), deleted };
    },

    purge,
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
