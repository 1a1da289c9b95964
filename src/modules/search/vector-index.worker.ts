import { parentPort, workerData } from 'node:worker_threads';
import { newGraph } from './vector-graph.js';
import { halfRow } from '../../lib/half-float.js';

/**
 * Builds the HNSW graph of the vector index off the main thread (100k companies take about a
 * minute on one core), reading the embeddings from the shared matrix (half floats, widened to float32 a chunk
 * at a time for usearch), and writes it to `file`
 * for the main thread to load.
 */
const { matrix, slots, dimensions, file, threads } = workerData as { matrix: Uint16Array; slots: Int32Array; dimensions: number; file: string; threads: number };

try {
  const graph = newGraph(dimensions);
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
  graph.save(file);
  parentPort!.postMessage({ ok: true, size: graph.size() });
} catch (err) {
  parentPort!.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
}
