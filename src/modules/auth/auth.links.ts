import { randomBytes } from 'node:crypto';
import { emailDomain, emailMayClaimWebsite, isDisposableDomain, isFreeMailDomain, nameFromDomain } from '../../lib/email-domain.js';
import { canonicalWebsiteUrl, normalizeDomain } from '../../lib/url.js';
import { AppError, invalid } from '../../platform/errors.js';
import { domainAcceptsMailWithin, systemDnsResolver } from '../../platform/mail-dns.js';
import { adminView, countLinkRequest, newSession, sha256, userView, type AuthCtx } from './auth.context.js';
import { signInMail } from './auth.mail.js';
import { createAuthRepo } from './auth.repo.js';
import type { OwnerPurpose } from './auth.schemas.js';
import type { UserPrincipal } from '../../platform/auth.js';

/** Magic links: requested (owners and administrators), then confirmed into a session. */
type Website = { url: string; domain: string };

/** Refuses addresses that cannot receive mail before anything is stored or sent (a DNS failure never blocks sign-in). */
async function checkDeliverable(ctx: AuthCtx, email: string): Promise<void> {
  const domain = emailDomain(email);
  if (isDisposableDomain(domain)) throw invalid(['body', 'email'], 'Disposable email addresses cannot be used: use a permanent address', email);
  if (ctx.deps.config.emailCheckMx && (await domainAcceptsMailWithin(domain, ctx.deps.dns ?? systemDnsResolver)) === 'no') {
    throw invalid(['body', 'email'], `The domain ${domain} does not accept email`, email);
  }
}

/** Stores a new magic token (hash only) and returns the raw token. No limits, no mail. */
async function issueMagicToken(ctx: AuthCtx, kind: 'user' | 'admin', email: string, purpose: OwnerPurpose | 'admin', website: Website | null): Promise<string> {
  const token = randomBytes(32).toString('base64url'); // 256 bits
  await ctx.repo.insertMagicToken({
    tokenHash: sha256(token),
    kind,
    email,
    purpose,
    websiteUrl: website?.url ?? null,
    domain: website?.domain ?? null,
    ttlMinutes: ctx.deps.config.magicLinkTtlMinutes,
  });
  return token;
}

