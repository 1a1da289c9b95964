import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import { isLoopbackAddress } from '../lib/net.js';
import { AppError } from './errors.js';
import type { Jobs } from './jobs.js';
import { jobRunSeconds, mailOutcomes, queryEmbeddingBatch, queryEmbeddings, replicaLagSeconds, replicaReads, replicaUp, searchAnswers, searchStageSeconds, webhookOutcomes } from './outcomes.js';

/**
 * Prometheus metrics at GET /metrics: process figures (memory, CPU, event-loop lag), request
 * latency per route and status, the depth of every job queue (read when scraped), mail and webhook
 * outcomes, job run times, search stage timings and cache outcomes (platform/outcomes.ts). Answers
 * loopback callers, or anyone with `Authorization: Bearer <METRICS_TOKEN>`; others get a 404.
 */
export function registerMetrics(app: FastifyInstance, { jobs, token }: { jobs: Jobs; token: string | undefined }): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Request latency by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const queue = new Gauge({
    name: 'job_queue_jobs',
    help: 'Jobs per queue and state (queued includes deferred)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      if (!jobs.isRunning()) return;
      for (const q of await jobs.boss.getQueues()) {
        this.set({ queue: q.name, state: 'queued' }, q.queuedCount);
        this.set({ queue: q.name, state: 'active' }, q.activeCount);
        this.set({ queue: q.name, state: 'deferred' }, q.deferredCount);
      }
    },
  });
  void queue;
  const outcomes = [jobRunSeconds, mailOutcomes, webhookOutcomes, searchStageSeconds, searchAnswers, queryEmbeddings, queryEmbeddingBatch, replicaReads, replicaLagSeconds, replicaUp];
  for (const metric of outcomes as Metric[]) registry.registerMetric(metric);

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL: ids and query strings would explode the label set.
    const route = request.routeOptions.url ?? 'unmatched';
    latency.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  const allowed = (authorization: string | undefined): boolean => {
    if (!token || !authorization) return false;
    const given = Buffer.from(authorization.replace(/^Bearer\s+/i, ''));
    const expected = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!(isLoopbackAddress(request.socket.remoteAddress) && isLoopbackAddress(request.ip)) && !allowed(request.headers.authorization)) {
      throw new AppError('not_found', 'Not found: GET /metrics');
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  return registry;
}
