import type { OpeningHours } from '../../lib/opening-hours.js';
import type { PriceRange } from '../../lib/price-range.js';
import type { Db } from '../../platform/db.js';
import type { WordCharacters } from '../../lib/trigram.js';
import { groupByTerm, rankItems, rankWeights } from '../../lib/ts-rank.js';
import { COMPANY_COLUMNS, type CompanyRecord } from '../companies/company.record.js';

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
  /** Changed at or after this instant (RFC 3339). */
  updatedSince?: string | undefined;
  /**
   * Near a point: local companies within the radius; with includeRemote, also remote and hybrid
   * companies and nationwide ones of the place's country (distance does not limit them).
   */
  near?: { latitude: number; longitude: number; radiusKm: number; countryCode: string; includeRemote: boolean } | undefined;
}

/** The facts open_now / open_at and max_price are decided on (in code: each company's time zone, the reference rates). */
export interface PostFilterFacts {
  id: string;
  opening_hours: OpeningHours | null;
  timezone: string | null;
  price_range: PriceRange | null;
}

/** The ORDER BY of a browse: featured, verified, then name; or the sort asked for (distance appends its point to `params`). */
function browseOrder(filters: SearchFilters, sort: BrowseSort, params: unknown[]): string {
  if (sort === 'newest') return 'c.created_at DESC, c.id';
  if (sort === 'name') return 'lower(c.name), c.id';
  if (sort === 'distance' && filters.near) {
    params.push(filters.near.latitude, filters.near.longitude);
    return `${distanceSql(`$${params.length - 1}`, `$${params.length}`)} ASC NULLS LAST, c.name, c.id`;
  }
  return 'c.is_featured DESC, c.is_verified DESC, c.name, c.id';
}

/** Browse orders (text searches are ordered by the service). */
export type BrowseSort = 'default' | 'distance' | 'newest' | 'name';
/** Every sort a search takes: the browse orders' and relevance and rating (both ordered by the service). */
export type SearchSort = 'relevance' | 'distance' | 'newest' | 'name' | 'rating';

/** Great-circle distance in km from a point (two SQL parameters) to the company's city. */
function distanceSql(lat: string, lng: string): string {
  return `(12742 * asin(least(1, sqrt(power(sin(radians(c.latitude - ${lat}::float8) / 2), 2)
    + cos(radians(${lat}::float8)) * cos(radians(c.latitude)) * power(sin(radians(c.longitude - ${lng}::float8) / 2), 2)))))`;
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
  if (f.updatedSince) parts.push(`c.updated_at >= ${p(f.updatedSince)}::timestamptz`);
  if (f.near) {
    const local = `(c.latitude IS NOT NULL AND ${distanceSql(p(f.near.latitude), p(f.near.longitude))} <= ${p(f.near.radiusKm)}::float8)`;
    if (f.near.includeRemote) {
      const cc = p(f.near.countryCode);
      parts.push(`(${local} OR c.service_type IN ('remote', 'hybrid') OR (c.service_type = 'nationwide' AND (c.country_code = ${cc} OR ${cc} = '')))`);
    } else parts.push(local);
  }
  return { sql: parts.join(' AND '), params };
}

export interface ScoredId {
  id: string;
  score: number;
}

export interface CorpusStats {
  docs: number;
  lexemes: number;
  version: number;
}

export interface QueryLexeme {
  term: number;
  lexeme: string;
  df: number;
  /** A prefix form (matches longer lexemes, e.g. German compounds); df sums the lexemes it covers. */
  prefix: boolean;
}

export interface ScoredLexeme {
  term: number;
  lexeme: string;
  idf: number;
  prefix: boolean;
}

/** A company as the in-process vector index holds it (see vector-index.ts). */
export interface VectorSourceRow {
  id: string;
  name: string;
  /** search_vector in its text form ('lexeme':1A,2 …), for the keyword side. */
  searchVector: string;
  vector: Float32Array | null;
  removed: boolean;
  category: string;
  countryCode: string;
  country: string;
  city: string;
  industry: string;
  serviceType: string;
  verified: boolean;
  latitude: number | null;
  longitude: number | null;
}

