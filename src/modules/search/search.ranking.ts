import { fuse, type Candidate } from '../../lib/rank-fusion.js';
import type { MatchEvidence } from './relevance.js';
import type { ScoredId } from './search.repo.js';
import type { SearchTuning } from './search.tuning.js';

/** What retrieval found for one text: keyword candidates (with the query's attainable bounds), names, and nearest by meaning. */
export interface Sides {
  keyword: { rows: ScoredId[]; bound: number; needBound: number };
  names: Candidate[];
  semantic: ScoredId[];
}

/**
 * The three sides fused into one ranked list (best first), with each candidate's raw evidence for the
 * relevance verdict and the semantic similarities the place bonus reads. Pure.
 */
export function fuseSides(sides: Sides, tuning: SearchTuning) {
  const { keyword: kw, names, semantic: sem } = sides;
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
  return Object.assign(fused, { bestSimilarity: sem.reduce((m, c) => Math.max(m, c.score), 0), similarity: new Map(semKept.map((c) => [c.id, c.score])), evidence: evidenceOf(sides) });
}

/** The raw evidence of each candidate of the three sides, before any rescaling: what the relevance verdict is judged on. Pure. */
export function evidenceOf(sides: Sides): Map<string, MatchEvidence> {
  const { keyword: kw, names, semantic: sem } = sides;
  const evidence = new Map<string, MatchEvidence>();
  const of = (id: string) => evidence.get(id) ?? evidence.set(id, { cosine: null, keyword: 0, name: 0 }).get(id)!;
  for (const c of sem) of(c.id).cosine = c.score;
  for (const c of kw.rows) of(c.id).keyword = Math.min(1, c.score / (kw.needBound || 1));
  for (const c of names) of(c.id).name = c.score;
  return evidence;
}

/** Evidence of the need over the whole directory and in the place, each candidate's best of the two. */
export function mergeEvidence(all: Map<string, MatchEvidence>, here: Map<string, MatchEvidence>): Map<string, MatchEvidence> {
  const merged = new Map(all);
  for (const [id, e] of here) {
    const o = merged.get(id);
    const cosine = o?.cosine == null ? e.cosine : e.cosine === null ? o.cosine : Math.max(o.cosine, e.cosine);
    merged.set(id, o ? { cosine, keyword: Math.max(o.keyword, e.keyword), name: Math.max(o.name, e.name) } : e);
  }
  return merged;
}

/** Reorders by a sort key, stable: equal keys keep their relevance order. */
export function sortStable<R>(ranked: R[], key: (r: R) => number | string): R[] {
  return ranked.map((r, i) => ({ r, i, k: key(r) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i)).map((x) => x.r);
}
