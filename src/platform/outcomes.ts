import { Counter, Gauge, Histogram } from 'prom-client';

/**
 * Outcome counters and stage timings that the modules record where they happen; /metrics
 * (platform/metrics.ts) registers them. Process-wide: every instance reports its own, Prometheus sums them.
 */
export const mailOutcomes = new Counter({
  name: 'mail_deliveries_total',
  help: 'Mail delivery attempts by outcome: sent, retry (failed, will be retried), failed (gave up), logged (no SMTP configured)',
  labelNames: ['outcome'] as const,
  registers: [],
});

export const webhookOutcomes = new Counter({
  name: 'webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered, retry, failed (retries exhausted), gone (410, endpoint disabled)',
  labelNames: ['outcome'] as const,
  registers: [],
});

/** Where a search's time goes (the stages run partly in parallel, so they do not add up to `total`). */
export const searchStageSeconds = new Histogram({
  name: 'search_stage_seconds',
  help: 'Search time per stage: stats (corpus version read), embed (query embedding, queue wait included), keyword, names, semantic_index or semantic_database (vector candidates), rows (profiles of the page), total (one uncached search)',
  labelNames: ['stage'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [],
});

export const searchAnswers = new Counter({
  name: 'search_answers_total',
  help: 'Searches by outcome: cached (a repeated search answered from the in-process answer cache at the current corpus version) or computed',
  labelNames: ['outcome'] as const,
  registers: [],
});

export const queryEmbeddings = new Counter({
  name: 'query_embeddings_total',
  help: 'Query embeddings by outcome: cached (same text embedded before, or being embedded) or computed',
  labelNames: ['outcome'] as const,
  registers: [],
});

export const queryEmbeddingBatch = new Histogram({
  name: 'query_embedding_batch_size',
  help: 'Queries per model call (micro-batching under load)',
  buckets: [1, 2, 4, 8, 16, 32],
  registers: [],
});

/** Read replicas (platform/read-pool.ts): where the reads handed to the read pool went, and each replica's measured lag. */
export const replicaReads = new Counter({
  name: 'db_read_routes_total',
  help: 'Reads of the read pool by target (replica, primary) and reason: within_bound (lag within DATABASE_READ_MAX_LAG_MS), fresh (the replica had replayed what the answer needs), behind (no replica had), no_replica (none usable), replica_failed (ran again on the primary)',
  labelNames: ['target', 'reason'] as const,
  registers: [],
});

export const replicaLagSeconds = new Gauge({
  name: 'db_replica_lag_seconds',
  help: 'How long ago the primary first held WAL this replica has not replayed (0 when caught up), at the last check',
  labelNames: ['replica'] as const,
  registers: [],
});

export const replicaUp = new Gauge({
  name: 'db_replica_up',
  help: '1 when the replica is read from (reachable, a standby, lag within DATABASE_READ_MAX_LAG_MS), else 0',
  labelNames: ['replica'] as const,
  registers: [],
});

/** How long each job run took, by queue and outcome (failed runs are retried by the queue while retries remain). */
export const jobRunSeconds = new Histogram({
  name: 'job_run_seconds',
  help: 'Job handler run time by queue and outcome: completed or failed',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers: [],
});

/** Runs `work` and records its duration under `stage`. */
export async function timedStage<T>(stage: string, work: () => Promise<T>): Promise<T> {
  const end = searchStageSeconds.startTimer({ stage });
  try {
    return await work();
  } finally {
    end();
  }
}
