import fs from 'node:fs';
import usearch, { type IndexConfig } from 'usearch';
import { halfRow } from '../../lib/half-float.js';

/**
 * The HNSW graph's settings (usearch): cosine metric, vectors quantised to int8 (a quarter of the
 * memory; candidates are re-scored from the float vectors, so quantisation only affects which
 * neighbours are found), 16 links per node, 512 candidates kept while building and at least 256 while
 * searching (searchBreadth: more in larger directories; a search asks for 400 neighbours unfiltered, which
 * widens it to 400 anyway). The building breadth decides how well the graph links clusters of
 * near-duplicates: on bench:search's directory of 1M (`npm run bench:vectors -- --database-url …/b1m
 * --expansion-add 512`, session 25) building at 256 gave recall@10 0.945 at the search breadth of 2 048 (0.952
 * at 4 096, for twice the work), 512 gives 0.969 at 2 048 for a build 1.4 times as long (410 s on two
 * threads). Earlier, on the synthetic directory: 128 needed 4 096 for 0.94–0.97 at 1M, 256 gave 0.985 at
 * 2 048; at 100k 0.973 (building 128, searching 512) → 0.998 (256, 256). Neither 32 links nor float16
 * vectors in the graph did as much (docs/measurements.md, session 17).
 */
export type GraphConfig = IndexConfig;

export function graphConfig(dimensions: number, overrides: Partial<GraphConfig> = {}): GraphConfig {
  return {
    dimensions,
    metric: usearch.MetricKind.Cos,
    quantization: usearch.ScalarKind.I8,
    connectivity: 16,
    expansion_add: 512,
    expansion_search: 256,
    multi: false,
    ...overrides,
  };
}

export type Graph = InstanceType<typeof usearch.Index>;

/** The settings a saved graph must have been built with to be loaded (index-snapshot.ts). */
export function graphSettings(dimensions: number): string {
  const { metric, quantization, connectivity, expansion_add, multi } = graphConfig(dimensions);
  return JSON.stringify({ metric, quantization, connectivity, expansion_add, multi, usearch: 1 });
}

export function newGraph(dimensions: number, overrides: Partial<GraphConfig> = {}): Graph {
  return new usearch.Index(graphConfig(dimensions, overrides));
}

/**
 * The search breadth (`expansion_search`) for a graph of `count` companies: 256, or one per
 * BREADTH_PER companies rounded up to a power of two in larger directories, at most MAX_BREADTH.
 * A graph search visits about that many candidates, and the share of the directory it must visit
 * to keep its recall does not shrink as the directory grows: on the synthetic directory (clusters
 * of near-duplicate vectors, `npm run bench:vectors`), with the building breadth of 256, 256 gives
 * recall@10 0.998 at 100k, and 2 048 gives 0.985 at 1M (4 096: 0.988 for twice the work).
 */
export const BREADTH_PER = 500;
export const MAX_BREADTH = 8192;
export function searchBreadth(count: number): number {
  const wanted = Math.max(graphConfig(1).expansion_search, Math.ceil(count / BREADTH_PER));
  return Math.min(MAX_BREADTH, 2 ** Math.ceil(Math.log2(wanted)));
}

/** The index's rows (SearchIndex.snapshotForBuild): half floats, and the live slots. */
export interface GraphSource {
  matrix: Uint16Array<ArrayBufferLike>;
  slots: Int32Array;
}

/** Adds every live row of `source` to `graph`, keyed by slot, widened to float32 a chunk at a time (usearch takes float32). */
export function addRows(graph: Graph, source: GraphSource, dimensions: number, threads: number): void {
  const { matrix, slots } = source;
  const chunk = 4096;
  for (let start = 0; start < slots.length; start += chunk) {
    const n = Math.min(chunk, slots.length - start);
    const keys = new BigUint64Array(n);
    const vectors = new Float32Array(n * dimensions);
    for (let i = 0; i < n; i++) {
      const slot = slots[start + i]!;
      keys[i] = BigInt(slot);
      halfRow(matrix, dimensions, slot, vectors, i * dimensions);
    }
    graph.add(keys, vectors, threads);
  }
}

