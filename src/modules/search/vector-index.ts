import type { ScoredId, SearchFilters, VectorSourceRow } from './search.repo.js';
import type { Graph } from './vector-graph.js';
import { trigramSequence, wordSimilarity, WORD_SIMILARITY_THRESHOLD, type WordCharacters } from '../../lib/trigram.js';
import { NameIndex } from './name-index.js';
import { KeywordIndex, type KeywordQuery } from './keyword-index.js';
import { loadNativeKernels, type DotRows } from '../../platform/native.js';

/**
 * The semantic side of search, in process: every live company's unit-length embedding in one
 * Float32Array (shared memory, so the HNSW builder thread reads it without a copy) plus the
 * columns the search filters read. PostgreSQL stays the source of truth; vector-sync.ts keeps
 * this copy in step with it before any search that reads a newer corpus version.
 *
 * How a query is answered:
 * - filters leaving at most `exactBelow` companies (and any directory that small): an exact scan
 *   of those rows, complete, the same answer as PostgreSQL's exact scan;
 * - otherwise the HNSW graph (usearch, int8-quantised), asked for more neighbours than needed
 *   (more still when filters drop some), every candidate re-scored exactly from the float
 *   vectors; when too few candidates pass the filters, the exact scan answers instead;
 * - with `chooseByCost`, a filter leaving more than `exactBelow` (and at most half the directory)
 *   is still scanned exactly when rows × measured cost per row is below neighbours asked ×
 *   measured cost per neighbour: the scan is complete, so it is preferred whenever it is cheaper.
 * `undefined` means "ask the database" (the graph is being built, or a filter this index does
 * not evaluate: updated_since).
 */
export interface VectorIndexOptions {
  dimensions: number;
  /** At most this many matching companies: an exact scan (0.5 µs per company at 512 dimensions). */
  exactBelow: number;
  /** HNSW candidates asked for per result wanted, before filters. */
  oversample: number;
  /**
   * Above `exactBelow`, still scan a filter's rows exactly when that is expected to cost less than the
   * graph search it replaces, by the costs this index measured (per row scanned, per neighbour asked).
   */
  chooseByCost?: boolean;
  /** Exact scans through the native kernel when it was built (default true). */
  nativeKernels?: boolean;
}

/** Most slots kept across cached filter matches (16 MB of Int32): older entries go first. */
const MATCH_SLOTS_BUDGET = 4_000_000;

/** One company as the index receives it (removed, or without an embedding: not indexed). */
export type VectorRow = VectorSourceRow;

/** The slots of the companies a filter leaves, cached per filter while nothing changes. */
type Matches = { slots: Int32Array; count: number };

const EARTH_DIAMETER_KM = 12742;
const rad = (d: number) => (d * Math.PI) / 180;

export class VectorIndex {
  readonly dimensions: number;
  private options: VectorIndexOptions;
  private capacity = 0;
  private matrix: Float32Array<ArrayBufferLike> = new Float32Array(0);
  private readonly slotOf = new Map<string, number>();
  private idOf: string[] = [];
  private live = new Uint8Array(0);
  private readonly free: number[] = [];
  private used = 0;
  private category: string[] = [];
  private countryCode: string[] = [];
  private country: string[] = [];
  private city: string[] = [];
  private industry: string[] = [];
  private serviceType: string[] = [];
  private verified = new Uint8Array(0);
  private latitude = new Float64Array(0);
  private longitude = new Float64Array(0);
  /** Bumped by every write: cached filter matches are valid for one generation. */
  private generation = 0;
  private readonly matchCache = new Map<string, { generation: number; matches: Matches }>();
  private matchSlots = 0;
  /** Reused while collecting matches (one allocation per directory size, not per filter). */
  private scratch = new Int32Array(0);
  /** The native exact-scan kernel (platform/native.ts), when built; else the JavaScript loop. */
  private readonly dotRows: DotRows | undefined;
  private dotScratch = new Float64Array(0);
  /**
   * Measured costs (µs, moving averages) of the two ways to answer a filtered query: per row of an exact
   * scan, per neighbour asked of the graph. They start from this machine's figures at 100k companies and
   * follow the directory as it grows (a graph search costs more per neighbour in a larger graph).
   */
  private scanCost: number;
  private graphCost = 4;
  /** How many filtered searches above exactBelow each path answered (tests read it). */
  readonly paths = { scan: 0, graph: 0, fallback: 0 };
  private graph: Graph | undefined;
  /** Slots written while a graph was being built from a snapshot of the matrix. */
  private readonly changedDuringBuild = new Set<number>();
  private building = false;
  /** Trigram postings of the names (the name side of search), once the database's word characters are known. */
  private nameIndex: NameIndex | undefined;
  /** Lexeme postings of the search vectors (the keyword side of search), once asked for. */
  private keywordIndex: KeywordIndex | undefined;

