import type { Db } from '../../platform/db.js';
import { COMPANY_COLUMNS } from '../companies/companies.repo.js';
import type { CompanyRow } from '../companies/companies.schemas.js';

/** Filters as the search service resolved them (canonical category, ISO country code). */
export interface SearchFilters {
  category?: string | undefined;
  countryCode?: string | undefined;
  /** A country the code table does not know: matched by name, case-insensitively. */
  countryName?: string | undefined;
  city?: string | undefined;
  industry?: string | undefined;
  serviceType?: string | undefined;
  verifiedOnly?: boolean | undefined;
}

/** WHERE clause + params for the filters; params start at `first`. */
function whereFilters(f: SearchFilters, first: number): { sql: string; params: unknown[] } {
  const parts = ['c.deleted_at IS NULL'];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${first + params.length - 1}`;
  };
  if (f.category) parts.push(`lower(c.category) = lower(${p(f.category)})`);
  if (f.countryCode) parts.push(`c.country_code = ${p(f.countryCode)}`);
  else if (f.countryName) parts.push(`lower(c.country) = lower(${p(f.countryName)})`);
  if (f.city) parts.push(`lower(c.city) = lower(${p(f.city)})`);
  if (f.industry) parts.push(`c.industry ILIKE ${p(`%${f.industry.replace(/[\\%_]/g, (m) => `\\${m}`)}%`)}`);
  if (f.serviceType) parts.push(`c.service_type = ${p(f.serviceType)}`);
  if (f.verifiedOnly) parts.push('c.is_verified');
  return { sql: parts.join(' AND '), params };
}

export interface ScoredId {
  id: string;
  score: number;
}

export function createSearchRepo(db: Db) {
  return {
    /** Full-text candidates for an OR tsquery, best first, with ts_rank_cd normalised to [0, 1). */
    async keywordCandidates(tsquery: string, filters: SearchFilters, limit: number): Promise<ScoredId[]> {
      const w = whereFilters(filters, 3);
      return db.query<ScoredId>(
        `SELECT c.id, ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', c.search_vector, q, 32) AS score
           FROM companies c, (SELECT to_tsquery('english', $1) || to_tsquery('simple', $1) AS q) tq
          WHERE c.search_vector @@ q AND ${w.sql}
          ORDER BY score DESC, c.id
          LIMIT $2`,
        [tsquery, limit, ...w.params],
      );
    },

    /** Name similarity (trigram): finds names, acronyms and misspellings the stemmer misses. */
    async nameCandidates(q: string, filters: SearchFilters, limit: number): Promise<ScoredId[]> {
      const w = whereFilters(filters, 3);
      return db.query<ScoredId>(
        `SELECT c.id, word_similarity($1, lower(c.name)) AS score
           FROM companies c
          WHERE lower(c.name) %> $1 AND ${w.sql}
          ORDER BY score DESC, c.id
          LIMIT $2`,
        [q.toLowerCase(), limit, ...w.params],
      );
    },

    /** Nearest neighbours by cosine distance (HNSW); score = cosine similarity. */
    async semanticCandidates(vector: string, filters: SearchFilters, limit: number): Promise<ScoredId[]> {
      const w = whereFilters(filters, 3);
      const hasFilters = w.params.length > 0;
      const sql = `SELECT c.id, 1 - (c.embedding <=> $1::vector) AS score
           FROM companies c
          WHERE c.embedding IS NOT NULL AND ${w.sql}
          ORDER BY c.embedding <=> $1::vector
          LIMIT $2`;
      if (!hasFilters) return db.query<ScoredId>(sql, [vector, limit, ...w.params]);
      // With filters, let HNSW keep scanning until enough rows pass them (pgvector ≥ 0.8).
      return db.transaction(async (tx) => {
        await tx.query(`SET LOCAL hnsw.iterative_scan = relaxed_order`);
        const rows = await tx.query<ScoredId>(sql, [vector, limit, ...w.params]);
        return rows.sort((a, b) => b.score - a.score);
      });
    },

    /** The filtered directory without a query: featured, then verified, then by name. */
    async browse(filters: SearchFilters, limit: number, offset: number): Promise<{ rows: CompanyRow[]; total: number }> {
      const w = whereFilters(filters, 3);
      const rows = await db.query<CompanyRow>(
        `SELECT ${COMPANY_COLUMNS.replace(/(^|,\s*)(\w)/g, '$1c.$2')} FROM companies c WHERE ${w.sql}
          ORDER BY c.is_featured DESC, c.is_verified DESC, c.name, c.id LIMIT $1 OFFSET $2`,
        [limit, offset, ...w.params],
      );
      const total = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM companies c WHERE ${whereFilters(filters, 1).sql}`,
        whereFilters(filters, 1).params,
      );
      return { rows, total: total[0]!.n };
    },
  };
}

export type SearchRepo = ReturnType<typeof createSearchRepo>;
