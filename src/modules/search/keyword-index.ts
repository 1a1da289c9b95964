import { addContribution, compareBytes, finishRank, groupByTerm, lexemeContribution, parseTsvector, rankItems, rankWeights } from '../../lib/ts-rank.js';
import type { QueryLexeme, ScoredLexeme } from './search.repo.js';
import { TermArena, type TermArenaState } from './term-arena.js';
import type { ArrayLoader, ArrayMapper, NumericArray } from '../../lib/array-file.js';

/** The keyword query search.service plans: the same parameters search.repo's keywordCandidates takes. */
export interface KeywordQuery {
  /** The rarer query lexemes: a company containing one of them is a candidate. */
  match: { lexeme: string; prefix: boolean }[];
  /** Every present form of every term, with its idf (a term counts with the best idf of its forms). */
  scored: ScoredLexeme[];
  avgLength: number;
  k1: number;
  b: number;
}

/** A query term's form before its document frequency is known. */
export interface TermForm {
  term: number;
  lexeme: string;
  prefix: boolean;
}

/**
 * The keyword side of search, in process: every indexed company's search_vector (the database's tsvector,
 * read as text) as sorted lexeme ids with what each adds to ts_rank (in one TermArena for all companies),
 * postings from lexeme to companies, and document frequencies. Scores are the database's BM25F over ts_rank (search.repo keywordCandidates),
 * computed with the same single-precision steps (lib/ts-rank.ts).
 *
 * Postings are append-only: a lexeme that leaves a company's vector leaves a stale posting, skipped because
 * the company no longer holds the lexeme, and the postings are rebuilt once a third of them are stale.
 */
export class KeywordIndex {
  private readonly weights: Float32Array;
  private readonly lexemeIds = new Map<string, number>();
  private lexemes: string[] = [];
  private df = new Int32Array(1024);
  private postings: (Int32Array | undefined)[] = [];
  private postingCount = new Int32Array(1024);
  private total = 0;
  private stale = 0;
  /** Per slot: its lexeme ids ascending, with each one's ts_rank contribution (float32). */
  private readonly docs = new TermArena();
  /** Lexemes by their first `prefixLength` characters (prefix forms of query words). */
  private readonly byPrefix = new Map<string, number[]>();
  private stamp = new Int32Array(0);
  private queryNumber = 0;

  constructor(
    readonly fieldWeights: readonly [number, number, number, number],
    readonly prefixLength: number,
  ) {
    this.weights = rankWeights(fieldWeights).labels;
  }

  /** Indexes a slot's search_vector (text form); replaces what the slot held. */
  set(slot: number, searchVector: string): void {
    const entries = parseTsvector(searchVector);
    const pairs = entries.map((e) => [this.lexemeId(e.lexeme), lexemeContribution(e.labels, this.weights)] as const).sort((a, b) => a[0] - b[0]);
    const ids = Int32Array.from(pairs, (p) => p[0]);
    const ranks = Float32Array.from(pairs, (p) => p[1]);
    if (this.docs.holds(slot, ids, ranks)) return;
    const old = this.docs.idsOf(slot);
    for (const id of old) this.df[id]!--;
    this.docs.set(slot, ids, ranks);
    for (const id of ids) {
      this.df[id]!++;
      // A lexeme the slot already held keeps its posting.
      if (!contains(old, id)) this.post(id, slot);
    }
    for (const id of old) if (!contains(ids, id)) this.stale++;
    this.rebuildIfStale();
  }

  remove(slot: number): void {
    const old = this.docs.idsOf(slot);
    if (old.length === 0) return;
    for (const id of old) this.df[id]!--;
    this.stale += old.length;
    this.docs.clear(slot);
    this.rebuildIfStale();
  }

  /** Whether this index scores with these field weights and prefix length (else the database answers). */
  matches(fieldWeights: readonly number[], prefixLength: number): boolean {
    return prefixLength === this.prefixLength && fieldWeights.every((w, i) => w === this.fieldWeights[i]);
  }

  /** The document frequency of each form: of the lexeme itself, or (prefix) summed over the longer lexemes it starts. */
  frequencies(forms: readonly TermForm[]): QueryLexeme[] {
    return forms.map((f) => {
      if (!f.prefix) return { ...f, df: this.frequency(f.lexeme) };
      let df = 0;
      for (const id of this.withPrefix(f.lexeme)) if (this.lexemes[id] !== f.lexeme) df += this.df[id]!;
      return { ...f, df };
    });
  }

  private frequency(lexeme: string): number {
    const id = this.lexemeIds.get(lexeme);
    return id === undefined ? 0 : this.df[id]!;
  }

