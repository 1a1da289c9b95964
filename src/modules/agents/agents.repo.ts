import type { Queryable } from '../../platform/db.js';
import type { AgentRow } from './agents.schemas.js';

const COLUMNS = 'id, name, owner_email, is_active, api_key_hash, key_created_at, deactivated_at, created_at, updated_at, email_confirmed_at, email_confirm_expires_at';

/** Postgres unique_violation: the one-agent-per-email index said no. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/** The built-in senders of people's requests (not agents: no key, not listed). */
export type BuiltinSender = 'quote_form' | 'widget';

const BUILTIN_NAMES: Record<BuiltinSender, string> = {
  quote_form: 'Quote request from the company page',
  widget: 'Visitor of your chat widget',
};

export function createAgentsRepo(db: Queryable) {
  return {
    /** The built-in sender's id, created on first use; its key hash is no sha256, so no key ever matches it. */
    async builtinSender(kind: BuiltinSender): Promise<string> {
      await db.query(
        `INSERT INTO agents (name, owner_email, api_key_hash, kind) VALUES ($1, $2, $3, $4)
         ON CONFLICT (kind) WHERE kind <> 'api' DO NOTHING`,
        [BUILTIN_NAMES[kind], `${kind.replace('_', '-')}@builtin.invalid`, `builtin:${kind}`, kind],
      );
      return (await db.query<{ id: string }>('SELECT id FROM agents WHERE kind = $1', [kind]))[0]!.id;
    },

    async insert(a: { name: string; ownerEmail: string; apiKeyHash: string; confirmHash: string; confirmTtlHours: number }): Promise<AgentRow> {
      const rows = await db.query<AgentRow>(
        `INSERT INTO agents (name, owner_email, api_key_hash, email_confirm_hash, email_confirm_expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(hours => $5)) RETURNING ${COLUMNS}`,
        [a.name, a.ownerEmail, a.apiKeyHash, a.confirmHash, a.confirmTtlHours],
      );
      return rows[0]!;
    },

    /**
     * Confirms the address of the link's registration, once, before the link expires; in the same statement
     * every other registration of that address that never confirmed any address is superseded (deactivated,
     * its address released). A unique violation means another agent confirmed the address first.
     */
    async confirmEmail(confirmHash: string): Promise<AgentRow | undefined> {
      const rows = await db.query<AgentRow>(
        `WITH confirmed AS (
           UPDATE agents SET email_confirmed_at = now(), first_confirmed_at = COALESCE(first_confirmed_at, now()), email_confirm_hash = NULL, updated_at = now()
           WHERE email_confirm_hash = $1 AND email_confirmed_at IS NULL AND email_confirm_expires_at > now() RETURNING ${COLUMNS}
         ), superseded AS (
           UPDATE agents a SET owner_email = 'superseded-' || a.id || '@superseded.invalid', is_active = false,
             deactivated_at = COALESCE(a.deactivated_at, now()), email_confirm_hash = NULL, updated_at = now()
           FROM confirmed c
           WHERE lower(a.owner_email) = lower(c.owner_email) AND a.id <> c.id AND a.email_confirmed_at IS NULL AND a.first_confirmed_at IS NULL
         )
         SELECT * FROM confirmed`,
        [confirmHash],
      );
      return rows[0];
    },

    /** A changed address must be confirmed again. */
    async requireConfirmation(id: string, confirmHash: string, ttlHours: number): Promise<void> {
      await db.query(
        `UPDATE agents SET email_confirmed_at = NULL, email_confirm_hash = $2, email_confirm_expires_at = now() + make_interval(hours => $3) WHERE id = $1`,
        [id, confirmHash, ttlHours],
      );
    },

    async findById(id: string): Promise<AgentRow | undefined> {
      return (await db.query<AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE id = $1`, [id]))[0];
    },

    async findByKeyHash(hash: string): Promise<AgentRow | undefined> {
      return (await db.query<AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE api_key_hash = $1 AND kind = 'api'`, [hash]))[0];
    },

    /** The agent holding an address: only a confirmed one does. */
    async findConfirmedByEmail(email: string): Promise<AgentRow | undefined> {
      return (await db.query<AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE lower(owner_email) = lower($1) AND email_confirmed_at IS NOT NULL`, [email]))[0];
    },

    /** Registrations of an address still waiting for their (unexpired) confirmation link. */
    async pendingRegistrations(email: string): Promise<number> {
      const rows = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM agents WHERE lower(owner_email) = lower($1) AND email_confirmed_at IS NULL AND is_active AND email_confirm_expires_at > now()`,
        [email],
      );
      return rows[0]!.n;
    },

    /** Only the supplied fields change. */
    async update(id: string, patch: { name?: string; ownerEmail?: string }): Promise<AgentRow | undefined> {
      const rows = await db.query<AgentRow>(
        `UPDATE agents SET name = COALESCE($2, name), owner_email = COALESCE($3, owner_email), updated_at = now()
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, patch.name ?? null, patch.ownerEmail ?? null],
      );
      return rows[0];
    },

    async setKeyHash(id: string, hash: string): Promise<AgentRow | undefined> {
      const rows = await db.query<AgentRow>(
        `UPDATE agents SET api_key_hash = $2, key_created_at = now(), updated_at = now() WHERE id = $1 AND is_active RETURNING ${COLUMNS}`,
        [id, hash],
      );
      return rows[0];
    },

    async setActive(id: string, active: boolean): Promise<AgentRow | undefined> {
      const rows = await db.query<AgentRow>(
        `UPDATE agents SET is_active = $2,
           deactivated_at = CASE WHEN $2 THEN NULL WHEN is_active THEN now() ELSE deactivated_at END,
           updated_at = now()
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, active],
      );
      return rows[0];
    },

    /**
     * Admin listing, newest first. Keyset: rows strictly after the cursor agent in
     * (created_at DESC, id DESC) order, compared in SQL so timestamps keep full precision.
     */
    async list(options: { q?: string; limit: number; offset: number; cursorId?: string }): Promise<{ rows: AgentRow[]; total: number }> {
      const params: unknown[] = [];
      const where: string[] = ["kind = 'api'"];
      if (options.q) {
        params.push(`%${options.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        where.push(`(lower(name) LIKE $${params.length} OR lower(owner_email) LIKE $${params.length})`);
      }
      const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM agents ${filter}`, params))[0]!.n;
      const pageWhere = [...where];
      const pageParams = [...params];
      if (options.cursorId) {
        pageParams.push(options.cursorId);
        pageWhere.push(`(created_at, id) < (SELECT created_at, id FROM agents WHERE id = $${pageParams.length})`);
      }
      pageParams.push(options.limit, options.cursorId ? 0 : options.offset);
      const rows = await db.query<AgentRow>(
        `SELECT ${COLUMNS} FROM agents ${pageWhere.length ? `WHERE ${pageWhere.join(' AND ')}` : ''}
         ORDER BY created_at DESC, id DESC LIMIT $${pageParams.length - 1} OFFSET $${pageParams.length}`,
        pageParams,
      );
      return { rows, total };
    },
  };
}

export type AgentsRepo = ReturnType<typeof createAgentsRepo>;
