import { trigramSequence, type WordCharacters } from '../../lib/trigram.js';
import type { ArrayLoader, ArrayMapper, NumericArray } from '../../lib/array-file.js';

/**
 * Trigram postings of company names, by slot of the vector index: which slots' names hold a trigram. The
 * vector index asks it for the slots that share enough trigrams with a query to reach the word-similarity
 * threshold, then scores those exactly (lib/trigram.ts), as the database's GIN trigram index does before its
 * recheck.
 *
 * Postings are append-only: a renamed or removed slot leaves stale entries behind, which only add candidates
 * (every candidate is scored from its current name), and the postings are rebuilt from the current names once
 * stale entries make up a third of them.
 */
/** What reading one slot's name for its trigrams costs, in posting entries read (at 1M names the time hardly moved from 50 to 3,000). */
const NAME_CHECK_COST = 200;

export class NameIndex {
  private readonly idOf = new Map<string, number>();
  private postings: Int32Array[] = [];
  private lengths: number[] = [];
  private total = 0;
  private stale = 0;
  private counts = new Uint16Array(0);
  private readonly names: (string | undefined)[] = [];

  constructor(readonly wordChars: WordCharacters) {}

  /** The lower-cased name of a slot, as indexed. */
  nameOf(slot: number): string | undefined {
    return this.names[slot];
  }

  set(slot: number, name: string): void {
    const lowered = name.toLowerCase();
    if (this.names[slot] === lowered) return;
    if (this.names[slot] !== undefined) this.stale += new Set(trigramSequence(this.names[slot]!, this.wordChars)).size;
    this.names[slot] = lowered;
    for (const t of new Set(trigramSequence(lowered, this.wordChars))) this.post(this.trigramId(t), slot);
    if (this.stale * 3 > this.total && this.total > 1024) this.rebuild();
  }

  remove(slot: number): void {
    const name = this.names[slot];
    if (name === undefined) return;
    this.stale += new Set(trigramSequence(name, this.wordChars)).size;
    this.names[slot] = undefined;
    if (this.stale * 3 > this.total && this.total > 1024) this.rebuild();
  }

  /**
   * Slots that hold at least `minShared` of the query's distinct trigrams (a superset of the matches). Only the rarest
   * postings are read: a slot that holds `minShared` of the L trigrams the index knows misses at most L - minShared of
   * them, so it is in one of the L - minShared + 1 shortest lists (the prefix filter of set-similarity joins). Those
   * slots then count the common trigrams from their own name instead of the long lists: at 1M synthetic names
   * (`npx tsx scripts/dev/name-candidates-timing.ts`) the step takes 4.7 ms a query, against 18.3 ms when every list
   * was read, for the same candidates.
   */
  candidates(queryTrigrams: ReadonlySet<string>, minShared: number): number[] {
    if (this.counts.length < this.names.length) this.counts = new Uint16Array(Math.ceil(this.names.length * 1.25));
    const lists: { trigram: string; id: number; length: number }[] = [];
    for (const t of queryTrigrams) {
      const id = this.idOf.get(t);
      if (id !== undefined && this.lengths[id]! > 0) lists.push({ trigram: t, id, length: this.lengths[id]! });
    }
    const need = Math.max(1, minShared);
    if (lists.length < need) return [];
    lists.sort((a, b) => a.length - b.length);
    const probe = lists.length - need + 1;
    const touched: number[] = [];
    for (const { id, length } of lists.slice(0, probe)) {
      const list = this.postings[id]!;
      for (let i = 0; i < length; i++) {
        const slot = list[i]!;
        const count = this.counts[slot]!;
        if (count === 0) touched.push(slot);
        this.counts[slot] = count + 1;
      }
    }
    // The common trigrams are counted from the lists when reading them costs less than reading the touched names.
    const rest = lists.slice(probe);
    const fromLists = rest.reduce((sum, l) => sum + l.length, 0) < touched.length * NAME_CHECK_COST;
    if (fromLists) {
      for (const { id, length } of rest) {
        const list = this.postings[id]!;
        for (let i = 0; i < length; i++) {
          const slot = list[i]!;
          const count = this.counts[slot]!;
          if (count > 0) this.counts[slot] = count + 1;
        }
      }
    }
    const common = fromLists ? [] : rest.map((l) => l.trigram);
    const out: number[] = [];
    for (const slot of touched) {
      let shared = this.counts[slot]!;
      this.counts[slot] = 0;
      const name = this.names[slot];
      if (name === undefined) continue;
      if (shared < need && common.length > 0) {
        const own = new Set(trigramSequence(name, this.wordChars));
        for (const t of common) if (own.has(t) && ++shared >= need) break;
      }
      if (shared >= need) out.push(slot);
    }
    return out;
  }

