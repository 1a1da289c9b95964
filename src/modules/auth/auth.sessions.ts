import { isUuid } from '../../lib/ids.js';
import type { AdminPrincipal, BearerPrincipal, UserPrincipal } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import { userView, type AuthCtx } from './auth.context.js';
import { createAuthRepo } from './auth.repo.js';
import { USER_TOKEN_TTL_SECONDS } from './auth.tokens.js';

/** Sessions behind the bearer tokens: checked on every request, renewed, ended; and an owner's account removal. */

/** The verifier behind every bearer guard: signature, expiry, and a live session. */
export async function verifyBearer(ctx: AuthCtx, token: string): Promise<BearerPrincipal | undefined> {
  const payload = await ctx.tokens.verify(token);
  if (!payload) return undefined;
  const kind = payload.kind;
  if ((kind !== 'user' && kind !== 'admin') || typeof payload.jti !== 'string' || !isUuid(payload.jti) || typeof payload.sub !== 'string') return undefined;
  const subject = await ctx.repo.findSessionSubject(payload.jti);
  if (!subject || subject.kind !== kind || subject.subject_id !== payload.sub) return undefined;
  return kind === 'user'
    ? ({ kind: 'user', userId: subject.subject_id, email: subject.email, sessionId: payload.jti } satisfies UserPrincipal)
    : ({ kind: 'admin', adminId: subject.subject_id, email: subject.email, sessionId: payload.jti } satisfies AdminPrincipal);
}

/** Profile plus a fresh token for the same session (its expiry moves forward). */
export async function me(ctx: AuthCtx, principal: UserPrincipal) {
  const user = await ctx.repo.findUserById(principal.userId);
  if (!user) throw new AppError('unauthorized', 'Invalid or expired token: sign in again');
  await ctx.repo.extendSession(principal.sessionId, USER_TOKEN_TTL_SECONDS);
  const signed = await ctx.tokens.sign('user', user.id, user.email, principal.sessionId);
  return { user: await userView(ctx, user), access_token: signed.token, token_type: 'bearer' as const, expires_in: signed.expiresIn };
}

/** Account removal: sessions revoked, ownerships dropped, the address free to sign up anew. */
export async function deleteAccount(ctx: AuthCtx, principal: UserPrincipal): Promise<void> {
  await ctx.deps.db.transaction(async (tx) => {
    const q = createAuthRepo(tx);
    await q.revokeAllSessions('user', principal.userId);
    await q.softDeleteUser(principal.userId);
  });
  ctx.deps.log.info({ userId: principal.userId }, 'owner account removed');
}
