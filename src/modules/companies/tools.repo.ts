import type { Queryable } from '../../platform/db.js';
import { COMPANY_COLUMNS } from './companies.repo.js';
import type { CompanyRow } from './companies.schemas.js';
import { EDITABLE_FIELDS } from './tools.schemas.js';
import type { EmbeddableProfile } from './profile-vector.js';

export type ToolRow = CompanyRow & { owner_edited_fields: string[] };

export const TOOL_COLUMNS = `${COMPANY_COLUMNS}, owner_edited_fields`;
const prefixed = (alias: string) => TOOL_COLUMNS.replace(/(^|,\s*)(\w)/g, `$1${alias}.$2`);

/** Columns an edit may write (editable fields plus what derives from them). Nothing else is ever interpolated. */
const WRITABLE = new Set<string>([...EDITABLE_FIELDS, 'country_code', 'phone_e164', 'logo_url', 'latitude', 'longitude']);

export interface SubscriptionRow {
  company_id: string;
  plan: string;
  status: 'active' | 'trialing' | 'past_due' | 'canceled';
  period_start: Date | null;
  period_end: Date | null;
  source: string;
  note: string;
  updated_at: Date;
}

export interface LogoRow {
  content_type: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  etag: string;
  updated_at: Date;
}

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

/** A company as the reindex reads it: its id and what its vector is made from. */
export interface ReindexSource extends EmbeddableProfile {
  id: string;
}

