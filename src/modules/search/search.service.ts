import { countryCode } from '../../lib/countries.js';
import { fuse, type FusionOptions, defaultFusion, type Candidate } from '../../lib/rank-fusion.js';
import { orTsQuery, queryTerms } from '../../lib/search-query.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { toPgVector } from '../../platform/embeddings/embeddings.js';
import type { CompaniesService } from '../companies/companies.service.js';
import { canonicalCategory } from '../companies/companies.service.js';
import type { CompanySummary } from '../companies/companies.schemas.js';
import type { SearchFilters, SearchRepo } from './search.repo.js';
import type { SearchQuery } from './search.schemas.js';

export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export interface SearchTuning {
  /** How many candidates each side contributes before fusion. */
  depth: number;
  keywordWeight: number;
  nameWeight: number;
  semanticWeight: number;
  /** Semantic candidates below this cosine similarity are not counted as matches. */
  minSimilarity: number;
  fusion: FusionOptions;
}

export const defaultTuning: SearchTuning = {
  depth: 200,
  keywordWeight: 1,
  nameWeight: 0.6,
  semanticWeight: 1,
  minSimilarity: 0.2,
  fusion: defaultFusion,
};

export interface SearchResult {
  companies: CompanySummary[];
  total_found: number;
  offset: number;
  limit: number;
  has_more: boolean;
  query: string;
}

export interface SearchServiceDeps {
  repo: SearchRepo;
  companies: CompaniesService;
  embeddings: EmbeddingProvider;
  tuning?: SearchTuning;
}

export function createSearchService({ repo, companies, embeddings, tuning = defaultTuning }: SearchServiceDeps) {
  function resolveFilters(q: SearchQuery): SearchFilters {
    const code = countryCode(q.country);
    return {
      category: q.category ? (canonicalCategory(q.category) ?? q.category) : undefined,
      countryCode: code,
      countryName: q.country && !code ? q.country : undefined,
      city: q.city?.trim() || undefined,
      industry: q.industry?.trim() || undefined,
      serviceType: q.service_type,
      verifiedOnly: q.is_verified === true,
    };
  }

  /** Ranked candidates for a text query (the whole fused list, best first). */
  async function rank(text: string, filters: SearchFilters, mode: SearchMode) {
    const terms = queryTerms(text);
    const tsq = orTsQuery(terms);
    const useKeyword = mode !== 'semantic';
    const useSemantic = mode !== 'keyword';
    const [kw, names, sem] = await Promise.all([
      useKeyword && tsq ? repo.keywordCandidates(tsq, filters, tuning.depth) : Promise.resolve([]),
      useKeyword && text.trim().length >= 3 ? repo.nameCandidates(text.trim().slice(0, 200), filters, 20) : Promise.resolve([]),
      useSemantic ? embeddings.embedQuery(text).then((v) => repo.semanticCandidates(toPgVector(v), filters, tuning.depth)) : Promise.resolve([]),
    ]);
    const maxKw = kw.reduce((m, c) => Math.max(m, c.score), 0) || 1;
    const keywordList: Candidate[] = kw.map((c) => ({ id: c.id, score: c.score / maxKw }));
    const semanticList: Candidate[] = sem.filter((c) => c.score >= tuning.minSimilarity);
    return fuse(
      [
        { source: 'keyword', weight: tuning.keywordWeight, candidates: keywordList },
        { source: 'keyword', weight: tuning.nameWeight, candidates: names },
        { source: 'semantic', weight: tuning.semanticWeight, candidates: semanticList },
      ],
      tuning.fusion,
    );
  }

  return {
    async search(q: SearchQuery, mode: SearchMode = 'hybrid'): Promise<SearchResult> {
      const limit = q.limit ?? 10;
      const offset = q.offset ?? 0;
      const text = (q.q ?? '').trim();
      const filters = resolveFilters(q);
      if (!text) {
        const { rows, total } = await repo.browse(filters, limit, offset);
        return {
          companies: rows.map((r) => companies.toSummary(r, 0, [])),
          total_found: total,
          offset,
          limit,
          has_more: offset + rows.length < total,
          query: '',
        };
      }
      const ranked = await rank(text, filters, mode);
      const page = ranked.slice(offset, offset + limit);
      const rows = await companies.findManyByIds(page.map((p) => p.id));
      const byId = new Map(rows.map((r) => [r.id, r]));
      const list = page.flatMap((p) => {
        const row = byId.get(p.id);
        return row ? [companies.toSummary(row, p.score, p.sources)] : [];
      });
      return { companies: list, total_found: ranked.length, offset, limit, has_more: offset + limit < ranked.length, query: text };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
