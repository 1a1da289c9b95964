import { Worker } from 'node:worker_threads';
import type { Config } from '../../config.js';
import { BoundedCache } from '../../lib/bounded-cache.js';
import { AppError } from '../errors.js';
import { queryEmbeddingBatch, queryEmbeddings } from '../outcomes.js';
import { loadNativeKernels } from '../native.js';
import { readSharedWeightGroups } from './use-lite-weights.js';

/**
 * Sentence embeddings behind one interface: the bundled Universal Sentence Encoder lite
 * (default, offline, in worker threads: use.worker.ts) or an OpenAI-compatible /embeddings endpoint.
 * Vectors are unit length, so cosine distance = 1 - dot product.
 */
export interface EmbeddingProvider {
  readonly model: string;
  readonly dimensions: number;
  /** How the model runs, once ready: 'native' or 'tfjs' for the bundled model, 'remote' for an endpoint. */
  readonly runtime?: string;
  embed(texts: string[]): Promise<number[][]>;
  /** One query text, through an LRU cache: repeated queries cost nothing. */
  embedQuery(text: string): Promise<number[]>;
  ready(): Promise<void>;
  isReady(): boolean;
  close(): Promise<void>;
}

const DIMENSIONS = 512;

interface Pending {
  resolve: (v: number[][]) => void;
  reject: (e: Error) => void;
  count: number;
}

/** Most query texts one model call takes when queries queue up behind busy workers. */
const QUERY_BATCH = 32;

abstract class CachedProvider implements EmbeddingProvider {
  abstract readonly model: string;
  readonly dimensions = DIMENSIONS;
  abstract readonly runtime: string | undefined;
  // Bounded by count (EMBEDDINGS_CACHE_SIZE): every entry is one query vector of the same size, so each counts 1.
  private readonly cache: BoundedCache<string, Promise<number[]>>;
  /**
   * Query micro-batching: at most `maxInFlight` query calls run at once (one per worker); queries
   * that arrive meanwhile wait and go together in the next call. A query never waits for a timer,
   * so one client sees no added latency, and under load a model call serves many queries at
   * little more than the cost of one (the model's fixed cost per call dominates short texts).
   */
  private readonly queued: { text: string; resolve: (v: number[]) => void; reject: (e: unknown) => void }[] = [];
  private inFlight = 0;
  constructor(
    cacheSize: number,
    private readonly maxInFlight: number,
  ) {
    this.cache = new BoundedCache(cacheSize);
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queued.length > 0) {
      const batch = this.queued.splice(0, QUERY_BATCH);
      queryEmbeddingBatch.observe(batch.length);
      this.inFlight++;
      this.embed(batch.map((q) => q.text))
        .then(
          (vectors) => batch.forEach((q, i) => q.resolve(vectors[i]!)),
          (err: unknown) => batch.forEach((q) => q.reject(err)),
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }
  abstract embed(texts: string[]): Promise<number[][]>;
  abstract ready(): Promise<void>;
  abstract isReady(): boolean;
  abstract close(): Promise<void>;

  embedQuery(text: string): Promise<number[]> {
    const key = text.trim().toLowerCase().replace(/\s+/g, ' ');
    const hit = this.cache.get(key);
    queryEmbeddings.inc({ outcome: hit ? 'cached' : 'computed' });
    if (hit) return hit;
    // Cache the promise so concurrent identical queries share one computation.
    const p = new Promise<number[]>((resolve, reject) => {
      this.queued.push({ text: key, resolve, reject });
      this.pump();
    });
    p.catch(() => this.cache.delete(key));
    this.cache.set(key, p, 1);
    return p;
  }
}

class LocalUseProvider extends CachedProvider {
  readonly model = 'use-lite-512';
  private readonly workers: { worker: Worker; busy: number; ready: Promise<void> }[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readyCount = 0;
  private closed = false;
  runtime: string | undefined;

  constructor(workerCount: number, cacheSize: number, nativeKernels: boolean) {
    super(cacheSize, workerCount);
    const entry = new URL(import.meta.url.endsWith('.ts') ? './use.worker.ts' : './use.worker.js', import.meta.url).href;
    // With the native kernels every worker evaluates the model from one shared copy of its weights (28 MB once,
    // not once per worker); without them each loads the TensorFlow.js graph itself.
    const weights = loadNativeKernels(nativeKernels) ? readSharedWeightGroups() : undefined;
    for (let i = 0; i < workerCount; i++) {
      const worker = new Worker(new URL('../worker-entry.mjs', import.meta.url), { workerData: { entry, nativeKernels, weights } });
      worker.unref();
      const slot = { worker, busy: 0, ready: Promise.resolve() };
      slot.ready = new Promise<void>((resolve, reject) => {
        worker.on('message', (msg: { type: string; id?: number; flat?: Float32Array; error?: string; runtime?: string }) => {
          if (msg.type === 'ready') {
            this.readyCount++;
            this.runtime = msg.runtime;
            resolve();
          } else if (msg.type === 'fatal') {
            reject(new Error(msg.error));
          } else if (msg.id !== undefined) {
            const p = this.pending.get(msg.id);
            if (!p) return;
            this.pending.delete(msg.id);
            slot.busy--;
            if (msg.type === 'error') p.reject(new Error(msg.error));
            else {
              const flat = msg.flat!;
              const out: number[][] = [];
              for (let j = 0; j < p.count; j++) out.push(Array.from(flat.subarray(j * DIMENSIONS, (j + 1) * DIMENSIONS)));
              p.resolve(out);
            }
          }
        });
        worker.on('error', (err) => {
          reject(err);
          for (const [id, p] of this.pending) {
            p.reject(err);
            this.pending.delete(id);
          }
        });
      });
      slot.ready.catch(() => {});
      this.workers.push(slot);
    }
  }

  async ready(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.ready));
  }