export function createToolsRepo(db: Queryable) {
  return {
    async findById(id: string, options: { forUpdate?: boolean } = {}): Promise<ToolRow | undefined> {
      const rows = await db.query<ToolRow>(
        `SELECT ${TOOL_COLUMNS} FROM companies WHERE id = $1 AND deleted_at IS NULL${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [id],
      );
      return rows[0];
    },

    async findByDomain(domain: string): Promise<ToolRow | undefined> {
      const rows = await db.query<ToolRow>(`SELECT ${TOOL_COLUMNS} FROM companies WHERE domain = $1 AND deleted_at IS NULL`, [domain]);
      return rows[0];
    },

    async findManyByIds(ids: string[]): Promise<ToolRow[]> {
      if (ids.length === 0) return [];
      return db.query<ToolRow>(`SELECT ${TOOL_COLUMNS} FROM companies WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL ORDER BY name, id`, [ids]);
    },

    /**
     * Writes the given columns (whitelisted) and, when given, a new embedding. The search_vector
     * follows through the companies trigger in the same statement.
     */
    async update(id: string, values: Record<string, unknown>, extra: { embedding?: { vector: string; model: string }; ownerEditedFields?: string[] } = {}): Promise<ToolRow> {
      const sets: string[] = [];
      const params: unknown[] = [id];
      const p = (v: unknown, cast = '') => {
        params.push(v);
        return `$${params.length}${cast}`;
      };
      for (const [col, v] of Object.entries(values)) {
        if (!WRITABLE.has(col)) throw new Error(`column ${col} is not writable`);
        sets.push(col === 'social_links' ? `${col} = ${p(JSON.stringify(v ?? {}), '::jsonb')}` : `${col} = ${p(v)}`);
      }
      if (extra.embedding) {
        sets.push(`embedding = ${p(extra.embedding.vector, '::vector')}`, `embedding_model = ${p(extra.embedding.model)}`);
      }
      if (extra.ownerEditedFields) sets.push(`owner_edited_fields = ${p(extra.ownerEditedFields, '::text[]')}`);
      sets.push('updated_at = now()');
      const rows = await db.query<ToolRow>(`UPDATE companies SET ${sets.join(', ')} WHERE id = $1 AND deleted_at IS NULL RETURNING ${TOOL_COLUMNS}`, params);
      return rows[0]!;
    },

    async setFlag(id: string, flag: 'is_verified' | 'is_featured', value: boolean): Promise<ToolRow | undefined> {
      const col = flag === 'is_verified' ? 'is_verified' : 'is_featured';
      const rows = await db.query<ToolRow>(
        `UPDATE companies SET ${col} = $2, updated_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING ${TOOL_COLUMNS}`,
        [id, value],
      );
      return rows[0];
    },

    async softDelete(id: string): Promise<Date | undefined> {
      const rows = await db.query<{ deleted_at: Date }>(
        'UPDATE companies SET deleted_at = now(), updated_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING deleted_at',
        [id],
      );
      return rows[0]?.deleted_at;
    },

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

    // --- public listings ---------------------------------------------------------------

    async search(tsquery: string | undefined, category: string | undefined, limit: number): Promise<ToolRow[]> {
      const params: unknown[] = [limit];
      const where = ['c.deleted_at IS NULL'];
      let rank = '';
      if (category) {
        params.push(category);
        where.push(`c.category = $${params.length}`);
      }
      if (tsquery) {
        params.push(tsquery);
        const q = `(to_tsquery('english', $${params.length}) || to_tsquery('simple', $${params.length}))`;
        where.push(`c.search_vector @@ ${q}`);
        rank = `ts_rank_cd(c.search_vector, ${q}, 32)`;
      }
      return db.query<ToolRow>(
        `SELECT ${prefixed('c')} FROM companies c WHERE ${where.join(' AND ')}
          ORDER BY ${rank ? `${rank} DESC, ` : ''}c.is_featured DESC, c.is_verified DESC, c.name, c.id LIMIT $1`,
        params,
      );
    },

    recent: (limit: number) =>
      db.query<ToolRow>(`SELECT ${TOOL_COLUMNS} FROM companies WHERE deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $1`, [limit]),

    featured: (limit: number) =>
      db.query<ToolRow>(`SELECT ${TOOL_COLUMNS} FROM companies WHERE is_featured AND deleted_at IS NULL ORDER BY name, id LIMIT $1`, [limit]),

    /**
     * Administrators' list, newest first. The keyset cursor is the (created_at, id) of the last
     * row seen, created_at as PostgreSQL text so microseconds survive the round trip: rows added
     * meanwhile sort before the cursor and never shift the pages that follow.
     */
    async subscriptionsOf(companyIds: string[]): Promise<SubscriptionRow[]> {
      if (companyIds.length === 0) return [];
      return db.query<SubscriptionRow>('SELECT * FROM company_subscriptions WHERE company_id = ANY($1::uuid[])', [companyIds]);
    },

    async listForAdmin(o: {
      q?: string | undefined;
      after?: { createdAt: string; id: string } | undefined;
      limit: number;
      offset: number;
    }): Promise<{ rows: (ToolRow & { cursor_ts: string })[]; total: number }> {
      const params: unknown[] = [];
      const where = ['deleted_at IS NULL'];
      if (o.q) {
        params.push(`%${o.q.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
        where.push(`lower(name) LIKE $${params.length}`);
      }
      const filterParams = [...params];
      const filterWhere = [...where];
      if (o.after) {
        params.push(o.after.createdAt, o.after.id);
        where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
      }
      params.push(o.limit, o.offset);
      const rows = await db.query<ToolRow & { cursor_ts: string }>(
        `SELECT ${TOOL_COLUMNS}, (created_at AT TIME ZONE 'UTC')::text AS cursor_ts FROM companies WHERE ${where.join(' AND ')}
          ORDER BY created_at DESC, id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM companies WHERE ${filterWhere.join(' AND ')}`, filterParams);
      return { rows, total: total[0]!.n };
    },

    async countLive(): Promise<number> {
      return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies WHERE deleted_at IS NULL'))[0]!.n;
    },

    // --- reindex ------------------------------------------------------------------------

    reindexBatch: (afterId: string | null, limit: number) =>
      db.query<ReindexSource>(
        `SELECT id, name, industry, category, keywords, services, description, city, country FROM companies
          WHERE deleted_at IS NULL AND ($1::uuid IS NULL OR id > $1::uuid) ORDER BY id LIMIT $2`,
        [afterId, limit],
      ),

    /** New embedding, and `name = name` re-fires the search_vector trigger from stored data. */
    async reindexOne(id: string, vector: string, model: string): Promise<void> {
      await db.query('UPDATE companies SET name = name, embedding = $2::vector, embedding_model = $3 WHERE id = $1', [id, vector, model]);
    },

    // --- subscriptions ------------------------------------------------------------------

    async getSubscription(companyId: string): Promise<SubscriptionRow | undefined> {
      return (await db.query<SubscriptionRow>('SELECT * FROM company_subscriptions WHERE company_id = $1', [companyId]))[0];
    },

    async upsertSubscription(s: Omit<SubscriptionRow, 'updated_at'>): Promise<SubscriptionRow> {
      const rows = await db.query<SubscriptionRow>(
        `INSERT INTO company_subscriptions (company_id, plan, status, period_start, period_end, source, note)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (company_id) DO UPDATE SET plan = EXCLUDED.plan, status = EXCLUDED.status, period_start = EXCLUDED.period_start,
           period_end = EXCLUDED.period_end, source = EXCLUDED.source, note = EXCLUDED.note, updated_at = now(),
           -- The provider's cancel and failure state belonged to the plan this one replaces (no false "plan ends" mail).
           cancel_at_period_end = false, cancel_at = NULL, payment_failed_at = NULL, ending_notice_for = NULL
         RETURNING *`,
        [s.company_id, s.plan, s.status, s.period_start, s.period_end, s.source, s.note],
      );
      return rows[0]!;
    },

    // --- logos --------------------------------------------------------------------------

    async getLogo(companyId: string): Promise<LogoRow | undefined> {
      const rows = await db.query<LogoRow>(
        `SELECT l.content_type, l.bytes, l.width, l.height, l.etag, l.updated_at FROM company_logos l
           JOIN companies c ON c.id = l.company_id AND c.deleted_at IS NULL WHERE l.company_id = $1`,
        [companyId],
      );
      return rows[0];
    },

    async putLogo(companyId: string, logo: Omit<LogoRow, 'updated_at'>): Promise<void> {
      await db.query(
        `INSERT INTO company_logos (company_id, content_type, bytes, width, height, etag) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (company_id) DO UPDATE SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, width = EXCLUDED.width,
           height = EXCLUDED.height, etag = EXCLUDED.etag, updated_at = now()`,
        [companyId, logo.content_type, logo.bytes, logo.width, logo.height, logo.etag],
      );
    },

    // --- AI-edit snapshots --------------------------------------------------------------

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

export type ToolsRepo = ReturnType<typeof createToolsRepo>;
