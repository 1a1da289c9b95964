import formbody from '@fastify/formbody';
import { Type } from 'typebox';
import { type AdminPrincipal, BEARER_SECURITY, type Guards, type UserPrincipal } from '../../platform/auth.js';
import { isLoopbackAddress } from '../../lib/net.js';
import { AppError } from '../../platform/errors.js';
import { assertSameOrigin } from '../../platform/security-headers.js';
import { clearSessionCookie, sessionCookie } from '../../platform/session-cookie.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import type { MailService } from '../../platform/mail.js';
import { confirmPage, errorPage, mailboxPage, signedInPage } from './auth.pages.js';
import {
  AdminLinkSentSchema,
  AdminLoginBody,
  AdminMagicLinkBody,
  AdminSchema,
  AdminTokenSchema,
  AdminVerifyQuery,
  CleanupSchema,
  ConfirmForm,
  MagicLinkRequestSchema,
  MagicLinkSentSchema,
  MeResponseSchema,
  MessageSchema,
  OwnerTokenSchema,
  UserSchema,
  VerifyMagicQuery,
} from './auth.schemas.js';
import type { AuthService } from './auth.service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  guards: Guards;
  serviceName: string;
  /** The service's own origin: sign-in confirm forms are accepted only from it. */
  baseUrl: string;
}

const bearer = BEARER_SECURITY;
const display = (slug: string) => (slug === 'agentpages' ? 'AgentPages' : slug);
const noStore = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex' };
const rateLimited = { 429: err };

/** The schemas these routes reference by name; app.ts registers them with the others. */
export const authSchemas = [MagicLinkRequestSchema, MagicLinkSentSchema, UserSchema, AdminSchema, OwnerTokenSchema, MeResponseSchema, AdminTokenSchema];

function userOnly(principal: unknown): UserPrincipal {
  const p = principal as UserPrincipal | AdminPrincipal;
  if (p.kind !== 'user') throw new AppError('forbidden', 'This is an owner account operation; administrators use /api/admin');
  return p;
}

