/**
 * Trigram word similarity with PostgreSQL pg_trgm's documented meaning, so the in-process name index answers
 * as `word_similarity(query, lower(name))` and `lower(name) %> query` do in the database:
 * - a text's words are its runs of word characters; each word, lower-cased and padded with two spaces before
 *   and one after, gives its trigrams in order ("  a", " ab", "abc", "bc ");
 * - word_similarity(q, t) is the greatest |Q ∩ E| / |Q ∪ E| over every continuous extent E of t's trigram
 *   sequence, Q the set of q's trigrams, computed in single precision (pg_trgm's float4).
 * Word characters follow the database's locale: ASCII letters and digits only under the C locale (where pg_trgm
 * treats any other character as a separator), every Unicode letter and digit otherwise.
 */
export type WordCharacters = 'ascii' | 'unicode';

const ASCII_WORD = /[a-z0-9]+/g;
const UNICODE_WORD = /[\p{L}\p{N}]+/gu;

/** The trigrams of a text in order (duplicates kept). */
export function trigramSequence(text: string, wordChars: WordCharacters): string[] {
  const out: string[] = [];
  const lowered = text.toLowerCase();
  for (const match of lowered.matchAll(wordChars === 'ascii' ? ASCII_WORD : UNICODE_WORD)) {
    const padded = [' ', ' ', ...match[0], ' '];
    for (let i = 0; i + 2 < padded.length; i++) out.push(padded[i]! + padded[i + 1]! + padded[i + 2]!);
  }
  return out;
}

/** word_similarity(query, text): `query` as its set of trigrams, `text` as its trigram sequence. */
export function wordSimilarity(query: ReadonlySet<string>, text: readonly string[]): number {
  if (query.size === 0) return 0;
  let best = 0;
  const seen = new Set<string>();
  // The best extent starts and ends on trigrams of the query: every other start only adds to the union.
  for (let start = 0; start < text.length; start++) {
    if (!query.has(text[start]!)) continue;
    seen.clear();
    let common = 0;
    for (let end = start; end < text.length; end++) {
      const t = text[end]!;
      if (seen.has(t)) continue;
      seen.add(t);
      if (!query.has(t)) continue;
      common++;
      const similarity = Math.fround(common / (query.size + seen.size - common));
      if (similarity > best) best = similarity;
    }
  }
  return best;
}

/** pg_trgm's default `%>` threshold (pg_trgm.word_similarity_threshold 0.6, a float compared in single precision). */
export const WORD_SIMILARITY_THRESHOLD = Math.fround(0.6);
