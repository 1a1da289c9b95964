import createClient from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The typed client for the service's own API (types generated from /openapi.json by
 * scripts/dev/gen-web-api.ts). The session is an HttpOnly cookie the browser sends by itself;
 * every state-changing request carries the CSRF header the service requires with cookies.
 */
export const CSRF_HEADER = 'X-AgentPages-CSRF';

export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use({
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD') request.headers.set(CSRF_HEADER, '1');
    return request;
  },
});

export class ApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

/** The API's `detail`, whether a sentence or the 422 list of field errors. */
export function detailOf(error: unknown, status: number): string {
  const d = (error as { detail?: unknown } | undefined)?.detail;
  if (typeof d === 'string') return d;
  // A validation list: its sentences only (the field paths are for programs, and the form marks the field).
  if (Array.isArray(d)) return d.map((e: { msg?: string }) => (e.msg ?? 'A value is not valid').replace(/\.?$/, '.')).join(' ');
  // No sentence from the service (a proxy's page, say): one in words, never a status code.
  if (status === 401) return 'Your session has ended. Please sign in again.';
  if (status === 403) return 'You are not allowed to do this.';
  if (status === 404) return 'This was not found. It may have been removed.';
  if (status === 429) return 'Too many requests in a short time. Please wait a moment and try again.';
  if (status >= 500) return 'The service had a problem. Please try again in a moment.';
  return 'This could not be done. Please check what you entered and try again.';
}

/** Resolves to the data of a 2xx answer; throws ApiError with the API's detail otherwise. */
export async function unwrap<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let r;
  try {
    r = await p;
  } catch {
    throw new ApiError('Network error: the service could not be reached', 0);
  }
  if (!r.response.ok || r.data === undefined) throw new ApiError(detailOf(r.error, r.response.status), r.response.status);
  return r.data;
}

export const isUnauthorized = (e: unknown) => e instanceof ApiError && e.status === 401;
