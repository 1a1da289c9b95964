import type { Queryable } from '../../platform/db.js';
import { COMPANY_COLUMNS, JSON_FIELDS, STORED_FIELDS, type ChangeableFields, type CompanyFields, type CompanyRecord } from './company.record.js';
import { EDITABLE_FIELDS } from './tools.schemas.js';

/** A stored vector and the model that made it. */
export interface StoredEmbedding {
  vector: string;
  model: string;
}

/** Columns a partial change may set (editable fields plus what derives from them). Nothing else is ever interpolated. */
const CHANGEABLE = new Set<string>([...EDITABLE_FIELDS, 'country_code', 'phone_e164', 'logo_url', 'latitude', 'longitude', 'timezone', 'photos']);

const param = (c: string, i: number) => (JSON_FIELDS.has(c) ? `$${i}::jsonb` : `$${i}`);
/** JSON fields as jsonb text: lists and maps default to empty, opening hours and the price range stay SQL NULL when unknown. */
const JSON_EMPTY: Record<string, unknown> = { locations: [], social_links: {}, opening_hours: null, price_range: null, service_prices: [], photos: [] };
const value = (c: string, v: unknown) => {
  if (!JSON_FIELDS.has(c)) return v;
  const json = v ?? JSON_EMPTY[c] ?? null;
  return json === null ? null : JSON.stringify(json);
};

/**
 * The one writer of the `companies` table (company.write.ts decides what is written), and its reads
 * by key. Listings live in company-listings.repo.ts; search reads through its own index.
 */
