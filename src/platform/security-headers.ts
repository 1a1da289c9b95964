import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * Browser-facing protections in one place.
 * - Every response: nosniff. Every HTML page: a Content-Security-Policy (no inline script, no
 *   plugins, no framing by other sites, forms post only to this origin), X-Frame-Options for old
 *   browsers, and a Referrer-Policy that never sends a path (sign-in links carry tokens) elsewhere.
 *   A route that needs something else (an embeddable page) sets its own header first; it is kept.
 */
export const HTML_CSP =
  "default-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'; form-action 'self'; " +
  "img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'";

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) {
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', HTML_CSP);
      if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'DENY');
      if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    }
    return payload;
  });
}

/**
 * Refuses a state-changing form post sent from another site (login CSRF: signing a victim in to
 * the attacker's account). Browsers send Origin (or at least Sec-Fetch-Site / Referer) with form
 * posts; it must be this service's own origin (BASE_URL, or the Host the request came to).
 * A client that sends none of them is not a browser and cannot be used for this attack.
 */
export function assertSameOrigin(request: FastifyRequest, baseUrl: string): void {
  const own = new Set([new URL(baseUrl).origin]);
  if (request.headers.host) own.add(`${request.protocol}://${request.headers.host}`);
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') throw crossSite();
  const origin = request.headers.origin;
  // The confirm pages send no referrer, so browsers post their forms with "Origin: null"; the
  // browser's own Sec-Fetch-Site (no page can set it) still says whether the post is same-origin.
  if (origin !== undefined && !(origin === 'null' && site === 'same-origin')) {
    if (!own.has(origin)) throw crossSite();
    return;
  }
  const referer = request.headers.referer;
  if (referer !== undefined) {
    let refOrigin: string | undefined;
    try {
      refOrigin = new URL(referer).origin;
    } catch {
      refOrigin = undefined;
    }
    if (!refOrigin || !own.has(refOrigin)) throw crossSite();
  }
}

const crossSite = () => new AppError('forbidden', 'This form can only be sent from the sign-in page of this site');
