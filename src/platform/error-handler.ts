import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DATE_TIME_RULE } from '../lib/time.js';
import { AppError, errorStatus, type ErrorCode, type ValidationIssue } from './errors.js';

/** The error code a bare HTTP status stands for (errors raised by the framework rather than by our services). */
export function codeForStatus(status: number): ErrorCode {
  const hit = (Object.entries(errorStatus) as [ErrorCode, number][]).find(([, s]) => s === status);
  if (hit) return hit[0];
  if (status === 414) return 'bad_request';
  return status >= 500 ? 'internal' : 'bad_request';
}

/** The `{detail, code, request_id}` body of every non-validation error. */
export function errorBody(request: FastifyRequest, code: ErrorCode, detail: string): { detail: string; code: ErrorCode; request_id: string } {
  return { detail, code, request_id: String(request.id) };
}

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
  data?: unknown;
}

const contextLoc: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** ajv keyword → FastAPI/pydantic error type, so clients see the familiar names. */
const typeByKeyword: Record<string, string> = {
  required: 'missing',
  maxLength: 'string_too_long',
  minLength: 'string_too_short',
  maximum: 'less_than_equal',
  minimum: 'greater_than_equal',
  exclusiveMaximum: 'less_than',
  exclusiveMinimum: 'greater_than',
  maxItems: 'too_long',
  minItems: 'too_short',
  enum: 'enum',
  const: 'literal_error',
  format: 'value_error',
  pattern: 'string_pattern_mismatch',
  additionalProperties: 'extra_forbidden',
  type: 'type_error',
  anyOf: 'value_error',
};

function issueMessage(issue: AjvIssue): string {
  const p = issue.params;
  switch (issue.keyword) {
    case 'required':
      return 'Field required';
    case 'maxLength':
      return `String should have at most ${p.limit} characters`;
    case 'minLength':
      return `String should have at least ${p.limit} character${p.limit === 1 ? '' : 's'}`;
    case 'maximum':
      return `Input should be less than or equal to ${p.limit}`;
    case 'minimum':
      return `Input should be greater than or equal to ${p.limit}`;
    case 'maxItems':
      return `List should have at most ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'minItems':
      return `List should have at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'enum':
      return `Input should be ${(p.allowedValues as unknown[]).map((v) => `'${String(v)}'`).join(', ')}`;
    case 'format':
      if (p.format === 'date-time') return DATE_TIME_RULE;
      return p.format === 'uuid' ? 'Input should be a valid UUID' : `Input should be a valid ${String(p.format)}`;
    case 'additionalProperties':
      return `Extra inputs are not permitted: '${String(p.additionalProperty)}'`;
    case 'type':
      return `Input should be a valid ${String(p.type)}`;
    default:
      return issue.message ?? 'Invalid value';
  }
}

/**
 * The offending value echoed back (as FastAPI does), bounded: long strings are cut and objects or
 * lists are left out, so an answer is never much larger than MAX_REPORTED_ISSUES short lines.
 */
function echoedInput(data: unknown): unknown {
  if (typeof data === 'string') return data.length > 200 ? `${data.slice(0, 200)}…` : data;
  if (data === null || typeof data === 'number' || typeof data === 'boolean') return data;
  return undefined;
}

/** A 422 lists at most this many issues: enough to fix a request, small whatever was sent. */
export const MAX_REPORTED_ISSUES = 20;