/** Loads a saved graph, searching with the breadth for `count` companies (the breadth is a setting of the loaded index). */
export function loadGraph(file: string, dimensions: number, count: number): VectorGraph {
  const graph = newGraph(dimensions, { expansion_search: searchBreadth(count) });
  graph.load(file);
  return inMemoryGraph(graph);
}

/** A graph search's neighbours, nearest first. */
export interface GraphHits {
  keys: BigUint64Array;
  distances: Float32Array;
}

/** Threads that search a saved graph's file (graph-searchers.ts GraphSearchers); a rejected search means: search here. */
export interface GraphSearchPool {
  readonly usable: boolean;
  search(graph: number, file: string, config: GraphConfig, query: Float32Array, k: number): Promise<GraphHits & { micros: number }>;
}

/** What the search index asks of its graph (an in-memory usearch index, or a MappedGraph). */
export interface VectorGraph {
  contains(key: bigint): boolean;
  remove(key: bigint): void;
  add(key: bigint, vector: Float32Array): void;
  search(query: Float32Array, k: number, threads: number): GraphHits;
  /**
   * The same search on a worker thread when this graph has them (GraphSearchers), with the search's own time (µs);
   * absent: search on this thread.
   */
  searchAsync?(query: Float32Array, k: number): Promise<GraphHits & { micros: number }>;
  size(): number;
  /** Writes the graph to `file`; `rowOf` gives a slot's current vector (a mapped graph's writes are re-added from it). */
  save(file: string, rowOf: (slot: number) => Float32Array): void;
}

/** An in-memory usearch index as a VectorGraph. */
export function inMemoryGraph(graph: Graph): VectorGraph {
  return {
    contains: (key) => graph.contains(key) as boolean,
    remove: (key) => void graph.remove(key),
    add: (key, vector) => graph.add(key, vector),
    search: (query, k, threads) => graph.search(query, k, threads),
    size: () => graph.size(),
    save: (file) => graph.save(file),
  };
}

/**
 * A saved graph read in place from its file (usearch `view`, memory-mapped) instead of copied into the process (issue 41):
 * its pages belong to the operating system's cache, shared by every instance on the machine that maps the same snapshot
 * and given back under memory pressure, not to the process's own memory (about 660 MB at 1M companies). The file cannot
 * change, so the writes since it was saved go to a small in-memory graph beside it, and the file's entries for the slots
 * written or removed since are skipped. Saving copies the file into memory once, applies the writes and writes it whole.
 */
// A mapped graph keeps its file open, so that it can still read it whole when a newer snapshot has removed its name.
const closeWhenCollected = new FinalizationRegistry<number>((fd) => {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
});

/** Mapped graphs' serial numbers: a worker keeps its own view of each (graph-search.worker.ts). */
let mappedGraphs = 0;

export class MappedGraph implements VectorGraph {
  private readonly base: Graph;
  private readonly serial = ++mappedGraphs;
  private readonly fd: number;
  private delta: Graph | undefined;
  private readonly deltaKeys = new Set<bigint>();
  /** Slots of the file written again or removed since: the file's entries for them are out of date. */
  private readonly shadowed = new Set<bigint>();

  constructor(
    readonly file: string,
    private readonly config: GraphConfig,
    private readonly searchers?: GraphSearchPool,
  ) {
    this.base = new usearch.Index(config);
    this.base.view(file);
    this.fd = fs.openSync(file, 'r');
    closeWhenCollected.register(this, this.fd);
    const open = `/proc/self/fd/${this.fd}`;
    this.readablePath = fs.existsSync(open) ? open : file;
  }

  /**
   * A path that reads the file this graph maps, its name removed or not (Linux's /proc/self/fd, which the process's
   * worker threads share; elsewhere the name).
   */
  private readonly readablePath: string;

  private inBase(key: bigint): boolean {
    return !this.shadowed.has(key) && (this.base.contains(key) as boolean);
  }