  /**
   * Calls `found` with the indexed slots that hold one of `q.match` and pass `accept`, at most `cap` of them,
   * and their scores: for each term, idf · r · (k1 + 1) / (r + k1 · (1 − b + b · length / avgLength)), r being
   * ts_rank of the term's forms times the largest field weight, as search.repo computes it. A prefix form also
   * matches the word itself (as in the database); the companies holding only that word, usually the common
   * part, are taken last. Below the cap these are the database's candidates; above it the database takes
   * `cap` of them in storage order.
   */
  score(q: KeywordQuery, accept: (slot: number) => boolean, cap: number, found: (slot: number, score: number) => void): void {
    if (q.match.length === 0 || q.scored.length === 0) return;
    const number = this.nextQuery();
    const candidates: number[] = [];
    const collect = (id: number) => {
      const list = this.postings[id];
      const count = this.postingCount[id]!;
      for (let i = 0; i < count && candidates.length < cap; i++) {
        const slot = list![i]!;
        if (this.stamp[slot] === number) continue;
        if (this.docs.indexOf(slot, id) < 0 || !accept(slot)) continue;
        this.stamp[slot] = number;
        candidates.push(slot);
      }
    };
    const wordsOfPrefixes: number[] = [];
    for (const m of q.match) {
      if (!m.prefix) {
        for (const id of this.exact(m.lexeme)) collect(id);
        continue;
      }
      for (const id of this.withPrefix(m.lexeme)) {
        if (this.lexemes[id] === m.lexeme) wordsOfPrefixes.push(id);
        else collect(id);
      }
    }
    for (const id of wordsOfPrefixes) collect(id);
    if (candidates.length === 0) return;
    // Per term: its best idf and its items, each resolved to the lexeme ids it matches (in byte order).
    const terms = groupByTerm(q.scored).map((t) => {
      const items = rankItems(t.forms);
      return {
        idf: t.idf,
        size: items.length,
        ids: items.map((it) => (it.prefix ? [...this.withPrefix(it.lexeme)].sort((a, b) => compareBytes(this.lexemes[a]!, this.lexemes[b]!)) : this.exact(it.lexeme))),
      };
    });
    const { scale } = rankWeights(this.fieldWeights);
    const { k1, b, avgLength } = q;
    const docs = this.docs;
    for (const slot of candidates) {
      const base = docs.offset(slot);
      const length = docs.length(slot);
      const norm = 1 - b + (b * length) / avgLength;
      let score = 0;
      for (const t of terms) {
        let sum = 0;
        for (const ids of t.ids) {
          for (const id of ids) {
            const at = docs.indexOf(slot, id);
            if (at >= 0) sum = addContribution(sum, docs.ranks[base + at]!);
          }
        }
        const r = finishRank(sum, t.size) * scale;
        if (r > 0) score += (t.idf * r * (k1 + 1)) / (r + k1 * norm);
      }
      found(slot, score);
    }
  }

  /** What a snapshot keeps (search-index.ts writeSnapshot): the JSON part and the arrays, named under `prefix`. */
  exportState(prefix: string): { meta: KeywordIndexState; arrays: Record<string, NumericArray> } {
    const n = this.lexemes.length;
    const counts = this.postingCount.subarray(0, n);
    const postings = new Int32Array(this.total);
    let at = 0;
    for (let id = 0; id < n; id++) {
      const list = this.postings[id];
      if (list) postings.set(list.subarray(0, counts[id]!), at);
      at += counts[id]!;
    }
    const arena = this.docs.exportState();
    return {
      meta: { fieldWeights: [...this.fieldWeights], prefixLength: this.prefixLength, lexemes: this.lexemes, total: this.total, stale: this.stale, arena: arena.meta },
      arrays: {
        [`${prefix}df`]: this.df.subarray(0, n), [`${prefix}counts`]: counts, [`${prefix}postings`]: postings,
        [`${prefix}ids`]: arena.arrays.ids, [`${prefix}ranks`]: arena.arrays.ranks, [`${prefix}starts`]: arena.arrays.starts, [`${prefix}lengths`]: arena.arrays.lengths,
      },
    };
  }

