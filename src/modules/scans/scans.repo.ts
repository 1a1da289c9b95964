import type { Db } from '../../platform/db.js';
import type { CheckResult } from './scans.types.js';
import type { Cap, ScoreCard } from './scans.scoring.js';

/** SQL for scans and agent file bundles. */
export interface ScanRow {
  id: string;
  company_id: string;
  url: string;
  state: 'queued' | 'running' | 'completed' | 'failed';
  trigger: 'manual' | 'scheduled';
  requested_by: string | null;
  rubric_version: string;
  score: number | null;
  grade: string | null;
  group_scores: ScoreCard['group_scores'] | null;
  counts: ScoreCard['counts'] | null;
  coverage: number | null;
  caps: Cap[] | null;
  results: CheckResult[] | null;
  requests_made: number;
  failure_reason: string | null;
  error: string | null;
  previous_scan_id: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface HistoryRow extends Omit<ScanRow, 'results'> {
  previous_score: number | null;
  previous_rubric_version: string | null;
  /** [check id, status] pairs of this scan and of the previous one (not the whole findings). */
  statuses: [string, string][] | null;
  previous_statuses: [string, string][] | null;
}

export interface BundleRow {
  id: string;
  company_id: string;
  scan_id: string | null;
  files: { name: string; content: string; content_type: string; install_path: string }[];
  filename: string;
  token_expires_at: Date;
  token_used_at: Date | null;
}

const UNIQUE_VIOLATION = '23505';

export function createScansRepo(db: Db) {
  return {
    /** A new queued scan, or undefined when the company already has one queued or running (unique index). */
    async insertQueued(s: { companyId: string; url: string; trigger: 'manual' | 'scheduled'; requestedBy: string | null; rubricVersion: string }): Promise<ScanRow | undefined> {
      try {
        const [row] = await db.query<ScanRow>(
          `INSERT INTO scans (company_id, url, trigger, requested_by, rubric_version) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
          [s.companyId, s.url, s.trigger, s.requestedBy, s.rubricVersion],
        );
        return row;
      } catch (err) {
        if ((err as { code?: string }).code === UNIQUE_VIOLATION) return undefined;
        throw err;
      }
    },

    async get(id: string): Promise<ScanRow | undefined> {
      return (await db.query<ScanRow>('SELECT * FROM scans WHERE id = $1', [id]))[0];
    },

    async active(companyId: string): Promise<ScanRow | undefined> {
      return (await db.query<ScanRow>(`SELECT * FROM scans WHERE company_id = $1 AND state IN ('queued', 'running') ORDER BY created_at DESC LIMIT 1`, [companyId]))[0];
    },

    async latest(companyId: string): Promise<ScanRow | undefined> {
      return (await db.query<ScanRow>('SELECT * FROM scans WHERE company_id = $1 ORDER BY created_at DESC, id LIMIT 1', [companyId]))[0];
    },

    async latestCompleted(companyId: string, withinHours?: number): Promise<ScanRow | undefined> {
      const rows = await db.query<ScanRow>(
        `SELECT * FROM scans WHERE company_id = $1 AND state = 'completed'
           AND ($2::int IS NULL OR finished_at > now() - make_interval(hours => $2::int))
         ORDER BY finished_at DESC, id LIMIT 1`,
        [companyId, withinHours ?? null],
      );
      return rows[0];
    },

    /** The newest scan the company asked for by hand (force cooldown). */
    async lastManualCreatedAt(companyId: string): Promise<Date | undefined> {
      return (await db.query<{ created_at: Date }>(`SELECT created_at FROM scans WHERE company_id = $1 AND trigger = 'manual' ORDER BY created_at DESC LIMIT 1`, [companyId]))[0]?.created_at;
    },

    /** Scans the company asked for by hand since a time (the monthly allowance of its plan). */
    /** Scans that count against the monthly allowance: a failed scan (site unreachable, our error) does not. */
    async manualScansSince(companyId: string, since: Date): Promise<number> {
      const rows = await db.query<{ n: number | string }>(`SELECT count(*) AS n FROM scans WHERE company_id = $1 AND trigger = 'manual' AND created_at >= $2 AND state <> 'failed'`, [companyId, since]);
      return Number(rows[0]?.n ?? 0);
    },

    /** queued (or running again, on a retry after a crash) → running. */
    async markRunning(id: string): Promise<ScanRow | undefined> {
      return (await db.query<ScanRow>(`UPDATE scans SET state = 'running', started_at = now() WHERE id = $1 AND state IN ('queued', 'running') RETURNING *`, [id]))[0];
    },

    async complete(id: string, r: { url: string; card: ScoreCard; results: CheckResult[]; requests: number; previousId: string | null }): Promise<ScanRow> {
      const [row] = await db.query<ScanRow>(
        `UPDATE scans SET state = 'completed', url = $2, score = $3, grade = $4, group_scores = $5, counts = $6, coverage = $7, caps = $8,
                results = $9, requests_made = $10, previous_scan_id = $11, rubric_version = $12, finished_at = now()
          WHERE id = $1 RETURNING *`,
        [
          id,
          r.url,
          r.card.score,
          r.card.grade,
          JSON.stringify(r.card.group_scores),
          JSON.stringify(r.card.counts),
          r.card.coverage,
          JSON.stringify(r.card.caps),
          JSON.stringify(r.results),
          r.requests,
          r.previousId,
          r.card.rubric_version,
        ],
      );
      return row!;
    },

    async fail(id: string, reason: string, message: string, requests = 0): Promise<void> {
      await db.query(`UPDATE scans SET state = 'failed', failure_reason = $2, error = $3, requests_made = $4, finished_at = now() WHERE id = $1 AND state IN ('queued', 'running')`, [id, reason, message.slice(0, 1000), requests]);
    },

    async history(companyId: string, limit: number, offset: number): Promise<{ rows: HistoryRow[]; total: number }> {
      const rows = await db.query<HistoryRow>(
        `SELECT s.id, s.company_id, s.url, s.state, s.trigger, s.requested_by, s.rubric_version, s.score, s.grade, s.group_scores, s.counts,
                s.coverage, s.caps, s.requests_made, s.failure_reason, s.error, s.previous_scan_id, s.created_at, s.started_at, s.finished_at,
                p.score AS previous_score, p.rubric_version AS previous_rubric_version,
                (SELECT jsonb_agg(jsonb_build_array(e->>'id', e->>'status')) FROM jsonb_array_elements(s.results) e) AS statuses,
                (SELECT jsonb_agg(jsonb_build_array(e->>'id', e->>'status')) FROM jsonb_array_elements(p.results) e) AS previous_statuses
           FROM scans s LEFT JOIN scans p ON p.id = s.previous_scan_id
          WHERE s.company_id = $1 ORDER BY s.created_at DESC, s.id LIMIT $2 OFFSET $3`,
        [companyId, limit, offset],
      );
      const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM scans WHERE company_id = $1', [companyId])) as [{ n: number }];
      return { rows, total: n };
    },

    async latestSummary(companyId: string): Promise<{ score: number; grade: string; finished_at: Date } | undefined> {
      return (await db.query<{ score: number; grade: string; finished_at: Date }>(
        `SELECT score, grade, finished_at FROM scans WHERE company_id = $1 AND state = 'completed' ORDER BY finished_at DESC, id LIMIT 1`,
        [companyId],
      ))[0];
    },

    /** Companies among `ids` whose newest completed scan is older than `days` (or that have none) and that have no scan under way. */
    async dueForRescan(ids: string[], days: number, limit: number): Promise<{ id: string; website_url: string }[]> {
      if (!ids.length) return [];
      return db.query<{ id: string; website_url: string }>(
        `SELECT c.id, c.website_url FROM companies c
          WHERE c.id = ANY($1::uuid[]) AND c.deleted_at IS NULL AND c.website_url <> ''
            AND NOT EXISTS (SELECT 1 FROM scans s WHERE s.company_id = c.id AND s.state IN ('queued', 'running'))
            AND NOT EXISTS (SELECT 1 FROM scans s WHERE s.company_id = c.id AND s.state = 'completed' AND s.finished_at > now() - make_interval(days => $2::int))
          ORDER BY c.id LIMIT $3`,
        [ids, days, limit],
      );
    },

    /** Scans stuck queued or running longer than `minutes` (their job was lost): closed as failed. */
    async failStale(minutes: number): Promise<number> {
      const rows = await db.query(`UPDATE scans SET state = 'failed', failure_reason = 'internal', error = 'The scan did not finish in time', finished_at = now()
                                    WHERE state IN ('queued', 'running') AND created_at < now() - make_interval(mins => $1::int) RETURNING id`, [minutes]);
      return rows.length;
    },

    /** Bundles are regenerable: kept a week, then deleted with their (long expired) tokens. */
    async deleteOldBundles(days: number): Promise<number> {
      return (await db.query(`DELETE FROM scan_bundles WHERE created_at < now() - make_interval(days => $1::int) RETURNING id`, [days])).length;
    },

    async insertBundle(b: { companyId: string; scanId: string; files: BundleRow['files']; filename: string; tokenHash: string; expiresAt: Date; createdBy: string | null }): Promise<BundleRow> {
      const [row] = await db.query<BundleRow>(
        `INSERT INTO scan_bundles (company_id, scan_id, files, filename, token_hash, token_expires_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [b.companyId, b.scanId, JSON.stringify(b.files), b.filename, b.tokenHash, b.expiresAt, b.createdBy],
      );
      return row!;
    },

    /** Marks the token used, atomically: only one caller gets the bundle, and only before it expires. */
    async consumeToken(tokenHash: string): Promise<BundleRow | undefined> {
      return (await db.query<BundleRow>(
        `UPDATE scan_bundles SET token_used_at = now() WHERE token_hash = $1 AND token_used_at IS NULL AND token_expires_at > now() RETURNING *`,
        [tokenHash],
      ))[0];
    },

    async tokenExists(tokenHash: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM scan_bundles WHERE token_hash = $1', [tokenHash])).length > 0;
    },

    /** Companies whose subscription record is on a paid plan in one of `statuses` and not past its period (only `companyId` when given). */
    async paidSubscriptionCompanyIds(statuses: readonly string[], companyId?: string): Promise<string[]> {
      const rows = await db.query<{ company_id: string }>(
        `SELECT company_id FROM company_subscriptions
          WHERE plan <> 'free' AND status = ANY($1::text[]) AND (period_end IS NULL OR period_end > now())
            AND ($2::uuid IS NULL OR company_id = $2::uuid)
          ORDER BY company_id`,
        [statuses, companyId ?? null],
      );
      return rows.map((r) => r.company_id);
    },
  };
}

export type ScansRepo = ReturnType<typeof createScansRepo>;
