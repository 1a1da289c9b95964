import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { AdminPrincipal, BearerPrincipal, UserPrincipal } from '../../platform/auth.js';
import type { Db } from '../../platform/db.js';
import { AppError, invalid } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail.js';
import { domainAcceptsMailWithin, systemDnsResolver, type MailDnsResolver } from '../../platform/mail-dns.js';
import { emailDomain, emailMayClaimWebsite, isDisposableDomain, isFreeMailDomain, nameFromDomain } from '../../lib/email-domain.js';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../lib/password.js';
import { createBackoffLimiter, createWindowLimiter, type WindowLimiter } from '../../lib/rate-window.js';
import { canonicalWebsiteUrl, normalizeDomain } from '../../lib/url.js';
import type { CompaniesService } from '../companies/companies.service.js';
import { createAuthRepo, type AdminRow, type AuthRepo, type UserRow } from './auth.repo.js';
import type { OwnerPurpose } from './auth.schemas.js';
import { isUuid } from '../../lib/ids.js';
import type { OwnershipService } from '../ownership/ownership.service.js';
import { isoTimeOrNull as iso } from '../../lib/time.js';
import { signInMail } from './auth.mail.js';
import { ADMIN_TOKEN_TTL_SECONDS, createTokenSigner, USER_TOKEN_TTL_SECONDS } from './auth.tokens.js';

export { ADMIN_TOKEN_TTL_SECONDS, loadJwtSecret, USER_TOKEN_TTL_SECONDS } from './auth.tokens.js';
const MIN_ADMIN_PASSWORD = 8;

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

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const displayName = (slug: string) => (slug === 'agentpages' ? 'AgentPages' : slug);