export function toValidationIssues(validation: AjvIssue[], context: string | undefined): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const v of validation) {
    if (issues.length >= MAX_REPORTED_ISSUES) break;
    // anyOf/union noise: the underlying branch errors already say what is wrong
    if (v.keyword === 'anyOf' && validation.length > 1) continue;
    const loc: (string | number)[] = [contextLoc[context ?? 'body'] ?? 'body'];
    for (const seg of v.instancePath.split('/').slice(1)) {
      const s = seg.replace(/~1/g, '/').replace(/~0/g, '~');
      loc.push(/^\d+$/.test(s) ? Number(s) : s);
    }
    if (v.keyword === 'required') loc.push(String(v.params.missingProperty));
    if (v.keyword === 'additionalProperties') loc.push(String(v.params.additionalProperty));
    const key = `${loc.join('.')}|${v.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const issue: ValidationIssue = { type: typeByKeyword[v.keyword] ?? 'value_error', loc, msg: issueMessage(v) };
    if (v.keyword !== 'required' && v.data !== undefined) {
      const input = echoedInput(v.data);
      if (input !== undefined) issue.input = input;
    }
    issues.push(issue);
  }
  return issues;
}

/** Request-line and header bounds, answered in the `detail` shape like every other error. */
export const MAX_HEADER_BYTES = 64 * 1024;
export const MAX_PARAM_LENGTH = 500;

/** Errors the router raises before any route runs: a path segment too long (414) or a malformed URL (400). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.code(414).send(errorBody(request, 'bad_request', `A path segment is longer than ${MAX_PARAM_LENGTH} characters`));
    return;
  }
  void reply.code(400).send(errorBody(request, 'bad_request', 'Malformed URL: a path segment is not valid percent-encoding'));
}

/** Errors of the HTTP parser itself (headers too large, malformed request): the socket gets a `detail` body, then closes. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, `Request headers are larger than ${MAX_HEADER_BYTES / 1024} KB: send long values in a POST body`]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      if (err.status >= 500) {
        request.log.error({ err: err.cause ?? err }, err.message);
        // 503/504 messages are written for clients ("the language model did not answer in time"); a 500's never is.
        const clientSafe = err.code === 'unavailable' || err.code === 'upstream_timeout';
        return reply.status(err.status).send(errorBody(request, clientSafe ? err.code : 'internal', clientSafe ? err.message : 'Internal server error'));
      }
      if (err.code === 'validation') return reply.status(422).send({ detail: err.issues ?? [{ type: 'value_error', loc: ['body'], msg: err.message }] });
      return reply.status(err.status).send(errorBody(request, err.code, err.message));
    }
    const fe = err as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
    if (fe.validation) {
      return reply.status(422).send({ detail: toValidationIssues(fe.validation, fe.validationContext) });
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(422).send({ detail: [{ type: 'json_invalid', loc: ['body'], msg: fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'Request body is empty but Content-Type is application/json' : 'JSON decode error' }] });
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send(errorBody(request, 'unsupported_media_type', 'Unsupported Content-Type'));
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send(errorBody(request, 'payload_too_large', 'Request body is too large'));
    }
    const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
    if (status === 429) {
      return reply.status(429).send(errorBody(request, 'rate_limited', 'Too many requests: retry later with exponential backoff'));
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send(errorBody(request, codeForStatus(status), fe.message));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody(request, 'internal', 'Internal server error'));
  });

  // Unknown routes: a plain 404 in the same {detail} shape as every other error; people (a browser
  // asking for HTML outside the API) get the site's 404 page once a module has set one.
  // Every route's pattern, so that a known path asked with the wrong method answers 405 with Allow
  // (RFC 9110 §15.5.6) instead of a 404 that suggests the path does not exist.
  const routes: { method: string; pattern: RegExp }[] = [];
  app.addHook('onRoute', (route) => {
    const pattern = routePattern(route.url ?? route.path);
    for (const method of [route.method].flat()) routes.push({ method, pattern });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = [...new Set(routes.filter((r) => r.method !== request.method && r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length > 0 && request.method !== 'OPTIONS') {
      const allow = allowed.sort().join(', ');
      reply.status(405).header('allow', allow).send(errorBody(request, 'method_not_allowed', `Method Not Allowed: ${request.method} ${path} answers ${allow}`));
      return;
    }
    const page = htmlNotFoundPages.get(app);
    if (page && !MACHINE_PATHS.test(path)) reply.header('vary', 'accept');
    if (page && wantsHtmlPage(request, path)) {
      reply.status(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page(path));
      return;
    }
    reply.status(404).send(errorBody(request, 'not_found', `Not found: ${request.method} ${path}`));
  });
}

/** A Fastify route path as an anchored expression: `:param` is one segment, `*` the rest. */
function routePattern(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+(?:\([^)]*\))?|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}

const htmlNotFoundPages = new WeakMap<FastifyInstance, (path: string) => string>();

/** Machine-facing paths keep their JSON 404 whatever the Accept header says. */
const MACHINE_PATHS = /^\/(api|mcp|\.well-known|dev|docs|openapi|metrics|widget)(\/|\.|$)/;

function wantsHtmlPage(request: FastifyRequest, path: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (MACHINE_PATHS.test(path)) return false;
  return /text\/html/i.test(request.headers.accept ?? '');
}

/** The HTML page unknown paths answer to browsers (the site module sets it); the path is untrusted text. */
export function setHtmlNotFoundPage(app: FastifyInstance, render: (path: string) => string): void {
  htmlNotFoundPages.set(app, render);
}

export { errorStatus };
