import { closestOption } from '../../lib/closest.js';
import { countryCode, countryNames } from '../../lib/countries.js';
import { distanceKm, findPlaceInText, resolvePlace, type Place } from '../../lib/geo.js';
import { invalid } from '../../platform/errors.js';
import { searchAnswers, searchStageSeconds, timedStage } from '../../platform/outcomes.js';
import { fuse, type FusionOptions, type Candidate } from '../../lib/rank-fusion.js';
import { queryTerms } from '../../lib/search-query.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { toPgVector } from '../../platform/embeddings/embeddings.js';
import type { CompaniesService } from '../companies/companies.service.js';
import { canonicalCategory } from '../companies/companies.service.js';
import { CATEGORIES } from '../companies/companies.schemas.js';
import type { CompanySummary } from '../companies/companies.schemas.js';
import { compareBytes } from '../../lib/ts-rank.js';
import type { BrowseSort, CorpusStats, QueryLexeme, ScoredId, SearchFilters, SearchRepo } from './search.repo.js';
import type { KeywordQuery, TermForm } from './keyword-index.js';
import type { SearchQuery } from './search.schemas.js';
import type { VectorSearch } from './vector-sync.js';
import { bundledTypicalProfile, defaultRelevance, relevanceOf, type MatchEvidence, type Relevance, type RelevanceThresholds } from './relevance.js';

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
  place?: { name: string; country_code: string; latitude: number; longitude: number; scope: 'city' | 'country'; source: 'near' | 'q'; matches_in_place: number } | null;
}

/** How far a local company may be from a searched place when the caller does not say (km). */
export const DEFAULT_RADIUS_KM = 50;

/** A place the search is about: from `near` (a filter) or named in q (a ranking preference). */
interface PlaceContext {
  place: Place;
  source: 'near' | 'q';
  radiusKm: number;
  includeRemote: boolean;
  /** For a place named in q: the words without it (ranks the companies located there). */
  rest?: string;
}

/** How a company fits a place: located there, serving it from afar (remote, hybrid, nationwide), elsewhere, or unknown. */
type PlaceFit = 'in' | 'serves' | 'far' | 'unknown';

/**
 * What the searched place (named in q, or given as `near`) adds to a company's relevance (scores stay in [0, 1]: divided by 1 +
 * the largest bonus). A bonus, not a factor: among companies that match the words about as well,
 * the one there comes first and remote or nationwide providers next, but a company that matches
 * only the place never outranks one that matches the need (a tax adviser in Munich is no
 * answer to "a dentist in Munich"). When nothing fits there, the best matches elsewhere stay
 * listed, nearest information attached (distance_km). Located there +0.35: it was 0.25 until the
 * tags vector (companies/profile-vector.ts) lifted the semantic score of companies whose tags repeat
 * the query's words, wherever they are; our place queries (seed/eval/queries-places.jsonl) then
 * scored 0.928 nDCG@10 at 0.25 and 1.000 at 0.35 and at 0.4.
 */
const PLACE_FIT_BONUS: Record<PlaceFit, number> = { in: 0.35, serves: 0.05, unknown: 0, far: 0 };
const MAX_PLACE_BONUS = 0.35;
const COUNTRY_IN_BONUS = 0.15;

interface CandidateFacts {
  latitude: number | null;
  longitude: number | null;
  service_type: string;
  country_code: string;
}

function distanceTo(ctx: PlaceContext, c: { latitude: number | null; longitude: number | null }): number | null {
  // A country has no centre that a distance could honestly be measured from.
  if (ctx.place.scope === 'country') return null;
  return c.latitude === null || c.longitude === null ? null : distanceKm(ctx.place, { latitude: c.latitude, longitude: c.longitude });
}

function placeFit(ctx: PlaceContext, c: CandidateFacts): PlaceFit {
  if (ctx.place.scope === 'country') {
    if (c.country_code === ctx.place.countryCode) return 'in';
    return c.service_type === 'remote' || c.service_type === 'hybrid' ? 'serves' : 'far';
  }
  const d = distanceTo(ctx, c);
  if (d !== null && d <= ctx.radiusKm) return 'in';
  if (c.service_type === 'remote' || c.service_type === 'hybrid') return 'serves';
  if (c.service_type === 'nationwide' && (!ctx.place.countryCode || c.country_code === ctx.place.countryCode)) return 'serves';
  return d === null ? 'unknown' : 'far';
}

