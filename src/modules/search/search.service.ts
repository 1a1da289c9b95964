import { countryCode } from '../../lib/countries.js';
import { fuse, type FusionOptions, type Candidate } from '../../lib/rank-fusion.js';
import { queryTerms } from '../../lib/search-query.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { toPgVector } from '../../platform/embeddings/embeddings.js';
import type { CompaniesService } from '../companies/companies.service.js';
import { canonicalCategory } from '../companies/companies.service.js';
import type { CompanySummary } from '../companies/companies.schemas.js';
import type { CorpusStats, SearchFilters, SearchRepo } from './search.repo.js';
import type { SearchQuery } from './search.schemas.js';

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
  /** Semantic candidates below this cosine similarity are not counted as matches. */
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
  minSimilarity: 0.2,
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
}

export interface SearchServiceDeps {
  repo: SearchRepo;
  companies: CompaniesService;
  embeddings: EmbeddingProvider;
  tuning?: SearchTuning;
  /**
   * Called (fire-and-forget, after the answer is built) when a text search found nothing or only
   * weak matches: the insights module records it. Must not throw or block.
   */
  onWeakResult?: (event: WeakSearchEvent) => void;
}

/** A text search that the directory answered badly (audience insights). */
export interface WeakSearchEvent {
  query: string;
  category: string | undefined;
  /** The companies shown (best first) with their categories; empty when nothing matched. */
  companies: { id: string; category: string }[];
  /** Best raw cosine similarity of any company to the query (0 when there was no semantic side). */
  bestSimilarity: number;
}

/** Below this raw cosine similarity no company is a real match (measured on the demo directory: good matches are ≥ 0.5). */
export const WEAK_SIMILARITY = 0.45;

