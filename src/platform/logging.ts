import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

/** Query parameters whose values are secrets (magic-link tokens, download tokens, keys). */
const SECRET_PARAMS = /([?&](?:token|api_key|key|code|password|secret)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[REDACTED]');
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
      req(req: { method: string; url: string; id: string; ip?: string; headers?: Record<string, unknown> }) {
        return { id: req.id, method: req.method, url: redactUrl(req.url), ip: req.ip, userAgent: req.headers?.['user-agent'] };
      },
    },
  };
}
