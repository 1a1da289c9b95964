import type { ArrayLoader, ArrayMapper } from '../../lib/array-file.js';

/**
 * Every slot's terms for the keyword index in two shared arrays instead of one small typed array per company
 * (whose object and allocation cost about as much as the terms themselves): a slot's lexeme ids, ascending, at
 * `ids[offset(slot) .. offset(slot) + length(slot)]`, each one's ts_rank contribution at the same place in `ranks`.
 * A slot that is rewritten with no more terms than it had keeps its place; otherwise it moves to the end, and the
 * arrays are compacted once a third of them are left behind. A slot of no terms holds nothing.
 */
export class TermArena {
  ids = new Int32Array(1 << 12);
  ranks = new Float32Array(1 << 12);
  private starts = new Uint32Array(1024);
  private lengths = new Uint32Array(1024);
  private end = 0;
  private garbage = 0;
  /** One past the highest slot ever written. */
  slots = 0;

  offset(slot: number): number {
    return this.starts[slot] ?? 0;
  }

  length(slot: number): number {
    return this.lengths[slot] ?? 0;
  }

  /** Position of lexeme `id` among the slot's terms, or -1 (a binary search). */
  indexOf(slot: number, id: number): number {
    const base = this.offset(slot);
    let lo = 0;
    let hi = this.length(slot) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.ids[base + mid]!;
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** A copy of the slot's lexeme ids. */
  idsOf(slot: number): Int32Array {
    const base = this.offset(slot);
    return this.ids.slice(base, base + this.length(slot));
  }

  /** Whether the slot holds exactly these terms. */
  holds(slot: number, ids: Int32Array, ranks: Float32Array): boolean {
    const n = this.length(slot);
    if (n !== ids.length) return false;
    const base = this.offset(slot);
    for (let i = 0; i < n; i++) if (this.ids[base + i] !== ids[i] || !Object.is(this.ranks[base + i], ranks[i])) return false;
    return true;
  }

  set(slot: number, ids: Int32Array, ranks: Float32Array): void {
    if (slot >= this.starts.length) {
      const size = Math.max(slot + 1, Math.ceil(this.starts.length * 1.5));
      this.starts = grownTo(this.starts, size);
      this.lengths = grownTo(this.lengths, size);
    }
    this.slots = Math.max(this.slots, slot + 1);
    const old = this.lengths[slot]!;
    let base = this.starts[slot]!;
    if (ids.length > old) {
      if (this.end + ids.length > this.ids.length) this.reserve(ids.length);
      base = this.end;
      this.end += ids.length;
      this.garbage += old;
    } else this.garbage += old - ids.length;
    this.ids.set(ids, base);
    this.ranks.set(ranks, base);
    this.starts[slot] = base;
    this.lengths[slot] = ids.length;
  }

  clear(slot: number): void {
    if (slot >= this.slots) return;
    this.garbage += this.lengths[slot]!;
    this.lengths[slot] = 0;
    if (this.garbage * 3 > this.end && this.garbage > 1 << 16) this.compact(0);
  }

  /** What a snapshot keeps: the counters, and the arrays up to what is written. */
  exportState(): { meta: TermArenaState; arrays: { ids: Int32Array; ranks: Float32Array; starts: Uint32Array; lengths: Uint32Array } } {
    return {
      meta: { end: this.end, garbage: this.garbage, slots: this.slots },
      arrays: { ids: this.ids.subarray(0, this.end), ranks: this.ranks.subarray(0, this.end), starts: this.starts.subarray(0, this.slots), lengths: this.lengths.subarray(0, this.slots) },
    };
  }

  /**
   * Restores a snapshot into this empty arena, with room for `slotRoom` slots and a twentieth more terms, so that
   * the first writes after a restart do not copy the whole arena to grow it.
   */
  async restoreState(meta: TermArenaState, load: ArrayLoader, slotRoom: number): Promise<void> {
    const terms = Math.max(1 << 12, Math.ceil(meta.end * 1.05) + 4096);
    const slots = Math.max(1024, slotRoom, meta.slots);
    this.ids = (await load('ids', terms)) as Int32Array<ArrayBuffer>;
    this.ranks = (await load('ranks', terms)) as Float32Array<ArrayBuffer>;
    this.starts = (await load('starts', slots)) as Uint32Array<ArrayBuffer>;
    this.lengths = (await load('lengths', slots)) as Uint32Array<ArrayBuffer>;
    this.end = meta.end;
    this.garbage = meta.garbage;
    this.slots = meta.slots;
  }

  /**
   * Reads the terms in place from the snapshot just written of this very state (exportState's arrays; the caller
   * knows nothing was written since), keeping the room the arrays have.
   */
  mapArrays(map: ArrayMapper): void {
    const ids = map('ids', this.ids.length);
    const ranks = map('ranks', this.ranks.length);
    if (ids instanceof Int32Array && ranks instanceof Float32Array) {
      this.ids = ids as Int32Array<ArrayBuffer>;
      this.ranks = ranks as Float32Array<ArrayBuffer>;
    }
  }

  get bytes(): number {
    return this.ids.byteLength + this.ranks.byteLength + this.starts.byteLength + this.lengths.byteLength;
  }

  /** Room for `more` terms at the end: compacted when a third is garbage, else grown by half. */
  private reserve(more: number): void {
    if (this.garbage * 3 > this.end && this.garbage > 1 << 16) this.compact(more);
    if (this.end + more <= this.ids.length) return;
    const size = Math.max(this.end + more, Math.ceil(this.ids.length * 1.5));
    this.ids = grownTo(this.ids, size);
    this.ranks = grownTo(this.ranks, size);
  }

  /** Copies every slot's terms, in slot order, into arrays of the live size (plus `more`). */
  private compact(more: number): void {
    const live = this.end - this.garbage;
    const size = Math.max(1 << 12, Math.ceil((live + more) * 1.25));
    const ids = new Int32Array(size);
    const ranks = new Float32Array(size);
    let at = 0;
    for (let slot = 0; slot < this.slots; slot++) {
      const n = this.lengths[slot]!;
      const base = this.starts[slot]!;
      ids.set(this.ids.subarray(base, base + n), at);
      ranks.set(this.ranks.subarray(base, base + n), at);
      this.starts[slot] = at;
      at += n;
    }
    this.ids = ids;
    this.ranks = ranks;
    this.end = at;
    this.garbage = 0;
  }
}

function grownTo<T extends Int32Array | Uint32Array | Float32Array>(a: T, size: number): T {
  const next = new (a.constructor as new (n: number) => T)(size);
  next.set(a.subarray(0, Math.min(a.length, size)));
  return next;
}

/** The counters of a term arena's snapshot. */
export interface TermArenaState {
  end: number;
  garbage: number;
  slots: number;
}
