import type { ScoredId } from './search.repo.js';

/** The best `k` (slot, score) pairs: a bounded min-heap, ties broken by id as the SQL ORDER BY does. */
export class TopK {
  private readonly slots: number[] = [];
  private readonly scores: number[] = [];
  constructor(
    private readonly k: number,
    private readonly idOf: string[],
  ) {}

  /** a ranks below b: lower score, or the same score and a larger id. */
  private worse(a: number, b: number): boolean {
    const sa = this.scores[a]!;
    const sb = this.scores[b]!;
    return sa < sb || (sa === sb && this.idOf[this.slots[a]!]! > this.idOf[this.slots[b]!]!);
  }

  private swap(a: number, b: number) {
    [this.slots[a], this.slots[b]] = [this.slots[b]!, this.slots[a]!];
    [this.scores[a], this.scores[b]] = [this.scores[b]!, this.scores[a]!];
  }

  push(slot: number, score: number): void {
    if (this.k <= 0) return;
    if (this.slots.length < this.k) {
      this.slots.push(slot);
      this.scores.push(score);
      let i = this.slots.length - 1;
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
      if (l < this.slots.length && this.worse(l, m)) m = l;
      if (r < this.slots.length && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  sorted(): ScoredId[] {
    return this.slots
      .map((slot, i) => ({ id: this.idOf[slot]!, score: this.scores[i]! }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
