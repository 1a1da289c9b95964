import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

/** Query parameters whose values are secrets (magic-link tokens, download tokens, keys). */
const SECRET_PARAMS = /([?&](?:token|api_key|key|code|password|secret)=)[^&#]*/gi;

/** Path segments that are secrets (the single-use scan download token, a customer's review link). */
const SECRET_PATHS = /(\/api\/scans\/download\/|^\/reviews\/)[^/?#]+/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[REDACTED]').replace(SECRET_PATHS, '$1[REDACTED]');
}

/** Error fields that may be logged. Driver errors also carry the statement, its parameters and a
 * `detail` that quotes row values (PGlite, pg): user data, never logged. */
const SAFE_ERROR_FIELDS = ['code', 'severity', 'table', 'column', 'constraint', 'routine', 'statusCode'] as const;

export function serializeError(err: Error, depth = 0): { [key: string]: unknown; type: string; message: string; stack: string } {
  const out: { [key: string]: unknown; type: string; message: string; stack: string } = { type: err.name, message: err.message, stack: err.stack ?? '' };
  for (const field of SAFE_ERROR_FIELDS) {
    const v = (err as unknown as Record<string, unknown>)[field];
    if (v !== undefined && (typeof v === 'string' || typeof v === 'number')) out[field] = v;
  }
  if (err.cause !== undefined && depth < 3) out.cause = err.cause instanceof Error ? serializeError(err.cause, depth + 1) : String(err.cause).slice(0, 200);
  return out;
}

/** pino options: request ids, secret headers and query values redacted. */
export function loggerOptions(config: Config, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return {
    ...(stream ? { stream } : {}),
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.api_key',
        '*.token',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      err: serializeError,
      req(req: { method: string; url: string; id: string; ip?: string; headers?: Record<string, unknown> }) {
        return { id: req.id, method: req.method, url: redactUrl(req.url), ip: req.ip, userAgent: req.headers?.['user-agent'] };
      },
    },
  };
}
