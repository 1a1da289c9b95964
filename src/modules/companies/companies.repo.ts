import type { Queryable } from '../../platform/db.js';
import { COMPANY_COLUMNS, type CompanyLocation, type CompanyRow } from './companies.schemas.js';

/** Re-exported for tools.repo.ts (same module); other modules import it from companies.schemas.ts. */
export { COMPANY_COLUMNS };

/** A fully-resolved write: every column the importer/owner/crawler may set. */
export interface CompanyWrite {
  name: string;
  website_url: string;
  domain: string;
  category: string;
  industry: string;
  description: string;
  country: string;
  country_code: string;
  city: string;
  address: string;
  service_type: string;
  is_verified: boolean;
  is_featured: boolean;
  keywords: string[];
  services: string[];
  languages: string[];
  contact_email: string | null;
  phone: string | null;
  /** The phone in E.164 (lib/phone.ts), null when it does not parse for the company's country. */
  phone_e164: string | null;
  locations: CompanyLocation[];
  social_links: Record<string, string>;
  logo_url: string | null;
  founded_year: number | null;
  source: string;
  /** The city's coordinates (lib/geo.ts cityCoordinates), null when the gazetteer does not know it. */
  latitude: number | null;
  longitude: number | null;
  embedding: string | null;
  embedding_model: string | null;
}

const WRITE_COLUMNS = [
  'name', 'website_url', 'domain', 'category', 'industry', 'description', 'country', 'country_code', 'city', 'address',
  'service_type', 'is_verified', 'is_featured', 'keywords', 'services', 'languages', 'contact_email', 'phone',
  'phone_e164', 'locations', 'social_links', 'logo_url', 'founded_year', 'source', 'latitude', 'longitude', 'embedding', 'embedding_model',
] as const;