  constructor(options: VectorIndexOptions) {
    this.options = options;
    this.dimensions = options.dimensions;
    this.dotRows = loadNativeKernels(options.nativeKernels !== false)?.dotRows;
    this.scanCost = this.dotRows ? 0.3 : 1;
    this.grow(1024);
  }

  /** Changes the HNSW oversampling (benchmarks compare settings on one loaded index). */
  tune(options: Pick<VectorIndexOptions, 'oversample'>): void {
    this.options = { ...this.options, ...options };
  }

  /** Starts indexing names, with the database's word characters (pg_trgm follows its locale). */
  indexNames(wordChars: WordCharacters): void {
    this.nameIndex ??= new NameIndex(wordChars);
  }

  /** Starts indexing search vectors for the keyword side, scored with these field weights and prefix length. */
  indexKeywords(fieldWeights: readonly [number, number, number, number], prefixLength: number): void {
    this.keywordIndex ??= new KeywordIndex(fieldWeights, prefixLength);
  }

  /** The keyword index when it scores with these settings (the search's tuning), else undefined. */
  keywordsFor(fieldWeights: readonly number[], prefixLength: number): KeywordIndex | undefined {
    return this.keywordIndex?.matches(fieldWeights, prefixLength) ? this.keywordIndex : undefined;
  }

  /** Live companies in the index. */
  get size(): number {
    return this.slotOf.size;
  }

  get hasGraph(): boolean {
    return this.graph !== undefined;
  }

  private grow(min: number) {
    const capacity = Math.max(min, this.capacity === 0 ? 0 : Math.ceil(this.capacity * 1.5), 1024);
    const d = this.dimensions;
    const matrix = new Float32Array(new SharedArrayBuffer(capacity * d * 4));
    matrix.set(this.matrix.subarray(0, this.used * d));
    this.matrix = matrix;
    const live = new Uint8Array(capacity);
    live.set(this.live);
    this.live = live;
    const verified = new Uint8Array(capacity);
    verified.set(this.verified);
    this.verified = verified;
    const latitude = new Float64Array(capacity);
    latitude.set(this.latitude);
    this.latitude = latitude;
    const longitude = new Float64Array(capacity);
    longitude.set(this.longitude);
    this.longitude = longitude;
    this.capacity = capacity;
  }

  /**
   * Room for `rows` companies in one allocation: growing step by step through a large load would
   * hold the old and the new matrix at once, which sets the process's peak memory.
   */
  reserve(rows: number): void {
    if (rows > this.capacity) this.grow(rows);
  }

