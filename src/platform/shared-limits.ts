import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { createWindowLimiter, type WindowLimiter } from '../lib/rate-window.js';

/** One fixed-window counter: `limit` hits per window per key. */
export interface SharedLimiter {
  hit(key: string): Promise<{ ok: boolean; retryAfterSeconds: number }>;
}

/**
 * Abuse brakes that every instance shares: with REDIS_URL the counters live in Redis (one key per
 * limiter, key and window, expiring with the window), so N instances do not multiply a limit by N;
 * without it, or while Redis does not answer, they are counted in this process (never failing a request).
 */
export interface SharedLimits {
  readonly shared: boolean;
  limiter(name: string, o: { limit: number; windowMs: number }): SharedLimiter;
  close(): Promise<void>;
}

export function createSharedLimits(redisUrl: string | undefined, log: FastifyBaseLogger, now: () => number = Date.now): SharedLimits {
  let redis: Redis | undefined;
  if (redisUrl) {
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1000, connectTimeout: 2000, lazyConnect: true });
    redis.on('error', (err) => log.warn({ err: { message: err.message } }, 'shared limits: redis error (counting in this process meanwhile)'));
  }
  return {
    shared: !!redis,
    limiter(name, { limit, windowMs }) {
      const local: WindowLimiter = createWindowLimiter({ limit, windowMs, now });
      return {
        async hit(key) {
          if (!redis) return local.hit(key);
          const t = now();
          const window = Math.floor(t / windowMs);
          const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - t) / 1000));
          try {
            const [[, count]] = (await redis.multi().incr(`agp-lim:${name}:${key}:${window}`).pexpire(`agp-lim:${name}:${key}:${window}`, windowMs).exec()) as [[unknown, number], unknown];
            return { ok: count <= limit, retryAfterSeconds };
          } catch {
            return local.hit(key);
          }
        },
      };
    },
    async close() {
      await redis?.quit().catch(() => redis!.disconnect());
    },
  };
}