  /**
   * Restores what exportState kept into this empty index (built with the same settings; the caller checks), with room
   * for `slotRoom` slots. The postings are views of one array, each copied when it grows.
   */
  async restoreState(meta: KeywordIndexState, load: ArrayLoader, slotRoom: number): Promise<void> {
    const n = meta.lexemes.length;
    const room = Math.max(1024, n + (n >> 4));
    this.df = (await load('df', room)) as Int32Array<ArrayBuffer>;
    this.postingCount = (await load('counts', room)) as Int32Array<ArrayBuffer>;
    this.viewPostings((await load('postings')) as Int32Array, n);
    this.lexemes = meta.lexemes;
    meta.lexemes.forEach((lexeme, id) => {
      this.lexemeIds.set(lexeme, id);
      this.addPrefix(lexeme, id);
    });
    this.total = meta.total;
    this.stale = meta.stale;
    await this.docs.restoreState(meta.arena, load, slotRoom);
  }

  /**
   * Reads the postings and the per-company terms in place from the snapshot just written of this very state
   * (exportState's arrays; the caller knows nothing was written since).
   */
  mapArrays(map: ArrayMapper): void {
    const postings = map('postings', this.total);
    if (postings instanceof Int32Array && postings.length === this.total) this.viewPostings(postings, this.lexemes.length);
    this.docs.mapArrays(map);
  }

  /** Each lexeme's posting list as a view of `postings` (exportState's order), copied when it grows. */
  private viewPostings(postings: Int32Array, n: number): void {
    this.postings = new Array(n);
    let at = 0;
    for (let id = 0; id < n; id++) {
      const count = this.postingCount[id]!;
      this.postings[id] = count > 0 ? postings.subarray(at, at + count) : undefined;
      at += count;
    }
  }

  private exact(lexeme: string): number[] {
    const id = this.lexemeIds.get(lexeme);
    return id === undefined ? [] : [id];
  }

  /** Lexeme ids starting with `prefix` (itself included). */
  private *withPrefix(prefix: string): Iterable<number> {
    const chars = Array.from(prefix);
    if (chars.length < this.prefixLength) {
      for (let id = 0; id < this.lexemes.length; id++) if (this.lexemes[id]!.startsWith(prefix)) yield id;
      return;
    }
    for (const id of this.byPrefix.get(chars.slice(0, this.prefixLength).join('')) ?? []) if (this.lexemes[id]!.startsWith(prefix)) yield id;
  }

  private lexemeId(lexeme: string): number {
    let id = this.lexemeIds.get(lexeme);
    if (id !== undefined) return id;
    id = this.lexemes.length;
    this.lexemes.push(lexeme);
    this.lexemeIds.set(lexeme, id);
    if (id >= this.df.length) {
      this.df = grown(this.df, id + 1);
      this.postingCount = grown(this.postingCount, id + 1);
    }
    this.addPrefix(lexeme, id);
    return id;
  }

  private addPrefix(lexeme: string, id: number): void {
    const chars = Array.from(lexeme);
    if (chars.length < this.prefixLength) return;
    const key = chars.slice(0, this.prefixLength).join('');
    const bucket = this.byPrefix.get(key);
    if (bucket) bucket.push(id);
    else this.byPrefix.set(key, [id]);
  }

  private post(id: number, slot: number): void {
    const count = this.postingCount[id]!;
    let list = this.postings[id];
    if (!list || count === list.length) {
      const next = new Int32Array(Math.max(4, count * 2));
      if (list) next.set(list);
      this.postings[id] = list = next;
    }
    list[count] = slot;
    this.postingCount[id] = count + 1;
    this.total++;
  }

  private rebuildIfStale(): void {
    if (this.stale * 3 <= this.total || this.total < 4096) return;
    this.postings = [];
    this.postingCount.fill(0);
    this.total = 0;
    this.stale = 0;
    const docs = this.docs;
    for (let slot = 0; slot < docs.slots; slot++) {
      const base = docs.offset(slot);
      for (let i = 0; i < docs.length(slot); i++) this.post(docs.ids[base + i]!, slot);
    }
  }

  private nextQuery(): number {
    if (this.stamp.length < this.docs.slots) this.stamp = grown(this.stamp, this.docs.slots);
    if (this.queryNumber === 0x7fffffff) {
      this.stamp.fill(0);
      this.queryNumber = 0;
    }
    return ++this.queryNumber;
  }
}

/** The JSON part of a keyword index's snapshot. */
export interface KeywordIndexState {
  fieldWeights: number[];
  prefixLength: number;
  lexemes: string[];
  total: number;
  stale: number;
  arena: TermArenaState;
}

function grown(a: Int32Array, min: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(min, a.length * 2));
  next.set(a);
  return next;
}

/** Position of lexeme id `id` in sorted ids, or -1. */
function indexOf(ids: Int32Array, id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = ids[mid]!;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function contains(ids: Int32Array, id: number): boolean {
  return indexOf(ids, id) >= 0;
}
