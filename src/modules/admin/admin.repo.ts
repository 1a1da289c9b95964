import type { AdminAuditEntry } from '../../platform/audit.js';
import type { Queryable } from '../../platform/db.js';

export interface AuditRow {
  id: number;
  admin_id: string | null;
  admin_email: string;
  action: string;
  target_type: string;
  target_id: string | null;
  target_name: string | null;
  before: unknown;
  after: unknown;
  created_at: Date;
}

export interface ReindexRunRow {
  id: number;
  status: 'queued' | 'running' | 'done' | 'failed';
  total: number;
  done: number;
  error: string | null;
  started_by: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
}

const RUN_COLUMNS = 'id::int AS id, status, total, done, error, started_by, created_at, started_at, finished_at, updated_at';

/** The audit log and reindex runs. `db` may be a transaction, so an action and its record commit together. */
export function createAdminRepo(db: Queryable) {
  return {
    async recordAudit(e: AdminAuditEntry): Promise<void> {
      await db.query(
        `INSERT INTO admin_audit_log (admin_id, admin_email, action, target_type, target_id, before, after)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
        [e.adminId, e.adminEmail, e.action, e.targetType, e.targetId, e.before === undefined ? null : JSON.stringify(e.before), e.after === undefined ? null : JSON.stringify(e.after)],
      );
    },

    async listAudit(o: { targetId?: string | undefined; action?: string | undefined; limit: number; offset: number }): Promise<{ rows: AuditRow[]; total: number }> {
      const where: string[] = ['true'];
      const params: unknown[] = [];
      if (o.targetId) {
        params.push(o.targetId);
        where.push(`target_id = $${params.length}`);
      }
      if (o.action) {
        params.push(o.action);
        where.push(`action = $${params.length}`);
      }
      const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM admin_audit_log WHERE ${where.join(' AND ')}`, params);
      const rows = await db.query<AuditRow>(
        `SELECT a.id::int AS id, a.admin_id, a.admin_email, a.action, a.target_type, a.target_id,
                (SELECT c.name FROM companies c WHERE a.target_type = 'company' AND c.id::text = a.target_id) AS target_name,
                a.before, a.after, a.created_at
           FROM admin_audit_log a
          WHERE ${where.join(' AND ')} ORDER BY a.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, o.limit, o.offset],
      );
      return { rows, total: total[0]!.n };
    },

    /** A new queued run, or undefined when one is already queued or running (partial unique index). */
    async createRun(startedBy: string, total: number): Promise<ReindexRunRow | undefined> {
      const rows = await db.query<ReindexRunRow>(
        `INSERT INTO reindex_runs (started_by, total) VALUES ($1, $2)
         ON CONFLICT ((true)) WHERE status IN ('queued', 'running') DO NOTHING RETURNING ${RUN_COLUMNS}`,
        [startedBy, total],
      );
      return rows[0];
    },

    /** A run that stopped reporting progress (its process died) no longer blocks a new one. */
    async failStaleRuns(staleSeconds: number): Promise<void> {
      await db.query(
        `UPDATE reindex_runs SET status = 'failed', error = 'stopped reporting progress', finished_at = now(), updated_at = now()
          WHERE status IN ('queued', 'running') AND updated_at < now() - make_interval(secs => $1)`,
        [staleSeconds],
      );
    },

    async getRun(id: number): Promise<ReindexRunRow | undefined> {
      return (await db.query<ReindexRunRow>(`SELECT ${RUN_COLUMNS} FROM reindex_runs WHERE id = $1`, [id]))[0];
    },

    async latestRun(): Promise<ReindexRunRow | undefined> {
      return (await db.query<ReindexRunRow>(`SELECT ${RUN_COLUMNS} FROM reindex_runs ORDER BY id DESC LIMIT 1`))[0];
    },

    async updateRun(id: number, patch: { status?: ReindexRunRow['status']; total?: number; done?: number; error?: string | null }): Promise<void> {
      await db.query(
        `UPDATE reindex_runs SET
           status = COALESCE($2, status), total = COALESCE($3, total), done = COALESCE($4, done), error = COALESCE($5, error),
           started_at = CASE WHEN $2 = 'running' AND started_at IS NULL THEN now() ELSE started_at END,
           finished_at = CASE WHEN $2 IN ('done', 'failed') THEN now() ELSE finished_at END,
           updated_at = now()
         WHERE id = $1`,
        [id, patch.status ?? null, patch.total ?? null, patch.done ?? null, patch.error ?? null],
      );
    },
  };
}

export type AdminRepo = ReturnType<typeof createAdminRepo>;