/** The website of a verify/crawl request, checked against the email's domain. */
function claimedWebsite(email: string, purpose: OwnerPurpose, websiteUrl: string | undefined): Website | null {
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

/** Validates an owner link request and stores its token; returns the raw token. No limits, no mail. */
export async function createSignInToken(ctx: AuthCtx, input: { email: string; purpose: OwnerPurpose; website_url?: string | undefined }) {
  const email = input.email.trim().toLowerCase();
  const website = claimedWebsite(email, input.purpose, input.website_url);
  return { email, website, token: await issueMagicToken(ctx, 'user', email, input.purpose, website) };
}

/**
 * Login and sign-up in one: always answers the same, whether or not the address has an
 * account (every address may sign up), after the purpose's own checks.
 */
export async function requestMagicLink(ctx: AuthCtx, input: { email: string; purpose: OwnerPurpose; website_url?: string | undefined; ip?: string | undefined }) {
  const { config, mail } = ctx.deps;
  const email = input.email.trim().toLowerCase();
  claimedWebsite(email, input.purpose, input.website_url);
  await checkDeliverable(ctx, email);
  countLinkRequest(ctx, email, input.ip);
  const { website, token } = await createSignInToken(ctx, input);
  const link = `${config.baseUrl}/api/auth/confirm?token=${encodeURIComponent(token)}&purpose=${input.purpose}`;
  await mail.send(signInMail(ctx.serviceName, config.magicLinkTtlMinutes, 'user', email, link, input.purpose, website?.domain ?? null));
  return {
    message: 'If the address can receive email, a sign-in link is on its way. It is valid for a limited time and works once.',
    purpose: input.purpose,
    expires_in_minutes: config.magicLinkTtlMinutes,
    ...(website ? { website_url: website.url } : {}),
  };
}

/** Same answer whether or not the address belongs to an administrator; mail only when it does. */
export async function requestAdminMagicLink(ctx: AuthCtx, input: { email: string; ip?: string | undefined }) {
  const { config, mail, log } = ctx.deps;
  const email = input.email.trim().toLowerCase();
  countLinkRequest(ctx, `admin:${email}`, input.ip);
  const admin = await ctx.repo.findAdminByEmail(email);
  if (admin?.is_active) {
    const token = await issueMagicToken(ctx, 'admin', admin.email, 'admin', null);
    const link = `${config.baseUrl}/api/admin/magic-link/confirm?token=${encodeURIComponent(token)}`;
    await mail.send(signInMail(ctx.serviceName, config.magicLinkTtlMinutes, 'admin', admin.email, link, 'admin', null));
  } else {
    log.info({ email }, 'admin magic link requested for an address that is not an administrator');
  }
  return { message: 'If the address belongs to an administrator, a sign-in link is on its way.', expires_in_minutes: config.magicLinkTtlMinutes };
}

/** The company at the website, created as a minimal unverified record when the directory has none. */
async function ensureCompany(ctx: AuthCtx, website: Website): Promise<string> {
  const { companies } = ctx.deps;
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

const badLink = (message: string) => new AppError('bad_request', message);

/** With purpose `crawl`: the crawl of the verified site starts; sign-in and ownership stand even when it cannot start now. */
async function crawlAfterVerify(ctx: AuthCtx, userId: string, companyId: string, website: Website): Promise<{ crawl_job?: unknown; crawl_error?: string }> {
  const { onCrawlRequested, log } = ctx.deps;
  if (!onCrawlRequested) return {};
  try {
    return { crawl_job: (await onCrawlRequested(userId, companyId, website.url)) ?? null };
  } catch (err) {
    // Sign-in and ownership stand even when the crawl cannot start now (e.g. one is running).
    log.warn({ err, companyId }, 'crawl after verification did not start');
    return { crawl_error: err instanceof AppError ? err.message : 'The crawl could not be started: start it from the dashboard' };
  }
}

export async function verifyUserToken(ctx: AuthCtx, token: string, purpose: OwnerPurpose) {
  const row = await ctx.repo.findMagicToken(sha256(token));
  if (row?.kind !== 'user') throw badLink('Invalid sign-in link: the token is unknown. Request a new link.');
  if (row.purpose !== purpose) throw badLink(`This link was issued for purpose '${row.purpose}', not '${purpose}'.`);
  if (row.used_at) throw badLink('This sign-in link was already used. Request a new link.');
  if (row.expired) throw badLink('This sign-in link has expired. Request a new link.');
  const website = row.domain && row.website_url ? { url: row.website_url, domain: row.domain } : null;
  const companyId = website ? await ensureCompany(ctx, website) : null;
  const result = await ctx.deps.db.transaction(async (tx) => {
    const q = createAuthRepo(tx);
    if (!(await q.consumeMagicToken(row.id))) throw badLink('This sign-in link was already used. Request a new link.');
    const user = await q.upsertUserForLogin(row.email);
    if (companyId) await ctx.deps.ownership.addOwnerIn(tx, user.id, companyId);
    const signed = await newSession(ctx, 'user', user.id, user.email, q);
    return { user, signed };
  });
  ctx.deps.log.info({ userId: result.user.id, purpose, companyId }, 'owner signed in');
  const crawl = purpose === 'crawl' && companyId && website ? await crawlAfterVerify(ctx, result.user.id, companyId, website) : {};
  return {
    access_token: result.signed.token,
    token_type: 'bearer' as const,
    expires_in: result.signed.expiresIn,
    purpose,
    user: await userView(ctx, result.user),
    company_id: companyId,
    ...crawl,
  };
}

/**
 * A signed-in owner claims the company at a website on their own domain without a second link: the
 * sign-in link already proved the address, and the domain rule is the one a verify link applies.
 */
export async function claimAsSignedIn(ctx: AuthCtx, principal: UserPrincipal, input: { website_url: string; read_website?: boolean | undefined }) {
  const website = claimedWebsite(principal.email, 'verify', input.website_url)!;
  const companyId = await ensureCompany(ctx, website);
  await ctx.deps.db.transaction((tx) => ctx.deps.ownership.addOwnerIn(tx, principal.userId, companyId));
  ctx.deps.log.info({ userId: principal.userId, companyId }, 'owner claimed a company while signed in');
  const crawl = input.read_website === false ? {} : await crawlAfterVerify(ctx, principal.userId, companyId, website);
  return {
    message: `You now manage ${website.domain}.`,
    company_id: companyId,
    website_url: website.url,
    ...crawl,
  };
}

export async function verifyAdminToken(ctx: AuthCtx, token: string) {
  const row = await ctx.repo.findMagicToken(sha256(token));
  if (row?.kind !== 'admin') throw badLink('Invalid sign-in link: the token is unknown. Request a new link.');
  if (row.used_at) throw badLink('This sign-in link was already used. Request a new link.');
  if (row.expired) throw badLink('This sign-in link has expired. Request a new link.');
  const admin = await ctx.repo.findAdminByEmail(row.email);
  if (!admin?.is_active) throw badLink('Invalid sign-in link: the token is unknown. Request a new link.');
  const signed = await ctx.deps.db.transaction(async (tx) => {
    const q = createAuthRepo(tx);
    if (!(await q.consumeMagicToken(row.id))) throw badLink('This sign-in link was already used. Request a new link.');
    await q.touchAdminLogin(admin.id);
    return newSession(ctx, 'admin', admin.id, admin.email, q);
  });
  ctx.deps.log.info({ adminId: admin.id, method: 'magic-link' }, 'administrator signed in');
  return { access_token: signed.token, token_type: 'bearer' as const, expires_in: signed.expiresIn, admin: adminView({ ...admin, last_login_at: new Date().toISOString() }) };
}