  contains(key: bigint): boolean {
    return this.deltaKeys.has(key) || this.inBase(key);
  }

  remove(key: bigint): void {
    if (this.deltaKeys.delete(key)) this.delta!.remove(key);
    if (this.inBase(key)) this.shadowed.add(key);
  }

  add(key: bigint, vector: Float32Array): void {
    if (this.inBase(key)) this.shadowed.add(key);
    if (this.deltaKeys.has(key)) this.delta!.remove(key);
    this.delta ??= new usearch.Index(this.config);
    this.delta.add(key, vector);
    this.deltaKeys.add(key);
  }

  /** The k nearest of the file's neighbours (less the out-of-date ones) and the in-memory graph's, merged by distance. */
  search(query: Float32Array, k: number, threads: number): GraphHits {
    return this.withWrites(this.base.search(query, k, threads), query, k);
  }

  /**
   * `search` with the file's part on a worker thread, when there are searchers; the writes since the file was saved are
   * merged here, as they are when the answer comes back. A worker that fails leaves the search to this thread.
   */
  async searchAsync(query: Float32Array, k: number): Promise<GraphHits & { micros: number }> {
    if (this.searchers?.usable) {
      try {
        const base = await this.searchers.search(this.serial, this.readablePath, this.config, query, k);
        return { ...this.withWrites(base, query, k), micros: base.micros };
      } catch {
        // searched below, on this thread
      }
    }
    const started = performance.now();
    const hits = this.search(query, k, 1);
    return { ...hits, micros: (performance.now() - started) * 1000 };
  }

  private withWrites(base: GraphHits, query: Float32Array, k: number): GraphHits {
    if (this.shadowed.size === 0 && this.deltaKeys.size === 0) return base;
    const threads = 1;
    const extra = this.deltaKeys.size > 0 ? this.delta!.search(query, Math.min(k, this.deltaKeys.size), threads) : { keys: new BigUint64Array(0), distances: new Float32Array(0) };
    const keys = new BigUint64Array(k);
    const distances = new Float32Array(k);
    let m = 0;
    let i = 0;
    let j = 0;
    // both lists come nearest first
    while (m < k && (i < base.keys.length || j < extra.keys.length)) {
      if (i < base.keys.length && this.shadowed.has(base.keys[i]!)) {
        i++;
        continue;
      }
      const fromBase = j >= extra.keys.length || (i < base.keys.length && base.distances[i]! <= extra.distances[j]!);
      keys[m] = fromBase ? base.keys[i]! : extra.keys[j]!;
      distances[m++] = fromBase ? base.distances[i++]! : extra.distances[j++]!;
    }
    return { keys: keys.subarray(0, m), distances: distances.subarray(0, m) };
  }

  size(): number {
    return this.base.size() - this.shadowed.size + this.deltaKeys.size;
  }

  /** Slots written since the file was saved (added, written again or removed). */
  get writes(): number {
    let added = 0;
    for (const key of this.deltaKeys) if (!this.shadowed.has(key)) added++;
    return this.shadowed.size + added;
  }

  save(file: string, rowOf: (slot: number) => Float32Array): void {
    if (this.writes === 0) {
      // the file holds this graph as it is: a second name for it (it is never written again), or a copy across devices
      try {
        fs.linkSync(this.file, file);
      } catch {
        fs.copyFileSync(this.readablePath, file);
      }
      return;
    }
    const whole = new usearch.Index(this.config);
    whole.load(this.readablePath);
    for (const key of this.shadowed) whole.remove(key);
    for (const key of this.deltaKeys) whole.add(key, rowOf(Number(key)));
    whole.save(file);
  }
}

/**
 * Maps a saved graph from its file (MappedGraph), searching with the breadth for `count` companies, on `searchers`'
 * worker threads when given.
 */
export function mapGraph(file: string, dimensions: number, count: number, searchers?: GraphSearchPool): MappedGraph {
  return new MappedGraph(file, graphConfig(dimensions, { expansion_search: searchBreadth(count) }), searchers);
}
