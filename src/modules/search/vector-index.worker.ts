import { parentPort, workerData } from 'node:worker_threads';
import { addRows, newGraph } from './vector-graph.js';

/**
 * Builds the HNSW graph of the vector index off the main thread (100k companies take about a
 * minute on one core), reading the embeddings from the shared matrix (half floats, widened to float32 a chunk
 * at a time for usearch), and writes it to `file`
 * for the main thread to load.
 */
const { matrix, slots, dimensions, file, threads } = workerData as { matrix: Uint16Array; slots: Int32Array; dimensions: number; file: string; threads: number };

try {
  const graph = newGraph(dimensions);
  addRows(graph, { matrix, slots }, dimensions, threads);
  graph.save(file);
  parentPort!.postMessage({ ok: true, size: graph.size() });
} catch (err) {
  parentPort!.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
}