export function createCompaniesRepo(db: Queryable) {
  return {
    async findById(id: string, options: { includeDeleted?: boolean; forUpdate?: boolean } = {}): Promise<CompanyRecord | undefined> {
      const rows = await db.query<CompanyRecord>(
        `SELECT ${COMPANY_COLUMNS} FROM companies WHERE id = $1 ${options.includeDeleted ? '' : 'AND deleted_at IS NULL'}${options.forUpdate ? ' FOR UPDATE' : ''}`,
        [id],
      );
      return rows[0];
    },

    /** The live company whose page slug (0013_company_slugs.sql) this is. */
    async findBySlug(slug: string): Promise<CompanyRecord | undefined> {
      return (await db.query<CompanyRecord>(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE slug = $1 AND deleted_at IS NULL`, [slug]))[0];
    },

    async findByDomain(domain: string): Promise<CompanyRecord | undefined> {
      return (await db.query<CompanyRecord>(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE domain = $1 AND deleted_at IS NULL`, [domain]))[0];
    },

    /** Live rows for the given ids, in the order of the ids (missing ones skipped). */
    async findManyByIds(ids: string[]): Promise<CompanyRecord[]> {
      if (ids.length === 0) return [];
      const rows = await db.query<CompanyRecord>(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`, [ids]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id)).filter((r): r is CompanyRecord => r !== undefined);
    },

    async count(): Promise<number> {
      return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies WHERE deleted_at IS NULL'))[0]!.n;
    },

    /**
     * Insert or update by domain (the website is the identity). Returns the row and whether it
     * was created or changed, so a second identical import reports "unchanged". A null embedding
     * keeps the stored one.
     */
    async upsertByDomain(fields: CompanyFields, embedding: StoredEmbedding | null): Promise<{ row: CompanyRecord; outcome: 'created' | 'updated' | 'unchanged' }> {
      const columns = [...STORED_FIELDS, 'embedding', 'embedding_model'];
      const values = [...STORED_FIELDS.map((c) => value(c, fields[c])), embedding?.vector ?? null, embedding?.model ?? null];
      const placeholders = [...STORED_FIELDS.map((c, i) => param(c, i + 1)), `$${STORED_FIELDS.length + 1}::vector`, `$${STORED_FIELDS.length + 2}`];
      const compared = STORED_FIELDS.filter((c) => c !== 'source');
      const rows = await db.query<CompanyRecord & { inserted: boolean }>(
        `INSERT INTO companies (${columns.join(', ')}) VALUES (${placeholders.join(', ')})
         ON CONFLICT (domain) WHERE deleted_at IS NULL DO UPDATE SET
           ${STORED_FIELDS.map((c) => `${c} = EXCLUDED.${c}`).join(', ')},
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
        return { row, outcome: inserted ? 'created' : 'updated' };
      }
      return { row: (await this.findByDomain(fields.domain))!, outcome: 'unchanged' };
    },

    /** Sets the given columns (whitelisted), a new embedding when given and the fields set by hand. The search_vector follows by trigger. */
    async update(id: string, values: ChangeableFields, extra: { embedding?: StoredEmbedding | undefined; ownerEditedFields?: string[] } = {}): Promise<CompanyRecord> {
      const sets: string[] = [];
      const params: unknown[] = [id];
      const p = (v: unknown, cast = '') => {
        params.push(v);
        return `$${params.length}${cast}`;
      };
      for (const [col, v] of Object.entries(values)) {
        if (!CHANGEABLE.has(col)) throw new Error(`column ${col} is not writable`);
        sets.push(`${col} = ${JSON_FIELDS.has(col) ? p(value(col, v), '::jsonb') : p(v)}`);
      }
      if (extra.embedding) sets.push(`embedding = ${p(extra.embedding.vector, '::vector')}`, `embedding_model = ${p(extra.embedding.model)}`);
      if (extra.ownerEditedFields) sets.push(`owner_edited_fields = ${p(extra.ownerEditedFields, '::text[]')}`);
      sets.push('updated_at = now()');
      const rows = await db.query<CompanyRecord>(`UPDATE companies SET ${sets.join(', ')} WHERE id = $1 AND deleted_at IS NULL RETURNING ${COMPANY_COLUMNS}`, params);
      return rows[0]!;
    },

    /** Records who set or confirmed these fields (company.freshness.ts); the row as it is now. No change-feed entry: the values did not change. */
    async stampSources(id: string, stamps: Record<string, { source: string; at: string }>): Promise<CompanyRecord | undefined> {
      const rows = await db.query<CompanyRecord>(
        `UPDATE companies SET field_sources = field_sources || $2::jsonb WHERE id = $1 AND deleted_at IS NULL RETURNING ${COMPANY_COLUMNS}`,
        [id, JSON.stringify(stamps)],
      );
      return rows[0];
    },

    async setFlag(id: string, flag: 'is_verified' | 'is_featured', on: boolean): Promise<CompanyRecord | undefined> {
      const col = flag === 'is_verified' ? 'is_verified' : 'is_featured';
      const rows = await db.query<CompanyRecord>(`UPDATE companies SET ${col} = $2, updated_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING ${COMPANY_COLUMNS}`, [id, on]);
      return rows[0];
    },

    async softDelete(id: string): Promise<Date | undefined> {
      const rows = await db.query<{ deleted_at: Date }>('UPDATE companies SET deleted_at = now(), updated_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING deleted_at', [id]);
      return rows[0]?.deleted_at;
    },

    /** What a profile's vector is made from, for live companies after `afterId` (reindex). */
    embeddingSources: (afterId: string | null, limit: number) =>
      db.query<Pick<CompanyRecord, 'id' | 'name' | 'industry' | 'category' | 'keywords' | 'services' | 'description' | 'city' | 'country'>>(
        `SELECT id, name, industry, category, keywords, services, description, city, country FROM companies
          WHERE deleted_at IS NULL AND ($1::uuid IS NULL OR id > $1::uuid) ORDER BY id LIMIT $2`,
        [afterId, limit],
      ),

    /** A new embedding; `name = name` re-fires the search_vector trigger from stored data. */
    async setEmbedding(id: string, embedding: StoredEmbedding): Promise<void> {
      await db.query('UPDATE companies SET name = name, embedding = $2::vector, embedding_model = $3 WHERE id = $1', [id, embedding.vector, embedding.model]);
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
        `SELECT id, city, country_code FROM companies WHERE deleted_at IS NULL AND latitude IS NULL AND city <> '' AND id > $1 ORDER BY id LIMIT $2`,
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

    /** Live companies located (coordinates) but without a time zone yet (stored before it existed), after `afterId`. */
    async listWithoutTimeZone(afterId: string, limit: number): Promise<{ id: string; latitude: number; longitude: number }[]> {
      return db.query(
        `SELECT id, latitude, longitude FROM companies WHERE deleted_at IS NULL AND timezone IS NULL AND latitude IS NOT NULL AND longitude IS NOT NULL AND id > $1 ORDER BY id LIMIT $2`,
        [afterId, limit],
      );
    },

    async setTimeZones(rows: { id: string; timezone: string }[]): Promise<void> {
      if (rows.length === 0) return;
      await db.query(
        `UPDATE companies c SET timezone = v.timezone FROM unnest($1::uuid[], $2::text[]) AS v(id, timezone) WHERE c.id = v.id`,
        [rows.map((r) => r.id), rows.map((r) => r.timezone)],
      );
    },

    /** Live companies with a phone but no E.164 form yet (stored before it existed), after `afterId`. */
    async listPhonesWithoutE164(afterId: string, limit: number): Promise<{ id: string; phone: string; country_code: string }[]> {
      return db.query(
        `SELECT id, phone, country_code FROM companies WHERE deleted_at IS NULL AND phone_e164 IS NULL AND phone <> '' AND id > $1 ORDER BY id LIMIT $2`,
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
