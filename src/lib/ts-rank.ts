/**
 * PostgreSQL's ts_rank (normalization 0) for an OR of lexemes, computed outside the database, so that the
 * in-process keyword index scores a company exactly as `ts_rank(weights, search_vector, query)` does in
 * search.repo.ts. Written from PostgreSQL's documented behaviour and checked against it by tests:
 * - each query item (a lexeme, or a prefix `lexeme:*` covering every lexeme that starts with it) adds, for
 *   every document lexeme it matches, (w_max + Σ_j w_j/(j+1)² − w_max/(j_max+1)²) / (π²/6), where w_j is the
 *   weight of the lexeme's j-th position (by label A–D) and j_max the first position of the largest weight;
 * - the sum is divided by the number of distinct query items;
 * - arithmetic is single precision, as in the database (float4).
 */

/** Weight labels in tsvector order of significance: D (no label) = 0, C = 1, B = 2, A = 3. */
const LABEL: Record<string, number> = { D: 0, C: 1, B: 2, A: 3 };
/** π²/6, the limit of Σ 1/i², as the database writes it. */
const ZETA2 = 1.64493406685;

export interface TsvectorEntry {
  lexeme: string;
  /** Weight label (0 = D … 3 = A) of each position, in position order; one D position when the lexeme has none. */
  labels: number[];
}

/** Parses a tsvector's text form (`'lexeme':1A,4 'other':2`). */
export function parseTsvector(text: string): TsvectorEntry[] {
  const out: TsvectorEntry[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && text[i] === ' ') i++;
    if (i >= n) break;
    if (text[i] !== "'") throw new Error(`tsvector: expected a quote at ${i}`);
    i++;
    let lexeme = '';
    for (;;) {
      if (i >= n) throw new Error('tsvector: unterminated lexeme');
      const ch = text[i]!;
      // Quotes and backslashes inside a lexeme are doubled.
      if ((ch === "'" || ch === '\\') && text[i + 1] === ch) {
        lexeme += ch;
        i += 2;
      } else if (ch === "'") {
        i++;
        break;
      } else {
        lexeme += ch;
        i++;
      }
    }
    const labels: number[] = [];
    if (text[i] === ':') {
      i++;
      while (i < n && text[i] !== ' ') {
        while (i < n && text[i]! >= '0' && text[i]! <= '9') i++;
        const label = text[i];
        if (label !== undefined && label in LABEL) {
          labels.push(LABEL[label]!);
          i++;
        } else labels.push(0);
        if (text[i] === ',') i++;
      }
    } else labels.push(0);
    out.push({ lexeme, labels });
  }
  return out;
}

/** The weights ts_rank receives, in label order {D, C, B, A}, each field weight divided by the largest (as search.repo.ts passes them). */
export function rankWeights(fieldWeights: readonly [number, number, number, number]): { sql: string; labels: Float32Array; scale: number } {
  const [A, B, C, D] = fieldWeights;
  const scale = Math.max(A, B, C, D) || 1;
  const ordered = [D, C, B, A].map((x) => x / scale);
  return { sql: `{${ordered.join(',')}}`, labels: Float32Array.from(ordered), scale };
}

/** What one matched document lexeme adds to a query item's sum (before division by π²/6), in single precision. */
export function lexemeContribution(labels: readonly number[], weights: Float32Array): number {
  const f = Math.fround;
  let sum = 0;
  let best = -1;
  let bestAt = 0;
  for (let j = 0; j < labels.length; j++) {
    const w = weights[labels[j]!]!;
    sum = f(sum + f(w / ((j + 1) * (j + 1))));
    if (w > best) {
      best = w;
      bestAt = j;
    }
  }
  return f(f(best + sum) - f(best / ((bestAt + 1) * (bestAt + 1))));
}

/** Adds one matched lexeme's contribution to a running item sum (single precision, as the database accumulates). */
export function addContribution(sum: number, contribution: number): number {
  return Math.fround(sum + contribution / ZETA2);
}

/** The final rank of a sum over `items` distinct query items (float4, as ts_rank returns it). */
export function finishRank(sum: number, items: number): number {
  const r = items > 0 ? Math.fround(sum / items) : sum;
  return r < 0 ? Math.fround(1e-20) : r;
}

/** Byte order of UTF-8 strings (how the database orders lexemes in a tsvector and a query's items). */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * The distinct items of an OR query over a term's forms, in the order ts_rank visits them. ts_rank
 * collapses items with the same text into one (which one survives depends on their written order);
 * the prefix form is kept, since it also matches the word itself, so both paths score the same items.
 */
export function rankItems<T extends { lexeme: string; prefix: boolean }>(forms: readonly T[]): T[] {
  const byText = new Map<string, T>();
  for (const f of forms) {
    const seen = byText.get(f.lexeme);
    if (!seen || (f.prefix && !seen.prefix)) byText.set(f.lexeme, f);
  }
  return [...byText.values()].sort((a, b) => compareBytes(a.lexeme, b.lexeme));
}

/**
 * A query's scored forms grouped by term, in the order terms first appear: each term counts with the best idf of
 * its forms (both keyword paths, the database's and the in-process index, score with this one grouping).
 */
export function groupByTerm<T extends { term: number; idf: number }>(scored: readonly T[]): { idf: number; forms: T[] }[] {
  const byTerm = new Map<number, { idf: number; forms: T[] }>();
  for (const l of scored) {
    const e = byTerm.get(l.term) ?? { idf: 0, forms: [] };
    e.idf = Math.max(e.idf, l.idf);
    e.forms.push(l);
    byTerm.set(l.term, e);
  }
  return [...byTerm.values()];
}
