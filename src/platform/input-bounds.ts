import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isStorableDateTime } from '../lib/time.js';
import { AppError, type ValidationIssue } from './errors.js';

/**
 * Bounds on what a request may make the server do before any route code runs, and one rule
 * for text input, applied to every route (the MCP tools included, whose arguments arrive in the
 * body):
 * - a JSON body has at most MAX_BODY_NODES keys and array items in all, so a body of 60,000
 *   unknown keys costs one small 422 instead of 60,000 validation errors;
 * - no string in the path, query or body may hold NUL or another control character (tab, line
 *   feed and carriage return excepted), nor half of a UTF-16 surrogate pair (`"\ud800"` in JSON):
 *   PostgreSQL refuses NUL and unpaired surrogates (jsonb, UTF-8 text), and none of them is ever
 *   meaningful in this API. The 422 names the field. Paired surrogates (emoji) are ordinary text.
 */
export const MAX_BODY_NODES = 2000;
// Everything below U+0020 but \t \n \r, plus DEL.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function tooLarge(): AppError {
  return new AppError('validation', 'Too many fields', {
    issues: [{ type: 'too_long', loc: ['body'], msg: `The body has too many fields or list items (at most ${MAX_BODY_NODES} in all)` }],
  });
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Whether a string holds a control character or an unpaired surrogate (is not well-formed UTF-16). */
const refused = (text: string): boolean => CONTROL.test(text) || LONE_SURROGATE.test(text);

/** Walks a parsed JSON value; returns the location of the first string with a refused character. */
function findControl(value: unknown, loc: (string | number)[], budget: { nodes: number }): (string | number)[] | undefined {
  if (typeof value === 'string') return refused(value) ? loc : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (--budget.nodes < 0) throw tooLarge();
      const hit = findControl(value[i], [...loc, i], budget);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (--budget.nodes < 0) throw tooLarge();
    if (refused(key)) return [...loc, key];
    const hit = findControl(v, [...loc, key], budget);
    if (hit) return hit;
  }
  return undefined;
}

function controlIssue(loc: (string | number)[]): AppError {
  const issue: ValidationIssue = { type: 'string_pattern_mismatch', loc, msg: 'Text must not contain NUL or other control characters, nor an unpaired UTF-16 surrogate' };
  return new AppError('validation', 'Control character or unpaired surrogate in input', { issues: [issue] });
}

export function checkRequestInput(request: Pick<FastifyRequest, 'body' | 'query' | 'params'>): void {
  for (const [part, value] of [['path', request.params], ['query', request.query]] as const) {
    const hit = findControl(value, [part], { nodes: MAX_BODY_NODES });
    if (hit) throw controlIssue(hit);
  }
  // Multipart bodies are streams (not parsed yet); only parsed JSON and form bodies are walked.
  if (request.body !== undefined && request.body !== null && typeof (request.body as { pipe?: unknown }).pipe !== 'function') {
    const hit = findControl(request.body, ['body'], { nodes: MAX_BODY_NODES });
    if (hit) throw controlIssue(hit);
  }
}

export function registerInputBounds(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    checkRequestInput(request);
  });
}

/**
 * Schema formats stricter than ajv-formats' where a value the schema accepted would otherwise fail in the
 * store: `date-time` is what PostgreSQL's timestamptz and Date both read (lib/time.ts; ajv-formats accepts
 * offsets up to ±23:59 and the year 0000, which PostgreSQL refuses). Fastify's `ajv.onCreate` in app.ts.
 */
export function tightenSchemaFormats(ajv: { addFormat(name: string, format: { type: 'string'; validate: (value: string) => boolean }): unknown }): void {
  ajv.addFormat('date-time', { type: 'string', validate: isStorableDateTime });
}