export function createSearchService({ repo, companies, embeddings, tuning = defaultTuning, onWeakResult }: SearchServiceDeps) {
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

  /** BM25F candidates: IDF from the term statistics, candidates found through the rarer terms. */
  async function keywordSide(terms: string[], filters: SearchFilters, stats: CorpusStats) {
    const lexemes = await repo.termLexemes(terms, tuning.prefixMinLength);
    const n = Math.max(stats.docs, 1);
    const present = lexemes.filter((l) => l.df > 0);
    if (present.length === 0) return { rows: [], bound: 1 };
    const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    // A prefix form counts for less than the word itself (it may be a different word).
    const scored = present.map((l) => ({ term: l.term, lexeme: l.lexeme, prefix: l.prefix, idf: idf(Math.min(l.df, n)) * (l.prefix ? tuning.prefixWeight : 1) }));
    const sorted = [...present].sort((a, b) => a.df - b.df);
    // Candidates come from the rarest lexemes while their summed document frequency fits the
    // budget (at least the rarest one): the most telling words find the candidates, the common
    // ones only add to their scores. Bounded work however large the directory is.
    const match: typeof sorted = [];
    let budget = 0;
    for (const l of sorted) {
      if (match.length > 0 && budget + l.df > tuning.keywordCap) break;
      match.push(l);
      budget += l.df;
    }
    // The best score any company could reach: every term at saturation with its best form.
    const bestIdf = new Map<number, number>();
    for (const l of scored) bestIdf.set(l.term, Math.max(bestIdf.get(l.term) ?? 0, l.idf));
    const bound = [...bestIdf.values()].reduce((a, b) => a + b, 0) * (tuning.k1 + 1);
    const rows = await repo.keywordCandidates(
      { match, scored, avgLength: Math.max(stats.lexemes / n, 1), k1: tuning.k1, b: tuning.b, fieldWeights: tuning.fieldWeights },
      filters,
      tuning.depth,
      tuning.keywordCap,
    );
    return { rows, bound };
  }

  /** Ranked candidates for a text query (the whole fused list, best first). */
  async function rank(text: string, filters: SearchFilters, mode: SearchMode, stats: CorpusStats) {
    const terms = queryTerms(text);
    const useKeyword = mode !== 'semantic';
    const useSemantic = mode !== 'keyword';
    const [kw, names, sem] = await Promise.all([
      useKeyword && terms.length ? keywordSide(terms, filters, stats) : Promise.resolve({ rows: [], bound: 1 }),
      // Names are looked up by short queries; trigram search over a long request is slow and finds nothing useful.
      useKeyword && text.length >= 3 && text.length <= tuning.nameMaxLength && text.split(/\s+/).length <= tuning.nameMaxWords ? repo.nameCandidates(text.trim().slice(0, 200), filters, 20) : Promise.resolve([]),
      useSemantic ? embeddings.embedQuery(text).then((v) => repo.semanticCandidates(toPgVector(v), filters, tuning.semanticDepth, tuning.exactScanBelow)) : Promise.resolve([]),
    ]);
    // Keyword scores are scaled by max(best score, share × attainable bound): a query whose best
    // match covers only a weak part of it keeps low keyword scores instead of a full 1.
    const maxKw = Math.max(kw.rows.reduce((m, c) => Math.max(m, c.score), 0), tuning.keywordBoundShare * kw.bound) || 1;
    const keywordList: Candidate[] = kw.rows.map((c) => ({ id: c.id, score: Math.min(1, c.score / maxKw) }));
    // Cosine similarities of USE-lite sit in a narrow band: rescale them to [0, 1] over this
    // query's candidates (min-max), as the keyword scores are scaled by their best, so the
    // score-aware part of the fusion sees comparable spreads on both sides.
    const semKept = sem.filter((c) => c.score >= tuning.minSimilarity);
    const semMax = semKept.reduce((m, c) => Math.max(m, c.score), 0);
    const semMin = semKept.reduce((m, c) => Math.min(m, c.score), semMax);
    // A floor under the spread: when every candidate is about equally similar (near-duplicate
    // profiles, a query the model cannot tell apart), the semantic side has nothing to say and
    // must not hand its top candidate a full score that outweighs an exact keyword match.
    const semSpread = Math.max(semMax - semMin, tuning.minSemanticSpread);
    const semanticList: Candidate[] = semKept.map((c) => ({ id: c.id, score: Math.min(1, (c.score - semMin) / semSpread) }));
    const fused = fuse(
      [
        { source: 'keyword', weight: tuning.keywordWeight, candidates: keywordList },
        { source: 'keyword', weight: tuning.nameWeight, candidates: names },
        { source: 'semantic', weight: tuning.semanticWeight, candidates: semanticList },
      ],
      tuning.fusion,
    );
    return Object.assign(fused, { bestSimilarity: sem.reduce((m, c) => Math.max(m, c.score), 0) });
  }

  /**
   * Answers of recent searches, valid while no company was written: every company write bumps
   * search_corpus_stats.version (a statement trigger), so one primary-key read decides whether a
   * repeated search (same words, filters, page) can skip embedding, both searches and the row
   * fetch. Correct across processes and instances, since the version lives in the database.
   */
  const answers = new Map<string, { version: number; result: SearchResult; bestSimilarity: number }>();
  const ANSWER_CACHE_SIZE = 5000;

  async function answer(q: SearchQuery, mode: SearchMode): Promise<{ result: SearchResult; bestSimilarity: number }> {
    const limit = q.limit ?? 10;
    const offset = q.offset ?? 0;
    const text = (q.q ?? '').trim();
    const filters = resolveFilters(q);
    const key = JSON.stringify([mode, text.toLowerCase().replace(/\s+/g, ' '), filters, limit, offset]);
    // One read serves both the cache check and the BM25 corpus size of a fresh computation.
    const stats = await repo.corpusStats();
    const { version } = stats;
    const hit = answers.get(key);
    if (hit && hit.version === version) {
      answers.delete(key);
      answers.set(key, hit);
      return hit;
    }
    const fresh = await compute(text, filters, mode, limit, offset, stats);
    answers.delete(key);
    answers.set(key, { version, ...fresh });
    if (answers.size > ANSWER_CACHE_SIZE) answers.delete(answers.keys().next().value as string);
    return fresh;
  }

  async function compute(text: string, filters: SearchFilters, mode: SearchMode, limit: number, offset: number, stats: CorpusStats): Promise<{ result: SearchResult; bestSimilarity: number }> {
    if (!text) {
      const { rows, total } = await repo.browse(filters, limit, offset);
      const result = {
        companies: rows.map((r) => companies.toSummary(r, 0, [])),
        total_found: total,
        offset,
        limit,
        has_more: offset + rows.length < total,
        query: '',
      };
      return { result, bestSimilarity: 0 };
    }
    const ranked = await rank(text, filters, mode, stats);
    const page = ranked.slice(offset, offset + limit);
    const rows = await companies.findManyByIds(page.map((p) => p.id));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const list = page.flatMap((p) => {
      const row = byId.get(p.id);
      return row ? [companies.toSummary(row, p.score, p.sources)] : [];
    });
    const result = { companies: list, total_found: ranked.length, offset, limit, has_more: offset + limit < ranked.length, query: text };
    return { result, bestSimilarity: ranked.bestSimilarity };
  }

  /** The search plus its best raw similarity; `report` lets weak results reach onWeakResult. */
  async function run(q: SearchQuery, mode: SearchMode, report: boolean): Promise<{ result: SearchResult; bestSimilarity: number }> {
    const { result, bestSimilarity } = await answer(q, mode);
    const list = result.companies;
    if (onWeakResult && report && result.query && result.offset === 0 && (list.length === 0 || bestSimilarity < WEAK_SIMILARITY)) {
      const event = { query: result.query, category: resolveFilters(q).category, companies: list.map((c) => ({ id: c.id, category: c.category })), bestSimilarity };
      // Off the request path: the answer never waits for insight recording.
      setImmediate(() => onWeakResult(event));
    }
    // Callers get their own envelope and list: the cached answer must not be changed through them.
    return { result: { ...result, companies: [...list] }, bestSimilarity };
  }

  return {
    search: async (q: SearchQuery, mode: SearchMode = 'hybrid'): Promise<SearchResult> => (await run(q, mode, true)).result,
    /** The same search with its best raw similarity and without the weak-result hook (ask judges and records its own questions). */
    searchWithSignal: (q: SearchQuery, mode: SearchMode = 'hybrid') => run(q, mode, false),
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
