import type { ScoredId, SearchFilters, VectorSourceRow } from './search.repo.js';
import type { GraphHits, VectorGraph } from './vector-graph.js';
import { trigramSequence, wordSimilarity, WORD_SIMILARITY_THRESHOLD, type WordCharacters } from '../../lib/trigram.js';
import { NameIndex } from './name-index.js';
import { KeywordIndex, type KeywordQuery } from './keyword-index.js';
import { loadNativeKernels, type DotRowsHalf, type NearestBySigns, type SignBitsHalf } from '../../platform/native.js';
import { filterPredicate, hasFilters, TextColumn, type FilterColumns } from './index-filters.js';
import { TopK } from './top-k.js';
import { unitVector } from './vector-math.js';
import { dotHalfAt, halfRow, toHalf } from '../../lib/half-float.js';
import { mapArray, writeArrayFile, type ArrayFileLayout, type ArrayFileReader, type ArrayLoader, type ArrayMapper, type MapFile, type NumericArray } from '../../lib/array-file.js';
import type { NameIndexState } from './name-index.js';
import type { KeywordIndexState } from './keyword-index.js';

/**
 * The semantic side of search, in process: every live company's unit-length embedding in one
 * matrix of half floats (binary16 in a Uint16Array: 1 KB a company at 512 dimensions; shared
 * memory, so the HNSW builder thread reads it without a copy) plus the columns the search filters
 * read, their text interned (index-filters.ts TextColumn). PostgreSQL stays the source of truth; vector-sync.ts keeps
 * this copy in step with it before any search that reads a newer corpus version.
 *
 * How a query is answered:
 * - filters leaving at most `exactBelow` companies (and any directory that small): an exact scan
 *   of those rows, complete (below `sketchScanFrom` rows), the same answer as PostgreSQL's exact scan;
 * - otherwise the HNSW graph (usearch, int8-quantised), asked for more neighbours than needed
 *   (more still when filters drop some), every candidate re-scored from the half-float vectors
 *   (a cosine within about 1e-5 of the float32 one); when too few candidates pass the filters, the exact scan answers instead;
 * - with `chooseByCost`, a filter leaving more than `exactBelow` (and at most half the directory)
 *   is still scanned exactly when rows × measured cost per row is below neighbours asked ×
 *   measured cost per neighbour: the scan is complete (or nearly: sketches), so it is preferred whenever it is cheaper.
 * A scan of at least `sketchScanFrom` rows (with the native kernels) reads each row's sign sketch first (one bit a
 * component, 64 bytes at 512 dimensions instead of 1 KB) and re-scores exactly only the rows whose sketches are
 * nearest the query's (SKETCH_KEEP): at 1M companies a place's 25k rows were 25 MB of memory read a query.
 * `undefined` means "ask the database" (the graph is being built, or a filter this index does
 * not evaluate: updated_since).
 */
export interface SearchIndexOptions {
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
  /**
   * Scans of at least this many rows read the sign sketches first and re-score only the nearest rows (default
   * 8 192; Infinity: every scan reads every row, as the benches' exact answers do).
   */
  sketchScanFrom?: number;
  /** Exact scans through the native kernel when it was built (default true). */
  nativeKernels?: boolean;
  /** Read the large arrays in place from a snapshot's file when the native mapping call is built (default true). */
  mapArrays?: boolean;
}

/**
 * How many rows a sketch scan re-scores: the larger of 24 per result asked and an eighth of the rows. Measured on
 * bench:search's synthetic directory with the evaluation queries' embeddings, the re-scored answer against the full
 * scan's: a place's rows (all kinds of companies) are told apart well by their sketches (recall@10 1.000 at 25k rows
 * keeping 2 000), a category's (alike companies) less well: at 10.6k rows, keeping 1 600, 2 400 or 3 200, recall@10
 * 0.980, 0.988, 0.996 and recall@100 0.954, 0.979, 0.991. The service asks for 100 (search.tuning semanticDepth);
 * `npm run bench:vectors -- --synthetic 200000` with this setting: that category 0.990 / 0.981, a country 1.000 / 1.000.
 */
