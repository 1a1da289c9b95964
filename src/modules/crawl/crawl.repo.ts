import type { Queryable } from '../../platform/db.js';
import type { CrawlEvent } from './crawl.engine.js';

/** A crawled page's readable text, as stored for the company (company_pages). */
export interface StoredPage {
  url: string;
  title: string;
  text: string;
  crawled_at: Date;
}

export type CrawlStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type RequestedBy = 'user' | 'admin' | 'magic_link' | 'system';

export interface CrawlJobRow {
  id: number;
  url: string;
  domain: string;
  user_id: string | null;
  requested_by: RequestedBy;
  company_id: string | null;
  status: CrawlStatus;
  stage: string;
  pages_fetched: number;
  options: Record<string, unknown>;
  attempts: number;
  error_kind: string | null;
  error: string | null;
  events: CrawlEvent[];
  result: Record<string, unknown> | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
}

const COLUMNS = `id, url, domain, user_id, requested_by, company_id, status, stage, pages_fetched, options, attempts,
  error_kind, error, events, result, created_at, started_at, finished_at, duration_ms`;
const LIST_COLUMNS = COLUMNS.replace('events, ', '');
/** The timeline is for diagnosis: a bounded number of events per job. */
const MAX_EVENTS = 300;

export function createCrawlRepo(db: Queryable) {
  return {
    async create(j: {
      url: string; domain: string; userId: string | null; requestedBy: RequestedBy; companyId: string | null; options: Record<string,
        unknown>; status?: CrawlStatus,
    }): Promise<CrawlJobRow> {
      const rows = await db.query<CrawlJobRow>(
        `INSERT INTO crawl_jobs (url, domain, user_id, requested_by, company_id, options, status)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7) RETURNING ${COLUMNS}`,
        [j.url, j.domain, j.userId, j.requestedBy, j.companyId, JSON.stringify(j.options), j.status ?? 'queued'],
      );
      return rows[0]!;
    },

    async find(id: number): Promise<CrawlJobRow | undefined> {
      const rows = await db.query<CrawlJobRow>(`SELECT ${COLUMNS} FROM crawl_jobs WHERE id = $1`, [id]);
      return rows[0];
    },

    /** A job of this domain still queued or running (one crawl of a site at a time). */
    async findActiveByDomain(domain: string): Promise<CrawlJobRow | undefined> {
      const rows = await db.query<CrawlJobRow>(
        `SELECT ${LIST_COLUMNS}, '[]'::jsonb AS events FROM crawl_jobs WHERE domain = $1 AND status IN ('queued', 'running')
         AND created_at > now() - interval '1 hour' ORDER BY id DESC LIMIT 1`,
        [domain],
      );
      return rows[0];
    },

    /**
     * Claims a job for a run: queued, or running from an interrupted attempt, becomes running
     * with one more attempt. A finished job is not claimed (the run is a no-op).
     */
    async claim(id: number): Promise<CrawlJobRow | undefined> {
      const rows = await db.query<CrawlJobRow>(
        `UPDATE crawl_jobs SET status = 'running', stage = 'robots', attempts = attempts + 1, pages_fetched = 0,
           started_at = now(), error = NULL, error_kind = NULL
         WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${COLUMNS}`,
        [id],
      );
      return rows[0];
    },

    async progress(id: number, p: { stage?: string; pagesFetched?: number }): Promise<void> {
      await db.query(
        `UPDATE crawl_jobs SET stage = COALESCE($2, stage), pages_fetched = COALESCE($3, pages_fetched) WHERE id = $1`,
        [id, p.stage ?? null, p.pagesFetched ?? null],
      );
    },

    async appendEvents(id: number, events: CrawlEvent[]): Promise<void> {
      if (events.length === 0) return;
      await db.query(
        `UPDATE crawl_jobs SET events = CASE WHEN jsonb_array_length(events) + jsonb_array_length($2::jsonb) <= ${MAX_EVENTS}
           THEN events || $2::jsonb ELSE events END WHERE id = $1`,
        [id, JSON.stringify(events)],
      );
    },

    async succeed(id: number, r: { companyId: string; pagesFetched: number; result: Record<string, unknown> }): Promise<CrawlJobRow | undefined> {
      const rows = await db.query<CrawlJobRow>(
        `UPDATE crawl_jobs SET status = 'succeeded', stage = 'done', company_id = $2, pages_fetched = $3, result = $4::jsonb,
           finished_at = now(), duration_ms = (extract(epoch FROM now() - COALESCE(started_at, created_at)) * 1000)::int
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, r.companyId, r.pagesFetched, JSON.stringify(r.result)],
      );
      return rows[0];
    },

    async fail(id: number, f: { kind: string; error: string; pagesFetched?: number; result?: Record<string, unknown> }): Promise<CrawlJobRow | undefined> {
      const rows = await db.query<CrawlJobRow>(
        `UPDATE crawl_jobs SET status = 'failed', stage = 'failed', error_kind = $2, error = $3,
           pages_fetched = COALESCE($4, pages_fetched), result = COALESCE($5::jsonb, result),
           finished_at = now(), duration_ms = (extract(epoch FROM now() - COALESCE(started_at, created_at)) * 1000)::int
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, f.kind, f.error.slice(0, 2000), f.pagesFetched ?? null, f.result ? JSON.stringify(f.result) : null],
      );
      return rows[0];
    },

    async latestOfUser(userId: string): Promise<CrawlJobRow | undefined> {
      const rows = await db.query<CrawlJobRow>(`SELECT ${LIST_COLUMNS}, '[]'::jsonb AS events FROM crawl_jobs WHERE user_id = $1 ORDER BY id DESC LIMIT 1`, [userId]);
      return rows[0];
    },

    /** The company's latest successful crawl (its result says where each field came from). */
    async latestSucceededOfCompany(companyId: string): Promise<Pick<CrawlJobRow, 'id' | 'result' | 'finished_at'> | undefined> {
      const rows = await db.query<Pick<CrawlJobRow, 'id' | 'result' | 'finished_at'>>(
        `SELECT id, result, finished_at FROM crawl_jobs WHERE company_id = $1 AND status = 'succeeded' ORDER BY id DESC LIMIT 1`,
        [companyId],
      );
      return rows[0];
    },

    async list(q: { limit: number; offset: number; status?: string | undefined }): Promise<{ rows: CrawlJobRow[]; total: number }> {
      const where = q.status ? 'WHERE status = $3' : '';
      const params: unknown[] = [q.limit, q.offset, ...(q.status ? [q.status] : [])];
      const rows = await db.query<CrawlJobRow>(`SELECT ${LIST_COLUMNS}, '[]'::jsonb AS events FROM crawl_jobs ${where} ORDER BY id DESC LIMIT $1 OFFSET $2`, params);
      const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM crawl_jobs ${q.status ? 'WHERE status = $1' : ''}`, q.status ? [q.status] : []);
      return { rows, total: total[0]!.n };
    },

    /**
     * Replaces the company's stored pages with these (one statement, so readers never see an
     * empty set): pages no longer crawled are deleted, the others inserted or updated.
     * URLs must be unique within `pages`.
     */
    async replacePages(companyId: string, pages: { url: string; title: string; text: string }[]): Promise<void> {
      await db.query(
        `WITH gone AS (DELETE FROM company_pages WHERE company_id = $1 AND NOT (url = ANY ($2::text[])))
         INSERT INTO company_pages (company_id, url, position, title, text, crawled_at)
         SELECT $1, p.url, p.ord::int - 1, p.title, p.text, now()
         FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS p (url, title, text, ord)
         ON CONFLICT (company_id, url) DO UPDATE
           SET position = EXCLUDED.position, title = EXCLUDED.title, text = EXCLUDED.text, crawled_at = EXCLUDED.crawled_at`,
        [companyId, pages.map((p) => p.url), pages.map((p) => p.title), pages.map((p) => p.text)],
      );
    },

    async pagesOf(companyId: string, limit = 500): Promise<StoredPage[]> {
      return db.query<StoredPage>(
        `SELECT url, title, text, crawled_at FROM company_pages WHERE company_id = $1 ORDER BY position, url LIMIT $2`,
        [companyId, limit],
      );
    },

    async stats(hours: number) {
      const since = `created_at > now() - make_interval(hours => $1)`;
      const byStatus = await db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM crawl_jobs WHERE ${since} GROUP BY status`, [hours]);
      const duration = await db.query<{ median: number | null; avg_pages: number | null }>(
        `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms)::float8 AS median, avg(pages_fetched)::float8 AS avg_pages
         FROM crawl_jobs WHERE ${since} AND status = 'succeeded' AND duration_ms IS NOT NULL`,
        [hours],
      );
      const errors = await db.query<{ kind: string; n: number; example: string }>(
        `SELECT COALESCE(error_kind, 'unknown') AS kind, count(*)::int AS n, min(error) AS example FROM crawl_jobs
         WHERE ${since} AND status = 'failed' GROUP BY 1 ORDER BY n DESC, kind LIMIT 10`,
        [hours],
      );
      return { byStatus, median: duration[0]?.median ?? null, avgPages: duration[0]?.avg_pages ?? null, errors };
    },
  };
}

export type CrawlRepo = ReturnType<typeof createCrawlRepo>;
