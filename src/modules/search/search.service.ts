import { approximateBytes, BoundedCache } from '../../lib/bounded-cache.js';
import { searchAnswers, timedStage } from '../../platform/outcomes.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import type { CompaniesService } from '../companies/companies.service.js';
import { defaultRelevance, relevanceOf, withRelativeCut, type MatchEvidence, type Relevance, type RelevanceThresholds } from './relevance.js';
import { headTerm } from '../../lib/search-query.js';
import { isPostFiltered, passes, postFilterOf, type PostFilter } from './search.post-filter.js';
import type { BrowseSort, CorpusStats, PostFilterFacts, SearchFilters, SearchRepo, SearchSort } from './search.repo.js';
import type { SearchQuery } from './search.schemas.js';
import { distanceTo, placeFilter, resolveFilters, resolvePlaceContext, withPlace, withPlaceBonus, type CandidateFacts, type PlaceContext } from './search.places.js';
import { mergeEvidence, sortStable } from './search.ranking.js';
import { createRetrieval, type SearchIndexPort } from './search.retrieval.js';
import { defaultTuning, type SearchMode, type SearchResult, type SearchTuning } from './search.tuning.js';

export interface SearchServiceDeps {
  repo: SearchRepo;
  companies: CompaniesService;
  embeddings: EmbeddingProvider;
  tuning?: SearchTuning;
  /**
   * The in-process search index (vector-sync.ts): answers each side when it can,
   * otherwise (loading, building, a filter it does not evaluate) the database does.
   */
  index?: SearchIndexPort;
  /**
   * Called (fire-and-forget, after the answer is built) when a text search found nothing or only
   * weak matches: the insights module records it. Must not throw or block.
   */
  onWeakResult?: (event: WeakSearchEvent) => void;
  /** Ratings from published reviews (the reviews module's read port): results carry them, min_rating and sort=rating read them. */
  ratingsOf?: (companyIds: string[]) => Promise<Map<string, { average: number | null; count: number }>>;
  /**
   * Read replicas (platform/read-pool.ts), when configured: `repo` (and so the index's catch-up) reads through the pool.
   * The corpus version is read on the primary (`primaryStats`, one primary-key read), and a computed answer runs pinned
   * to a replica that has replayed that version, else on the primary: no answer is older than a write that committed
   * before the search began, whatever the replicas' lag.
   */
  reads?: { primaryStats(): Promise<CorpusStats>; pinned<T>(fresh: () => Promise<boolean>, fn: () => Promise<T>): Promise<T> };
  /** Relevance thresholds (relevance.ts); calibration scripts pass their own. */
  relevance?: RelevanceThresholds;
  /** Memory the answers of recent searches may take (bytes, estimated: lib/bounded-cache.ts); 16 MB unless said. */
  answerCacheBytes?: number;
  /** Calibration and evaluation scripts: every ranked candidate of a computed text search with its evidence. */
  explain?: (query: string, candidates: { id: string; score: number; evidence: MatchEvidence; relevance: Relevance }[]) => void;
}

