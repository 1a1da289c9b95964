import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail.js';
import type { MailDnsResolver } from '../../platform/mail-dns.js';
import { createBackoffLimiter, createWindowLimiter, type WindowLimiter } from '../../lib/rate-window.js';
import { isoTimeOrNull as iso } from '../../lib/time.js';
import type { CompaniesService } from '../companies/companies.service.js';
import type { OwnershipService } from '../ownership/ownership.service.js';
import type { AdminRow, AuthRepo, UserRow } from './auth.repo.js';
import { ADMIN_TOKEN_TTL_SECONDS, USER_TOKEN_TTL_SECONDS, type createTokenSigner } from './auth.tokens.js';

export type TokenSigner = ReturnType<typeof createTokenSigner>;

/** What every verb group of the auth service shares: dependencies, the token signer, the sign-in brakes and the views. */
export interface AuthLimits {
  /** Magic-link requests per (address, client IP) pair (then a growing block) and per client IP, per window. */
  linkPerAddressAndClient: number;
  linkPerIp: number;
  /** Failed admin logins per (address, client IP) pair (then a growing block) and per client IP, per window. */
  loginFailuresPerAddressAndClient: number;
  loginFailuresPerIp: number;
  windowMs: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  linkPerAddressAndClient: 5,
  linkPerIp: 30,
  loginFailuresPerAddressAndClient: 5,
  loginFailuresPerIp: 20,
  windowMs: 15 * 60_000,
};

export interface AuthServiceDeps {
  db: Db;
  repo?: AuthRepo;
  companies: CompaniesService;
  mail: Mailer;
  config: Pick<Config, 'baseUrl' | 'serviceName' | 'nodeEnv' | 'dataDir' | 'jwtSecret' | 'magicLinkTtlMinutes' | 'emailCheckMx' | 'adminEmail' | 'adminPassword'>;
  log: FastifyBaseLogger;
  limits?: Partial<AuthLimits>;
  /** DNS for the MX check (EMAIL_CHECK_MX); tests pass a fake. */
  dns?: MailDnsResolver | undefined;
  /** Who owns which company (the ownership module): sign-in with purpose verify records it. */
  ownership: OwnershipService;
  /** Starts a crawl after an owner verified with purpose `crawl` (the crawl module's startForOwner). */
  onCrawlRequested?: (userId: string, companyId: string, websiteUrl: string) => Promise<unknown>;
}

export interface UserView {
  id: string;
  email: string;
  created_at: string;
  last_login_at: string | null;
  company_ids: string[];
}

export interface AdminView {
  id: string;
  email: string;
  created_at: string;
  last_login_at: string | null;
}

export interface AuthCtx {
  deps: AuthServiceDeps;
  repo: AuthRepo;
  tokens: TokenSigner;
  /** The service's name in mail (displayName of config.serviceName). */
  serviceName: string;
  linkLimiter: WindowLimiter;
  linkIpLimiter: WindowLimiter;
  loginFailLimiter: WindowLimiter;
  loginFailIpLimiter: WindowLimiter;
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const displayName = (slug: string) => (slug === 'agentpages' ? 'AgentPages' : slug);

export function authContext(deps: AuthServiceDeps, repo: AuthRepo, tokens: TokenSigner): AuthCtx {
  const limits = { ...DEFAULT_AUTH_LIMITS, ...deps.limits };
  // Sign-in brakes count per (address, client) pair with a growing block, under a ceiling per
  // client. Nothing counts per address alone: a stranger could then lock the real person out.
  const maxBlockMs = limits.windowMs * 8;
  return {
    deps,
    repo,
    tokens,
    serviceName: displayName(deps.config.serviceName),
    linkLimiter: createBackoffLimiter({ limit: limits.linkPerAddressAndClient, windowMs: limits.windowMs, maxBlockMs }),
    linkIpLimiter: createWindowLimiter({ limit: limits.linkPerIp, windowMs: limits.windowMs }),
    loginFailLimiter: createBackoffLimiter({ limit: limits.loginFailuresPerAddressAndClient, windowMs: limits.windowMs, maxBlockMs }),
    loginFailIpLimiter: createWindowLimiter({ limit: limits.loginFailuresPerIp, windowMs: limits.windowMs }),
  };
}

export const pair = (email: string, ip: string | undefined) => `${email}|${ip ?? 'unknown'}`;

export const tooMany = (seconds: number, what: string) =>
  new AppError('rate_limited', `Too many ${what}: try again in ${Math.ceil(seconds / 60)} minute(s)`, { headers: { 'retry-after': String(seconds) } });

export function countLinkRequest(ctx: AuthCtx, email: string, ip: string | undefined): void {
  const byIp = ip ? ctx.linkIpLimiter.hit(ip) : { ok: true, retryAfterSeconds: 0 };
  if (!byIp.ok) throw tooMany(byIp.retryAfterSeconds, 'sign-in link requests from this network');
  const byPair = ctx.linkLimiter.hit(pair(email, ip));
  if (!byPair.ok) throw tooMany(byPair.retryAfterSeconds, 'sign-in link requests for this address');
}

export async function newSession(ctx: AuthCtx, kind: 'user' | 'admin', subjectId: string, email: string, q: AuthRepo = ctx.repo) {
  const ttl = kind === 'user' ? USER_TOKEN_TTL_SECONDS : ADMIN_TOKEN_TTL_SECONDS;
  const session = await q.createSession(kind, subjectId, ttl);
  return ctx.tokens.sign(kind, subjectId, email, session.id);
}

export async function userView(ctx: AuthCtx, row: UserRow): Promise<UserView> {
  return {
    id: row.id,
    email: row.email,
    created_at: iso(row.created_at)!,
    last_login_at: iso(row.last_login_at),
    company_ids: await ctx.deps.ownership.companyIdsOf(row.id),
  };
}

export const adminView = (a: AdminRow): AdminView => ({ id: a.id, email: a.email, created_at: iso(a.created_at)!, last_login_at: iso(a.last_login_at) });
