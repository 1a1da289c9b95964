import type { Queryable } from '../../platform/db.js';

export type InsightSource = 'search' | 'ask' | 'widget';
export type InsightReason = 'no_result' | 'low_score' | 'nothing_fits' | 'unanswered';

export interface InsightWrite {
  company_id: string | null;
  category: string;
  question: string;
  source: InsightSource;
  reason: InsightReason;
}

export interface InsightCategoryRow {
  category: string;
  count: number;
  last_seen: string | Date;
  /** Most recent distinct questions, newest first. */
  examples: string[];
  sources: string[];
}

export function createInsightsRepo(db: Queryable) {
  return {
    async insertMany(rows: InsightWrite[]): Promise<void> {
      if (rows.length === 0) return;
      const params: unknown[] = [];
      const values = rows.map((r) => {
        params.push(r.company_id, r.category, r.question, r.source, r.reason);
        const n = params.length;
        return `($${n - 4}::uuid, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
      });
      await db.query(`INSERT INTO insight_queries (company_id, category, question, source, reason) VALUES ${values.join(', ')}`, params);
    },

    /** Categories of one company over the last `days`, most asked first; up to `examples` distinct recent questions each. */
    async aggregate(companyId: string, limit: number, examples: number, days: number): Promise<InsightCategoryRow[]> {
      return db.query<InsightCategoryRow>(
        `WITH cats AS (
           SELECT category, count(*)::int AS count, max(created_at) AS last_seen, array_agg(DISTINCT source ORDER BY source) AS sources
           FROM insight_queries WHERE company_id = $1 AND created_at >= now() - make_interval(days => $4)
           GROUP BY category
           ORDER BY count(*) DESC, max(created_at) DESC, category
           LIMIT $2
         )
         SELECT c.category, c.count, c.last_seen, c.sources,
           ARRAY(
             SELECT q.question FROM (
               SELECT lower(question) AS k, max(question) AS question, max(created_at) AS at
               FROM insight_queries WHERE company_id = $1 AND category = c.category AND created_at >= now() - make_interval(days => $4)
               GROUP BY lower(question) ORDER BY max(created_at) DESC LIMIT $3
             ) q ORDER BY q.at DESC
           ) AS examples
         FROM cats c
         ORDER BY c.count DESC, c.last_seen DESC, c.category`,
        [companyId, limit, examples, days],
      );
    },

    async totals(companyId: string, days: number): Promise<{ categories: number; queries: number }> {
      const [row] = await db.query<{ categories: number; queries: number }>(
        `SELECT count(DISTINCT category)::int AS categories, count(*)::int AS queries FROM insight_queries
         WHERE company_id = $1 AND created_at >= now() - make_interval(days => $2)`,
        [companyId, days],
      );
      return row ?? { categories: 0, queries: 0 };
    },

    /** Every question of one company over the last `days`, newest first (at most `max`). */
    async questions(companyId: string, days: number, max: number): Promise<{ created_at: string | Date; category: string; source: string; reason: string; question: string }[]> {
      return db.query(
        `SELECT created_at, category, source, reason, question FROM insight_queries
         WHERE company_id = $1 AND created_at >= now() - make_interval(days => $2)
         ORDER BY created_at DESC, id DESC LIMIT $3`,
        [companyId, days, max],
      );
    },

    async clearCategory(companyId: string, category: string): Promise<number> {
      const rows = await db.query<{ n: number }>(
        'WITH d AS (DELETE FROM insight_queries WHERE company_id = $1 AND lower(category) = lower($2) RETURNING 1) SELECT count(*)::int AS n FROM d',
        [companyId, category],
      );
      return rows[0]?.n ?? 0;
    },

    async purgeOlderThan(days: number): Promise<number> {
      const rows = await db.query<{ n: number }>(
        `WITH d AS (DELETE FROM insight_queries WHERE created_at < now() - make_interval(days => $1) RETURNING 1) SELECT count(*)::int AS n FROM d`,
        [days],
      );
      return rows[0]?.n ?? 0;
    },
  };
}

export type InsightsRepo = ReturnType<typeof createInsightsRepo>;
