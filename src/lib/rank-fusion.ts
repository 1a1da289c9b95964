/**
 * Fuses ranked candidate lists (keyword, semantic) into one ranking.
 *
 * Method: weighted reciprocal-rank fusion (each list contributes w / (k + rank)) plus a
 * score-aware term, so that a strong absolute match (a near-exact name hit, a very close
 * vector) counts for more than its rank alone says. The result is scaled to [0, 1] against the
 * best score a company could get (rank 1 with a perfect score in every list).
 */
export interface Candidate {
  id: string;
  /** Source-specific score in [0, 1]; higher is better. */
  score: number;
}

export interface FusionList {
  source: 'semantic' | 'keyword';
  weight: number;
  candidates: Candidate[];
}

export interface Fused {
  id: string;
  score: number;
  sources: ('semantic' | 'keyword')[];
}

export interface FusionOptions {
  k: number;
  /** Share of each list's contribution that comes from its normalised score instead of its rank. */
  scoreShare: number;
}

export const defaultFusion: FusionOptions = { k: 60, scoreShare: 0.5 };

export function fuse(lists: FusionList[], options: FusionOptions = defaultFusion): Fused[] {
  const { k, scoreShare } = options;
  const acc = new Map<string, Fused>();
  let maxPossible = 0;
  for (const list of lists) {
    if (list.candidates.length === 0 || list.weight <= 0) continue;
    maxPossible += list.weight * ((1 - scoreShare) / (k + 1) + scoreShare / (k + 1));
    list.candidates.forEach((c, i) => {
      const rankPart = (1 - scoreShare) / (k + i + 1);
      const scorePart = (scoreShare * Math.max(0, Math.min(1, c.score))) / (k + 1);
      const contribution = list.weight * (rankPart + scorePart);
      const entry = acc.get(c.id) ?? { id: c.id, score: 0, sources: [] };
      entry.score += contribution;
      if (!entry.sources.includes(list.source)) entry.sources.push(list.source);
      acc.set(c.id, entry);
    });
  }
  const out = [...acc.values()];
  if (maxPossible > 0) for (const e of out) e.score = e.score / maxPossible;
  out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  for (const e of out) e.sources.sort((a, b) => (a === 'semantic' ? -1 : b === 'semantic' ? 1 : 0));
  return out;
}
