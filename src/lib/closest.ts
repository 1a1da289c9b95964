/** Levenshtein distance (iterative, two rows). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The option a mistyped or shortened value most likely meant, for "did you mean" in a 422: an option
 * that starts with it or contains it as a word ("Energy" → "Energy & Utilities"), else the nearest by
 * edit distance when that is at most a third of its length. Undefined when nothing is close.
 */
export function closestOption(input: string, options: readonly string[]): string | undefined {
  const v = input.trim().toLowerCase();
  if (!v) return undefined;
  const words = (o: string) => o.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const byWord = options.find((o) => o.toLowerCase().startsWith(v)) ?? options.find((o) => words(o).some((w) => w === v || (v.length >= 4 && w.startsWith(v))));
  if (byWord) return byWord;
  let best: string | undefined;
  let bestD = Infinity;
  for (const o of options) {
    const d = editDistance(v, o.toLowerCase());
    if (d < bestD) [best, bestD] = [o, d];
  }
  return best !== undefined && bestD <= Math.max(1, Math.floor(v.length / 3)) ? best : undefined;
}