interface RawVectorRow {
  id: string;
  name: string;
  sv: string | null;
  v: Uint8Array | null;
  removed: boolean;
  category: string | null;
  country_code: string | null;
  country: string | null;
  city: string | null;
  industry: string | null;
  service_type: string | null;
  is_verified: boolean;
  latitude: number | null;
  longitude: number | null;
}

/** pgvector's binary form (vector_send): dimensions (int16), unused (int16), then big-endian float4s. */
function decodeVector(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dimensions = view.getUint16(0, false);
  const out = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) out[i] = view.getFloat32(4 + 4 * i, false);
  return out;
}

function toVectorSourceRow(r: RawVectorRow): VectorSourceRow {
  return {
    id: r.id,
    name: r.name,
    searchVector: r.sv ?? '',
    vector: r.v ? decodeVector(r.v) : null,
    removed: r.removed,
    category: r.category ?? '',
    countryCode: r.country_code ?? '',
    country: r.country ?? '',
    city: r.city ?? '',
    industry: r.industry ?? '',
    serviceType: r.service_type ?? '',
    verified: r.is_verified,
    latitude: r.latitude,
    longitude: r.longitude,
  };
}

/** `db`: the primary, or the read pool (platform/read-pool.ts) when replicas are configured: every statement here reads. */
export function createSearchRepo(db: Pick<Db, 'query' | 'transaction'>) {
  return {
    /** Live companies, total lexemes and the write version (bumped by every company write). */
    async corpusStats(): Promise<CorpusStats> {
      const rows = await db.query<{ docs: number; lexemes: number; version: number }>(
        'SELECT docs::float8 AS docs, lexemes::float8 AS lexemes, version::float8 AS version FROM search_corpus_stats',
      );
      return rows[0] ?? { docs: 0, lexemes: 0, version: 0 };
    },

    /**
     * The lexemes each query term becomes (english stem and simple form) with their document
     * frequency. `term` is the index of the term in `terms`.
     */
    async termLexemes(terms: string[], minPrefix: number): Promise<QueryLexeme[]> {
      if (terms.length === 0) return [];
      return db.query<QueryLexeme>(
        `SELECT t.i::int - 1 AS term, l.lexeme, coalesce(s.df, 0)::int AS df, false AS prefix
           FROM unnest($1::text[]) WITH ORDINALITY AS t(term, i)
           CROSS JOIN LATERAL (
             SELECT unnest(tsvector_to_array(to_tsvector('english', t.term)))
             UNION SELECT unnest(tsvector_to_array(to_tsvector('simple', t.term)))
           ) AS l(lexeme)
           LEFT JOIN search_term_stats s ON s.lexeme = l.lexeme
         UNION ALL
         SELECT t.i::int - 1, t.term, (SELECT coalesce(sum(s.df), 0) FROM search_term_stats s
                                         WHERE s.lexeme ~>=~ t.term AND s.lexeme ~<~ (t.term || chr(1114111))
                                           AND starts_with(s.lexeme, t.term) AND s.lexeme <> t.term)::int, true
           FROM unnest($1::text[]) WITH ORDINALITY AS t(term, i)
          WHERE length(t.term) >= $2 AND t.term ~ '^[[:alnum:]]+$'
          ORDER BY 1, 2`,
        [terms, minPrefix],
      );
    },

    /**
     * Words the directory uses that could be a misspelling of `form`: the same first two letters, at most one
     * letter longer or shorter, most used first (a range scan of the term statistics' primary key).
     */
    async lexemesNear(form: string, limit: number): Promise<{ lexeme: string; df: number }[]> {
      const head = form.slice(0, 2);
      return db.query<{ lexeme: string; df: number }>(
        `SELECT lexeme, df FROM search_term_stats
          WHERE lexeme ~>=~ $1 AND lexeme ~<~ ($1 || chr(1114111)) AND starts_with(lexeme, $1) AND df > 0
            AND length(lexeme) BETWEEN $2 AND $3
          ORDER BY df DESC, lexeme LIMIT $4`,
        [head, form.length - 1, form.length + 1, limit],
      );
    },

    /**
     * The forms of each query term without their frequencies (for the in-process keyword index, which counts
     * them itself): its english stem and simple form, and itself as a prefix form when it is long enough.
     */
    async termForms(terms: string[], minPrefix: number): Promise<{ term: number; lexeme: string; prefix: boolean }[]> {
      if (terms.length === 0) return [];
      return db.query<{ term: number; lexeme: string; prefix: boolean }>(
        `SELECT t.i::int - 1 AS term, l.lexeme, false AS prefix
           FROM unnest($1::text[]) WITH ORDINALITY AS t(term, i)
           CROSS JOIN LATERAL (
             SELECT unnest(tsvector_to_array(to_tsvector('english', t.term)))
             UNION SELECT unnest(tsvector_to_array(to_tsvector('simple', t.term)))
           ) AS l(lexeme)
         UNION ALL
         SELECT t.i::int - 1, t.term, true
           FROM unnest($1::text[]) WITH ORDINALITY AS t(term, i)
          WHERE length(t.term) >= $2 AND t.term ~ '^[[:alnum:]]+$'`,
        [terms, minPrefix],
      );
    },

    /**
     * BM25F-style keyword ranking. Candidates are the companies containing one of `match`
     * (the rarer query lexemes: a bounded set even on large directories, at most `cap` rows).
     * Each query term t (all its forms OR-ed) adds idf_t · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)),
     * where tf is ts_rank of the term alone with field weights (name A, industry/keywords B,
     * description C, place D): a field-weighted, already diminishing occurrence count computed
     * in C, so scoring stays cheap (no unnesting of documents).
     */
    async keywordCandidates(
      p: { match: { lexeme: string; prefix: boolean }[]; scored: ScoredLexeme[]; avgLength: number; k1: number; b: number; fieldWeights: [number, number, number, number] },
      filters: SearchFilters,
      limit: number,
      cap: number,
    ): Promise<ScoredId[]> {
      if (p.match.length === 0 || p.scored.length === 0) return [];
      const quote = (l: { lexeme: string; prefix: boolean }) => `'${l.lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'${l.prefix ? ':*' : ''}`;
      const terms = groupByTerm(p.scored);
      // ts_rank takes weights in [0, 1] ordered {D, C, B, A}.
      const weights = rankWeights(p.fieldWeights);
      const top = weights.scale;
      const params: unknown[] = [p.match.map(quote).join(' | '), weights.sql, p.k1, p.b, p.avgLength, cap, limit];
      const termSql = terms.map((t) => {
        params.push(rankItems(t.forms).map(quote).join(' | '), t.idf);
        const q = `$${params.length - 1}::tsquery`;
        const idf = `$${params.length}::float8`;
        return `(SELECT ${idf} * r * ($3::float8 + 1) / (r + $3::float8 * norm) FROM (SELECT ts_rank($2::float4[], sv, ${q}, 0) * ${top} AS r) x WHERE r > 0)`;
      });
      const w = whereFilters(filters, params.length + 1);
      // The planner, seeing a LIMIT and a tsquery it deems unselective, prefers a sequential scan
      // that checks every document: steer it to the GIN index so the work stays bounded.
      return db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        return tx.query<ScoredId>(
        `SELECT id, (${termSql.map((t) => `coalesce(${t}, 0)`).join(' + ')})::float8 AS score
           FROM (
             SELECT c.id, c.search_vector AS sv, (1 - $4::float8 + $4::float8 * length(c.search_vector) / $5::float8) AS norm
               FROM companies c
              WHERE c.search_vector @@ $1::tsquery AND ${w.sql}
              LIMIT $6
           ) cand
          ORDER BY score DESC, id
          LIMIT $7`,
        [...params, ...w.params],
        );
      });
    },

    /** Name similarity (trigram): finds names, acronyms and misspellings the stemmer misses. */
    /** The mean of every profile vector (what a typical company scores against a query: relevance verdicts). */
    async meanProfileVector(): Promise<number[] | undefined> {
      const rows = await db.query<{ v: string | null }>(`SELECT avg(embedding)::text AS v FROM companies WHERE deleted_at IS NULL AND embedding IS NOT NULL`);
      return rows[0]?.v ? (JSON.parse(rows[0].v) as number[]) : undefined;
    },

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

    /**
     * Which characters pg_trgm reads as word characters here: ASCII letters and digits only under the C locale,
     * every letter otherwise (the in-process name index must split names the same way).
     */
    async trigramWordCharacters(): Promise<WordCharacters> {
      const rows = await db.query<{ s: number }>(`SELECT word_similarity('éé', 'éé') AS s`);
      return rows[0]!.s > 0 ? 'unicode' : 'ascii';
    },

    /** Nearest neighbours by cosine distance (HNSW); score = cosine similarity. */
    async semanticCandidates(vector: string, filters: SearchFilters, limit: number, exactBelow: number): Promise<ScoredId[]> {
      const w = whereFilters(filters, 3);
      // verified_only adds a condition without a parameter: count conditions, not parameters.
      const hasFilters = w.sql !== 'c.deleted_at IS NULL';
      if (hasFilters) {
        // Selective filters: an exact scan of the few matching rows is complete and cheap, where
        // the HNSW graph would have to walk far to find enough of them.
        const wc = whereFilters(filters, 2);
        const counted = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM companies c WHERE ${wc.sql} LIMIT $1) x`,
          [exactBelow + 1, ...wc.params],
        );
        if (counted[0]!.n <= exactBelow) {
          return db.query<ScoredId>(
            `SELECT c.id, 1 - (c.embedding <=> $1::vector) AS score FROM companies c
              WHERE c.embedding IS NOT NULL AND ${w.sql}
              ORDER BY (c.embedding <=> $1::vector) + 0, c.id LIMIT $2`,
            [vector, limit, ...w.params],
          );
        }
      }
      const sql = `SELECT c.id, 1 - (c.embedding <=> $1::vector) AS score
           FROM companies c
          WHERE c.embedding IS NOT NULL AND ${w.sql}
          ORDER BY c.embedding <=> $1::vector
          LIMIT $2`;
      return db.transaction(async (tx) => {
        // HNSW returns at most ef_search rows: raise it to the depth asked for.
        await tx.query(`SET LOCAL hnsw.ef_search = ${Math.max(40, Math.min(Math.trunc(limit), 1000))}`);
        // With broad filters, let HNSW keep scanning until enough rows pass them (pgvector ≥ 0.8).
        if (hasFilters) await tx.query(`SET LOCAL hnsw.iterative_scan = relaxed_order`);
        const rows = await tx.query<ScoredId>(sql, [vector, limit, ...w.params]);
        return rows.sort((a, b) => b.score - a.score);
      });
    },

    /**
     * The oldest transaction still running (pg_snapshot_xmin): every write that commits after this
     * call has a transaction id at or above it. Taken before reading, it is where the next
     * catch-up of the vector index starts (migration 0017).
     */
    async vectorWatermark(): Promise<string> {
      const rows = await db.query<{ x: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x');
      return rows[0]!.x;
    },

    /**
     * A page of companies for the in-process vector index, in id order after `afterId`: the whole
     * live directory with embeddings, or (with `writtenSince`) every company written by a
     * transaction at or after that watermark, removed ones included.
     */
    async vectorRows(afterId: string | null, limit: number, writtenSince?: string): Promise<VectorSourceRow[]> {
      const where = writtenSince === undefined ? 'c.deleted_at IS NULL AND c.embedding IS NOT NULL' : 'c.written_txid >= $3::xid8';
      const rows = await db.query<RawVectorRow>(
        `SELECT c.id, c.name, c.search_vector::text AS sv, vector_send(c.embedding) AS v, c.deleted_at IS NOT NULL AS removed, c.category, c.country_code, c.country,
                c.city, c.industry, c.service_type, c.is_verified, c.latitude, c.longitude
           FROM companies c
          WHERE ${where} AND ($1::uuid IS NULL OR c.id > $1::uuid)
          ORDER BY c.id LIMIT $2`,
        writtenSince === undefined ? [afterId, limit] : [afterId, limit, writtenSince],
      );
      return rows.map(toVectorSourceRow);
    },

    /** How many of these companies are live with an embedding (an index snapshot's sample: is it this directory's?). */
    async liveWithVectors(ids: string[]): Promise<number> {
      if (ids.length === 0) return 0;
      const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL AND embedding IS NOT NULL', [ids]);
      return rows[0]!.n;
    },

    /** Companies hard-deleted by a transaction at or after the watermark (their tombstones). */
    async vectorTombstones(writtenSince: string): Promise<string[]> {
      const rows = await db.query<{ company_id: string }>(
        'SELECT company_id FROM company_changes WHERE removed AND txid >= $1::xid8 AND NOT EXISTS (SELECT 1 FROM companies c WHERE c.id = company_id)',
        [writtenSince],
      );
      return rows.map((r) => r.company_id);
    },

    /** Where the candidates of a text search are and what they are (for place-aware ranking and sorting). */
    async candidateFacts(ids: string[]): Promise<{ id: string; latitude: number | null; longitude: number | null; service_type: string; country_code: string; name: string; created_at: Date }[]> {
      if (ids.length === 0) return [];
      return db.query(
        'SELECT id, latitude, longitude, service_type, country_code, name, created_at FROM companies WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL',
        [ids],
      );
    },

    /** What the filters decided in code read (open_now / open_at: hours and zone; max_price: the price range), for candidates. */
    async postFilterFacts(ids: string[]): Promise<PostFilterFacts[]> {
      if (ids.length === 0) return [];
      return db.query(
        'SELECT id, opening_hours, timezone, price_range FROM companies WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL',
        [ids],
      );
    },

    /**
     * The filtered directory without a query, only companies with opening hours, in browse order, at most `cap`:
     * open_now / open_at browse these (which of them is open is decided in code, in each company's zone).
     */
    async browsePostFiltered(filters: SearchFilters, need: { hours: boolean; price: boolean }, cap: number, sort: BrowseSort = 'default'): Promise<PostFilterFacts[]> {
      const w = whereFilters(filters, 2);
      const params: unknown[] = [cap, ...w.params];
      const order = browseOrder(filters, sort, params);
      return db.query(
        `SELECT c.id, c.opening_hours, c.timezone, c.price_range FROM companies c
          WHERE ${w.sql}${need.hours ? ' AND c.opening_hours IS NOT NULL AND c.timezone IS NOT NULL' : ''}${need.price ? ' AND c.price_range IS NOT NULL' : ''}
          ORDER BY ${order} LIMIT $1`,
        params,
      );
    },

    /** The filtered directory without a query: featured, then verified, then by name (or by the sort asked for). */
    /** A page of the filtered directory in browse order, and how many companies pass the filters (`total` when known). */
    async browse(filters: SearchFilters, limit: number, offset: number, sort: BrowseSort = 'default', total?: number): Promise<{ rows: CompanyRecord[]; total: number }> {
      const w = whereFilters(filters, 3);
      const params: unknown[] = [limit, offset, ...w.params];
      const order = browseOrder(filters, sort, params);
      const rows = await db.query<CompanyRecord>(
        `SELECT ${COMPANY_COLUMNS.replace(/(^|,\s*)(\w)/g, '$1c.$2')} FROM companies c WHERE ${w.sql}
          ORDER BY ${order} LIMIT $1 OFFSET $2`,
        params,
      );
      if (total !== undefined) return { rows, total };
      const counted = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM companies c WHERE ${whereFilters(filters, 1).sql}`,
        whereFilters(filters, 1).params,
      );
      return { rows, total: counted[0]!.n };
    },
  };
}

export type SearchRepo = ReturnType<typeof createSearchRepo>;
