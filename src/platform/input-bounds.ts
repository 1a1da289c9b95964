import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, type ValidationIssue } from './errors.js';

/**
 * Bounds on what a request may make the server do before any route code runs, and one rule
 * for text input, applied to every route (the MCP tools included, whose arguments arrive in the
 * body):
 * - a JSON body has at most MAX_BODY_NODES keys and array items in all, so a body of 60,000
 *   unknown keys costs one small 422 instead of 60,000 validation errors;
 * - no string in the path, query or body may hold NUL or another control character (tab, line
 *   feed and carriage return excepted): PostgreSQL refuses NUL, and none of them is ever
 *   meaningful in this API. The 422 names the field.
 */
export const MAX_BODY_NODES = 2000;
// Everything below U+0020 but \t \n \r, plus DEL.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function tooLarge(): AppError {
  return new AppError('validation', 'Too many fields', {
    issues: [{ type: 'too_long', loc: ['body'], msg: `The body has too many fields or list items (at most ${MAX_BODY_NODES} in all)` }],
  });
}

/** Walks a parsed JSON value; returns the location of the first string with a control character. */
function findControl(value: unknown, loc: (string | number)[], budget: { nodes: number }): (string | number)[] | undefined {
  if (typeof value === 'string') return CONTROL.test(value) ? loc : undefined;
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
    if (CONTROL.test(key)) return [...loc, key];
    const hit = findControl(v, [...loc, key], budget);
    if (hit) return hit;
  }
  return undefined;
}

function controlIssue(loc: (string | number)[]): AppError {
  const issue: ValidationIssue = { type: 'string_pattern_mismatch', loc, msg: 'Text must not contain NUL or other control characters' };
  return new AppError('validation', 'Control character in input', { issues: [issue] });
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
