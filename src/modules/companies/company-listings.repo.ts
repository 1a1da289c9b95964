import type { Queryable } from '../../platform/db.js';
import { COMPANY_COLUMNS, type CompanyRecord } from './company.record.js';

const prefixed = (alias: string) => COMPANY_COLUMNS.replace(/(^|,\s*)(\w)/g, `$1${alias}.$2`);

/** Lists of companies for people: the dashboard's search, the newest and featured ones, the administrators' list. */
/** The administrators' saved views of the company list (they read company_owners and company_subscriptions, which ownership and payments write). */
export type AdminView = 'all' | 'to_verify' | 'unverified' | 'verified' | 'featured' | 'subscribed';
const ADMIN_VIEWS: Record<Exclude<AdminView, 'all'>, string> = {
  to_verify: 'NOT is_verified AND EXISTS (SELECT 1 FROM company_owners o WHERE o.company_id = companies.id)',
  unverified: 'NOT is_verified',
  verified: 'is_verified',
  featured: 'is_featured',
  subscribed: "EXISTS (SELECT 1 FROM company_subscriptions s WHERE s.company_id = companies.id AND s.plan <> 'free' AND s.status IN ('active', 'trialing', 'past_due'))",
};

export function createCompanyListingsRepo(db: Queryable) {
  return {
    async search(tsquery: string | undefined, category: string | undefined, limit: number): Promise<CompanyRecord[]> {
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
      return db.query<CompanyRecord>(
        `SELECT ${prefixed('c')} FROM companies c WHERE ${where.join(' AND ')}
          ORDER BY ${rank ? `${rank} DESC, ` : ''}c.is_featured DESC, c.is_verified DESC, c.name, c.id LIMIT $1`,
        params,
      );
    },

    /** Live companies with these ids, by name (an owner's companies). */
    byIdsByName: (ids: string[]) =>
      ids.length === 0 ? Promise.resolve([]) : db.query<CompanyRecord>(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL ORDER BY name, id`, [ids]),

    recent: (limit: number) =>
      db.query<CompanyRecord>(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $1`, [limit]),

    featured: (limit: number) =>
      db.query<CompanyRecord>(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE is_featured AND deleted_at IS NULL ORDER BY name, id LIMIT $1`, [limit]),

    /**
     * Administrators' list, newest first, optionally one view of it (ADMIN_VIEWS). The keyset cursor is the (created_at, id) of the last
     * row seen, created_at as PostgreSQL text so microseconds survive the round trip: rows added
     * meanwhile sort before the cursor and never shift the pages that follow.
     */
    async listForAdmin(o: {
      q?: string | undefined;
      view?: AdminView | undefined;
      after?: { createdAt: string; id: string } | undefined;
      limit: number;
      offset: number;
    }): Promise<{ rows: (CompanyRecord & { cursor_ts: string })[]; total: number }> {
      const params: unknown[] = [];
      const where = ['deleted_at IS NULL'];
      if (o.q) {
        params.push(`%${o.q.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
        where.push(`lower(name) LIKE $${params.length}`);
      }
      if (o.view && o.view !== 'all') where.push(ADMIN_VIEWS[o.view]);
      const filterParams = [...params];
      const filterWhere = [...where];
      if (o.after) {
        params.push(o.after.createdAt, o.after.id);
        where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
      }
      params.push(o.limit, o.offset);
      const rows = await db.query<CompanyRecord & { cursor_ts: string }>(
        `SELECT ${COMPANY_COLUMNS}, (created_at AT TIME ZONE 'UTC')::text AS cursor_ts FROM companies WHERE ${where.join(' AND ')}
          ORDER BY created_at DESC, id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM companies WHERE ${filterWhere.join(' AND ')}`, filterParams);
      return { rows, total: total[0]!.n };
    },

    async countLive(): Promise<number> {
      return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies WHERE deleted_at IS NULL'))[0]!.n;
    },
  };
}

export type CompanyListingsRepo = ReturnType<typeof createCompanyListingsRepo>;
