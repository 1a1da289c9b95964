import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

export interface AgentRateLimitOptions {
  config: Pick<Config, 'rateLimit' | 'redisUrl'>;
  /** Whether a header value has the shape of one of our keys (checksum included). */
  isWellFormedKey: (key: string) => boolean;
}

const WINDOW_SECONDS = 60;

/**
 * Rate limits of the agent API, registered inside the /api/v1/agent plugin so they apply to
 * those routes only. A request with a well-formed X-API-Key counts against that key
 * (RATE_LIMIT_AGENT_PER_MINUTE; keyed by the key's sha256, never the key); any other request
 * against its IP (RATE_LIMIT_IP_PER_MINUTE). A malformed key falls back to the IP bucket, so
 * random strings cannot mint fresh buckets. With REDIS_URL the counters live in Redis and are
 * shared by every instance; otherwise in memory.
 *
 * Headers: RateLimit-Policy and RateLimit (IETF draft-ietf-httpapi-ratelimit-headers, structured
 * fields), the older RateLimit-Limit/-Remaining/-Reset trio, and Retry-After on 429.
 */
export async function registerAgentRateLimit(app: FastifyInstance, { config, isWellFormedKey }: AgentRateLimitOptions): Promise<void> {
  const bucket = (req: FastifyRequest): { key: string; kind: 'key' | 'ip' } => {
    const raw = req.headers['x-api-key'];
    const key = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (key && isWellFormedKey(key)) return { key: `k:${createHash('sha256').update(key).digest('hex')}`, kind: 'key' };
    return { key: `ip:${req.ip}`, kind: 'ip' };
  };
  const maxFor = (kind: 'key' | 'ip') => (kind === 'key' ? config.rateLimit.agentPerMinute : config.rateLimit.ipPerMinute);

  let redis: Redis | undefined;
  if (config.redisUrl) {
    // Commands wait briefly for a (re)connection, then fail; skipOnError below serves the request.
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1000, connectTimeout: 2000 });
    redis.on('error', (err) => app.log.warn({ err: { message: err.message } }, 'rate-limit redis error'));
    app.addHook('onClose', async () => {
      await redis!.quit().catch(() => redis!.disconnect());
    });
  }

  await app.register(rateLimit, {
    global: true,
    timeWindow: WINDOW_SECONDS * 1000,
    max: (req) => maxFor(bucket(req).kind),
    keyGenerator: (req) => bucket(req).key,
    enableDraftSpec: true,
    // Redis down: serve rather than fail every agent call.
    skipOnError: true,
    ...(redis ? { redis, nameSpace: 'agp-rl:' } : {}),
    errorResponseBuilder: (_req, context) => {
      const e = new Error(`Too many requests: limit of ${context.max} per minute reached; retry in ${context.after}`) as Error & { statusCode: number };
      e.statusCode = 429;
      return e;
    },
  });

  // Structured-field headers from the values the plugin computed.
  app.addHook('onSend', async (req, reply, payload) => {
    const limit = reply.getHeader('ratelimit-limit');
    if (limit === undefined) return payload;
    const remaining = reply.getHeader('ratelimit-remaining') ?? 0;
    const reset = reply.getHeader('ratelimit-reset') ?? WINDOW_SECONDS;
    const policy = bucket(req).kind === 'key' ? 'per-key' : 'per-ip';
    reply.header('ratelimit-policy', `"${policy}";q=${limit};w=${WINDOW_SECONDS}`);
    reply.header('ratelimit', `"${policy}";r=${remaining};t=${reset}`);
    return payload;
  });
}
