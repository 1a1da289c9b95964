import { GROUPS, type CheckStatus, type Group, type Severity } from './scans.types.js';

/**
 * The scan score: a pure function of the stored check results (no clock, no network, no model).
 *
 * Rubric 1.0.0
 * - Weight per check from its severity: critical 10, high 7, medium 4, low 2, info 0.
 * - Credit per status: pass 1, warn 0.5, fail 0. `na` (does not apply) and `error` (could not be
 *   verified) leave the denominator: they never lower the score.
 * - score = round(100 × Σ weight × credit / Σ weight over pass|warn|fail checks); the same formula
 *   per group gives the sub-scores (null when a group has no scored check).
 * - Caps (the lowest applies): U01 fail (page empty without JavaScript) → at most 59;
 *   A09 fail (a CDN/firewall blocks AI user agents) → at most 59; A04 fail with every AI search
 *   and user agent blocked by robots.txt → at most 39.
 * - Grade: A ≥ 85, B ≥ 70, C ≥ 55, D ≥ 40, else F.
 * - coverage = verified weight ÷ (verified + error weight): how much of the applicable rubric we could check.
 * Every scan stores this version; old scans are never re-graded.
 */
export const RUBRIC_VERSION = '1.0.0';

export const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 10, high: 7, medium: 4, low: 2, info: 0 };
export const STATUS_CREDIT: Record<Extract<CheckStatus, 'pass' | 'warn' | 'fail'>, number> = { pass: 1, warn: 0.5, fail: 0 };

export interface Cap {
  id: string;
  max: number;
  reason: string;
}

/** What scoring reads from each stored result. */
export interface ScoredResult {
  id: string;
  group: Group;
  severity: Severity;
  status: CheckStatus;
  facts?: Record<string, unknown>;
}

export interface ScoreCard {
  rubric_version: string;
  score: number;
  grade: 'A' | 'B' | 'C' | 'D' | 'F';
  uncapped_score: number;
  group_scores: Record<Group, number | null>;
  counts: Record<CheckStatus, number>;
  coverage: number;
  caps: Cap[];
}

export function gradeOf(score: number): ScoreCard['grade'] {
  return score >= 85 ? 'A' : score >= 70 ? 'B' : score >= 55 ? 'C' : score >= 40 ? 'D' : 'F';
}

function ratio(results: ScoredResult[]): number | null {
  let earned = 0;
  let possible = 0;
  for (const r of results) {
    if (r.status !== 'pass' && r.status !== 'warn' && r.status !== 'fail') continue;
    const w = SEVERITY_WEIGHT[r.severity];
    earned += w * STATUS_CREDIT[r.status];
    possible += w;
  }
  return possible > 0 ? earned / possible : null;
}

export function capsOf(results: ScoredResult[]): Cap[] {
  const by = new Map(results.map((r) => [r.id, r]));
  const caps: Cap[] = [];
  if (by.get('U01')?.status === 'fail') caps.push({ id: 'U01', max: 59, reason: 'The home page is empty without JavaScript' });
  if (by.get('A09')?.status === 'fail') caps.push({ id: 'A09', max: 59, reason: 'AI user agents are blocked at the CDN or firewall' });
  const a04 = by.get('A04');
  if (a04?.status === 'fail' && a04.facts?.all_search_blocked === true) caps.push({ id: 'A04', max: 39, reason: 'robots.txt blocks every AI search and user agent' });
  return caps;
}

export function scoreResults(results: ScoredResult[]): ScoreCard {
  const counts: Record<CheckStatus, number> = { pass: 0, warn: 0, fail: 0, na: 0, error: 0 };
  for (const r of results) counts[r.status]++;
  const overall = ratio(results);
  const uncapped = overall === null ? 0 : Math.round(overall * 100);
  const caps = capsOf(results);
  const score = Math.min(uncapped, ...caps.map((c) => c.max));
  const group_scores = Object.fromEntries(GROUPS.map((g) => {
    const v = ratio(results.filter((r) => r.group === g));
    return [g, v === null ? null : Math.round(v * 100)];
  })) as Record<Group, number | null>;
  let verified = 0;
  let errored = 0;
  for (const r of results) {
    const w = SEVERITY_WEIGHT[r.severity];
    if (r.status === 'error') errored += w;
    else if (r.status !== 'na') verified += w;
  }
  const coverage = verified + errored > 0 ? Math.round((verified / (verified + errored)) * 1000) / 1000 : 0;
  return { rubric_version: RUBRIC_VERSION, score, grade: gradeOf(score), uncapped_score: uncapped, group_scores, counts, coverage, caps };
}

/** Points a finding costs: weight × (1 − credit); the order of the fix list. */
export function pointsLost(r: ScoredResult): number {
  if (r.status !== 'warn' && r.status !== 'fail') return 0;
  return SEVERITY_WEIGHT[r.severity] * (1 - STATUS_CREDIT[r.status]);
}

export interface ScanDelta {
  score: number | null;
  previous_scan_id: string | null;
  rubric_changed: boolean;
  fixed: string[];
  new: string[];
  regressed: string[];
}

const rank: Record<CheckStatus, number> = { pass: 2, warn: 1, fail: 0, na: -1, error: -1 };

/** The change against the previous scan, by stable check id: fixed (now pass), new problems, regressions. */
export function diffScans(
  current: { score: number | null; rubric_version: string; results: ScoredResult[] },
  previous: { id: string; score: number | null; rubric_version: string; results: ScoredResult[] } | undefined,
): ScanDelta {
  if (!previous) return { score: null, previous_scan_id: null, rubric_changed: false, fixed: [], new: [], regressed: [] };
  const before = new Map(previous.results.map((r) => [r.id, r.status]));
  const fixed: string[] = [];
  const added: string[] = [];
  const regressed: string[] = [];
  for (const r of current.results) {
    const was = before.get(r.id);
    const bad = r.status === 'warn' || r.status === 'fail';
    if (was === undefined || rank[was] < 0) {
      if (bad) added.push(r.id);
      continue;
    }
    if (r.status === 'pass' && was !== 'pass') fixed.push(r.id);
    else if (bad && was === 'pass') added.push(r.id);
    else if (bad && rank[r.status] < rank[was]) regressed.push(r.id);
  }
  return {
    score: current.score !== null && previous.score !== null ? current.score - previous.score : null,
    previous_scan_id: previous.id,
    rubric_changed: current.rubric_version !== previous.rubric_version,
    fixed,
    new: added,
    regressed,
  };
}