/** Candidates of a second ranking that the first lacks, appended (with their similarities). */
function joined<R extends { id: string }>(ranked: R[], more: R[] & { similarity: Map<string, number> }, similarity: Map<string, number>): R[] {
  const seen = new Set(ranked.map((r) => r.id));
  for (const [id, cos] of more.similarity) if (!similarity.has(id)) similarity.set(id, cos);
  return [...ranked, ...more.filter((r) => !seen.has(r.id))];
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

/**
 * Below this raw cosine similarity no company is a real match (measured on the demo directory: good matches
 * are ≥ 0.5; 0.45 before the tags vector, which raised the best similarity of the eval queries by a median 5 %).
 */
export const WEAK_SIMILARITY = 0.47;

/**
 * Hybrid search: query understanding (search.places.ts), retrieval from the index or the database
 * (search.retrieval.ts), ranking (search.ranking.ts, relevance.ts) and the answer cache, here.
 */
export function createSearchService(deps: SearchServiceDeps) {
  const { repo, companies, embeddings, tuning = defaultTuning, index, onWeakResult, ratingsOf, reads, relevance: thresholds = defaultRelevance, explain, answerCacheBytes = 16 * 1024 * 1024 } = deps;
  const { rank, evidence: evidenceFor } = createRetrieval({ repo, embeddings, tuning, index });

  /**
   * Answers of recent searches, valid while no company was written: every company write bumps
   * search_corpus_stats.version (a statement trigger), so one primary-key read decides whether a
   * repeated search (same words, filters, page) can skip embedding, both searches and the row
   * fetch. Correct across processes and instances, since the version lives in the database.
   */
  const answers = new BoundedCache<string, { version: number; result: SearchResult; bestSimilarity: number }>(answerCacheBytes);

  /**
   * The corpus statistics. On PGlite the companies change generation is exact (every write moves it before
   * the write returns, and the version moves with it: the same trigger), so they are read once per
   * generation and a repeated search needs no database statement at all.
   */
  let statsCache: { generation: number; stats: CorpusStats } | undefined;
  async function corpusStats(): Promise<CorpusStats> {
    const generation = companies.changeGeneration();
    if (generation !== undefined && statsCache?.generation === generation) return statsCache.stats;
    const stats = await (reads ? reads.primaryStats() : repo.corpusStats());
    if (generation !== undefined && companies.changeGeneration() === generation) statsCache = { generation, stats };
    return stats;
  }
  /** Most companies with hours or prices that one open_now / open_at / max_price browse reads: bounded work on any directory. */
  const POST_FILTER_CAP = 5000;

  async function answer(q: SearchQuery, mode: SearchMode): Promise<{ result: SearchResult; bestSimilarity: number }> {
    const out = await cachedAnswer(q, mode);
    // Ratings change with reviews, not with the corpus version the cache is keyed by: read for every answer.
    return { ...out, result: { ...out.result, companies: await withRatings(out.result.companies) } };
  }

  async function cachedAnswer(q: SearchQuery, mode: SearchMode): Promise<{ result: SearchResult; bestSimilarity: number }> {
    const limit = q.limit ?? 10;
    const offset = q.offset ?? 0;
    const { ctx, text } = resolvePlaceContext(q);
    const filters = resolveFilters(q, ctx);
    const sort = q.sort ?? 'relevance';
    const post = postFilterOf(q);
    // Answers that depend on ratings are not kept: a published review does not change the corpus version.
    const cacheable = post.minRating === undefined && sort !== 'rating';
    const key = JSON.stringify([mode, text.toLowerCase().replace(/\s+/g, ' '), filters, ctx, sort, limit, offset, q.include_weak === true, post.openAt?.getTime() ?? null, post.maxPrice ?? null]);
    // One read serves both the cache check and the BM25 corpus size of a fresh computation.
    const stats = await timedStage('stats', corpusStats);
    const { version } = stats;
    const hit = cacheable ? answers.get(key) : undefined;
    searchAnswers.inc({ outcome: hit && hit.version === version ? 'cached' : 'computed' });
    if (hit && hit.version === version) return hit;
    const computeAnswer = () => compute(text, filters, mode, limit, offset, stats, ctx, sort, q.include_weak === true, post);
    // Every statement of the answer on one server that holds at least this version (the answer cache is keyed by it).
    const fresh = await timedStage('total', () => (reads ? reads.pinned(async () => (await repo.corpusStats()).version >= version, computeAnswer) : computeAnswer()));
    if (!cacheable) return fresh;
    answers.set(key, { version, ...fresh }, approximateBytes(fresh.result) + 2 * key.length);
    return fresh;
  }

  async function compute(
    text: string, filters: SearchFilters, mode: SearchMode, limit: number, offset: number, stats: CorpusStats,
    ctx: PlaceContext | undefined, sort: SearchSort, includeWeak: boolean, post: PostFilter = {},
  ): Promise<{ result: SearchResult; bestSimilarity: number }> {
    if (!text && (isPostFiltered(post) || sort === 'rating')) return browsePostFiltered(filters, limit, offset, ctx, sort, post);
    if (!text) {
      const browseSort: BrowseSort = sort === 'relevance' || sort === 'rating' ? 'default' : sort;
      // The total from the in-process index when it holds the whole directory: a count(*) reads every matching row
      // (about 200 ms for a category in one country at 1M companies on PostgreSQL).
      const known = index ? await index.count(filters, stats.version, stats.docs) : undefined;
      const { rows, total } = await repo.browse(filters, limit, offset, browseSort, known);
      const result = {
        companies: rows.map((r) => ({ ...companies.toSummary(r, 0, []), relevance: null })),
        total_found: total,
        offset,
        limit,
        has_more: offset + rows.length < total,
        query: '',
      };
      return { result: withPlace(result, ctx, new Map(rows.map((r) => [r.id, r]))), bestSimilarity: 0 };
    }
    // The whole text ranks the directory (a place's name in a profile is evidence too: judged place
    // queries score 0.969 nDCG@10 so, 0.766 with the place words removed). Need first, then place: with a
    // place named in the words, the verdict judges the words without its name, which every company located
    // there matches (a tax adviser in Munich is no dentist), over the whole directory and there; the companies
    // there that match the need join the candidates, even when the directory holds stronger matches elsewhere.
    // (A fourth ranking, of the whole text there, added nothing on the judged place queries: nDCG@10 0.860
    // either way, for a quarter of a place query's time.) The rankings run together.
    const placeNeed = ctx?.source === 'q' && ctx.rest ? ctx : undefined;
    const [main, needAll, needHere] = await Promise.all([
      rank(text, filters, mode, stats),
      // Over the whole directory the need's words only judge candidates (their evidence): their own ranking is not used.
      placeNeed ? evidenceFor(placeNeed.rest!, filters, mode, stats) : undefined,
      placeNeed ? rank(placeNeed.rest!, { ...filters, ...placeFilter(placeNeed, false) }, mode, stats) : undefined,
    ]);
    let ranked: { id: string; score: number; sources: ('semantic' | 'keyword')[]; relevance?: Relevance }[] = main;
    const { bestSimilarity } = main;
    const similarity = new Map(main.similarity);
    let verdictEvidence = main.evidence;
    let need: { typical: number; terms: string[]; unmatched: string[] } = main;
    if (needAll && needHere) {
      ranked = joined(ranked, needHere, similarity);
      verdictEvidence = mergeEvidence(needAll.evidence, needHere.evidence);
      need = needAll;
    } else if (ctx?.source === 'q') {
      // Only a place ("Munich"): the companies located there join the candidates.
      const local = await rank(text, { ...filters, ...placeFilter(ctx, false) }, mode, stats);
      ranked = joined(ranked, local, similarity);
      verdictEvidence = new Map([...local.evidence, ...main.evidence]);
    }
    // The verdict of each candidate from its own evidence; weak ones are left out unless asked for.
    const none: MatchEvidence = { cosine: null, keyword: 0, name: 0 };
    // Short requests only: a long one's stray words ("my grandmother came home") say nothing about the need.
    const unmatched = need.terms.length <= thresholds.headMaxWords ? need.unmatched : [];
    const head = headTerm(need.terms);
    const headUnmatched = head !== undefined && unmatched.includes(head);
    const baseline = { typical: need.typical, best: [...verdictEvidence.values()].reduce((m, e) => Math.max(m, e.cosine ?? 0), 0), headUnmatched };
    let judged = ranked.map((r) => ({ ...r, relevance: relevanceOf(verdictEvidence.get(r.id) ?? none, baseline, thresholds) }));
    // The place first, then the cut against the best: a partial match located in the named place is measured with
    // its place (it may rank first there), not against strong matches elsewhere.
    let facts = ctx ? await candidateFacts(ranked.map((r) => r.id), true, sort, stats.version) : new Map<string, CandidateFacts & { name?: string; created_at?: Date }>();
    if (ctx) judged = withPlaceBonus(judged, ctx, facts, { similarity, bestSimilarity, floor: tuning.minSimilarity });
    ranked = withRelativeCut(judged, thresholds);
    explain?.(text, ranked.map((r) => ({ id: r.id, score: r.score, evidence: verdictEvidence.get(r.id) ?? none, relevance: r.relevance! })));
    if (!includeWeak) ranked = ranked.filter((r) => r.relevance !== 'weak');
    const { facts: postFacts, ratings } = await postFilterInputs(ranked.map((r) => r.id), post, sort);
    if (isPostFiltered(post)) ranked = ranked.filter((r) => passes(postFacts.get(r.id), post, ratings.get(r.id)?.average ?? null));
    // Without a place, a sort by name or age reads only the candidates that are kept.
    if (!ctx) facts = await candidateFacts(ranked.map((r) => r.id), false, sort, stats.version);
    if (sort === 'rating') ranked = sortStable(ranked, (r) => -(ratings.get(r.id)?.average ?? -Infinity));
    else if (sort !== 'relevance') {
      ranked = sortStable(ranked, (r) => {
        const f = facts.get(r.id);
        if (!f) return Infinity;
        if (sort === 'distance') return ctx ? (distanceTo(ctx, f) ?? Infinity) : Infinity;
        if (sort === 'newest') return -new Date(f.created_at ?? 0).getTime();
        return (f.name ?? '').toLowerCase();
      });
    }
    const page = ranked.slice(offset, offset + limit);
    const rows = await timedStage('rows', () => companies.readManyByIds(page.map((p) => p.id)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const list = page.flatMap((p) => {
      const row = byId.get(p.id);
      return row ? [{ ...companies.toSummary(row, p.score, p.sources), relevance: p.relevance ?? null }] : [];
    });
    const result = { companies: list, total_found: ranked.length, offset, limit, has_more: offset + limit < ranked.length, query: text, ...(unmatched.length ? { unmatched_words: unmatched } : {}) };
    return { result: withPlace(result, ctx, ctx ? new Map(rows.map((r) => [r.id, r])) : facts), bestSimilarity };
  }

  /**
   * What the place ranking and the sorts read of each candidate: for a place alone, the index's columns when it
   * holds this version (no statement); the database for the rest, and for sorts by name or age.
   */
  async function candidateFacts(ids: string[], place: boolean, sort: SearchSort, version: number): Promise<Map<string, CandidateFacts & { name?: string; created_at?: Date }>> {
    const facts = new Map<string, CandidateFacts & { name?: string; created_at?: Date }>();
    const bySort = sort !== 'relevance' && sort !== 'rating' && sort !== 'distance';
    if (!place && !bySort) return facts;
    if (!bySort && index) for (const [id, f] of (await index.placeFacts(ids, version)) ?? []) facts.set(id, f);
    const missing = ids.filter((id) => !facts.has(id));
    for (const f of await repo.candidateFacts(missing)) facts.set(f.id, f);
    return facts;
  }

  type Rated = { average: number | null; count: number };
  const ratingsFor = async (ids: string[]): Promise<Map<string, Rated>> => (ratingsOf && ids.length ? ratingsOf(ids) : new Map());

  /** What the post-filters and sort=rating read, each only when asked for: hours and prices, ratings. */
  async function postFilterInputs(ids: string[], post: PostFilter, sort: SearchSort): Promise<{ facts: Map<string, PostFilterFacts>; ratings: Map<string, Rated> }> {
    const [rows, ratings] = await Promise.all([
      post.openAt || post.maxPrice ? repo.postFilterFacts(ids) : Promise.resolve([]),
      post.minRating !== undefined || sort === 'rating' ? ratingsFor(ids) : Promise.resolve(new Map<string, Rated>()),
    ]);
    return { facts: new Map(rows.map((f) => [f.id, f])), ratings };
  }

  /** Each listed company's rating (published reviews): one read for the page; nothing added without the reviews port. */
  async function withRatings<C extends { id: string }>(list: C[]): Promise<(C & { rating?: Rated })[]> {
    if (!ratingsOf) return list;
    const ratings = await ratingsFor(list.map((c) => c.id));
    return list.map((c) => {
      const r = ratings.get(c.id);
      return { ...c, rating: { average: r?.average ?? null, count: r?.count ?? 0 } };
    });
  }

  /**
   * Browsing with open_now / open_at or max_price: the companies with hours (or prices) that the filters keep (in
   * browse order, at most POST_FILTER_CAP), those that pass in code, paged.
   */
  async function browsePostFiltered(
    filters: SearchFilters, limit: number, offset: number, ctx: PlaceContext | undefined, sort: SearchSort, post: PostFilter,
  ): Promise<{ result: SearchResult; bestSimilarity: number }> {
    const candidates = await repo.browsePostFiltered(filters, { hours: Boolean(post.openAt), price: Boolean(post.maxPrice) }, POST_FILTER_CAP, sort === 'relevance' || sort === 'rating' ? 'default' : sort);
    const ratings = post.minRating !== undefined || sort === 'rating' ? await ratingsFor(candidates.map((f) => f.id)) : new Map<string, Rated>();
    let kept = candidates.filter((f) => passes(f, post, ratings.get(f.id)?.average ?? null));
    if (sort === 'rating') kept = sortStable(kept, (f) => -(ratings.get(f.id)?.average ?? -Infinity));
    const open = kept.map((f) => f.id);
    const rows = await companies.readManyByIds(open.slice(offset, offset + limit));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const page = open.slice(offset, offset + limit).flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    const result = {
      companies: page.map((r) => ({ ...companies.toSummary(r, 0, []), relevance: null })),
      total_found: open.length,
      offset,
      limit,
      has_more: offset + page.length < open.length,
      query: '',
    };
    return { result: withPlace(result, ctx, byId), bestSimilarity: 0 };
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
    /** The in-process vector index's state (health checks, benchmarks); undefined when it is disabled. */
    vectorIndexStatus() {
      return index?.status();
    },

    search: async (q: SearchQuery, mode: SearchMode = 'hybrid'): Promise<SearchResult> => (await run(q, mode, true)).result,
    /** The same search with its best raw similarity and without the weak-result hook (ask judges and records its own questions). */
    searchWithSignal: (q: SearchQuery, mode: SearchMode = 'hybrid') => run(q, mode, false),
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
