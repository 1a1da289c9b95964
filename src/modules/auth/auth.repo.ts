import type { Queryable } from '../../platform/db.js';

export interface UserRow {
  id: string;
  email: string;
  created_at: string;
  last_login_at: string | null;
}

export interface AdminRow {
  id: string;
  email: string;
  password_hash: string | null;
  is_active: boolean;
  created_at: string;
  last_login_at: string | null;
}

export interface MagicTokenRow {
  id: string;
  kind: 'user' | 'admin';
  email: string;
  purpose: 'login' | 'verify' | 'crawl' | 'admin';
  website_url: string | null;
  domain: string | null;
  expires_at: string;
  used_at: string | null;
}

export interface SessionSubject {
  kind: 'user' | 'admin';
  subject_id: string;
  email: string;
}

const USER_COLUMNS = 'id, email, created_at, last_login_at';
const ADMIN_COLUMNS = 'id, email, password_hash, is_active, created_at, last_login_at';

export function createAuthRepo(db: Queryable) {
  return {
    async insertMagicToken(t: { tokenHash: string; kind: 'user' | 'admin'; email: string; purpose: MagicTokenRow['purpose']; websiteUrl: string | null; domain: string | null; ttlMinutes: number }): Promise<void> {
      await db.query(
        `INSERT INTO magic_tokens (token_hash, kind, email, purpose, website_url, domain, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(mins => $7::int))`,
        [t.tokenHash, t.kind, t.email, t.purpose, t.websiteUrl, t.domain, t.ttlMinutes],
      );
    },

    async findMagicToken(tokenHash: string): Promise<(MagicTokenRow & { expired: boolean }) | undefined> {
      const rows = await db.query<MagicTokenRow & { expired: boolean }>(
        `SELECT id, kind, email, purpose, website_url, domain, expires_at, used_at, (expires_at <= now()) AS expired
         FROM magic_tokens WHERE token_hash = $1`,
        [tokenHash],
      );
      return rows[0];
    },

    /** Marks the token used; false when another request used it first (single use under races). */
    async consumeMagicToken(id: string): Promise<boolean> {
      const rows = await db.query(`UPDATE magic_tokens SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > now() RETURNING id`, [id]);
      return rows.length === 1;
    },

    /** Expired or long-used tokens: every address's (email undefined) or one owner address's. */
    async deleteStaleMagicTokens(email?: string): Promise<number> {
      const rows = await db.query(
        `DELETE FROM magic_tokens WHERE (expires_at <= now() OR used_at < now() - interval '1 day')
           AND ($1::text IS NULL OR (kind = 'user' AND lower(email) = lower($1))) RETURNING id`,
        [email ?? null],
      );
      return rows.length;
    },

    /** Test hook: move a token's expiry into the past. */
    async expireMagicTokensOf(email: string): Promise<void> {
      await db.query(`UPDATE magic_tokens SET expires_at = now() - interval '1 second' WHERE lower(email) = lower($1)`, [email]);
    },

    async findUserById(id: string): Promise<UserRow | undefined> {
      const rows = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1 AND deleted_at IS NULL`, [id]);
      return rows[0];
    },

    /** The live user with this address, created on first sign-in (login and sign-up are one flow). */
    async upsertUserForLogin(email: string): Promise<UserRow> {
      const updated = await db.query<UserRow>(
        `UPDATE users SET last_login_at = now() WHERE lower(email) = lower($1) AND deleted_at IS NULL RETURNING ${USER_COLUMNS}`,
        [email],
      );
      if (updated[0]) return updated[0];
      const inserted = await db.query<UserRow>(
        `INSERT INTO users (email, last_login_at) VALUES ($1, now())
         ON CONFLICT (lower(email)) WHERE deleted_at IS NULL DO UPDATE SET last_login_at = now()
         RETURNING ${USER_COLUMNS}`,
        [email.toLowerCase()],
      );
      return inserted[0]!;
    },

    async softDeleteUser(id: string): Promise<void> {
      await db.query('UPDATE users SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
      await db.query('DELETE FROM company_owners WHERE user_id = $1', [id]);
    },

    async findAdminByEmail(email: string): Promise<AdminRow | undefined> {
      const rows = await db.query<AdminRow>(`SELECT ${ADMIN_COLUMNS} FROM admins WHERE lower(email) = lower($1)`, [email]);
      return rows[0];
    },

    async findAdminById(id: string): Promise<AdminRow | undefined> {
      const rows = await db.query<AdminRow>(`SELECT ${ADMIN_COLUMNS} FROM admins WHERE id = $1`, [id]);
      return rows[0];
    },

    /** Creates the admin, or (overwrite) sets its password; returns whether a row was created. */
    async upsertAdmin(email: string, passwordHash: string | null, overwrite: boolean): Promise<{ admin: AdminRow; created: boolean }> {
      const rows = await db.query<AdminRow & { inserted: boolean }>(
        `INSERT INTO admins (email, password_hash) VALUES ($1, $2)
         ON CONFLICT (lower(email)) DO UPDATE SET
           password_hash = CASE WHEN $3 THEN EXCLUDED.password_hash ELSE admins.password_hash END,
           is_active = CASE WHEN $3 THEN true ELSE admins.is_active END
         RETURNING ${ADMIN_COLUMNS}, (xmax = 0) AS inserted`,
        [email.toLowerCase(), passwordHash, overwrite],
      );
      const { inserted, ...admin } = rows[0]!;
      return { admin, created: inserted };
    },

    async touchAdminLogin(id: string): Promise<void> {
      await db.query('UPDATE admins SET last_login_at = now() WHERE id = $1', [id]);
    },

    async createSession(kind: 'user' | 'admin', subjectId: string, ttlSeconds: number): Promise<{ id: string; expires_at: string }> {
      const rows = await db.query<{ id: string; expires_at: string }>(
        `INSERT INTO auth_sessions (subject_kind, subject_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3::int)) RETURNING id, expires_at`,
        [kind, subjectId, ttlSeconds],
      );
      return rows[0]!;
    },

    async extendSession(id: string, ttlSeconds: number): Promise<void> {
      await db.query(`UPDATE auth_sessions SET expires_at = now() + make_interval(secs => $2::int) WHERE id = $1 AND revoked_at IS NULL`, [id, ttlSeconds]);
    },

    /** The live subject of an unrevoked, unexpired session (user not removed, admin active). */
    async findSessionSubject(sessionId: string): Promise<SessionSubject | undefined> {
      const rows = await db.query<SessionSubject>(
        `SELECT s.subject_kind AS kind, s.subject_id, COALESCE(u.email, a.email) AS email
         FROM auth_sessions s
         LEFT JOIN users u ON s.subject_kind = 'user' AND u.id = s.subject_id AND u.deleted_at IS NULL
         LEFT JOIN admins a ON s.subject_kind = 'admin' AND a.id = s.subject_id AND a.is_active
         WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND (u.id IS NOT NULL OR a.id IS NOT NULL)`,
        [sessionId],
      );
      return rows[0];
    },

    async revokeSession(id: string): Promise<void> {
      await db.query('UPDATE auth_sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id]);
    },

    async revokeAllSessions(kind: 'user' | 'admin', subjectId: string): Promise<void> {
      await db.query('UPDATE auth_sessions SET revoked_at = now() WHERE subject_kind = $1 AND subject_id = $2 AND revoked_at IS NULL', [kind, subjectId]);
    },
  };
}

export type AuthRepo = ReturnType<typeof createAuthRepo>;
