import usearch, { type IndexConfig } from 'usearch';
import { halfRow } from '../../lib/half-float.js';

/**
 * The HNSW graph's settings (usearch): cosine metric, vectors quantised to int8 (a quarter of the
 * memory; candidates are re-scored from the float vectors, so quantisation only affects which
 * neighbours are found), 16 links per node, 256 candidates kept while building and at least 256 while
 * searching (searchBreadth: more in larger directories; a search asks for 400 neighbours unfiltered, which
 * widens it to 400 anyway). The building breadth decides how well the
 * graph links clusters of near-duplicates (`npm run bench:vectors -- --synthetic N --expansion-add
 * 128,256`): at 1M, 128 needed a search breadth of 4 096 for recall@10 0.94–0.97, 256 gives 0.985 at
 * 2 048 (half the search work) for a build about 1.5–2 times as long; at 100k, asked for 400 neighbours
 * as the service asks, 0.973 (building 128, searching 512) → 0.998 (256, 256) for 1.27 instead of 1.09 ms.
 * Neither 32 links nor float16 vectors in the graph did as much (docs/measurements.md, session 17).
 */
export type GraphConfig = IndexConfig;

export function graphConfig(dimensions: number, overrides: Partial<GraphConfig> = {}): GraphConfig {
  return {
    dimensions,
    metric: usearch.MetricKind.Cos,
    quantization: usearch.ScalarKind.I8,
    connectivity: 16,
    expansion_add: 256,
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
export function loadGraph(file: string, dimensions: number, count: number): Graph {
  const graph = newGraph(dimensions, { expansion_search: searchBreadth(count) });
  graph.load(file);
  return graph;
}
