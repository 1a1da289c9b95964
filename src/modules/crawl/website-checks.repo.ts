import type { Queryable } from '../../platform/db.js';

export interface FieldChange {
  current: unknown;
  proposed: unknown;
}

export interface SuggestedPhoto {
  url: string;
  caption: string;
}

export interface WebsiteSuggestionRow {
  id: string;
  company_id: string;
  crawl_job_id: number | null;
  changes: Record<string, FieldChange>;
  photos: SuggestedPhoto[];
  status: 'pending' | 'resolved';
  accepted: { fields: string[]; photos: string[] } | null;
  created_at: Date;
  resolved_at: Date | null;
}

export interface WebsiteCheckRow {
  company_id: string;
  enabled_at: Date;
  next_run_at: Date;
  last_run_at: Date | null;
}

const SUGGESTION_COLUMNS = 'id, company_id, crawl_job_id, changes, photos, status, accepted, created_at, resolved_at';

/** The monthly website checks and the suggestions crawls leave for owners (migration 0033). */
export function createWebsiteChecksRepo(db: Queryable) {
  return {
    async check(companyId: string): Promise<WebsiteCheckRow | undefined> {
      return (await db.query<WebsiteCheckRow>('SELECT company_id, enabled_at, next_run_at, last_run_at FROM website_checks WHERE company_id = $1', [companyId]))[0];
    },

    /** Turns the check on (first run after `firstRunInDays`) or leaves an existing one as it is. */
    async enable(companyId: string, userId: string | null, firstRunInDays: number): Promise<WebsiteCheckRow> {
      await db.query(
        `INSERT INTO website_checks (company_id, enabled_by, next_run_at) VALUES ($1, $2, now() + make_interval(days => $3::int))
         ON CONFLICT (company_id) DO NOTHING`,
        [companyId, userId, firstRunInDays],
      );
      return (await this.check(companyId))!;
    },

    async disable(companyId: string): Promise<void> {
      await db.query('DELETE FROM website_checks WHERE company_id = $1', [companyId]);
    },

    /**
     * Claims up to `limit` due checks of live companies with a website: each moves to its next run in
     * `everyDays` in the same statement, so two workers never take the same one.
     */
    async claimDue(everyDays: number, limit: number): Promise<{ company_id: string; website_url: string }[]> {
      return db.query<{ company_id: string; website_url: string }>(
        `WITH due AS (
           SELECT w.company_id FROM website_checks w JOIN companies c ON c.id = w.company_id
            WHERE w.next_run_at <= now() AND c.deleted_at IS NULL AND c.website_url <> ''
            ORDER BY w.next_run_at LIMIT $2 FOR UPDATE OF w SKIP LOCKED)
         UPDATE website_checks w SET next_run_at = now() + make_interval(days => $1::int), last_run_at = now()
           FROM due, companies c WHERE w.company_id = due.company_id AND c.id = w.company_id
         RETURNING w.company_id, c.website_url`,
        [everyDays, limit],
      );
    },

    async pending(companyId: string): Promise<WebsiteSuggestionRow | undefined> {
      return (await db.query<WebsiteSuggestionRow>(`SELECT ${SUGGESTION_COLUMNS} FROM website_suggestions WHERE company_id = $1 AND status = 'pending'`, [companyId]))[0];
    },

    /** Picture URLs already offered and decided on (accepted or not): never offered again. */
    async decidedPhotoUrls(companyId: string): Promise<Set<string>> {
      const rows = await db.query<{ url: string }>(
        `SELECT DISTINCT p->>'url' AS url FROM website_suggestions s, jsonb_array_elements(s.photos) p
          WHERE s.company_id = $1 AND s.status = 'resolved'`,
        [companyId],
      );
      return new Set(rows.map((r) => r.url));
    },

    /** The company's pending suggestion becomes this one (a newer crawl replaces what it proposed). */
    async replacePending(companyId: string, crawlJobId: number | null, changes: Record<string, FieldChange>, photos: SuggestedPhoto[]): Promise<WebsiteSuggestionRow> {
      await db.query(`DELETE FROM website_suggestions WHERE company_id = $1 AND status = 'pending'`, [companyId]);
      return (await db.query<WebsiteSuggestionRow>(
        `INSERT INTO website_suggestions (company_id, crawl_job_id, changes, photos) VALUES ($1, $2, $3::jsonb, $4::jsonb) RETURNING ${SUGGESTION_COLUMNS}`,
        [companyId, crawlJobId, JSON.stringify(changes), JSON.stringify(photos)],
      ))[0]!;
    },

    async dropPending(companyId: string): Promise<void> {
      await db.query(`DELETE FROM website_suggestions WHERE company_id = $1 AND status = 'pending'`, [companyId]);
    },

    /** Closes the pending suggestion `id` with what was accepted; undefined when it is not the pending one (decided already, replaced). */
    async resolve(companyId: string, id: string, accepted: { fields: string[]; photos: string[] }): Promise<WebsiteSuggestionRow | undefined> {
      return (await db.query<WebsiteSuggestionRow>(
        `UPDATE website_suggestions SET status = 'resolved', accepted = $3::jsonb, resolved_at = now()
          WHERE id = $1 AND company_id = $2 AND status = 'pending' RETURNING ${SUGGESTION_COLUMNS}`,
        [id, companyId, JSON.stringify(accepted)],
      ))[0];
    },
  };
}

export type WebsiteChecksRepo = ReturnType<typeof createWebsiteChecksRepo>;
