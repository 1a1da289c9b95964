import type { AdminPrincipal, BearerPrincipal, UserPrincipal } from '../../platform/auth.js';
import { adminLogin, adminMe, ensureAdmin, ensureConfiguredAdmin } from './auth.admins.js';
import { authContext, type AuthServiceDeps } from './auth.context.js';
import { claimAsSignedIn, createSignInToken, requestAdminMagicLink, requestMagicLink, verifyAdminToken, verifyUserToken } from './auth.links.js';
import { createAuthRepo } from './auth.repo.js';
import type { OwnerPurpose } from './auth.schemas.js';
import { deleteAccount, me, verifyBearer } from './auth.sessions.js';
import { createTokenSigner } from './auth.tokens.js';

export { ADMIN_TOKEN_TTL_SECONDS, loadJwtSecret, USER_TOKEN_TTL_SECONDS } from './auth.tokens.js';
export { DEFAULT_AUTH_LIMITS, type AdminView, type AuthLimits, type AuthServiceDeps, type UserView } from './auth.context.js';

/**
 * Sign-in for owners (magic links) and administrators (magic links or a password), and the sessions
 * behind the bearer tokens. The verbs live by group: links (auth.links.ts), sessions (auth.sessions.ts),
 * administrators (auth.admins.ts).
 */
export function createAuthService(deps: AuthServiceDeps) {
  const repo = deps.repo ?? createAuthRepo(deps.db);
  const ctx = authContext(deps, repo, createTokenSigner(deps.config));
  return {
    createSignInToken: (input: { email: string; purpose: OwnerPurpose; website_url?: string | undefined }) => createSignInToken(ctx, input),
    verifyUserToken: (token: string, purpose: OwnerPurpose) => verifyUserToken(ctx, token, purpose),
    verifyAdminToken: (token: string) => verifyAdminToken(ctx, token),
    claimAsSignedIn: (principal: UserPrincipal, input: { website_url: string; read_website?: boolean | undefined }) => claimAsSignedIn(ctx, principal, input),
    requestMagicLink: (input: { email: string; purpose: OwnerPurpose; website_url?: string | undefined; ip?: string | undefined }) => requestMagicLink(ctx, input),
    requestAdminMagicLink: (input: { email: string; ip?: string | undefined }) => requestAdminMagicLink(ctx, input),
    adminLogin: (input: { email: string; password: string; ip?: string | undefined }) => adminLogin(ctx, input),
    verifyBearer: (token: string) => verifyBearer(ctx, token),
    me: (principal: UserPrincipal) => me(ctx, principal),
    adminMe: (principal: AdminPrincipal) => adminMe(ctx, principal),

    /** Ends one session: every token carrying its id stops working at once. */
    async logout(principal: BearerPrincipal): Promise<void> {
      await repo.revokeSession(principal.sessionId);
    },

    deleteAccount: (principal: UserPrincipal) => deleteAccount(ctx, principal),

    /** An owner cleans their own stale sign-in tokens; an administrator every address's. */
    cleanupTokens: async (principal: BearerPrincipal) =>
      ({ deleted: await repo.deleteStaleMagicTokens(principal.kind === 'admin' ? undefined : principal.email) }),

    ensureAdmin: (email: string, password: string, options?: { overwrite?: boolean }) => ensureAdmin(ctx, email, password, options),
    ensureConfiguredAdmin: () => ensureConfiguredAdmin(ctx),

    /** Test hook for the expired-link case. */
    expireMagicTokensOf: (email: string) => repo.expireMagicTokensOf(email),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
