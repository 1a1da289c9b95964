import { Counter } from 'prom-client';

/**
 * Outcome counters that the modules increment where the outcome happens; /metrics (platform/metrics.ts)
 * registers them. Process-wide: every instance reports its own, Prometheus sums them.
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
