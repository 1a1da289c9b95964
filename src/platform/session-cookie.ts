import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * Browser sessions for the dashboard (/app, /admin). The sign-in confirmation sets the bearer
 * token as an HttpOnly, SameSite=Strict cookie scoped to /api (Secure unless the service runs on
 * localhost), so no script ever holds it. The bearer guard reads it when no Authorization header
 * is sent. A state-changing request authenticated by the cookie must also carry CSRF_HEADER: a
 * foreign page cannot add a custom header to a cross-site request without a CORS preflight this
 * service never grants. Agents and API clients keep sending Authorization / X-API-Key.
 */
export const SESSION_COOKIE = 'agentpages_session';
export const CSRF_HEADER = 'x-agentpages-csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const TOKEN = /^[\w.~+/=-]{1,4096}$/;

function isLocalhost(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost');
}

function attributes(baseUrl: string): string {
  return `Path=/api; HttpOnly; SameSite=Strict${isLocalhost(baseUrl) ? '' : '; Secure'}`;
}

/** Set-Cookie value carrying a session token for maxAgeSeconds. */
export function sessionCookie(token: string, maxAgeSeconds: number, baseUrl: string): string {
  return `${SESSION_COOKIE}=${token}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${attributes(baseUrl)}`;
}

/** Set-Cookie value removing the session cookie (sign-out). */
export function clearSessionCookie(baseUrl: string): string {
  return `${SESSION_COOKIE}=; Max-Age=0; ${attributes(baseUrl)}`;
}

/** The session token from a Cookie header, or undefined. */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return value && TOKEN.test(value) ? value : undefined;
  }
  return undefined;
}

/** The session token of a cookie-authenticated request; refuses a state-changing one without the CSRF header (403). */
export function cookieToken(request: FastifyRequest): string | undefined {
  const token = readSessionCookie(request.headers.cookie);
  if (!token) return undefined;
  if (!SAFE_METHODS.has(request.method) && !request.headers[CSRF_HEADER]) {
    throw new AppError('forbidden', `Cookie-authenticated ${request.method} requests must send the ${CSRF_HEADER} header (cross-site request refused)`);
  }
  return token;
}