export interface SearchServiceDeps {
  repo: SearchRepo;
  companies: CompaniesService;
  embeddings: EmbeddingProvider;
  tuning?: SearchTuning;
  /**
   * The in-process vector index (vector-sync.ts): answers the semantic side when it can,
   * otherwise (loading, building, a filter it does not evaluate) the database does.
   */
  vectors?: Pick<VectorSearch, 'candidates' | 'names' | 'keywords' | 'status'>;
  /**
   * Called (fire-and-forget, after the answer is built) when a text search found nothing or only
   * weak matches: the insights module records it. Must not throw or block.
   */
  onWeakResult?: (event: WeakSearchEvent) => void;
  /** Relevance thresholds (relevance.ts); calibration scripts pass their own. */
  relevance?: RelevanceThresholds;
  /** Calibration and evaluation scripts: every ranked candidate of a computed text search with its evidence. */
  explain?: (query: string, candidates: { id: string; score: number; evidence: MatchEvidence; relevance: Relevance }[]) => void;
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

export function createSearchService({ repo, companies, embeddings, tuning = defaultTuning, vectors, onWeakResult, relevance: thresholds = defaultRelevance, explain }: SearchServiceDeps) {
  /** The place of a search (from near, or named in the text) and the text to rank. */
  function resolvePlaceContext(q: SearchQuery): { ctx: PlaceContext | undefined; text: string } {
    const text = (q.q ?? '').trim();
    if (q.near !== undefined) {
      const place = resolvePlace(q.near);
      if (!place) {
        const country = countryCode(q.near);
        throw invalid(['query', 'near'], country
          ? `"${q.near}" is a country: filter with country=${country} (near takes a city, optionally with its country, e.g. "Portland, US", or "lat,lng")`
          : `Unknown place "${q.near}": give a city (optionally with its country, e.g. "Portland, US") or "lat,lng" in decimal degrees`, q.near, 'value_error');
      }
      return { ctx: { place, source: 'near', radiusKm: q.radius_km ?? DEFAULT_RADIUS_KM, includeRemote: q.include_remote ?? true }, text };
    }
    if (q.radius_km !== undefined) throw invalid(['query', 'radius_km'], 'radius_km needs near (the place to measure from)', q.radius_km, 'value_error');
    // A place named in the words ranks by it, unless the caller already filtered by city or country.
    const named = text && !q.city && !q.country ? findPlaceInText(text) : undefined;
    if (named) return { ctx: { place: named.place, source: 'q', radiusKm: DEFAULT_RADIUS_KM, includeRemote: true, rest: named.rest }, text };
    if (q.sort === 'distance') throw invalid(['query', 'sort'], 'sort=distance needs near (or a place named in q)', q.sort, 'value_error');
    return { ctx: undefined, text };
  }

  /** The companies of a place named in q: within the radius of a city, or in a country (remote ones are ranked, not filtered, there). */
  function placeFilter(ctx: PlaceContext, includeRemote: boolean): Partial<SearchFilters> {
    return ctx.place.scope === 'country' ? { countryCode: ctx.place.countryCode } : { near: nearFilter(ctx, includeRemote) };
  }

  function nearFilter(ctx: PlaceContext, includeRemote: boolean): NonNullable<SearchFilters['near']> {
    return { latitude: ctx.place.latitude, longitude: ctx.place.longitude, radiusKm: ctx.radiusKm, countryCode: ctx.place.countryCode, includeRemote };
  }

  /** Enumerated filters accept only known values: an unknown one is a 422 that lists them, never a silent empty page. */
  function resolveFilters(q: SearchQuery, ctx?: PlaceContext): SearchFilters {
    const code = countryCode(q.country);
    if (q.category !== undefined && !canonicalCategory(q.category)) {
      const near = closestOption(q.category, CATEGORIES);
      throw invalid(['query', 'category'], `Unknown category "${q.category}"${near ? `: did you mean "${near}"?` : '.'} Use one of: ${CATEGORIES.join('; ')}`, q.category, 'enum');
    }
    if (q.country !== undefined && q.country.trim() && !code) {
      const near = closestOption(q.country, countryNames());
      throw invalid(['query', 'country'], `Unknown country "${q.country}"${near ? `: did you mean "${near}"?` : '.'} Give an English country name (Germany) or an ISO 3166 code (DE or DEU)`, q.country, 'enum');
    }
    return {
      updatedSince: q.updated_since,
      near: ctx?.source === 'near' ? nearFilter(ctx, ctx.includeRemote) : undefined,
      category: q.category ? (canonicalCategory(q.category) ?? q.category) : undefined,
      countryCode: code,
      countryName: q.country && !code ? q.country : undefined,
      city: q.city?.trim() || undefined,
      industry: q.industry?.trim() || undefined,
      serviceType: q.service_type,
      verifiedOnly: q.is_verified === true,
    };
  }

  /**
   * The BM25F plan of a query from its lexemes and their document frequencies: each form's IDF, the rarer
   * lexemes that find the candidates, and the best score any company could reach. Undefined: no lexeme occurs.
   */
  function keywordPlan(lexemes: QueryLexeme[], stats: CorpusStats): { query: KeywordQuery; bound: number; needBound: number } | undefined {
    const n = Math.max(stats.docs, 1);
    // One order for both paths (database and in-process index): term, then lexeme bytes, the word before its prefix form.
    const present = lexemes.filter((l) => l.df > 0).sort((a, b) => a.term - b.term || compareBytes(a.lexeme, b.lexeme) || Number(a.prefix) - Number(b.prefix));
    if (present.length === 0) return undefined;
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
    // The relevance verdict measures coverage of the whole need: a word no company uses ("calligraphy")
    // still counts, at the weight of the rarest word, so matching the rest of the words is not a match.
    const absent = new Set(lexemes.filter((l) => !l.prefix && !bestIdf.has(l.term)).map((l) => l.term)).size;
    const needBound = bound + absent * idf(0) * (tuning.k1 + 1);
    return { query: { match, scored, avgLength: Math.max(stats.lexemes / n, 1), k1: tuning.k1, b: tuning.b }, bound, needBound };
  }

  /** Forms of query terms (stems, simple forms, prefix forms): fixed by the database's text search configuration, so kept. */
  const termFormsCache = new Map<string, { lexeme: string; prefix: boolean }[]>();
  const TERM_FORMS_CACHE_SIZE = 50_000;

  async function termForms(terms: string[]): Promise<TermForm[]> {
    const known = new Map<string, { lexeme: string; prefix: boolean }[]>();
    for (const t of terms) {
      const hit = termFormsCache.get(t);
      if (hit) known.set(t, hit);
    }
    const missing = [...new Set(terms.filter((t) => !known.has(t)))];
    if (missing.length > 0) {
      for (const t of missing) known.set(t, []);
      for (const r of await repo.termForms(missing, tuning.prefixMinLength)) known.get(missing[r.term]!)!.push({ lexeme: r.lexeme, prefix: r.prefix });
      for (const t of missing) {
        termFormsCache.set(t, known.get(t)!);
        if (termFormsCache.size > TERM_FORMS_CACHE_SIZE) termFormsCache.delete(termFormsCache.keys().next().value as string);
      }
    }
    return terms.flatMap((t, term) => known.get(t)!.map((f) => ({ term, ...f })));
  }

  const noKeywords = { rows: [] as ScoredId[], bound: 1, needBound: 1 };

  /**
   * BM25F candidates: IDF from the term statistics, candidates found through the rarer terms. From the
   * in-process index when it holds exactly the corpus version this search read, else from the database.
   */
  async function keywordSide(terms: string[], filters: SearchFilters, stats: CorpusStats): Promise<{ rows: ScoredId[]; bound: number; needBound: number }> {
    if (vectors && !filters.updatedSince) {
      const forms = await termForms(terms);
      const settings = { fieldWeights: tuning.fieldWeights, prefixLength: tuning.prefixMinLength };
      const fromIndex = await vectors.keywords(stats.version, stats.docs, settings, (index) => {
        const plan = keywordPlan(index.frequencies(forms), stats);
        if (!plan) return noKeywords;
        const rows = index.candidates(plan.query, filters, tuning.depth, tuning.keywordCap);
        return rows ? { rows, bound: plan.bound, needBound: plan.needBound } : undefined;
      });
      if (fromIndex) return fromIndex;
    }
    const plan = keywordPlan(await repo.termLexemes(terms, tuning.prefixMinLength), stats);
    if (!plan) return noKeywords;
    const rows = await repo.keywordCandidates({ ...plan.query, fieldWeights: tuning.fieldWeights }, filters, tuning.depth, tuning.keywordCap);
    return { rows, bound: plan.bound, needBound: plan.needBound };
  }

  /** Nearest companies by meaning: from the in-process index when it can answer, else from pgvector. */
  async function semanticSide(vector: number[], filters: SearchFilters, version: number) {
    const started = performance.now();
    const fromIndex = vectors ? await vectors.candidates(Float32Array.from(vector), filters, tuning.semanticDepth, version) : undefined;
    if (fromIndex) {
      searchStageSeconds.observe({ stage: 'semantic_index' }, (performance.now() - started) / 1000);
      return fromIndex;
    }
    return timedStage('semantic_database', () => repo.semanticCandidates(toPgVector(vector), filters, tuning.semanticDepth, tuning.exactScanBelow));
  }

  /** Companies named like the query: from the in-process index when it can answer, else from the trigram index. */
  async function nameSide(text: string, filters: SearchFilters, stats: CorpusStats) {
    const fromIndex = vectors ? await vectors.names(text, filters, 20, stats.version, stats.docs) : undefined;
    return fromIndex ?? repo.nameCandidates(text, filters, 20);
  }

  /**
   * What a typical profile looks like: the bundled model's reference vector, or for another model the mean
   * profile vector, read from the database once and again when the directory grew or shrank by
   * more than 1 % or ten minutes passed (in the background: searches use the previous one meanwhile).
   */
  let mean: { vector: number[]; docs: number; at: number } | undefined;
  let meanLoading: Promise<void> | undefined;
  const bundledTypical = bundledTypicalProfile(embeddings.model);
  async function meanProfileVector(stats: CorpusStats): Promise<number[] | undefined> {
    if (bundledTypical) return bundledTypical;
    const stale = !mean || Math.abs(stats.docs - mean.docs) > Math.max(10, mean.docs / 100) || Date.now() - mean.at > 600_000;
    if (stale && !meanLoading) {
      meanLoading = repo.meanProfileVector().then(
        (vector) => { if (vector) mean = { vector, docs: stats.docs, at: Date.now() }; },
        () => undefined,
      ).finally(() => { meanLoading = undefined; });
    }
    if (!mean && meanLoading) await meanLoading;
    return mean?.vector;
  }

  /** Ranked candidates for a text query (the whole fused list, best first). */
  async function rank(text: string, filters: SearchFilters, mode: SearchMode, stats: CorpusStats) {
    const terms = queryTerms(text);
    let queryVector: number[] | undefined;
    const useKeyword = mode !== 'semantic';
    const useSemantic = mode !== 'keyword';
    const [kw, names, sem] = await Promise.all([
      useKeyword && terms.length ? timedStage('keyword', () => keywordSide(terms, filters, stats)) : Promise.resolve(noKeywords),
      // Names are looked up by short queries; trigram search over a long request is slow and finds nothing useful.
      useKeyword && text.length >= 3 && text.length <= tuning.nameMaxLength && text.split(/\s+/).length <= tuning.nameMaxWords ? timedStage('names', () => nameSide(text.trim().slice(0, 200), filters, stats)) : Promise.resolve([]),
      useSemantic ? timedStage('embed', () => embeddings.embedQuery(text)).then((v) => { queryVector = v; return semanticSide(v, filters, stats.version); }) : Promise.resolve([]),
    ]);
    const mean = queryVector ? await meanProfileVector(stats) : undefined;
    const typical = queryVector && mean ? queryVector.reduce((acc, x, i) => acc + x * (mean[i] ?? 0), 0) : 0;
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
    // The raw evidence of each candidate, before any rescaling: what the relevance verdict is judged on.
    const evidence = new Map<string, MatchEvidence>();
    const of = (id: string) => evidence.get(id) ?? evidence.set(id, { cosine: null, keyword: 0, name: 0 }).get(id)!;
    for (const c of sem) of(c.id).cosine = c.score;
    for (const c of kw.rows) of(c.id).keyword = Math.min(1, c.score / (kw.needBound || 1));
    for (const c of names) of(c.id).name = c.score;
    return Object.assign(fused, { bestSimilarity: sem.reduce((m, c) => Math.max(m, c.score), 0), similarity: new Map(semKept.map((c) => [c.id, c.score])), evidence, typical });
  }

  /**
   * Answers of recent searches, valid while no company was written: every company write bumps
   * search_corpus_stats.version (a statement trigger), so one primary-key read decides whether a
   * repeated search (same words, filters, page) can skip embedding, both searches and the row
   * fetch. Correct across processes and instances, since the version lives in the database.
   */
  const answers = new Map<string, { version: number; result: SearchResult; bestSimilarity: number }>();

  /**
   * The corpus statistics. On PGlite the companies change generation is exact (every write moves it before
   * the write returns, and the version moves with it: the same trigger), so they are read once per
   * generation and a repeated search needs no database statement at all.
   */
  let statsCache: { generation: number; stats: CorpusStats } | undefined;
  async function corpusStats(): Promise<CorpusStats> {
    const generation = companies.changeGeneration();
    if (generation !== undefined && statsCache?.generation === generation) return statsCache.stats;
    const stats = await repo.corpusStats();
    if (generation !== undefined && companies.changeGeneration() === generation) statsCache = { generation, stats };
    return stats;
  }
  const ANSWER_CACHE_SIZE = 5000;

  async function answer(q: SearchQuery, mode: SearchMode): Promise<{ result: SearchResult; bestSimilarity: number }> {
    const limit = q.limit ?? 10;
    const offset = q.offset ?? 0;
    const { ctx, text } = resolvePlaceContext(q);
    const filters = resolveFilters(q, ctx);
    const sort = q.sort ?? 'relevance';
    const key = JSON.stringify([mode, text.toLowerCase().replace(/\s+/g, ' '), filters, ctx, sort, limit, offset, q.include_weak === true]);
    // One read serves both the cache check and the BM25 corpus size of a fresh computation.
    const stats = await timedStage('stats', corpusStats);
    const { version } = stats;
    const hit = answers.get(key);
    searchAnswers.inc({ outcome: hit && hit.version === version ? 'cached' : 'computed' });
    if (hit && hit.version === version) {
      answers.delete(key);
      answers.set(key, hit);
      return hit;
    }
    const fresh = await timedStage('total', () => compute(text, filters, mode, limit, offset, stats, ctx, sort, q.include_weak === true));
    answers.delete(key);
    answers.set(key, { version, ...fresh });
    if (answers.size > ANSWER_CACHE_SIZE) answers.delete(answers.keys().next().value as string);
    return fresh;
  }

  /** The place block of a result and the distance of each company on the page. */
  function withPlace(result: SearchResult, ctx: PlaceContext | undefined, rows: Map<string, CandidateFacts>): SearchResult {
    if (!ctx) return result;
    let matches = 0;
    const list = result.companies.map((c) => {
      const facts = rows.get(c.id);
      if (!facts) return { ...c, distance_km: null };
      const fit = placeFit(ctx, facts);
      if (fit === 'in' || fit === 'serves') matches++;
      const d = distanceTo(ctx, facts);
      return { ...c, distance_km: d === null ? null : Math.round(d * 10) / 10 };
    });
    const { place } = ctx;
    return {
      ...result,
      companies: list,
      place: { name: place.name, country_code: place.countryCode, latitude: place.latitude, longitude: place.longitude, scope: place.scope ?? 'city', source: ctx.source, matches_in_place: matches },
    };
  }

  async function compute(text: string, filters: SearchFilters, mode: SearchMode, limit: number, offset: number, stats: CorpusStats, ctx: PlaceContext | undefined, sort: 'relevance' | 'distance' | 'newest' | 'name', includeWeak: boolean): Promise<{ result: SearchResult; bestSimilarity: number }> {
    if (!text) {
      const browseSort: BrowseSort = sort === 'relevance' ? 'default' : sort;
      const { rows, total } = await repo.browse(filters, limit, offset, browseSort);
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
    // queries score 0.969 nDCG@10 so, 0.766 with the place words removed), and again among the
    // companies located there (same words: the query embedding comes from the cache).
    const main = await rank(text, filters, mode, stats);
    let ranked: { id: string; score: number; sources: ('semantic' | 'keyword')[]; relevance?: Relevance }[] = main;
    const { bestSimilarity } = main;
    const similarity = new Map(main.similarity);
    const evidence = new Map(main.evidence);
    if (ctx?.source === 'q') {
      // Companies in the named place that match the rest of the words join the candidates, even
      // when the whole directory holds stronger matches elsewhere.
      const local = await rank(text, { ...filters, ...placeFilter(ctx, false) }, mode, stats);
      const seen = new Set(ranked.map((r) => r.id));
      ranked = [...ranked, ...local.filter((r) => !seen.has(r.id))];
      for (const [id, cos] of local.similarity) similarity.set(id, cos);
      for (const [id, e] of local.evidence) if (!evidence.has(id)) evidence.set(id, e);
    }
    // Need first, then place: the verdict judges the words without the place's name, which every company
    // located there matches (a tax adviser in Munich is no dentist), over the whole directory and there.
    let verdictEvidence = evidence;
    let typical = main.typical;
    if (ctx?.source === 'q' && ctx.rest) {
      const [needAll, needHere] = await Promise.all([rank(ctx.rest, filters, mode, stats), rank(ctx.rest, { ...filters, ...placeFilter(ctx, true) }, mode, stats)]);
      verdictEvidence = new Map(needAll.evidence);
      for (const [id, e] of needHere.evidence) {
        const o = verdictEvidence.get(id);
        const cosine = o?.cosine == null ? e.cosine : e.cosine === null ? o.cosine : Math.max(o.cosine, e.cosine);
        verdictEvidence.set(id, o ? { cosine, keyword: Math.max(o.keyword, e.keyword), name: Math.max(o.name, e.name) } : e);
      }
      typical = needAll.typical;
    }
    // The verdict of each candidate from its own evidence; weak ones are left out unless asked for.
    const none: MatchEvidence = { cosine: null, keyword: 0, name: 0 };
    const baseline = { typical, best: [...verdictEvidence.values()].reduce((m, e) => Math.max(m, e.cosine ?? 0), 0) };
    ranked = ranked.map((r) => ({ ...r, relevance: relevanceOf(verdictEvidence.get(r.id) ?? none, baseline, thresholds) }));
    explain?.(text, ranked.map((r) => ({ id: r.id, score: r.score, evidence: verdictEvidence.get(r.id) ?? none, relevance: r.relevance! })));
    if (!includeWeak) ranked = ranked.filter((r) => r.relevance !== 'weak');
    const facts = new Map<string, CandidateFacts & { name: string; created_at: Date }>();
    if (ctx || sort !== 'relevance') for (const f of await repo.candidateFacts(ranked.map((r) => r.id))) facts.set(f.id, f);
    // Also under `near`: among about equally relevant companies, the one located there comes before
    // one that only serves it remotely (the filter keeps both).
    if (ctx) {
      const top = ranked.reduce((m, r) => Math.max(m, r.score), 0) || 1;
      const floor = tuning.minSimilarity;
      ranked = ranked
        .map((r) => {
          const f = facts.get(r.id);
          // The bonus grows with how well the company matches the need, up to half the best match:
          // matching only the place earns little. The need is read from the semantic side when it
          // scored the company (a place's name barely moves the query's vector, while on the keyword
          // side it is a rare, strong word that a company there also matches), else from the fused score.
          const cos = similarity.get(r.id);
          const need = cos !== undefined && bestSimilarity > floor ? (cos - floor) / (bestSimilarity - floor) : r.score / top;
          const fit = f ? placeFit(ctx, f) : 'unknown';
          // A country is broad: being in it says less than being in the named city (and a long request may name
          // a country for one of its parts only).
          const bonus = (ctx.place.scope === 'country' && fit === 'in' ? COUNTRY_IN_BONUS : PLACE_FIT_BONUS[fit]) * Math.max(0, Math.min(1, need / 0.5));
          return { ...r, score: (r.score + bonus) / (1 + MAX_PLACE_BONUS) };
        })
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    }
    if (sort !== 'relevance') {
      const key = (id: string): number | string => {
        const f = facts.get(id);
        if (!f) return Infinity;
        if (sort === 'distance') return ctx ? (distanceTo(ctx, f) ?? Infinity) : Infinity;
        if (sort === 'newest') return -new Date(f.created_at).getTime();
        return f.name.toLowerCase();
      };
      // Stable: equal keys keep their relevance order.
      ranked = ranked.map((r, i) => ({ r, i, k: key(r.id) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i)).map((x) => x.r);
    }
    const page = ranked.slice(offset, offset + limit);
    const rows = await timedStage('rows', () => companies.findManyByIds(page.map((p) => p.id)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const list = page.flatMap((p) => {
      const row = byId.get(p.id);
      return row ? [{ ...companies.toSummary(row, p.score, p.sources), relevance: p.relevance ?? null }] : [];
    });
    const result = { companies: list, total_found: ranked.length, offset, limit, has_more: offset + limit < ranked.length, query: text };
    return { result: withPlace(result, ctx, ctx ? new Map(rows.map((r) => [r.id, r])) : facts), bestSimilarity };
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
      return vectors?.status();
    },

    search: async (q: SearchQuery, mode: SearchMode = 'hybrid'): Promise<SearchResult> => (await run(q, mode, true)).result,
    /** The same search with its best raw similarity and without the weak-result hook (ask judges and records its own questions). */
    searchWithSignal: (q: SearchQuery, mode: SearchMode = 'hybrid') => run(q, mode, false),
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