/** Owner sign-in (base /api/auth): one magic-link flow for login and sign-up. */
export async function authRoutes(app: App, { auth, guards, serviceName, baseUrl }: AuthRoutesOptions): Promise<void> {
  const service = display(serviceName);
  // For the confirm page's form only (encapsulated in this plugin).
  await app.register(formbody);

  const magicLinkSchema = (operationId: string, summary: string) => ({
    operationId,
    tags: ['auth'],
    summary,
    description:
      'Emails a single-use sign-in link (login and sign-up are one flow). The answer is the same whether or not the address has an account. ' +
      'For purposes verify and crawl, website_url is required and the email domain must be the website domain or a parent of it ' +
      '(jane@acme.com may claim www.acme.com or shop.acme.com, jane@mail.acme.com may not claim acme.com; public email providers never match): a mismatch is 400 before any mail is sent. ' +
      'Limited per address and per client (429 with Retry-After).',
    body: Type.Ref('MagicLinkRequest'),
    response: { 200: Type.Ref('MagicLinkSent'), 400: err, ...rateLimited, ...errorResponses },
  });
  const requestLink = async (req: { body: unknown; ip: string }) => {
    const body = req.body as { email: string; purpose?: 'login' | 'verify' | 'crawl'; website_url?: string };
    return auth.requestMagicLink({ email: body.email, purpose: body.purpose ?? 'login', website_url: body.website_url, ip: req.ip });
  };
  app.post('/magic-link', { schema: magicLinkSchema('auth.magicLink', 'Email a magic sign-in link') }, requestLink);
  app.post('/login', { schema: magicLinkSchema('auth.login', 'Sign in or sign up: email a magic link') }, requestLink);

  app.get('/verify-magic', {
    schema: {
      operationId: 'auth.verifyMagic',
      tags: ['auth'],
      summary: 'Exchange a magic-link token for a bearer token',
      description:
        'For API clients. purpose must be the one the link was requested with (default login). For verify and crawl the user becomes an owner of the company ' +
        '(a minimal unverified profile is created when the directory has none); crawl also starts a crawl. Unknown, used, expired or wrong-purpose tokens are 400. ' +
        'People follow the emailed link to a confirm page instead, so mail scanners cannot use up the token.',
      querystring: VerifyMagicQuery,
      response: { 200: Type.Ref('OwnerToken'), 400: err, ...errorResponses },
    },
  }, async (req, reply) => {
    reply.headers(noStore);
    return auth.verifyUserToken(req.query.token, req.query.purpose ?? 'login');
  });

  app.get('/confirm', { schema: { hide: true, querystring: VerifyMagicQuery } }, async (req, reply) => {
    return reply
      .headers(noStore)
      .type('text/html; charset=utf-8')
      .send(confirmPage({ action: 'confirm', token: req.query.token, purpose: req.query.purpose ?? 'login', service, admin: false }));
  });

  app.post('/confirm', { schema: { hide: true, body: ConfirmForm } }, async (req, reply) => {
    reply.headers(noStore).type('text/html; charset=utf-8');
    try {
      assertSameOrigin(req, baseUrl);
      const r = await auth.verifyUserToken(req.body.token, req.body.purpose ?? 'login');
      const extra = r.company_id ? `Your company is linked to your account.${r.crawl_error ? ` ${r.crawl_error}` : r.crawl_job ? ' Reading your website has started.' : ''}` : undefined;
      reply.header('set-cookie', sessionCookie(r.access_token, r.expires_in, baseUrl));
      return reply.send(signedInPage({ service, email: r.user.email, next: '/app/', ...(extra ? { extra } : {}) }));
    } catch (e) {
      if (e instanceof AppError && e.status < 500) return reply.status(e.status).send(errorPage(service, e.message));
      throw e;
    }
  });

  app.get('/me', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'auth.me',
      tags: ['auth'],
      summary: 'The signed-in owner and a fresh token',
      description: 'Returns the profile (with the ids of the companies the user owns) and a renewed token for the same session.',
      security: bearer,
      response: { 200: Type.Ref('OwnerMe'), 401: err, 403: err, ...errorResponses },
    },
  }, async (req, reply) => {
    reply.headers(noStore);
    return auth.me(userOnly(req.principal));
  });

  app.post('/claim', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'auth.claim',
      tags: ['auth'],
      summary: 'Claim the company at a website on your own email domain, without a second link',
      description:
        'The signed-in owner becomes an owner of the company at website_url (a URL or a bare domain; created as a minimal unverified record when the ' +
        'directory has none). The rule is the verify link\'s: the email domain must be the website domain or a parent of it (400 otherwise, in a sentence). ' +
        'With read_website (default true) the crawl of the site starts; ownership stands when it cannot start now (crawl_error says why). Claiming twice is harmless.',
      security: bearer,
      body: Type.Object({
        website_url: Type.String({ minLength: 1, maxLength: 2048, description: "The company's website: a URL or a bare domain (acme.com)" }),
        read_website: Type.Optional(Type.Boolean({ description: 'Start reading the website to build the profile (default true)' })),
      }),
      response: {
        200: Type.Object({
          message: Type.String(),
          company_id: Type.String({ format: 'uuid' }),
          website_url: Type.String(),
          crawl_job: Type.Optional(Type.Unknown({ description: 'The crawl that was started' })),
          crawl_error: Type.Optional(Type.String({ description: 'Why the crawl could not start (ownership still holds)' })),
        }),
        400: err, 401: err, 403: err, ...errorResponses,
      },
    },
  }, async (req) => auth.claimAsSignedIn(userOnly(req.principal), req.body));

  app.post('/logout', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'auth.logout',
      tags: ['auth'],
      summary: 'Sign out: the token (and any renewed copy of it) stops working',
      security: bearer,
      response: { 200: MessageSchema, 401: err, ...errorResponses },
    },
  }, async (req, reply) => {
    await auth.logout(req.principal!);
    reply.header('set-cookie', clearSessionCookie(baseUrl));
    return { message: 'Signed out' };
  });

  app.delete('/me', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'auth.deleteAccount',
      tags: ['auth'],
      summary: 'Remove the account: all its tokens stop working and its company ownerships end',
      description: 'Company profiles stay in the directory. The address may sign up again later as a new account.',
      security: bearer,
      response: { 200: MessageSchema, 401: err, 403: err, ...errorResponses },
    },
  }, async (req) => {
    await auth.deleteAccount(userOnly(req.principal));
    return { message: 'Account removed' };
  });

  app.delete('/cleanup-tokens', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'auth.cleanupTokens',
      tags: ['auth'],
      summary: 'Remove expired (and long-used) magic tokens',
      description: 'An owner removes the stale tokens of their own address; an administrator those of every address.',
      security: bearer,
      response: { 200: CleanupSchema, 401: err, ...errorResponses },
    },
  }, async (req) => auth.cleanupTokens(req.principal!));
}

