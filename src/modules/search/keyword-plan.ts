import type { KeywordQuery } from './keyword-index.js';
import type { CorpusStats, QueryLexeme } from './search.repo.js';
import type { SearchTuning } from './search.tuning.js';
import { compareBytes } from '../../lib/ts-rank.js';

/**
 * The BM25F plan of a query from its lexemes and their document frequencies: each form's IDF, the rarer
 * lexemes that find the candidates, and the best score any company could reach. Undefined: no lexeme occurs.
 */
export function keywordPlan(lexemes: QueryLexeme[], stats: CorpusStats, tuning: SearchTuning): { query: KeywordQuery; bound: number; needBound: number } | undefined {
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

/**
 * The query's terms that no company uses in any form (no lexeme of theirs occurs), each with its whole-word
 * forms (stem and simple form) for the misspelling repair. In term order.
 */
export function absentTerms(lexemes: QueryLexeme[], termCount: number): { term: number; forms: string[] }[] {
  const present = new Set(lexemes.filter((l) => l.df > 0).map((l) => l.term));
  const out: { term: number; forms: string[] }[] = [];
  for (let term = 0; term < termCount; term++) {
    if (present.has(term)) continue;
    out.push({ term, forms: [...new Set(lexemes.filter((l) => l.term === term && !l.prefix).map((l) => l.lexeme))] });
  }
  return out;
}
