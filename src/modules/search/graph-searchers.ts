import { Worker } from 'node:worker_threads';
import type { GraphSearchReply, GraphSearchRequest } from './graph-search.worker.js';
import type { GraphConfig, GraphHits, GraphSearchPool } from './vector-graph.js';

/**
 * Graph searches off the main thread (issue 41). At 1M companies one search of the HNSW graph costs 5–6 ms of CPU (a
 * breadth of 2 048: vector-graph.ts searchBreadth), and on the main thread it took 40 % of a loaded server's time while
 * the machine's other core was partly idle (`npx tsx scripts/dev/profile-search.ts --bench-words`). Worker threads
 * search a mapped graph's file (graph-search.worker.ts), each reading it in place (the graph is not copied; a thread adds about 24 MB of its own); the
 * least busy one takes the next search. Workers start on the first search. When one fails, its searches and every later
 * one are answered on the main thread by the caller (a rejected promise means: search here).
 */
export class GraphSearchers implements GraphSearchPool {
  private readonly workers: { worker: Worker; busy: number }[] = [];
  private readonly pending = new Map<number, { resolve: (hits: GraphHits & { micros: number }) => void; reject: (err: Error) => void; slot: { busy: number } }>();
  private nextId = 0;
  /** Searches the workers answered (tests and benchmarks read it). */
  answered = 0;
  private failed = false;
  private closed = false;

  constructor(readonly threads: number) {}

  /** False once a worker failed or the pool closed: the caller searches on its own thread. */
  get usable(): boolean {
    return this.threads > 0 && !this.failed && !this.closed;
  }

  /** The `k` nearest neighbours of `query` in the graph saved at `file` (`graph`: the mapped graph's serial number). */
  search(graph: number, file: string, config: GraphConfig, query: Float32Array, k: number): Promise<GraphHits & { micros: number }> {
    if (!this.usable) return Promise.reject(new Error('graph searchers are not running'));
    if (this.workers.length === 0) this.start();
    const slot = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.nextId++;
    slot.busy++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, slot });
      const request: GraphSearchRequest = { id, graph, file, config, query, k };
      slot.worker.postMessage(request);
    });
  }

  /**
   * Stops the workers once their running searches have ended (at most `graceMs`): a worker stopped inside a search
   * aborts the whole process, as usearch's binding then throws from native code. Later searches run on the caller's thread.
   */
  async close(graceMs = 2000): Promise<void> {
    this.closed = true;
    const until = Date.now() + graceMs;
    while (this.pending.size > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
    this.failAll(new Error('graph searchers closed'));
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }

  private start(): void {
    const entry = new URL(import.meta.url.endsWith('.ts') ? './graph-search.worker.ts' : './graph-search.worker.js', import.meta.url).href;
    for (let i = 0; i < this.threads; i++) {
      const worker = new Worker(new URL('../../platform/worker-entry.mjs', import.meta.url), { workerData: { entry } });
      // Idle workers never keep the process alive.
      worker.unref();
      const slot = { worker, busy: 0 };
      worker.on('message', (reply: GraphSearchReply) => {
        const waiting = this.pending.get(reply.id);
        if (!waiting) return;
        this.pending.delete(reply.id);
        waiting.slot.busy--;
        if ('error' in reply) waiting.reject(new Error(reply.error));
        else {
          this.answered++;
          waiting.resolve({ keys: reply.keys, distances: reply.distances, micros: reply.micros });
        }
      });
      const fail = (err: Error) => {
        if (this.closed) return;
        this.failed = true;
        this.failAll(err);
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`graph searcher exited with ${code}`)));
      this.workers.push(slot);
    }
  }

  private failAll(err: Error): void {
    for (const [id, waiting] of this.pending) {
      this.pending.delete(id);
      waiting.reject(err);
    }
  }
}