const SKETCH_KEEP = { perResult: 24, share: 1 / 8 };
const DEFAULT_SKETCH_SCAN_FROM = 8192;

/** Most slots kept across cached filter matches (16 MB of Int32): older entries go first. */
const MATCH_SLOTS_BUDGET = 4_000_000;

/** One company as the index receives it (removed, or without an embedding: not indexed). */
export type IndexRow = VectorSourceRow;

/** The JSON part of an index snapshot (writeSnapshot). */
interface IndexSnapshotMeta {
  dimensions: number;
  used: number;
  /** The company id of each slot ('' for a free one). */
  ids: string[];
  /** Each text column's values, by code. */
  dictionaries: Record<string, readonly string[]>;
  names: NameIndexState | null;
  keywords: KeywordIndexState | null;
}

/** The arrays of a snapshot large enough to be read in place (mapped) rather than into this process's memory. */
const MAPPED_ARRAYS = ['matrix', 'keywords.postings', 'keywords.ids', 'keywords.ranks', 'names.postings'];

/** The slots of the companies a filter leaves, cached per filter while nothing changes. */
type Matches = { slots: Int32Array; count: number };

export class SearchIndex {
  readonly dimensions: number;
  private options: SearchIndexOptions;
  private capacity = 0;
  private matrix: Uint16Array<ArrayBufferLike> = new Uint16Array(0);
  private readonly slotOf = new Map<string, number>();
  private idOf: string[] = [];
  private live = new Uint8Array(0);
  private readonly free: number[] = [];
  private used = 0;
  /** The columns the filters read, one entry per slot. */
  private cols: FilterColumns = {
    category: new TextColumn(0), countryCode: new TextColumn(0), country: new TextColumn(0), city: new TextColumn(0), industry: new TextColumn(0),
    serviceType: new TextColumn(0), verified: new Uint8Array(0), latitude: new Float64Array(0), longitude: new Float64Array(0),
  };
  /** Bumped by every write: cached filter matches are valid for one generation. */
  private generation = 0;
  private readonly matchCache = new Map<string, { generation: number; matches: Matches }>();
  private matchSlots = 0;
  /** Reused while collecting matches (one allocation per directory size, not per filter). */
  private scratch = new Int32Array(0);
  /** The native exact-scan kernel (platform/native.ts), when built; else the JavaScript loop. */
  private readonly dotRows: DotRowsHalf | undefined;
  /** The sign-sketch kernels (native only) and each slot's sketch, `sketchBytes` a row. */
  private readonly sketch: { bits: SignBitsHalf; nearest: NearestBySigns } | undefined;
  private readonly sketchBytes: number;
  private signs = new Uint8Array(0);
  private querySigns: Uint8Array;
  /** The rows a sketch scan keeps for re-scoring. */
  private keptSlots = new Int32Array(0);
  /** The native mapping call, when built: the rows are then read in place from a snapshot's index file. */
  private readonly mapFile: MapFile | undefined;
  /** The matrix is a snapshot file's rows mapped in place (not a shared buffer a builder thread can read). */
  private rowsMapped = false;
  /** The index file this index wrote last, where its arrays lie in it, and the state it holds. */
  private written: { file: string; layout: ArrayFileLayout; generation: number } | undefined;
  private dotScratch = new Float64Array(0);
  /** Slots of the graph's short list that pass the filters, re-scored in one native call. */
  private rescoreSlots = new Int32Array(0);
  /**
   * Measured costs (µs, moving averages) of the two ways to answer a filtered query: per row of an exact
   * scan, per neighbour asked of the graph. They start from this machine's figures at 100k companies and
   * follow the directory as it grows (a graph search costs more per neighbour in a larger graph).
   */
  private scanCost: number;
  /** Per row of a sketch scan (its sketches read, the kept rows re-scored), which costs a fraction of a full scan's row. */
  private sketchScanCost = 0.05;
  private graphCost = 4;
  /** How many filtered searches above exactBelow each path answered (tests read it). */
  readonly paths = { scan: 0, graph: 0, fallback: 0 };
  private graph: VectorGraph | undefined;
  /** Slots written while a graph was being built from a snapshot of the matrix. */
  private readonly changedDuringBuild = new Set<number>();
  private building = false;
  private graphWriteCount = 0;
  /** Trigram postings of the names (the name side of search), once the database's word characters are known. */
  private nameIndex: NameIndex | undefined;
  /** Lexeme postings of the search vectors (the keyword side of search), once asked for. */
  private keywordIndex: KeywordIndex | undefined;

