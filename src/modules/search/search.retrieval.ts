import { isCommonEnglishWord } from '../../lib/english-words.js';
import { queryTerms } from '../../lib/search-query.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { toPgVector } from '../../platform/embeddings/embeddings.js';
import { searchStageSeconds, timedStage } from '../../platform/outcomes.js';
import type { TermForm } from './keyword-index.js';
import { absentTerms, keywordPlan } from './keyword-plan.js';
import { editDistance } from '../../lib/closest.js';
import { bundledTypicalProfile } from './relevance.js';
import type { CorpusStats, ScoredId, SearchFilters, SearchRepo } from './search.repo.js';
import { evidenceOf, fuseSides, type Sides } from './search.ranking.js';
import type { SearchMode, SearchTuning } from './search.tuning.js';
import type { SearchIndexSync } from './search-index.sync.js';

/** The in-process search index as retrieval asks it (vector-sync.ts); each answer is undefined when the database must answer instead. */
export type SearchIndexPort = Pick<SearchIndexSync, 'candidates' | 'names' | 'keywords' | 'placeFacts' | 'count' | 'status'>;

export interface RetrievalDeps {
  repo: SearchRepo;
  embeddings: EmbeddingProvider;
  tuning: SearchTuning;
  index?: SearchIndexPort | undefined;
}

/** Forms of query terms kept (stems, simple forms, prefix forms): fixed by the database's text search configuration. */
const TERM_FORMS_CACHE_SIZE = 50_000;

const noKeywords: Sides['keyword'] = { rows: [] as ScoredId[], bound: 1, needBound: 1 };

/** The keyword side with the query's terms that no company uses (misspellings are repaired before this). */
type KeywordAnswer = Sides['keyword'] & { absent: { term: number; forms: string[] }[] };

/** Misspellings repaired, by word: shared by every search of the process (the directory's vocabulary changes slowly). */
const REPAIR_CACHE_SIZE = 20_000;
/** The shortest word a misspelling repair is tried for: one edit away from a shorter word is another word too often. */
const REPAIR_MIN_LENGTH = 5;

/**
 * The one rule of every side: the in-process search index answers when it can (it holds exactly the
 * corpus version this search read, and evaluates the filter), else the database does.
 */
async function indexElseDatabase<T>(fromIndex: (() => Promise<T | undefined>) | undefined, fromDatabase: () => Promise<T>): Promise<T> {
  const answered = fromIndex ? await fromIndex() : undefined;
  return answered ?? fromDatabase();
}

