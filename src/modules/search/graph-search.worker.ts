import { parentPort } from 'node:worker_threads';
import usearch from 'usearch';
import type { GraphConfig } from './vector-graph.js';

/**
 * Searches a saved graph's file on a worker thread (graph-searchers.ts): the file is read in place (usearch `view`), so
 * its pages are the operating system's, shared with the main thread's own mapping of it. The last two graphs asked for
 * are kept open; an older one is let go (a newer snapshot replaced it).
 */
export interface GraphSearchRequest {
  id: number;
  /** The mapped graph's serial number: file paths are not unique (a /proc/self/fd path is reused once its fd closes). */
  graph: number;
  file: string;
  config: GraphConfig;
  query: Float32Array;
  k: number;
}

export type GraphSearchReply =
  | { id: number; keys: BigUint64Array; distances: Float32Array; micros: number }
  | { id: number; error: string };

const KEPT = 2;
const views = new Map<number, InstanceType<typeof usearch.Index>>();

function viewOf(request: GraphSearchRequest): InstanceType<typeof usearch.Index> {
  let graph = views.get(request.graph);
  if (graph) return graph;
  graph = new usearch.Index(request.config);
  graph.view(request.file);
  views.set(request.graph, graph);
  if (views.size > KEPT) views.delete(views.keys().next().value as number);
  return graph;
}

parentPort!.on('message', (request: GraphSearchRequest) => {
  try {
    const graph = viewOf(request);
    const started = performance.now();
    const found = graph.search(request.query, request.k, 1);
    const micros = (performance.now() - started) * 1000;
    // The search's own arrays: transferred, not copied.
    const keys = found.keys.slice();
    const distances = found.distances.slice();
    const reply: GraphSearchReply = { id: request.id, keys, distances, micros };
    parentPort!.postMessage(reply, [keys.buffer, distances.buffer]);
  } catch (err) {
    const reply: GraphSearchReply = { id: request.id, error: err instanceof Error ? err.message : String(err) };
    parentPort!.postMessage(reply);
  }
});