  constructor(options: SearchIndexOptions) {
    this.options = options;
    this.dimensions = options.dimensions;
    const kernels = loadNativeKernels(options.nativeKernels !== false);
    this.dotRows = kernels?.dotRowsHalf;
    this.sketch = kernels?.dotRowsHalf && kernels.signBitsHalf && kernels.nearestBySigns && options.sketchScanFrom !== Infinity
      ? { bits: kernels.signBitsHalf, nearest: kernels.nearestBySigns }
      : undefined;
    this.sketchBytes = Math.ceil(this.dimensions / 8);
    this.querySigns = new Uint8Array(this.sketchBytes);
    this.mapFile = options.mapArrays === false ? undefined : kernels?.mapFile;
    this.scanCost = this.dotRows ? 0.3 : 1;
    this.grow(1024);
  }

  /** Changes the HNSW oversampling (benchmarks compare settings on one loaded index). */
  tune(options: Pick<SearchIndexOptions, 'oversample'>): void {
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

  /** Bytes of the typed arrays this index holds, by what they hold (bench:memory; the graph is usearch's, not counted). */
  memory(): Record<string, number> {
    const c = this.cols;
    return {
      // Mapped rows are the page cache's (shared, given back under pressure), not this process's own memory.
      vectors: this.rowsMapped ? 0 : this.matrix.byteLength,
      'vectors mapped from the snapshot': this.rowsMapped ? this.used * this.dimensions * 2 : 0,
      'vector sign sketches': this.signs.byteLength,
      'filter numbers': this.live.byteLength + c.verified.byteLength + c.latitude.byteLength + c.longitude.byteLength,
      'filter text codes': Object.values(this.textColumns()).reduce((sum, column) => sum + column.bytes, 0),
    };
  }

  /** The interned text columns by name (a snapshot names its arrays and dictionaries after them). */
  private textColumns(): Record<'category' | 'countryCode' | 'country' | 'city' | 'industry' | 'serviceType', TextColumn> {
    const { category, countryCode, country, city, industry, serviceType } = this.cols;
    return { category, countryCode, country, city, industry, serviceType };
  }

  /** More room for slots; `mappedRows`, the rows mapped in place with room for `min` (restoreSnapshot), else a new shared buffer. */
  private grow(min: number, mappedRows?: Uint16Array) {
    const d = this.dimensions;
    if (mappedRows && mappedRows.length < min * d) throw new Error('grow: the mapped rows hold less room than asked for');
    const capacity = mappedRows ? mappedRows.length / d : Math.max(min, this.capacity === 0 ? 0 : Math.ceil(this.capacity * 1.5), 1024);
    if (mappedRows) {
      this.matrix = mappedRows;
      this.rowsMapped = true;
    } else this.rowsIntoSharedBuffer(capacity);
    const live = new Uint8Array(capacity);
    live.set(this.live);
    this.live = live;
    if (this.sketch) {
      const signs = new Uint8Array(capacity * this.sketchBytes);
      signs.set(this.signs);
      this.signs = signs;
    }
    const verified = new Uint8Array(capacity);
    verified.set(this.cols.verified);
    this.cols.verified = verified;
    const latitude = new Float64Array(capacity);
    latitude.set(this.cols.latitude);
    this.cols.latitude = latitude;
    const longitude = new Float64Array(capacity);
    longitude.set(this.cols.longitude);
    this.cols.longitude = longitude;
    for (const column of Object.values(this.textColumns())) column.grow(capacity);
    this.capacity = capacity;
  }

  /** The used rows copied into a new shared buffer of `capacity` rows (one a builder thread can read). */
  private rowsIntoSharedBuffer(capacity: number): void {
    const matrix = new Uint16Array(new SharedArrayBuffer(capacity * this.dimensions * 2));
    matrix.set(this.matrix.subarray(0, this.used * this.dimensions));
    this.matrix = matrix;
    this.rowsMapped = false;
  }

  /**
   * Room for `rows` companies in one allocation: growing step by step through a large load would
   * hold the old and the new matrix at once, which sets the process's peak memory.
   */
  reserve(rows: number): void {
    if (rows > this.capacity) this.grow(rows);
  }

  /** Adds, replaces or removes one company (removed, or without an embedding: not indexed). */
  apply(row: IndexRow): void {
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
    const unit = new Float32Array(d);
    for (let i = 0; i < d; i++) {
      unit[i] = row.vector[i]! / norm;
      this.matrix[base + i] = toHalf(unit[i]!);
    }
    if (this.sketch) this.sketch.bits(this.matrix as Uint16Array, d, slot, 1, this.signs);
    this.live[slot] = 1;
    this.cols.category.set(slot, row.category.toLowerCase());
    this.cols.countryCode.set(slot, row.countryCode);
    this.cols.country.set(slot, row.country.toLowerCase());
    this.cols.city.set(slot, row.city.toLowerCase());
    this.cols.industry.set(slot, row.industry.toLowerCase());
    this.cols.serviceType.set(slot, row.serviceType);
    this.cols.verified[slot] = row.verified ? 1 : 0;
    this.cols.latitude[slot] = row.latitude ?? NaN;
    this.cols.longitude[slot] = row.longitude ?? NaN;
    this.nameIndex?.set(slot, row.name);
    this.keywordIndex?.set(slot, row.searchVector);
    this.generation++;
    if (this.building) this.changedDuringBuild.add(slot);
    if (this.graph) {
      const key = BigInt(slot);
      if (this.graph.contains(key)) this.graph.remove(key);
      this.graph.add(key, unit);
      this.graphWriteCount++;
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
      this.graphWriteCount++;
    }
  }

  /** The shared matrix (half floats: vector-math halfRow reads a row) and live slots, for a builder thread (a snapshot: later writes are tracked). */
  snapshotForBuild(): { matrix: Uint16Array<ArrayBufferLike>; slots: Int32Array } {
    // A builder thread reads a shared buffer: the mapped rows are copied into one (until the next snapshot maps them).
    if (this.rowsMapped) this.rowsIntoSharedBuffer(this.capacity);
    this.building = true;
    this.changedDuringBuild.clear();
    const slots = new Int32Array(this.slotOf.size);
    let n = 0;
    for (const slot of this.slotOf.values()) slots[n++] = slot;
    return { matrix: this.matrix, slots };
  }

  /** Installs a graph built from snapshotForBuild() and replays the writes made meanwhile. */
  installGraph(graph: VectorGraph): void {
    this.building = false;
    this.graph = graph;
    const d = this.dimensions;
    for (const slot of this.changedDuringBuild) {
      const key = BigInt(slot);
      if (graph.contains(key)) graph.remove(key);
      if (this.live[slot]) graph.add(key, halfRow(this.matrix, d, slot));
    }
    this.changedDuringBuild.clear();
  }

  /**
   * Writes the whole index but its graph to `file` (lib/array-file.ts), synchronously, so that the file is one
   * state of the index: the half-float rows, the filter columns, the slots' company ids, the name and keyword
   * indexes. search-index.sync.ts keeps it with the graph and the watermark (index-snapshot.ts).
   */
  writeSnapshot(file: string): void {
    const used = this.used;
    const c = this.cols;
    const texts = this.textColumns();
    const names = this.nameIndex?.exportState('names.');
    const keywords = this.keywordIndex?.exportState('keywords.');
    const arrays: Record<string, NumericArray> = {
      matrix: this.matrix.subarray(0, used * this.dimensions) as Uint16Array,
      live: this.live.subarray(0, used), verified: c.verified.subarray(0, used), latitude: c.latitude.subarray(0, used), longitude: c.longitude.subarray(0, used),
      ...(this.sketch ? { signs: this.signs.subarray(0, used * this.sketchBytes) } : {}),
      ...Object.fromEntries(Object.entries(texts).map(([k, column]) => [`col.${k}`, column.slots.subarray(0, used)])),
      ...names?.arrays,
      ...keywords?.arrays,
    };
    const meta: IndexSnapshotMeta = {
      dimensions: this.dimensions, used, ids: this.slotIds(),
      dictionaries: Object.fromEntries(Object.entries(texts).map(([k, column]) => [k, column.dictionary()])),
      names: names?.meta ?? null, keywords: keywords?.meta ?? null,
    };
    this.written = { file, layout: writeArrayFile(file, meta, arrays, MAPPED_ARRAYS), generation: this.generation };
  }

  /**
   * Reads the large arrays (the rows, the keyword and name postings, the per-company terms) in place from `file`, the
   * index file this index wrote last, when nothing was written since, instead of holding them in this process's own
   * memory. False, with everything kept as it is, when the rows cannot be mapped (no native call, another file, a
   * write since, a graph being built from the rows).
   */
  mapSnapshotArrays(file: string): boolean {
    const written = this.written;
    if (!this.mapFile || !written || written.file !== file || written.generation !== this.generation || this.building) return false;
    const mapFile = this.mapFile;
    const mapper = (prefix: string): ArrayMapper => (name, capacity) => mapArray(file, written.layout, `${prefix}${name}`, capacity ?? 0, mapFile);
    const rows = mapper('')('matrix', this.capacity * this.dimensions);
    if (!(rows instanceof Uint16Array)) return false;
    this.matrix = rows;
    this.rowsMapped = true;
    this.keywordIndex?.mapArrays(mapper('keywords.'));
    this.nameIndex?.mapArrays(mapper('names.'));
    return true;
  }

  /** Whether the rows are read in place from a snapshot file (tests, bench:memory). */
  get mappedRows(): boolean {
    return this.rowsMapped;
  }

  /**
   * Restores what writeSnapshot wrote into this empty index, which must index names and keywords exactly when the
   * snapshot did (the caller checks the settings), with a twentieth more room than it holds.
   */
  async restoreSnapshot(reader: ArrayFileReader): Promise<void> {
    if (this.used !== 0) throw new Error('restoreSnapshot: the index is not empty');
    const meta = reader.meta as IndexSnapshotMeta;
    if (meta.dimensions !== this.dimensions || meta.ids.length !== meta.used) throw new Error('restoreSnapshot: another shape');
    if (!!meta.names !== !!this.nameIndex || !!meta.keywords !== !!this.keywordIndex) throw new Error('restoreSnapshot: other indexes');
    const live = meta.ids.reduce((n, id) => n + (id ? 1 : 0), 0);
    const room = Math.max(meta.used, Math.ceil(live * 1.05) + 1024, this.capacity);
    // The rows are read in place from the file when they can be (mapped: the page cache's, not this process's).
    const mapped = this.mapFile ? (reader.map('matrix', room * this.dimensions, this.mapFile) as Uint16Array | undefined) : undefined;
    this.grow(room, mapped);
    const c = this.cols;
    if (!mapped) await reader.readInto('matrix', this.matrix as Uint16Array);
    await reader.readInto('live', this.live);
    await reader.readInto('verified', c.verified);
    await reader.readInto('latitude', c.latitude);
    await reader.readInto('longitude', c.longitude);
    if (this.sketch) {
      // Sketches from a snapshot written without them (or by another build) are made from the rows.
      if (reader.has('signs') && reader.length('signs') === meta.used * this.sketchBytes) await reader.readInto('signs', this.signs);
      else this.sketch.bits(this.matrix as Uint16Array, this.dimensions, 0, meta.used, this.signs);
    }
    const texts = this.textColumns();
    for (const [k, column] of Object.entries(texts)) {
      await reader.readInto(`col.${k}`, column.slots);
      column.restoreDictionary(meta.dictionaries[k] ?? []);
    }
    // The large arrays are mapped in place when they can be, like the rows.
    const loader = (prefix: string): ArrayLoader => (name, capacity) => reader.load(`${prefix}${name}`, capacity, this.mapFile);
    if (meta.names && this.nameIndex) await this.nameIndex.restoreState(meta.names, loader('names.'));
    if (meta.keywords && this.keywordIndex) await this.keywordIndex.restoreState(meta.keywords, loader('keywords.'), this.capacity);
    this.idOf = meta.ids;
    for (let slot = meta.used - 1; slot >= 0; slot--) {
      if (this.live[slot] && meta.ids[slot]) this.slotOf.set(meta.ids[slot]!, slot);
      else {
        this.live[slot] = 0;
        this.free.push(slot);
      }
    }
    this.used = meta.used;
    this.generation++;
  }

  /** Installs a graph saved with the snapshot just restored; false (nothing installed) when it does not hold its companies. */
  installSavedGraph(graph: VectorGraph): boolean {
    if (graph.size() !== this.slotOf.size) return false;
    this.graph = graph;
    return true;
  }

  /** Writes the graph to `file` (usearch's format); nothing without a graph. */
  saveGraph(file: string): void {
    this.graph?.save(file, (slot) => halfRow(this.matrix, this.dimensions, slot));
  }

  /** The company id of every slot up to the highest used ('' for a free one): the key list of a snapshot. */
  slotIds(): string[] {
    const ids = new Array<string>(this.used);
    for (let slot = 0; slot < this.used; slot++) ids[slot] = this.live[slot] ? this.idOf[slot]! : '';
    return ids;
  }

  /** Adds and removes the graph has taken since it was installed (the sync saves a snapshot on close when it changed). */
  get graphWrites(): number {
    return this.graphWriteCount;
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
    const plan = this.plan(query, filters, limit);
    return plan.kind === 'graph' ? this.searchGraphHere(plan) : plan.answer;
  }

  /**
   * `search`, with the graph's part on a worker thread when the graph has them (a mapped graph: vector-graph.ts). The
   * short list is re-scored from the rows as they are when it comes back, so writes applied meanwhile count.
   */
  async searchAsync(query: Float32Array, filters: SearchFilters, limit: number): Promise<ScoredId[] | undefined> {
    const plan = this.plan(query, filters, limit);
    if (plan.kind !== 'graph') return plan.answer;
    if (!plan.graph.searchAsync) return this.searchGraphHere(plan);
    const found = await plan.graph.searchAsync(plan.q, plan.want);
    return this.finish(plan, found, found.micros);
  }

  /** The graph's part of a search on this thread, timed. */
  private searchGraphHere(plan: { graph: VectorGraph; q: Float32Array; want: number; filters: SearchFilters; limit: number }): ScoredId[] {
    const started = performance.now();
    const found = plan.graph.search(plan.q, plan.want, 1);
    return this.finish(plan, found, (performance.now() - started) * 1000);
  }

  /** How `search` answers: at once (an exact scan, nothing, or the database), or by asking the graph for `want` neighbours. */
  private plan(query: Float32Array, filters: SearchFilters, limit: number):
    | { kind: 'answered'; answer: ScoredId[] | undefined }
    | { kind: 'graph'; graph: VectorGraph; q: Float32Array; want: number; filters: SearchFilters; limit: number } {
    // Changed-since filters compare timestamps at microsecond precision: the database answers those.
    if (filters.updatedSince) return { kind: 'answered', answer: undefined };
    const q = unitVector(this.dimensions, query);
    const filtered = hasFilters(filters);
    const matches = filtered ? this.matching(filters) : undefined;
    const count = matches ? matches.count : this.slotOf.size;
    if (count === 0) return { kind: 'answered', answer: [] };
    if (count <= this.options.exactBelow) return { kind: 'answered', answer: matches ? this.timedExact(q, matches, limit) : this.exact(q, undefined, limit) };
    if (!this.graph) return { kind: 'answered', answer: undefined };
    // Ask the graph for enough neighbours that `limit` of them pass the filters (in expectation, with margin).
    const share = count / this.slotOf.size;
    const want = Math.min(this.slotOf.size, Math.ceil((limit * this.options.oversample) / share));
    // The filter's rows are at hand (matching() kept them): a scan can answer, now or as the fallback.
    const scannable = matches && matches.slots.length === count ? matches : undefined;
    if (scannable && this.options.chooseByCost && count * this.scanCostPerRow(count, limit) < want * this.graphCost) {
      this.paths.scan++;
      return { kind: 'answered', answer: this.timedExact(q, scannable, limit) };
    }
    return { kind: 'graph', graph: this.graph, q, want, filters, limit };
  }

  /** The graph's short list that passes the filters, re-scored from the rows; the exact scan when too few passed. */
  private finish(plan: { q: Float32Array; want: number; filters: SearchFilters; limit: number }, found: GraphHits, micros: number): ScoredId[] {
    const { q, want, filters, limit } = plan;
    const started = performance.now();
    const filtered = hasFilters(filters);
    const accept = filtered ? filterPredicate(filters, this.cols) : undefined;
    const heap = new TopK(limit, this.idOf);
    if (this.rescoreSlots.length < found.keys.length) this.rescoreSlots = new Int32Array(found.keys.length);
    const slots = this.rescoreSlots;
    let passed = 0;
    for (let i = 0; i < found.keys.length; i++) {
      const slot = Number(found.keys[i]);
      if (slot < 0 || slot >= this.used || !this.live[slot]) continue;
      if (accept && !accept(slot)) continue;
      slots[passed++] = slot;
    }
    // The graph's distances are int8: the short list is re-scored from the half-float rows (natively when built).
    if (this.dotRows && q.length === this.dimensions) {
      if (this.dotScratch.length < passed) this.dotScratch = new Float64Array(passed);
      this.dotRows(this.matrix as Uint16Array, this.dimensions, slots, passed, q, this.dotScratch);
      for (let i = 0; i < passed; i++) heap.push(slots[i]!, this.dotScratch[i]!);
    } else {
      for (let i = 0; i < passed; i++) heap.push(slots[i]!, dotHalfAt(this.matrix, this.dimensions, q, slots[i]!));
    }
    if (filtered) {
      // The graph's search and the re-scoring of its short list.
      this.graphCost = 0.9 * this.graphCost + (0.1 * (micros + (performance.now() - started) * 1000)) / want;
      this.paths.graph++;
    }
    // Too few passed (a filter that the nearest neighbours rarely meet): the exact scan is complete. The filter's
    // matches are read again: after a graph search on a worker thread, writes may have come meanwhile.
    const matches = filtered ? this.matching(filters) : undefined;
    const count = matches ? matches.count : this.slotOf.size;
    if (passed < Math.min(limit, count)) {
      this.paths.fallback++;
      const scannable = matches && matches.slots.length === count ? matches : undefined;
      return scannable ? this.timedExact(q, scannable, limit) : this.exact(q, undefined, limit, accept);
    }
    return heap.sorted();
  }

  /**
   * How many companies pass `filters`: what a browse's `count(*)` answers when the index holds every live company
   * (the caller checks). Undefined: ask the database (updated_since, near).
   */
  count(filters: SearchFilters): number | undefined {
    // Distances at the radius could round otherwise than the database's: a total must match the rows it pages.
    if (filters.updatedSince || filters.near) return undefined;
    return hasFilters(filters) ? this.matching(filters).count : this.slotOf.size;
  }

  /**
   * Where each of these companies is and how it serves (what the place ranking reads), from the filter columns:
   * ids the index does not hold are left out (the caller reads them from the database).
   */
  placeFacts(ids: string[]): Map<string, { latitude: number | null; longitude: number | null; service_type: string; country_code: string }> {
    const out = new Map<string, { latitude: number | null; longitude: number | null; service_type: string; country_code: string }>();
    const c = this.cols;
    for (const id of ids) {
      const slot = this.slotOf.get(id);
      if (slot === undefined || !this.live[slot]) continue;
      const latitude = c.latitude[slot]!;
      const longitude = c.longitude[slot]!;
      out.set(id, {
        latitude: Number.isNaN(latitude) ? null : latitude,
        longitude: Number.isNaN(longitude) ? null : longitude,
        service_type: c.serviceType.get(slot),
        country_code: c.countryCode.get(slot),
      });
    }
    return out;
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
    const accept = hasFilters(filters) ? filterPredicate(filters, this.cols) : undefined;
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
    const accept = hasFilters(filters) ? filterPredicate(filters, this.cols) : undefined;
    const heap = new TopK(limit, this.idOf);
    keywords.score(q, (slot) => this.live[slot] === 1 && (!accept || accept(slot)), cap, (slot, score) => heap.push(slot, score));
    return heap.sorted();
  }

  /** An exact scan of a filter's rows, its cost per row folded into the moving average. */
  private timedExact(q: Float32Array, matches: Matches, limit: number): ScoredId[] {
    const started = performance.now();
    const out = this.exact(q, matches, limit);
    if (matches.count > 0) {
      const perRow = ((performance.now() - started) * 1000) / matches.count;
      if (this.sketchKeep(matches.count, limit) > 0) this.sketchScanCost = 0.9 * this.sketchScanCost + 0.1 * perRow;
      else this.scanCost = 0.9 * this.scanCost + 0.1 * perRow;
    }
    return out;
  }

  /** The measured cost per row of scanning `count` rows for `limit` results (µs). */
  private scanCostPerRow(count: number, limit: number): number {
    return this.sketchKeep(count, limit) > 0 ? this.sketchScanCost : this.scanCost;
  }

  /** How many rows a scan of `count` rows for `limit` results re-scores after reading the sketches; 0: it reads every row. */
  private sketchKeep(count: number, limit: number): number {
    if (!this.sketch || count < (this.options.sketchScanFrom ?? DEFAULT_SKETCH_SCAN_FROM)) return 0;
    const keep = Math.max(SKETCH_KEEP.perResult * limit, Math.ceil(count * SKETCH_KEEP.share));
    return keep < count / 2 ? keep : 0;
  }

  /** Scores the matched slots, or every live slot that `accept` lets through. */
  private exact(q: Float32Array, matches: Matches | undefined, limit: number, accept?: (slot: number) => boolean): ScoredId[] {
    const heap = new TopK(limit, this.idOf);
    const keep = matches ? this.sketchKeep(matches.count, limit) : 0;
    if (matches && keep > 0 && this.sketch && this.dotRows && q.length === this.dimensions) {
      // The rows whose sketches are nearest the query's, then their dot products from the rows.
      const qs = this.querySigns.fill(0);
      for (let i = 0; i < this.dimensions; i++) if (q[i]! > 0) qs[i >> 3]! |= 1 << (i & 7);
      if (this.keptSlots.length < keep) this.keptSlots = new Int32Array(keep);
      const kept = this.sketch.nearest(this.signs, this.sketchBytes, matches.slots, matches.count, qs, keep, this.keptSlots);
      if (this.dotScratch.length < kept) this.dotScratch = new Float64Array(kept);
      this.dotRows(this.matrix as Uint16Array, this.dimensions, this.keptSlots, kept, q, this.dotScratch);
      for (let i = 0; i < kept; i++) heap.push(this.keptSlots[i]!, this.dotScratch[i]!);
    } else if (matches && this.dotRows && q.length === this.dimensions) {
      // Native: the dot products of every matching row in one call (about 3.5x the JavaScript loop's speed).
      if (this.dotScratch.length < matches.count) this.dotScratch = new Float64Array(matches.count);
      this.dotRows(this.matrix as Uint16Array, this.dimensions, matches.slots, matches.count, q, this.dotScratch);
      for (let i = 0; i < matches.count; i++) heap.push(matches.slots[i]!, this.dotScratch[i]!);
    } else if (matches) {
      for (let i = 0; i < matches.count; i++) heap.push(matches.slots[i]!, dotHalfAt(this.matrix, this.dimensions, q, matches.slots[i]!));
    } else {
      for (let slot = 0; slot < this.used; slot++) if (this.live[slot] && (!accept || accept(slot))) heap.push(slot, dotHalfAt(this.matrix, this.dimensions, q, slot));
    }
    return heap.sorted();
  }

  /** Slots passing the filters (cached until the next write). */
  private matching(filters: SearchFilters): Matches {
    const key = JSON.stringify(filters);
    const hit = this.matchCache.get(key);
    if (hit && hit.generation === this.generation) return hit.matches;
    const accept = filterPredicate(filters, this.cols);
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
}