/** Administrator sign-in (base /api/admin): password or magic link. */
export async function adminAuthRoutes(app: App, { auth, guards, serviceName, baseUrl }: AuthRoutesOptions): Promise<void> {
  const service = display(serviceName);
  await app.register(formbody);

  app.post('/login', {
    schema: {
      operationId: 'admin.login',
      tags: ['admin'],
      summary: 'Administrator sign-in with email and password',
      description: 'Wrong email and wrong password get the same 401. From the admin screen (a same-origin browser request) the session cookie is set as well. Repeated failures per address and per client are refused with 429 for a while.',
      body: AdminLoginBody,
      response: { 200: Type.Ref('AdminToken'), 401: err, ...rateLimited, ...errorResponses },
    },
  }, async (req, reply) => {
    reply.headers(noStore);
    const r = await auth.adminLogin({ email: req.body.email, password: req.body.password, ip: req.ip });
    // The admin screen's own sign-in form (a same-origin fetch, which no other page can claim) gets the session cookie too.
    if (req.headers['sec-fetch-site'] === 'same-origin') reply.header('set-cookie', sessionCookie(r.access_token, r.expires_in, baseUrl));
    return r;
  });

  app.post('/magic-link/request', {
    schema: {
      operationId: 'admin.magicLinkRequest',
      tags: ['admin'],
      summary: 'Email an administrator a sign-in link',
      description: 'The answer is the same whether or not the address belongs to an administrator.',
      body: AdminMagicLinkBody,
      response: { 200: AdminLinkSentSchema, ...rateLimited, ...errorResponses },
    },
  }, async (req) => auth.requestAdminMagicLink({ email: req.body.email, ip: req.ip }));

  app.get('/magic-link/verify', {
    schema: {
      operationId: 'admin.magicLinkVerify',
      tags: ['admin'],
      summary: 'Exchange an administrator magic-link token for a bearer token',
      querystring: AdminVerifyQuery,
      response: { 200: Type.Ref('AdminToken'), 400: err, ...errorResponses },
    },
  }, async (req, reply) => {
    reply.headers(noStore);
    return auth.verifyAdminToken(req.query.token);
  });

  app.get('/magic-link/confirm', { schema: { hide: true, querystring: AdminVerifyQuery } }, async (req, reply) =>
    reply.headers(noStore).type('text/html; charset=utf-8').send(confirmPage({ action: 'confirm', token: req.query.token, service, admin: true })),
  );

  app.post('/magic-link/confirm', { schema: { hide: true, body: AdminVerifyQuery } }, async (req, reply) => {
    reply.headers(noStore).type('text/html; charset=utf-8');
    try {
      assertSameOrigin(req, baseUrl);
      const r = await auth.verifyAdminToken(req.body.token);
      reply.header('set-cookie', sessionCookie(r.access_token, r.expires_in, baseUrl));
      return reply.send(signedInPage({ service: `${service} administration`, email: r.admin.email, next: '/admin/' }));
    } catch (e) {
      if (e instanceof AppError && e.status < 500) return reply.status(e.status).send(errorPage(service, e.message));
      throw e;
    }
  });

  app.get('/me', {
    onRequest: guards.requireAdmin,
    schema: {
      operationId: 'admin.me',
      tags: ['admin'],
      summary: 'The signed-in administrator',
      description: 'An owner token is 403.',
      security: bearer,
      response: { 200: Type.Object({ admin: Type.Ref('Admin') }), 401: err, 403: err, ...errorResponses },
    },
  }, async (req) => auth.adminMe(req.principal as AdminPrincipal));

  app.post('/logout', {
    onRequest: guards.requireAdmin,
    schema: {
      operationId: 'admin.logout',
      tags: ['admin'],
      summary: 'End the administrator session: the token stops working',
      security: bearer,
      response: { 200: MessageSchema, 401: err, 403: err, ...errorResponses },
    },
  }, async (req, reply) => {
    await auth.logout(req.principal!);
    reply.header('set-cookie', clearSessionCookie(baseUrl));
    return { message: 'Signed out' };
  });
}

/**
 * The outbox as a page, so a person trying the service on their own machine can click their
 * link. app.ts registers it only outside production and only without SMTP; it answers only
 * direct loopback connections: the socket's own peer on loopback (never req.ip, which TRUST_PROXY
 * may take from a header) and no Forwarded, X-Forwarded-For or X-Real-IP header, since a proxy on
 * the same host (which sends them) makes every visitor look like loopback whatever TRUST_PROXY says.
 * Anyone else gets the same 404 as an unknown path, since the outbox holds sign-in links.
 */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

export async function devMailboxRoutes(app: App, { mail }: { mail: MailService }): Promise<void> {
  app.get('/mailbox', { schema: { hide: true, querystring: Type.Object({ to: Type.Optional(Type.String({ maxLength: 254 })) }) } }, async (req, reply) => {
    const proxied = PROXY_HEADERS.some((name) => req.headers[name] !== undefined);
    if (proxied || !isLoopbackAddress(req.raw.socket.remoteAddress)) {
      throw new AppError('not_found', `Not found: ${req.method} ${req.url.split('?')[0]}`);
    }
    return reply
      .headers(noStore)
      .type('text/html; charset=utf-8')
      .send(mailboxPage(await mail.recent({ limit: 50, ...(req.query.to ? { to: req.query.to } : {}) })));
  });
}
