import type { FusionOptions } from '../../lib/rank-fusion.js';
import type { CompanySummary } from '../companies/companies.schemas.js';

/** The knobs of hybrid search (calibrated on the evaluation set: docs/search.md) and the shape of its answer. */

export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export interface SearchTuning {
  /** How many candidates each side contributes before fusion (keyword, semantic). */
  depth: number;
  semanticDepth: number;
  /** Filters leaving at most this many companies are ranked by an exact scan instead of HNSW. */
  exactScanBelow: number;
  /** BM25 saturation and length normalisation. */
  k1: number;
  b: number;
  /** Term-frequency weight of a name, industry/keywords, description and place occurrence. */
  fieldWeights: [number, number, number, number];
  /**
   * Candidate bound for the keyword side: lexemes in more companies than this are only scored,
   * not used to find candidates (unless no rarer term exists), and at most this many candidates
   * are scored. Keeps the latency tail flat on large directories.
   */
  keywordCap: number;
  /** Keyword scores are divided by max(best score, this × the query's attainable BM25 score). */
  keywordBoundShare: number;
  /** Query words of at least this length also match as prefixes (compounds: "zahnarzt" → "zahnarztpraxis"), weighted by prefixWeight. */
  prefixMinLength: number;
  prefixWeight: number;
  keywordWeight: number;
  nameWeight: number;
  /** Longest query (characters) that is also matched against company names by trigram similarity. */
  nameMaxLength: number;
  nameMaxWords: number;
  semanticWeight: number;
  /**
   * Semantic candidates below this cosine similarity are not counted as matches (0.2 before the
   * tags vector, which raised the similarity of unrelated profiles by a median 11 %).
   */
  minSimilarity: number;
  /** Smallest cosine spread the semantic min-max rescaling divides by. */
  minSemanticSpread: number;
  fusion: FusionOptions;
}

export const defaultTuning: SearchTuning = {
  depth: 200,
  semanticDepth: 100,
  exactScanBelow: 500,
  k1: 1.2,
  b: 0.75,
  fieldWeights: [3, 2, 1, 0.5],
  keywordCap: 400,
  keywordBoundShare: 0.5,
  prefixMinLength: 5,
  prefixWeight: 0.75,
  keywordWeight: 1,
  nameWeight: 0.6,
  nameMaxLength: 60,
  nameMaxWords: 2,
  semanticWeight: 1,
  minSimilarity: 0.22,
  minSemanticSpread: 0.15,
  fusion: { k: 60, scoreShare: 0.75 },
};

export interface SearchResult {
  companies: CompanySummary[];
  total_found: number;
  offset: number;
  limit: number;
  has_more: boolean;
  query: string;
  /** Words of the need that no profile in the directory uses, after misspelling repair. */
  unmatched_words?: string[];
  place?: { name: string; country_code: string; latitude: number; longitude: number; scope: 'city' | 'country'; source: 'near' | 'q'; matches_in_place: number } | null;
}