/** Candidates for a text from the three sides (keywords, names, meaning), fused. */
export function createRetrieval({ repo, embeddings, tuning, index }: RetrievalDeps) {
  const termFormsCache = new Map<string, { lexeme: string; prefix: boolean }[]>();
  /** Terms being looked up now: a place query's three rankings share their words, and one read serves them all. */
  const termFormsPending = new Map<string, Promise<{ lexeme: string; prefix: boolean }[]>>();

  async function termForms(terms: string[]): Promise<TermForm[]> {
    const known = new Map<string, { lexeme: string; prefix: boolean }[]>();
    for (const t of terms) {
      const hit = termFormsCache.get(t);
      if (hit) known.set(t, hit);
    }
    const missing = [...new Set(terms.filter((t) => !known.has(t) && !termFormsPending.has(t)))];
    if (missing.length > 0) {
      const read = repo.termForms(missing, tuning.prefixMinLength).then((rows) => {
        const found = new Map<string, { lexeme: string; prefix: boolean }[]>(missing.map((t) => [t, []]));
        for (const r of rows) found.get(missing[r.term]!)!.push({ lexeme: r.lexeme, prefix: r.prefix });
        for (const t of missing) {
          termFormsCache.set(t, found.get(t)!);
          if (termFormsCache.size > TERM_FORMS_CACHE_SIZE) termFormsCache.delete(termFormsCache.keys().next().value as string);
        }
        return found;
      }).finally(() => {
        for (const t of missing) termFormsPending.delete(t);
      });
      for (const t of missing) termFormsPending.set(t, read.then((found) => found.get(t)!));
    }
    // Taken now (a read that settles removes its terms from termFormsPending), and awaited together: a failed read
    // rejects this search once, never leaving another term's promise rejected with nobody awaiting it.
    const waiting = [...new Set(terms)].filter((t) => !known.has(t));
    const forms = await Promise.all(waiting.map((t) => termFormsPending.get(t)!));
    waiting.forEach((t, i) => known.set(t, forms[i]!));
    return terms.flatMap((t, term) => known.get(t)!.map((f) => ({ term, ...f })));
  }

  /** BM25F candidates: IDF from the term statistics, candidates found through the rarer terms. */
  function keywordSide(terms: string[], filters: SearchFilters, stats: CorpusStats): Promise<KeywordAnswer> {
    const fromIndex = index && !filters.updatedSince
      ? async () => {
        const forms = await termForms(terms);
        const settings = { fieldWeights: tuning.fieldWeights, prefixLength: tuning.prefixMinLength };
        return index.keywords(stats.version, stats.docs, settings, (keywords): KeywordAnswer | undefined => {
          const lexemes = keywords.frequencies(forms);
          const absent = absentTerms(lexemes, terms.length);
          const plan = keywordPlan(lexemes, stats, tuning);
          if (!plan) return { ...noKeywords, absent };
          const rows = keywords.candidates(plan.query, filters, tuning.depth, tuning.keywordCap);
          return rows ? { rows, bound: plan.bound, needBound: plan.needBound, absent } : undefined;
        });
      }
      : undefined;
    return indexElseDatabase(fromIndex, async () => {
      const lexemes = await repo.termLexemes(terms, tuning.prefixMinLength);
      const absent = absentTerms(lexemes, terms.length);
      const plan = keywordPlan(lexemes, stats, tuning);
      if (!plan) return { ...noKeywords, absent };
      const rows = await repo.keywordCandidates({ ...plan.query, fieldWeights: tuning.fieldWeights }, filters, tuning.depth, tuning.keywordCap);
      return { rows, bound: plan.bound, needBound: plan.needBound, absent };
    });
  }

  const repairCache = new Map<string, string | null>();
  /**
   * The word the directory uses that a word it does not use most likely misspells ("plumer" → "plumber",
   * "moble" → the stem of "mobile"): one letter away from the word or its stem, the most used such word.
   * Null when there is none, and for a common English word: "chess" is not a misspelling of "chefs", it
   * names something no company here offers.
   */
  async function repair(word: string, forms: string[]): Promise<string | null> {
    const hit = repairCache.get(word);
    if (hit !== undefined) return hit;
    let best: { lexeme: string; df: number } | undefined;
    if (word.length >= REPAIR_MIN_LENGTH && /^\p{L}+$/u.test(word) && !isCommonEnglishWord(word)) {
      for (const form of new Set([word, ...forms.filter((f) => f.length >= REPAIR_MIN_LENGTH - 1)])) {
        for (const near of await repo.lexemesNear(form, 2_000)) {
          if (near.lexeme !== form && editDistance(form, near.lexeme) === 1 && (!best || near.df > best.df)) best = near;
        }
      }
    }
    const fixed = best?.lexeme ?? null;
    repairCache.set(word, fixed);
    if (repairCache.size > REPAIR_CACHE_SIZE) repairCache.delete(repairCache.keys().next().value as string);
    return fixed;
  }

  /**
   * The keyword side after repairing misspelt words: a word no company uses is replaced by the nearest word
   * one does, and searched again. `unmatched` lists the words still used by no company.
   */
  async function keywordSideRepaired(terms: string[], filters: SearchFilters, stats: CorpusStats): Promise<Sides['keyword'] & { unmatched: string[] }> {
    const first = await keywordSide(terms, filters, stats);
    if (first.absent.length === 0) return { ...first, unmatched: [] };
    const fixes = new Map<number, string>();
    for (const a of first.absent) {
      const fixed = await repair(terms[a.term]!, a.forms);
      if (fixed) fixes.set(a.term, fixed);
    }
    const unmatched = first.absent.filter((a) => !fixes.has(a.term)).map((a) => terms[a.term]!);
    if (fixes.size === 0) return { ...first, unmatched };
    const again = await keywordSide(terms.map((t, i) => fixes.get(i) ?? t), filters, stats);
    return { ...again, unmatched };
  }

  /** Nearest companies by meaning (the index's graph or exact scan, else pgvector). */
  function semanticSide(vector: number[], filters: SearchFilters, version: number): Promise<ScoredId[]> {
    const started = performance.now();
    const fromIndex = index
      ? async () => {
        const found = await index.candidates(Float32Array.from(vector), filters, tuning.semanticDepth, version);
        if (found) searchStageSeconds.observe({ stage: 'semantic_index' }, (performance.now() - started) / 1000);
        return found;
      }
      : undefined;
    return indexElseDatabase(fromIndex, () => timedStage('semantic_database', () => repo.semanticCandidates(toPgVector(vector), filters, tuning.semanticDepth, tuning.exactScanBelow)));
  }

  /** Companies named like the query (the index's name trigrams, else the database's trigram index). */
  function nameSide(text: string, filters: SearchFilters, stats: CorpusStats) {
    return indexElseDatabase(index ? () => index.names(text, filters, 20, stats.version, stats.docs) : undefined, () => repo.nameCandidates(text, filters, 20));
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

  /** The three sides for a text (run together), the query's similarity to a typical profile, and its words as searched. */
  async function sidesOf(text: string, filters: SearchFilters, mode: SearchMode, stats: CorpusStats) {
    const terms = queryTerms(text);
    let queryVector: number[] | undefined;
    const useKeyword = mode !== 'semantic';
    // Names are looked up by short queries; trigram search over a long request is slow and finds nothing useful.
    const nameable = text.length >= 3 && text.length <= tuning.nameMaxLength && text.split(/\s+/).length <= tuning.nameMaxWords;
    const [keyword, names, semantic] = await Promise.all([
      useKeyword && terms.length ? timedStage('keyword', () => keywordSideRepaired(terms, filters, stats)) : Promise.resolve({ ...noKeywords, unmatched: [] as string[] }),
      useKeyword && nameable ? timedStage('names', () => nameSide(text.trim().slice(0, 200), filters, stats)) : Promise.resolve([]),
      mode !== 'keyword' ? timedStage('embed', () => embeddings.embedQuery(text)).then((v) => { queryVector = v; return semanticSide(v, filters, stats.version); }) : Promise.resolve([]),
    ]);
    const meanVector = queryVector ? await meanProfileVector(stats) : undefined;
    const typical = queryVector && meanVector ? queryVector.reduce((acc, x, i) => acc + x * (meanVector[i] ?? 0), 0) : 0;
    // `terms`: the need's words as searched; `unmatched`: those no company uses (after misspelling repair).
    return { sides: { keyword, names, semantic }, typical, terms, unmatched: keyword.unmatched };
  }

  return {
    /** Ranked candidates for a text query (the whole fused list, best first), with their evidence, the query's similarity to a typical profile, and its words no company uses. */
    async rank(text: string, filters: SearchFilters, mode: SearchMode, stats: CorpusStats) {
      const { sides, ...need } = await sidesOf(text, filters, mode, stats);
      return Object.assign(fuseSides(sides, tuning), need);
    },
    /** What rank gives but the fused list: the evidence of every candidate, for a verdict on another ranking's candidates. */
    async evidence(text: string, filters: SearchFilters, mode: SearchMode, stats: CorpusStats) {
      const { sides, ...need } = await sidesOf(text, filters, mode, stats);
      return { evidence: evidenceOf(sides), ...need };
    },
  };
}

export type Retrieval = ReturnType<typeof createRetrieval>;
