/**
 * The peer of issue 17: Orama (@orama/orama), a JavaScript engine with full-text (BM25), vector and
 * hybrid search that someone might embed instead of this service's search. Used only by
 * `npm run eval:search` and `npm run bench:search` (scripts/bench/bench-server.ts), never by the service.
 *
 * It gets what our search gets: the same companies, the same stored vectors, the same query vector
 * (embedded by the same provider), the same filters. Configuration, chosen to be fair to it:
 * - text fields and boosts mirror our keyword side's weights (name 2, industry/keywords/services 1.5,
 *   description 1, city 0.5);
 * - English stemming on (our keyword side stems with PostgreSQL's english configuration);
 * - exact filters are `enum` fields with the same normalisation our SQL applies (country as its
 *   ISO code, city lower-cased);
 * - vector similarity threshold = our `minSimilarity` (0.2), since Orama's default (0.8) would drop
 *   nearly every match of this model;
 * - hybrid weights: Orama's default 0.5/0.5 unless a caller passes others (the eval also reports the
 *   best of a small grid, so the peer is not judged on a default it might not ship with).
 */
import { create, insertMultiple, search, type AnyOrama, type Results } from '@orama/orama';
import { countryCode } from '../../../src/lib/countries.js';
import type { Db } from '../../../src/platform/db.js';

export interface PeerCompany {
  id: string;
  name: string;
  industry: string;
  description: string;
  keywords: string[];
  services: string[];
  category: string;
  country: string;
  city: string;
  service_type: string;
  is_verified: boolean;
  embedding: number[];
}

export interface PeerFilters {
  category?: string | undefined;
  country?: string | undefined;
  city?: string | undefined;
  service_type?: string | undefined;
  is_verified?: boolean | undefined;
}

export type PeerMode = 'hybrid' | 'fulltext' | 'vector';

export interface PeerHit {
  id: string;
  name: string;
  category: string;
  city: string;
  country: string;
  score: number;
}

const BOOST = { name: 2, industry: 1.5, keywords: 1.5, services: 1.5, description: 1, city: 0.5 } as const;

export interface OramaPeer {
  insert(companies: PeerCompany[]): Promise<void>;
  search(input: { q: string; vector: number[]; filters?: PeerFilters; limit?: number; mode?: PeerMode; textWeight?: number }): Promise<{ hits: PeerHit[]; total: number }>;
  size(): number;
}

export function createOramaPeer(dimensions: number, minSimilarity = 0.2): OramaPeer {
  const db: AnyOrama = create({
    schema: {
      key: 'string',
      name: 'string',
      industry: 'string',
      description: 'string',
      keywords: 'string[]',
      services: 'string[]',
      city: 'string',
      category: 'enum',
      country_code: 'enum',
      city_key: 'enum',
      service_type: 'enum',
      is_verified: 'boolean',
      embedding: `vector[${dimensions}]`,
    },
    // English stemming, as our keyword side has (PostgreSQL's english configuration); off by default in Orama.
    components: { tokenizer: { stemming: true, language: 'english' } },
  });
  let count = 0;
  return {
    async insert(companies) {
      await insertMultiple(
        db,
        companies.map((c) => ({
          key: c.id,
          name: c.name,
          industry: c.industry,
          description: c.description,
          keywords: c.keywords,
          services: c.services,
          city: c.city,
          category: c.category,
          country_code: countryCode(c.country) ?? '',
          city_key: c.city.toLowerCase(),
          service_type: c.service_type,
          is_verified: c.is_verified,
          embedding: c.embedding,
          // Kept for the answer, not indexed.
          country: c.country,
        })),
        1000,
      );
      count += companies.length;
    },
    async search({ q, vector, filters = {}, limit = 10, mode = 'hybrid', textWeight = 0.5 }) {
      const where: Record<string, unknown> = {};
      if (filters.category) where.category = { eq: filters.category };
      if (filters.country) where.country_code = { eq: countryCode(filters.country) ?? filters.country };
      if (filters.city) where.city_key = { eq: filters.city.toLowerCase() };
      if (filters.service_type) where.service_type = { eq: filters.service_type };
      if (filters.is_verified !== undefined) where.is_verified = filters.is_verified;
      const common = { limit, where: Object.keys(where).length ? where : undefined };
      const text = { term: q, properties: Object.keys(BOOST), boost: BOOST };
      const vec = { vector: { value: vector, property: 'embedding' }, similarity: minSimilarity };
      const params =
        mode === 'fulltext' ? { ...common, ...text }
      : mode === 'vector' ? { ...common, ...vec, mode: 'vector' as const }
        : { ...common, ...text, ...vec, mode: 'hybrid' as const, hybridWeights: { text: textWeight, vector: 1 - textWeight } };
      const res = (await search(db, params as never)) as Results<Record<string, unknown>>;
      return {
        total: res.count,
        hits: res.hits.map((h) => ({
          id: String(h.document.key),
          name: String(h.document.name),
          category: String(h.document.category),
          city: String(h.document.city),
          country: String(h.document.country ?? ''),
          score: h.score,
        })),
      };
    },
    size: () => count,
  };
}

/** Reads every company with its stored vector, in pages (100k rows with 512 floats do not fit one result comfortably). */
export async function* companiesForPeer(db: Db, page = 5000): AsyncGenerator<PeerCompany[]> {
  let after = '';
  for (;;) {
    const rows = await db.query<Omit<PeerCompany, 'embedding'> & { embedding: string }>(
      `SELECT id::text, name, coalesce(industry, '') AS industry, coalesce(description, '') AS description, keywords, services,
              category, coalesce(country, '') AS country, coalesce(city, '') AS city, coalesce(service_type, '') AS service_type,
              is_verified, embedding::text AS embedding
         FROM companies
        WHERE embedding IS NOT NULL AND id::text > $1
        ORDER BY id::text
        LIMIT ${page}`,
      [after],
    );
    if (rows.length === 0) return;
    yield rows.map((r) => ({ ...r, embedding: JSON.parse(r.embedding) as number[] }));
    after = rows[rows.length - 1]!.id;
  }
}