export function createAuthService(deps: AuthServiceDeps) {
  const { db, companies, mail, config, log } = deps;
  const repo = deps.repo ?? createAuthRepo(db);
  const limits = { ...DEFAULT_AUTH_LIMITS, ...deps.limits };
  const tokens = createTokenSigner(config);
  const service = displayName(config.serviceName);
  // Sign-in brakes count per (address, client) pair with a growing block, under a ceiling per
  // client. Nothing counts per address alone: a stranger could then lock the real person out.
  const maxBlockMs = limits.windowMs * 8;
  const linkLimiter: WindowLimiter = createBackoffLimiter({ limit: limits.linkPerAddressAndClient, windowMs: limits.windowMs, maxBlockMs });
  const linkIpLimiter: WindowLimiter = createWindowLimiter({ limit: limits.linkPerIp, windowMs: limits.windowMs });
  const loginFailLimiter: WindowLimiter = createBackoffLimiter({ limit: limits.loginFailuresPerAddressAndClient, windowMs: limits.windowMs, maxBlockMs });
  const loginFailIpLimiter: WindowLimiter = createWindowLimiter({ limit: limits.loginFailuresPerIp, windowMs: limits.windowMs });
  const pair = (email: string, ip: string | undefined) => `${email}|${ip ?? 'unknown'}`;

  const tooMany = (seconds: number, what: string) =>
    new AppError('rate_limited', `Too many ${what}: try again in ${Math.ceil(seconds / 60)} minute(s)`, { headers: { 'retry-after': String(seconds) } });

  function countLinkRequest(email: string, ip: string | undefined): void {
    const byIp = ip ? linkIpLimiter.hit(ip) : { ok: true, retryAfterSeconds: 0 };
    if (!byIp.ok) throw tooMany(byIp.retryAfterSeconds, 'sign-in link requests from this network');
    const byPair = linkLimiter.hit(pair(email, ip));
    if (!byPair.ok) throw tooMany(byPair.retryAfterSeconds, 'sign-in link requests for this address');
  }

  async function newSession(kind: 'user' | 'admin', subjectId: string, email: string, q: AuthRepo = repo) {
    const ttl = kind === 'user' ? USER_TOKEN_TTL_SECONDS : ADMIN_TOKEN_TTL_SECONDS;
    const session = await q.createSession(kind, subjectId, ttl);
    return tokens.sign(kind, subjectId, email, session.id);
  }

  async function userView(row: UserRow): Promise<UserView> {
    return {
      id: row.id,
      email: row.email,
      created_at: iso(row.created_at)!,
      last_login_at: iso(row.last_login_at),
      company_ids: await deps.ownership.companyIdsOf(row.id),
    };
  }

  const adminView = (a: AdminRow): AdminView => ({ id: a.id, email: a.email, created_at: iso(a.created_at)!, last_login_at: iso(a.last_login_at) });

  /** Refuses addresses that cannot receive mail before anything is stored or sent (a DNS failure never blocks sign-in). */
  async function checkDeliverable(email: string): Promise<void> {
    const domain = emailDomain(email);
    if (isDisposableDomain(domain)) throw invalid(['body', 'email'], 'Disposable email addresses cannot be used: use a permanent address', email);
    if (config.emailCheckMx && (await domainAcceptsMailWithin(domain, deps.dns ?? systemDnsResolver)) === 'no') {
      throw invalid(['body', 'email'], `The domain ${domain} does not accept email`, email);
    }
  }

  /** Stores a new magic token (hash only) and returns the raw token. No limits, no mail. */
  async function issueMagicToken(kind: 'user' | 'admin', email: string, purpose: OwnerPurpose | 'admin', website: { url: string; domain: string } | null): Promise<string> {
    const token = randomBytes(32).toString('base64url'); // 256 bits
    await repo.insertMagicToken({
      tokenHash: sha256(token),
      kind,
      email,
      purpose,
      websiteUrl: website?.url ?? null,
      domain: website?.domain ?? null,
      ttlMinutes: config.magicLinkTtlMinutes,
    });
    return token;
  }

  /** The website of a verify/crawl request, checked against the email's domain. */
  function claimedWebsite(email: string, purpose: OwnerPurpose, websiteUrl: string | undefined): { url: string; domain: string } | null {
    if (purpose === 'login') return null;
    if (!websiteUrl) throw invalid(['body', 'website_url'], `Field required for purpose '${purpose}'`, undefined, 'missing');
    const url = canonicalWebsiteUrl(websiteUrl);
    const domain = url ? normalizeDomain(url) : undefined;
    if (!url || !domain) throw invalid(['body', 'website_url'], 'Input should be a valid website URL or domain', websiteUrl, 'url_parsing');
    if (!emailMayClaimWebsite(email, domain)) {
      const ed = emailDomain(email);
      const why = isFreeMailDomain(ed) || isDisposableDomain(ed)
        ? `${ed} is a public email provider and cannot prove ownership of a website`
        : `the email domain (${ed}) does not match the website domain (${domain})`;
      throw new AppError('bad_request', `Cannot verify ${domain} with this address: ${why}. Use an address at ${domain} (or at a parent domain of it).`);
    }
    return { url, domain };
  }

  /** The company at the website, created as a minimal unverified record when the directory has none. */
  async function ensureCompany(website: { url: string; domain: string }): Promise<string> {
    try {
      return (await companies.getByWebsite(website.domain)).id;
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'not_found') throw err;
    }
    // Race note: a company imported between the lookup and this write would be overwritten by
    // the minimal record; both come from the same domain, and the next import restores it.
    const { ids } = await companies.upsertMany([
      { name: nameFromDomain(website.domain), website_url: website.url, category: 'Professional Services', is_verified: false, source: 'owner' },
    ]);
    return ids[0]!;
  }

  function badLink(message: string): AppError {
    return new AppError('bad_request', message);
  }

  async function verifyUserToken(token: string, purpose: OwnerPurpose) {
    const row = await repo.findMagicToken(sha256(token));
    if (row?.kind !== 'user') throw badLink('Invalid sign-in link: the token is unknown. Request a new link.');
    if (row.purpose !== purpose) throw badLink(`This link was issued for purpose '${row.purpose}', not '${purpose}'.`);
    if (row.used_at) throw badLink('This sign-in link was already used. Request a new link.');
    if (row.expired) throw badLink('This sign-in link has expired. Request a new link.');
    const website = row.domain && row.website_url ? { url: row.website_url, domain: row.domain } : null;
    const companyId = website ? await ensureCompany(website) : null;
    const result = await db.transaction(async (tx) => {
      const q = createAuthRepo(tx);
      if (!(await q.consumeMagicToken(row.id))) throw badLink('This sign-in link was already used. Request a new link.');
      const user = await q.upsertUserForLogin(row.email);
      if (companyId) await deps.ownership.addOwnerIn(tx, user.id, companyId);
      const signed = await newSession('user', user.id, user.email, q);
      return { user, signed };
    });
    log.info({ userId: result.user.id, purpose, companyId }, 'owner signed in');
    let crawl: { crawl_job?: unknown; crawl_error?: string } = {};
    if (purpose === 'crawl' && companyId && website && deps.onCrawlRequested) {
      try {
        crawl = { crawl_job: (await deps.onCrawlRequested(result.user.id, companyId, website.url)) ?? null };
      } catch (err) {
        // Sign-in and ownership stand even when the crawl cannot start now (e.g. one is running).
        log.warn({ err, companyId }, 'crawl after verification did not start');
        crawl = { crawl_error: err instanceof AppError ? err.message : 'The crawl could not be started: start it from the dashboard' };
      }
    }
    return {
      access_token: result.signed.token,
      token_type: 'bearer' as const,
      expires_in: result.signed.expiresIn,
      purpose,
      user: await userView(result.user),
      company_id: companyId,
      ...crawl,
    };
  }

  async function verifyAdminToken(token: string) {
    const row = await repo.findMagicToken(sha256(token));
    if (row?.kind !== 'admin') throw badLink('Invalid sign-in link: the token is unknown. Request a new link.');
    if (row.used_at) throw badLink('This sign-in link was already used. Request a new link.');
    if (row.expired) throw badLink('This sign-in link has expired. Request a new link.');
    const admin = await repo.findAdminByEmail(row.email);
    if (!admin?.is_active) throw badLink('Invalid sign-in link: the token is unknown. Request a new link.');
    const signed = await db.transaction(async (tx) => {
      const q = createAuthRepo(tx);
      if (!(await q.consumeMagicToken(row.id))) throw badLink('This sign-in link was already used. Request a new link.');
      await q.touchAdminLogin(admin.id);
      return newSession('admin', admin.id, admin.email, q);
    });
    log.info({ adminId: admin.id, method: 'magic-link' }, 'administrator signed in');
    return { access_token: signed.token, token_type: 'bearer' as const, expires_in: signed.expiresIn, admin: adminView({ ...admin, last_login_at: new Date().toISOString() }) };
  }

  /** Validates an owner link request and stores its token; returns the raw token. No limits, no mail. */
  async function createSignInToken(input: { email: string; purpose: OwnerPurpose; website_url?: string | undefined }) {
    const email = input.email.trim().toLowerCase();
    const website = claimedWebsite(email, input.purpose, input.website_url);
    return { email, website, token: await issueMagicToken('user', email, input.purpose, website) };
  }

  const api = {
    createSignInToken,
    verifyUserToken,
    verifyAdminToken,

    /**
     * Login and sign-up in one: always answers the same, whether or not the address has an
     * account (every address may sign up), after the purpose's own checks.
     */
    async requestMagicLink(input: { email: string; purpose: OwnerPurpose; website_url?: string | undefined; ip?: string | undefined }) {
      const email = input.email.trim().toLowerCase();
      claimedWebsite(email, input.purpose, input.website_url);
      await checkDeliverable(email);
      countLinkRequest(email, input.ip);
      const { website, token } = await createSignInToken(input);
      const link = `${config.baseUrl}/api/auth/confirm?token=${encodeURIComponent(token)}&purpose=${input.purpose}`;
      await mail.send(signInMail(service, config.magicLinkTtlMinutes, 'user', email, link, input.purpose, website?.domain ?? null));
      return {
        message: 'If the address can receive email, a sign-in link is on its way. It is valid for a limited time and works once.',
        purpose: input.purpose,
        expires_in_minutes: config.magicLinkTtlMinutes,
        ...(website ? { website_url: website.url } : {}),
      };
    },

    /** Same answer whether or not the address belongs to an administrator; mail only when it does. */
    async requestAdminMagicLink(input: { email: string; ip?: string | undefined }) {
      const email = input.email.trim().toLowerCase();
      countLinkRequest(`admin:${email}`, input.ip);
      const admin = await repo.findAdminByEmail(email);
      if (admin?.is_active) {
        const token = await issueMagicToken('admin', admin.email, 'admin', null);
        const link = `${config.baseUrl}/api/admin/magic-link/confirm?token=${encodeURIComponent(token)}`;
        await mail.send(signInMail(service, config.magicLinkTtlMinutes, 'admin', admin.email, link, 'admin', null));
      } else {
        log.info({ email }, 'admin magic link requested for an address that is not an administrator');
      }
      return { message: 'If the address belongs to an administrator, a sign-in link is on its way.', expires_in_minutes: config.magicLinkTtlMinutes };
    },

    async adminLogin(input: { email: string; password: string; ip?: string | undefined }) {
      const email = input.email.trim().toLowerCase();
      const ipKey = input.ip ?? 'unknown';
      const blockedIp = loginFailIpLimiter.blocked(ipKey);
      const blockedEmail = loginFailLimiter.blocked(pair(email, input.ip));
      if (blockedIp.blocked || blockedEmail.blocked) {
        log.warn({ email, ip: input.ip }, 'admin login refused: too many failures');
        throw tooMany(Math.max(blockedIp.retryAfterSeconds, blockedEmail.retryAfterSeconds), 'failed sign-in attempts');
      }
      const admin = await repo.findAdminByEmail(email);
      // Verify against a dummy hash for unknown addresses so both answers take as long.
      const ok = await verifyPassword(input.password, admin?.password_hash ?? DUMMY_PASSWORD_HASH);
      if (!admin?.is_active || !admin.password_hash || !ok) {
        loginFailIpLimiter.hit(ipKey);
        loginFailLimiter.hit(pair(email, input.ip));
        log.warn({ email, ip: input.ip, known: Boolean(admin) }, 'admin login failed');
        throw new AppError('unauthorized', 'Incorrect email or password');
      }
      loginFailLimiter.reset(pair(email, input.ip));
      await repo.touchAdminLogin(admin.id);
      const signed = await newSession('admin', admin.id, admin.email);
      log.info({ adminId: admin.id, method: 'password' }, 'administrator signed in');
      return { access_token: signed.token, token_type: 'bearer' as const, expires_in: signed.expiresIn, admin: adminView({ ...admin, last_login_at: new Date().toISOString() }) };
    },

    /** The verifier behind every bearer guard: signature, expiry, and a live session. */
    async verifyBearer(token: string): Promise<BearerPrincipal | undefined> {
      const payload = await tokens.verify(token);
      if (!payload) return undefined;
      const kind = payload.kind;
      if ((kind !== 'user' && kind !== 'admin') || typeof payload.jti !== 'string' || !isUuid(payload.jti) || typeof payload.sub !== 'string') return undefined;
      const subject = await repo.findSessionSubject(payload.jti);
      if (!subject || subject.kind !== kind || subject.subject_id !== payload.sub) return undefined;
      return kind === 'user'
        ? ({ kind: 'user', userId: subject.subject_id, email: subject.email, sessionId: payload.jti } satisfies UserPrincipal)
        : ({ kind: 'admin', adminId: subject.subject_id, email: subject.email, sessionId: payload.jti } satisfies AdminPrincipal);
    },

    /** Profile plus a fresh token for the same session (its expiry moves forward). */
    async me(principal: UserPrincipal) {
      const user = await repo.findUserById(principal.userId);
      if (!user) throw new AppError('unauthorized', 'Invalid or expired token: sign in again');
      await repo.extendSession(principal.sessionId, USER_TOKEN_TTL_SECONDS);
      const signed = await tokens.sign('user', user.id, user.email, principal.sessionId);
      return { user: await userView(user), access_token: signed.token, token_type: 'bearer' as const, expires_in: signed.expiresIn };
    },

    async adminMe(principal: AdminPrincipal) {
      const admin = await repo.findAdminById(principal.adminId);
      if (!admin?.is_active) throw new AppError('unauthorized', 'Invalid or expired token: sign in again');
      return { admin: adminView(admin) };
    },

    /** Ends one session: every token carrying its id stops working at once. */
    async logout(principal: BearerPrincipal): Promise<void> {
      await repo.revokeSession(principal.sessionId);
    },

    /** Account removal: sessions revoked, ownerships dropped, the address free to sign up anew. */
    async deleteAccount(principal: UserPrincipal): Promise<void> {
      await db.transaction(async (tx) => {
        const q = createAuthRepo(tx);
        await q.revokeAllSessions('user', principal.userId);
        await q.softDeleteUser(principal.userId);
      });
      log.info({ userId: principal.userId }, 'owner account removed');
    },

    /** An owner cleans their own stale sign-in tokens; an administrator every address's. */
    cleanupTokens: async (principal: BearerPrincipal) =>
      ({ deleted: await repo.deleteStaleMagicTokens(principal.kind === 'admin' ? undefined : principal.email) }),

    /**
     * Creates an administrator, or with overwrite (the CLI) resets its password and reactivates it.
     * Returns whether it was created.
     */
    async ensureAdmin(email: string, password: string, options: { overwrite?: boolean } = {}): Promise<{ id: string; created: boolean }> {
      const address = email.trim().toLowerCase();
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address)) throw new AppError('bad_request', `Not an email address: ${email}`);
      if (password.length < MIN_ADMIN_PASSWORD) throw new AppError('bad_request', `The administrator password must have at least ${MIN_ADMIN_PASSWORD} characters`);
      if (!options.overwrite) {
        const existing = await repo.findAdminByEmail(address);
        if (existing) return { id: existing.id, created: false };
      }
      const { admin, created } = await repo.upsertAdmin(address, await hashPassword(password), options.overwrite ?? false);
      if (!created && options.overwrite) await repo.revokeAllSessions('admin', admin.id);
      return { id: admin.id, created };
    },

    /** The first administrator from ADMIN_EMAIL / ADMIN_PASSWORD, at start; an existing one is left as is. */
    async ensureConfiguredAdmin(): Promise<void> {
      if (!config.adminEmail || !config.adminPassword) return;
      const { created } = await api.ensureAdmin(config.adminEmail, config.adminPassword);
      if (created) log.info({ email: config.adminEmail }, 'administrator created from ADMIN_EMAIL');
    },

    /** Test hook for the expired-link case. */
    expireMagicTokensOf: (email: string) => repo.expireMagicTokensOf(email),
  };
  return api;
}

export type AuthService = ReturnType<typeof createAuthService>;