export function createCompaniesRepo(db: Queryable) {
  return {
    async findById(id: string, options: { includeDeleted?: boolean } = {}): Promise<CompanyRow | undefined> {
      const rows = await db.query<CompanyRow>(
        `SELECT ${COMPANY_COLUMNS} FROM companies WHERE id = $1 ${options.includeDeleted ? '' : 'AND deleted_at IS NULL'}`,
        [id],
      );
      return rows[0];
    },

    /** The live company whose page slug (0013_company_slugs.sql) this is. */
    async findBySlug(slug: string): Promise<CompanyRow | undefined> {
      const rows = await db.query<CompanyRow>(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE slug = $1 AND deleted_at IS NULL`, [slug]);
      return rows[0];
    },

    async findByDomain(domain: string): Promise<CompanyRow | undefined> {
      const rows = await db.query<CompanyRow>(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE domain = $1 AND deleted_at IS NULL`, [domain]);
      return rows[0];
    },

    /** Rows for the given ids, in the order of the ids (missing ones skipped). */
    async findManyByIds(ids: string[]): Promise<CompanyRow[]> {
      if (ids.length === 0) return [];
      const rows = await db.query<CompanyRow>(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`, [ids]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id)).filter((r): r is CompanyRow => r !== undefined);
    },

    /**
     * Insert or update by domain (the website is the identity). Returns the row and whether it
     * was created or changed, so a second identical import reports "unchanged".
     */
    async upsertByDomain(w: CompanyWrite): Promise<{ row: CompanyRow; outcome: 'created' | 'updated' | 'unchanged' }> {
      const json = (c: string) => c === 'social_links' || c === 'locations';
      const values = WRITE_COLUMNS.map((c) => (json(c) ? JSON.stringify(w[c]) : w[c]));
      const placeholders = WRITE_COLUMNS.map((c, i) => (c === 'embedding' ? `$${i + 1}::vector` : json(c) ? `$${i + 1}::jsonb` : `$${i + 1}`));
      const compared = WRITE_COLUMNS.filter((c) => c !== 'embedding' && c !== 'embedding_model' && c !== 'source');
      const rows = await db.query<CompanyRow & { inserted: boolean }>(
        `INSERT INTO companies (${WRITE_COLUMNS.join(', ')}) VALUES (${placeholders.join(', ')})
         ON CONFLICT (domain) WHERE deleted_at IS NULL DO UPDATE SET
           ${WRITE_COLUMNS.filter((c) => c !== 'embedding' && c !== 'embedding_model').map((c) => `${c} = EXCLUDED.${c}`).join(', ')},
           embedding = COALESCE(EXCLUDED.embedding, companies.embedding),
           embedding_model = COALESCE(EXCLUDED.embedding_model, companies.embedding_model),
           updated_at = now()
         WHERE (${compared.map((c) => `companies.${c}`).join(', ')}) IS DISTINCT FROM (${compared.map((c) => `EXCLUDED.${c}`).join(', ')})
            OR (EXCLUDED.embedding IS NOT NULL AND companies.embedding IS NULL)
         RETURNING ${COMPANY_COLUMNS}, (xmax = 0) AS inserted`,
        values,
      );
      if (rows[0]) {
        const { inserted, ...row } = rows[0];
        return { row: row as CompanyRow, outcome: inserted ? 'created' : 'updated' };
      }
      const existing = await this.findByDomain(w.domain);
      return { row: existing!, outcome: 'unchanged' };
    },

    /**
     * Fields the owner set by hand (a re-crawl keeps them). Read through to_jsonb so this works
     * before and after the column exists.
     */
    async ownerEditedFields(id: string): Promise<string[]> {
      const rows = await db.query<{ f: unknown }>(`SELECT to_jsonb(c) -> 'owner_edited_fields' AS f FROM companies c WHERE id = $1`, [id]);
      const f = rows[0]?.f;
      return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
    },

    async count(): Promise<number> {
      const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies WHERE deleted_at IS NULL');
      return rows[0]!.n;
    },

    /**
     * Changes after the cursor in commit-safe order (0014_change_feed_and_places.sql): only those
     * whose transaction is older than every transaction still running, so none can appear later
     * behind the cursor.
     */
    async changesAfter(after: { txid: string; seq: string }, limit: number): Promise<{ company_id: string; txid: string; seq: string; removed: boolean; changed_at: Date }[]> {
      return db.query(
        `SELECT company_id, txid::text AS txid, seq::text AS seq, removed, changed_at FROM company_changes
          WHERE (txid, seq) > ($1::xid8, $2::bigint) AND txid < pg_snapshot_xmin(pg_current_snapshot())
          ORDER BY txid, seq LIMIT $3`,
        [after.txid, after.seq, limit],
      );
    },

    /** Live companies with a city but no coordinates yet (stored before coordinates existed), after `afterId`. */
    async listWithoutCoordinates(afterId: string, limit: number): Promise<{ id: string; city: string; country_code: string }[]> {
      return db.query(
        `SELECT id, city, country_code FROM companies
          WHERE deleted_at IS NULL AND latitude IS NULL AND city <> '' AND id > $1 ORDER BY id LIMIT $2`,
        [afterId, limit],
      );
    },

    async setCoordinates(rows: { id: string; latitude: number; longitude: number }[]): Promise<void> {
      if (rows.length === 0) return;
      await db.query(
        `UPDATE companies c SET latitude = v.latitude, longitude = v.longitude
           FROM unnest($1::uuid[], $2::float8[], $3::float8[]) AS v(id, latitude, longitude) WHERE c.id = v.id`,
        [rows.map((r) => r.id), rows.map((r) => r.latitude), rows.map((r) => r.longitude)],
      );
    },

    /** Live companies with a phone but no E.164 form yet (stored before it existed), after `afterId`. */
    async listPhonesWithoutE164(afterId: string, limit: number): Promise<{ id: string; phone: string; country_code: string }[]> {
      return db.query(
        `SELECT id, phone, country_code FROM companies
          WHERE deleted_at IS NULL AND phone_e164 IS NULL AND phone <> '' AND id > $1 ORDER BY id LIMIT $2`,
        [afterId, limit],
      );
    },

    async setPhonesE164(rows: { id: string; phone_e164: string }[]): Promise<void> {
      if (rows.length === 0) return;
      await db.query(
        `UPDATE companies c SET phone_e164 = v.phone_e164 FROM unnest($1::uuid[], $2::text[]) AS v(id, phone_e164) WHERE c.id = v.id`,
        [rows.map((r) => r.id), rows.map((r) => r.phone_e164)],
      );
    },
  };
}

export type CompaniesRepo = ReturnType<typeof createCompaniesRepo>;