  /** What a snapshot keeps (search-index.ts writeSnapshot): the JSON part and the arrays, named under `prefix`. */
  exportState(prefix: string): { meta: NameIndexState; arrays: Record<string, NumericArray> } {
    const trigrams = new Array<string>(this.postings.length);
    for (const [t, id] of this.idOf) trigrams[id] = t;
    const lengths = Int32Array.from(this.lengths);
    const postings = new Int32Array(this.total);
    let at = 0;
    this.postings.forEach((list, id) => {
      postings.set(list.subarray(0, lengths[id]!), at);
      at += lengths[id]!;
    });
    return {
      meta: { trigrams, names: this.names.map((n) => n ?? null), total: this.total, stale: this.stale },
      arrays: { [`${prefix}lengths`]: lengths, [`${prefix}postings`]: postings },
    };
  }

  /** Restores what exportState kept into this empty index (the postings are views of one array, copied when they grow). */
  async restoreState(meta: NameIndexState, load: ArrayLoader): Promise<void> {
    const lengths = (await load('lengths')) as Int32Array;
    const postings = (await load('postings')) as Int32Array;
    let at = 0;
    meta.trigrams.forEach((t, id) => {
      this.idOf.set(t, id);
      this.postings.push(postings.subarray(at, at + lengths[id]!));
      this.lengths.push(lengths[id]!);
      at += lengths[id]!;
    });
    meta.names.forEach((name, slot) => {
      if (name !== null) this.names[slot] = name;
    });
    this.total = meta.total;
    this.stale = meta.stale;
  }

  /**
   * Reads the postings in place from the snapshot just written of this very state (exportState's array; the caller
   * knows nothing was written since).
   */
  mapArrays(map: ArrayMapper): void {
    const postings = map('postings', this.total);
    if (!(postings instanceof Int32Array) || postings.length !== this.total) return;
    let at = 0;
    for (let id = 0; id < this.postings.length; id++) {
      this.postings[id] = postings.subarray(at, at + this.lengths[id]!);
      at += this.lengths[id]!;
    }
  }

  private trigramId(t: string): number {
    let id = this.idOf.get(t);
    if (id === undefined) {
      id = this.postings.length;
      this.idOf.set(t, id);
      this.postings.push(new Int32Array(4));
      this.lengths.push(0);
    }
    return id;
  }

  private post(id: number, slot: number): void {
    let list = this.postings[id]!;
    const n = this.lengths[id]!;
    if (n === list.length) {
      const grown = new Int32Array(Math.max(4, n * 2));
      grown.set(list);
      this.postings[id] = list = grown;
    }
    list[n] = slot;
    this.lengths[id] = n + 1;
    this.total++;
  }

  private rebuild(): void {
    this.lengths.fill(0);
    this.total = 0;
    this.stale = 0;
    this.names.forEach((name, slot) => {
      if (name === undefined) return;
      for (const t of new Set(trigramSequence(name, this.wordChars))) this.post(this.trigramId(t), slot);
    });
  }
}

/** The JSON part of a name index's snapshot. */
export interface NameIndexState {
  /** Trigram of each posting list, by id. */
  trigrams: string[];
  /** Lower-cased name of each slot (null: none). */
  names: (string | null)[];
  total: number;
  stale: number;
}
