import type { Queryable } from '../../platform/db.js';

export interface SnapshotRow {
  id: number;
  company_id: string;
  snapshot: Record<string, unknown>;
  undone_at: Date | null;
}

export interface EditRow {
  id: number;
  source: string;
  actor_kind: string;
  actor_email: string | null;
  changes: Record<string, { before: unknown; after: unknown }>;
  created_at: Date;
}

/** A company's edit history (every change with its actor and source) and the AI-edit snapshots one undo restores. */
export function createCompanyHistoryRepo(db: Queryable) {
  return {
    async insertEdit(e: {
      companyId: string; actorKind: string; actorId: string | null; actorEmail: string | null; source: string; changes: Record<string,
        { before: unknown; after: unknown }>,
    }): Promise<void> {
      await db.query(
        'INSERT INTO company_edits (company_id, actor_kind, actor_id, actor_email, source, changes) VALUES ($1, $2, $3, $4, $5, $6::jsonb)',
        [e.companyId, e.actorKind, e.actorId, e.actorEmail, e.source, JSON.stringify(e.changes)],
      );
    },

    async listEdits(companyId: string, limit: number, offset: number): Promise<{ rows: EditRow[]; total: number }> {
      const rows = await db.query<EditRow>(
        'SELECT id::int AS id, source, actor_kind, actor_email, changes, created_at FROM company_edits WHERE company_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3',
        [companyId, limit, offset],
      );
      const total = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM company_edits WHERE company_id = $1', [companyId]);
      return { rows, total: total[0]!.n };
    },

    async insertSnapshot(s: { companyId: string; instruction: string; snapshot: Record<string, unknown>; applied: Record<string, unknown>; actorKind: string; actorId: string | null }): Promise<void> {
      await db.query(
        `INSERT INTO company_ai_snapshots (company_id, instruction, snapshot, applied, actor_kind, actor_id)
         VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6)`,
        [s.companyId, s.instruction, JSON.stringify(s.snapshot), JSON.stringify(s.applied), s.actorKind, s.actorId],
      );
    },

    /** The newest snapshot of a company (locked when asked), undone or not. */
    async latestSnapshot(companyId: string, options: { forUpdate?: boolean } = {}): Promise<SnapshotRow | undefined> {
      const rows = await db.query<SnapshotRow>(
        `SELECT id::int AS id, company_id, snapshot, undone_at FROM company_ai_snapshots WHERE company_id = $1
          ORDER BY id DESC LIMIT 1${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [companyId],
      );
      return rows[0];
    },

    async markUndone(id: number): Promise<void> {
      await db.query('UPDATE company_ai_snapshots SET undone_at = now() WHERE id = $1', [id]);
    },
  };
}

export type CompanyHistoryRepo = ReturnType<typeof createCompanyHistoryRepo>;
