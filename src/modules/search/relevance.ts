/**
 * The relevance verdict of a search result: whether it meets the need, judged on its own evidence
 * (not on its rank, which always has a first). Calibrated on the judged evaluation sets
 * (../shared/eval: 80 graded queries, 15 needs nobody serves, 500 companies) with
 * `npm run eval:relevance` (scripts/bench/calibrate-relevance.ts); docs/search.md gives the measured figures.
 *
 * - strong: the evidence says it does what was asked: its name is what was typed, or it covers most of
 *   the need's words, or it is the query's closest profile by meaning and clearly closer than a typical
 *   profile is. 94 % of strong results in the first five were judged relevant, and 14 of the 15 needs
 *   nobody serves got no strong result.
 * - partial: some evidence (meaning well above a typical profile, or some of the need's words) and a fused
 *   score close to the query's best (`partialShare` of it; `partialShareBesideStrong` when a strong match
 *   exists): may fit, check. Kept so that the right company is not hidden when the evidence is thin
 *   (paraphrases, other languages); a result scoring far below the best is filler however much evidence it has.
 * - weak: shares words or meaning only; returned only on request.
 */
import fs from 'node:fs';

export type Relevance = 'strong' | 'partial' | 'weak';

/**
 * The typical profile vector of the bundled model (scripts/dev/typical-profile.ts: the mean of the demo
 * directory's profiles), or undefined for another model (the directory's own mean is used then).
 * A fixed reference: a small directory's own mean would be pulled toward its few companies.
 */
export function bundledTypicalProfile(model: string): number[] | undefined {
  const file = JSON.parse(fs.readFileSync(new URL('./typical-profile.json', import.meta.url), 'utf8')) as { model: string; vector: number[] };
  return file.model === model ? file.vector : undefined;
}

/** What a candidate has to show for itself, raw (before the per-query rescaling of fusion). */
export interface MatchEvidence {
  /** Cosine similarity of the profile's vector to the need; null when the semantic side did not reach it. */
  cosine: number | null;
  /** Share of the need's attainable BM25F score (every word at saturation; words no company uses count too), 0 to 1. */
  keyword: number;
  /** Trigram word similarity of the company's name to the query (short queries only), 0 to 1. */
  name: number;
}

/** What the evidence of one query is measured against. */
export interface QueryBaseline {
  /** The query's cosine to the mean profile vector: what a typical profile scores (the model's similarities all sit high). */
  typical: number;
  /** The best cosine any candidate reached. */
  best: number;
  /**
   * The word that names the need (the first one after request verbs such as "fix"), in a short request, is used by no profile in the directory even after misspelling
   * repair ("calligraphy for our wedding invitations"): its head names something nobody here offers, so
   * meaning alone (the bundled model rates such needs as close to unrelated profiles as real paraphrases)
   * does not make a match.
   */
  headUnmatched?: boolean;
}

export interface RelevanceThresholds {
  strongName: number;
  strongKeyword: number;
  /** Cosine above the typical profile for a strong match, within strongBestMargin of the query's best. */
  strongLift: number;
  strongBestMargin: number;
  partialLift: number;
  partialKeyword: number;
  /** A partial result must score at least this share of the query's best fused score (no strong match among the candidates)… */
  partialShare: number;
  /** …or this share when a strong match exists (beside an exact match, a distant one is filler). */
  partialShareBesideStrong: number;
  /** Requests of at most this many words (after stop words) are judged by the word that names the need (QueryBaseline.headUnmatched). */
  headMaxWords: number;
}

export const defaultRelevance: RelevanceThresholds = {
  strongName: 0.8,
  strongKeyword: 0.35,
  strongLift: 0.42,
  strongBestMargin: 0.02,
  partialLift: 0.12,
  partialKeyword: 0.03,
  partialShare: 0.7,
  partialShareBesideStrong: 0.75,
  headMaxWords: 6,
};

export function relevanceOf(e: MatchEvidence, base: QueryBaseline, t: RelevanceThresholds = defaultRelevance): Relevance {
  if (base.headUnmatched && e.name < t.strongName && e.keyword < t.strongKeyword) return 'weak';
  const lift = e.cosine === null ? -1 : e.cosine - base.typical;
  const belowBest = e.cosine === null ? Infinity : base.best - e.cosine;
  if (e.name >= t.strongName || e.keyword >= t.strongKeyword || (lift >= t.strongLift && belowBest <= t.strongBestMargin)) return 'strong';
  if (lift >= t.partialLift || e.keyword >= t.partialKeyword) return 'partial';
  return 'weak';
}

/**
 * The verdicts of one query's candidates, relative to each other: a partial result whose fused score is far
 * below the best candidate's is weak. The fused score orders candidates well (judged relevant ones
 * outrank filler in 90 % of pairs) but its absolute value means nothing across queries, so the cut is a
 * share of the best.
 */
export function withRelativeCut<T extends { score: number; relevance: Relevance }>(ranked: T[], t: RelevanceThresholds = defaultRelevance): T[] {
  let best = 0;
  let strong = false;
  for (const r of ranked) {
    if (r.relevance === 'weak') continue;
    best = Math.max(best, r.score);
    if (r.relevance === 'strong') strong = true;
  }
  const floor = best * (strong ? t.partialShareBesideStrong : t.partialShare);
  return ranked.map((r) => (r.relevance === 'partial' && r.score < floor ? { ...r, relevance: 'weak' as const } : r));
}