  isReady(): boolean {
    return this.readyCount === this.workers.length && !this.closed;
  }

  embed(texts: string[]): Promise<number[][]> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'Embedding model is shut down'));
    if (texts.length === 0) return Promise.resolve([]);
    const slot = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.nextId++;
    slot.busy++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, count: texts.length });
      slot.worker.postMessage({ id, texts });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}

/** OpenAI-compatible /v1/embeddings; the model must return (or be asked for) 512 dimensions. */
class OpenAiEmbeddingProvider extends CachedProvider {
  readonly runtime = 'remote';
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string | undefined,
    readonly model: string,
    cacheSize: number,
  ) {
    // Remote calls: a few at a time, each carrying the queries that queued meanwhile.
    super(cacheSize, 4);
  }
  async ready(): Promise<void> {}
  isReady(): boolean {
    return true;
  }
  async close(): Promise<void> {}
  async embed(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const res = await fetch(`${this.baseUrl.replace(/\/+$/, '')}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.model, input: texts, dimensions: DIMENSIONS }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new AppError('unavailable', `Embedding service answered ${res.status}`);
    const body = (await res.json()) as { data: { index: number; embedding: number[] }[] };
    return body.data
      .sort((a, b) => a.index - b.index)
      .map((d) => {
        if (d.embedding.length !== DIMENSIONS) throw new AppError('unavailable', `Embedding service returned ${d.embedding.length} dimensions, expected ${DIMENSIONS}`);
        const norm = Math.hypot(...d.embedding) || 1;
        return d.embedding.map((x) => x / norm);
      });
  }
}

export function createEmbeddingProvider(config: Config['embeddings']): EmbeddingProvider {
  if (config.provider === 'openai') return new OpenAiEmbeddingProvider(config.baseUrl!, config.apiKey, config.model, config.cacheSize);
  return new LocalUseProvider(config.workers, config.cacheSize, config.nativeKernels);
}

/** pgvector's text form: '[0.1,0.2,...]'. */
export function toPgVector(v: number[]): string {
  return `[${v.join(',')}]`;
}
