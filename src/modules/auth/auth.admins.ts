import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../lib/password.js';
import type { AdminPrincipal } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import { adminView, newSession, pair, tooMany, type AuthCtx } from './auth.context.js';

/** Administrators: password sign-in (behind failure brakes), their profile, and creating them. */
const MIN_ADMIN_PASSWORD = 8;

export async function adminLogin(ctx: AuthCtx, input: { email: string; password: string; ip?: string | undefined }) {
  const { repo, loginFailIpLimiter, loginFailLimiter } = ctx;
  const { log } = ctx.deps;
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
  const signed = await newSession(ctx, 'admin', admin.id, admin.email);
  log.info({ adminId: admin.id, method: 'password' }, 'administrator signed in');
  return { access_token: signed.token, token_type: 'bearer' as const, expires_in: signed.expiresIn, admin: adminView({ ...admin, last_login_at: new Date().toISOString() }) };
}

export async function adminMe(ctx: AuthCtx, principal: AdminPrincipal) {
  const admin = await ctx.repo.findAdminById(principal.adminId);
  if (!admin?.is_active) throw new AppError('unauthorized', 'Invalid or expired token: sign in again');
  return { admin: adminView(admin) };
}

/**
 * Creates an administrator, or with overwrite (the CLI) resets its password and reactivates it.
 * Returns whether it was created.
 */
export async function ensureAdmin(ctx: AuthCtx, email: string, password: string, options: { overwrite?: boolean } = {}): Promise<{ id: string; created: boolean }> {
  const { repo } = ctx;
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
}

/** The first administrator from ADMIN_EMAIL / ADMIN_PASSWORD, at start; an existing one is left as is. */
export async function ensureConfiguredAdmin(ctx: AuthCtx): Promise<void> {
  const { config, log } = ctx.deps;
  if (!config.adminEmail || !config.adminPassword) return;
  const { created } = await ensureAdmin(ctx, config.adminEmail, config.adminPassword);
  if (created) log.info({ email: config.adminEmail }, 'administrator created from ADMIN_EMAIL');
}
