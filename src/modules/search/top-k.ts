import type { ScoredId } from './search.repo.js';

/** The best `k` (slot, score) pairs: a bounded min-heap, ties broken by id as the SQL ORDER BY does. */
export class TopK {
  // Typed and sized once: a query pushes thousands of candidates through several heaps, and growing arrays
  // (and swapping by destructuring) made this the largest source of short-lived garbage on the search path.
  private readonly slots: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;
  constructor(
    private readonly k: number,
    private readonly idOf: string[],
  ) {
    const capacity = Math.max(0, k);
    this.slots = new Int32Array(capacity);
    this.scores = new Float64Array(capacity);
  }

  /** a ranks below b: lower score, or the same score and a larger id. */
  private worse(a: number, b: number): boolean {
    const sa = this.scores[a]!;
    const sb = this.scores[b]!;
    return sa < sb || (sa === sb && this.idOf[this.slots[a]!]! > this.idOf[this.slots[b]!]!);
  }

  private swap(a: number, b: number) {
    const slot = this.slots[a]!;
    this.slots[a] = this.slots[b]!;
    this.slots[b] = slot;
    const score = this.scores[a]!;
    this.scores[a] = this.scores[b]!;
    this.scores[b] = score;
  }

  push(slot: number, score: number): void {
    if (this.k <= 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      this.slots[i] = slot;
      this.scores[i] = score;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    // Not better than the worst kept: skip (the common case, checked without touching the heap).
    const worst = this.scores[0]!;
    if (score < worst || (score === worst && this.idOf[slot]! > this.idOf[this.slots[0]!]!)) return;
    this.slots[0] = slot;
    this.scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.worse(l, m)) m = l;
      if (r < this.size && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  sorted(): ScoredId[] {
    const out: ScoredId[] = new Array(this.size);
    for (let i = 0; i < this.size; i++) out[i] = { id: this.idOf[this.slots[i]!]!, score: this.scores[i]! };
    return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