  /** Adds, replaces or removes one company (removed, or without an embedding: not indexed). */
  apply(row: VectorRow): void {
    if (row.removed || !row.vector) return this.remove(row.id);
    if (row.vector.length !== this.dimensions) return this.remove(row.id);
    let slot = this.slotOf.get(row.id);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.used++;
      if (slot >= this.capacity) this.grow(slot + 1);
      this.slotOf.set(row.id, slot);
      this.idOf[slot] = row.id;
    }
    const d = this.dimensions;
    let norm = 0;
    for (let i = 0; i < d; i++) norm += row.vector[i]! * row.vector[i]!;
    norm = Math.sqrt(norm) || 1;
    const base = slot * d;
    for (let i = 0; i < d; i++) this.matrix[base + i] = row.vector[i]! / norm;
    this.live[slot] = 1;
    this.category[slot] = row.category.toLowerCase();
    this.countryCode[slot] = row.countryCode;
    this.country[slot] = row.country.toLowerCase();
    this.city[slot] = row.city.toLowerCase();
    this.industry[slot] = row.industry.toLowerCase();
    this.serviceType[slot] = row.serviceType;
    this.verified[slot] = row.verified ? 1 : 0;
    this.latitude[slot] = row.latitude ?? NaN;
    this.longitude[slot] = row.longitude ?? NaN;
    this.nameIndex?.set(slot, row.name);
    this.keywordIndex?.set(slot, row.searchVector);
    this.generation++;
    if (this.building) this.changedDuringBuild.add(slot);
    if (this.graph) {
      const key = BigInt(slot);
      if (this.graph.contains(key)) this.graph.remove(key);
      this.graph.add(key, this.matrix.subarray(base, base + d));
    }
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.live[slot] = 0;
    this.nameIndex?.remove(slot);
    this.keywordIndex?.remove(slot);
    this.free.push(slot);
    this.generation++;
    if (this.building) this.changedDuringBuild.add(slot);
    if (this.graph) {
      const key = BigInt(slot);
      if (this.graph.contains(key)) this.graph.remove(key);
    }
  }

  /** The shared matrix and live slots, for a builder thread (a snapshot: later writes are tracked). */
  snapshotForBuild(): { matrix: Float32Array<ArrayBufferLike>; slots: Int32Array } {
    this.building = true;
    this.changedDuringBuild.clear();
    const slots = new Int32Array(this.slotOf.size);
    let n = 0;
    for (const slot of this.slotOf.values()) slots[n++] = slot;
    return { matrix: this.matrix, slots };
  }

  /** Installs a graph built from snapshotForBuild() and replays the writes made meanwhile. */
  installGraph(graph: Graph): void {
    this.building = false;
    this.graph = graph;
    const d = this.dimensions;
    for (const slot of this.changedDuringBuild) {
      const key = BigInt(slot);
      if (graph.contains(key)) graph.remove(key);
      if (this.live[slot]) graph.add(key, this.matrix.subarray(slot * d, (slot + 1) * d));
    }
    this.changedDuringBuild.clear();
  }

  buildFailed(): void {
    this.building = false;
    this.changedDuringBuild.clear();
  }

  /** Drops the graph (a large batch of writes is cheaper to rebuild than to apply one by one). */
  dropGraph(): void {
    this.graph = undefined;
  }

  /** Companies most similar to `query` (unit length or not) that pass `filters`; score = cosine similarity. */
  search(query: Float32Array, filters: SearchFilters, limit: number): ScoredId[] | undefined {
    // Changed-since filters compare timestamps at microsecond precision: the database answers those.
    if (filters.updatedSince) return undefined;
    const q = this.unit(query);
    const filtered = hasFilters(filters);
    const matches = filtered ? this.matching(filters) : undefined;
    const count = matches ? matches.count : this.slotOf.size;
    if (count === 0) return [];
    if (count <= this.options.exactBelow) return matches ? this.timedExact(q, matches, limit) : this.exact(q, undefined, limit);
    if (!this.graph) return undefined;
    // Ask the graph for enough neighbours that `limit` of them pass the filters (in expectation, with margin).
    const share = count / this.slotOf.size;
    const want = Math.min(this.slotOf.size, Math.ceil((limit * this.options.oversample) / share));
    // The filter's rows are at hand (matching() kept them): a scan can answer, now or as the fallback.
    const scannable = matches && matches.slots.length === count ? matches : undefined;
    if (scannable && this.options.chooseByCost && count * this.scanCost < want * this.graphCost) {
      this.paths.scan++;
      return this.timedExact(q, scannable, limit);
    }
    const started = performance.now();
    const found = this.graph.search(q, want, 1);
    const accept = filtered ? this.predicate(filters) : undefined;
    const heap = new TopK(limit, this.idOf);
    let passed = 0;
    for (let i = 0; i < found.keys.length; i++) {
      const slot = Number(found.keys[i]);
      if (slot < 0 || slot >= this.used || !this.live[slot]) continue;
      if (accept && !accept(slot)) continue;
      passed++;
      heap.push(slot, this.dot(q, slot));
    }
    if (filtered) {
      this.graphCost = 0.9 * this.graphCost + (0.1 * (performance.now() - started) * 1000) / want;
      this.paths.graph++;
    }
    // Too few passed (a filter that the nearest neighbours rarely meet): the exact scan is complete.
    if (passed < Math.min(limit, count)) {
      this.paths.fallback++;
      return scannable ? this.timedExact(q, scannable, limit) : this.exact(q, undefined, limit, accept);
    }
    return heap.sorted();
  }

  /**
   * Companies whose name is word-similar to `query` and that pass `filters`, best first: what the database's
   * `word_similarity(query, lower(name))` with `lower(name) %> query` answers (search.repo nameCandidates).
   * `undefined`: ask the database (names not indexed, or a filter this index does not evaluate).
   */
  names(query: string, filters: SearchFilters, limit: number): ScoredId[] | undefined {
    const names = this.nameIndex;
    if (!names || filters.updatedSince) return undefined;
    const q = new Set(trigramSequence(query, names.wordChars));
    if (q.size === 0) return [];
    const accept = hasFilters(filters) ? this.predicate(filters) : undefined;
    const heap = new TopK(limit, this.idOf);
    // Similarity is at most shared / |q|: fewer shared trigrams cannot reach the threshold.
    for (const slot of names.candidates(q, Math.ceil(WORD_SIMILARITY_THRESHOLD * q.size - 1e-6))) {
      if (!this.live[slot] || (accept && !accept(slot))) continue;
      const score = wordSimilarity(q, trigramSequence(names.nameOf(slot)!, names.wordChars));
      if (score >= WORD_SIMILARITY_THRESHOLD) heap.push(slot, score);
    }
    return heap.sorted();
  }

  /**
   * The best `limit` companies for a keyword query that pass `filters`: what search.repo's keywordCandidates
   * answers. `undefined`: ask the database (search vectors not indexed, or a filter this index does not evaluate).
   */
  keywords(keywords: KeywordIndex, q: KeywordQuery, filters: SearchFilters, limit: number, cap: number): ScoredId[] | undefined {
    if (filters.updatedSince) return undefined;
    const accept = hasFilters(filters) ? this.predicate(filters) : undefined;
    const heap = new TopK(limit, this.idOf);
    keywords.score(q, (slot) => this.live[slot] === 1 && (!accept || accept(slot)), cap, (slot, score) => heap.push(slot, score));
    return heap.sorted();
  }

  private unit(v: Float32Array): Float32Array {
    let norm = 0;
    for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
    norm = Math.sqrt(norm) || 1;
    const out = new Float32Array(this.dimensions);
    for (let i = 0; i < this.dimensions; i++) out[i] = (v[i] ?? 0) / norm;
    return out;
  }

  private dot(q: Float32Array, slot: number): number {
    const m = this.matrix;
    const d = this.dimensions;
    const base = slot * d;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < d; i += 4) {
      s0 += m[base + i]! * q[i]!;
      s1 += m[base + i + 1]! * q[i + 1]!;
      s2 += m[base + i + 2]! * q[i + 2]!;
      s3 += m[base + i + 3]! * q[i + 3]!;
    }
    for (; i < d; i++) s0 += m[base + i]! * q[i]!;
    return s0 + s1 + s2 + s3;
  }

  /** An exact scan of a filter's rows, its cost per row folded into the moving average. */
  private timedExact(q: Float32Array, matches: Matches, limit: number): ScoredId[] {
    const started = performance.now();
    const out = this.exact(q, matches, limit);
    if (matches.count > 0) this.scanCost = 0.9 * this.scanCost + (0.1 * (performance.now() - started) * 1000) / matches.count;
    return out;
  }

  /** Scores the matched slots, or every live slot that `accept` lets through. */
  private exact(q: Float32Array, matches: Matches | undefined, limit: number, accept?: (slot: number) => boolean): ScoredId[] {
    const heap = new TopK(limit, this.idOf);
    if (matches && this.dotRows && q.length === this.dimensions) {
      // Native: the dot products of every matching row in one call (about 3.5x the JavaScript loop's speed).
      if (this.dotScratch.length < matches.count) this.dotScratch = new Float64Array(matches.count);
      this.dotRows(this.matrix as Float32Array, this.dimensions, matches.slots, matches.count, q, this.dotScratch);
      for (let i = 0; i < matches.count; i++) heap.push(matches.slots[i]!, this.dotScratch[i]!);
    } else if (matches) {
      for (let i = 0; i < matches.count; i++) heap.push(matches.slots[i]!, this.dot(q, matches.slots[i]!));
    } else {
      for (let slot = 0; slot < this.used; slot++) if (this.live[slot] && (!accept || accept(slot))) heap.push(slot, this.dot(q, slot));
    }
    return heap.sorted();
  }

  /** Slots passing the filters (cached until the next write). */
  private matching(filters: SearchFilters): Matches {
    const key = JSON.stringify(filters);
    const hit = this.matchCache.get(key);
    if (hit && hit.generation === this.generation) return hit.matches;
    const accept = this.predicate(filters);
    if (this.scratch.length < this.slotOf.size) this.scratch = new Int32Array(this.slotOf.size);
    let count = 0;
    for (let slot = 0; slot < this.used; slot++) if (this.live[slot] && accept(slot)) this.scratch[count++] = slot;
    // Only an exact scan reads the slots: a filter too broad to scan (more than half the directory, where the
    // graph is always cheaper) keeps its count alone; the cache keeps at most MATCH_SLOTS_BUDGET slots.
    const keepSlots = count <= this.options.exactBelow || (this.options.chooseByCost && count <= this.slotOf.size / 2);
    const matches = { slots: keepSlots ? this.scratch.slice(0, count) : new Int32Array(0), count };
    if (hit) {
      this.matchSlots -= hit.matches.slots.length;
      this.matchCache.delete(key);
    }
    this.matchCache.set(key, { generation: this.generation, matches });
    this.matchSlots += matches.slots.length;
    // Never the entry just added (it is the newest), even if it alone is over the budget.
    while (this.matchCache.size > 1 && (this.matchCache.size > 256 || this.matchSlots > MATCH_SLOTS_BUDGET)) {
      const oldest = this.matchCache.keys().next().value as string;
      this.matchSlots -= this.matchCache.get(oldest)!.matches.slots.length;
      this.matchCache.delete(oldest);
    }
    return matches;
  }

  /** The filters of search.repo.ts's whereFilters, evaluated on the in-memory columns. */
  private predicate(f: SearchFilters): (slot: number) => boolean {
    const tests: ((slot: number) => boolean)[] = [];
    if (f.category) {
      const v = f.category.toLowerCase();
      tests.push((s) => this.category[s] === v);
    }
    if (f.countryCode) {
      const v = f.countryCode;
      tests.push((s) => this.countryCode[s] === v);
    } else if (f.countryName) {
      const v = f.countryName.toLowerCase();
      tests.push((s) => this.country[s] === v);
    }
    if (f.city) {
      const v = f.city.toLowerCase();
      tests.push((s) => this.city[s] === v);
    }
    if (f.industry) {
      const v = f.industry.toLowerCase();
      tests.push((s) => this.industry[s]!.includes(v));
    }
    if (f.serviceType) {
      const v = f.serviceType;
      tests.push((s) => this.serviceType[s] === v);
    }
    if (f.verifiedOnly) tests.push((s) => this.verified[s] === 1);
    if (f.near) {
      const { latitude, longitude, radiusKm, countryCode, includeRemote } = f.near;
      const cosLat = Math.cos(rad(latitude));
      const local = (s: number) => {
        const lat = this.latitude[s]!;
        const lng = this.longitude[s]!;
        if (Number.isNaN(lat) || Number.isNaN(lng)) return false;
        const h = Math.sin(rad(lat - latitude) / 2) ** 2 + cosLat * Math.cos(rad(lat)) * Math.sin(rad(lng - longitude) / 2) ** 2;
        return EARTH_DIAMETER_KM * Math.asin(Math.min(1, Math.sqrt(h))) <= radiusKm;
      };
      if (includeRemote) {
        tests.push((s) => {
          const type = this.serviceType[s];
          return local(s) || type === 'remote' || type === 'hybrid' || (type === 'nationwide' && (this.countryCode[s] === countryCode || countryCode === ''));
        });
      } else tests.push(local);
    }
    return (slot) => {
      for (const t of tests) if (!t(slot)) return false;
      return true;
    };
  }
}

function hasFilters(f: SearchFilters): boolean {
  return Boolean(f.category || f.countryCode || f.countryName || f.city || f.industry || f.serviceType || f.verifiedOnly || f.near || f.updatedSince);
}

/** The best `k` (slot, score) pairs: a bounded min-heap, ties broken by id as the SQL ORDER BY does. */
class TopK {
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
