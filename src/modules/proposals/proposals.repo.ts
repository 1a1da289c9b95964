import type { Queryable } from '../../platform/db.js';
import type { ProposalStatus } from './proposal-status.js';
import type { MessageRow, ProposalRow } from './proposals.schemas.js';

/** The structured request fields (issue 37); needed_by as YYYY-MM-DD text, never a Date shifted by the time zone. */
const STRUCTURED = "p.budget_amount, p.budget_currency, to_char(p.needed_by, 'YYYY-MM-DD') AS needed_by, p.location, p.details";

const SELECT = `SELECT p.id, p.agent_id, a.name AS agent_name, a.kind AS origin, p.company_id, c.name AS company_name, p.customer_email,
  p.customer_name, p.description, p.type, ${STRUCTURED}, p.delivery, p.status, p.created_at, p.updated_at, p.deleted_at,
  (SELECT count(*)::int FROM proposal_messages m WHERE m.proposal_id = p.id) AS message_count
  FROM proposals p JOIN agents a ON a.id = p.agent_id JOIN companies c ON c.id = p.company_id`;

export interface ProposalFilter {
  agentId?: string;
  /** Restrict to these companies (owner view); undefined = no restriction (admin). */
  companyIds?: string[];
  status?: ProposalStatus;
  includeDeleted?: boolean;
  q?: string;
  limit: number;
  offset: number;
}

export interface LockedProposal extends Pick<ProposalRow, 'budget_amount' | 'budget_currency' | 'needed_by' | 'location' | 'details'> {
  id: string;
  agent_id: string;
  company_id: string;
  status: ProposalStatus;
  deleted_at: Date | string | null;
}

/** What insert stores besides the ids; null = the request did not carry the field. */
export interface NewProposal {
  agentId: string;
  companyId: string;
  customerEmail: string;
  customerName: string;
  description: string;
  type: string;
  status: ProposalStatus;
  budget: { amount: number; currency: string } | null;
  neededBy: string | null;
  location: string | null;
  details: Record<string, string | number | boolean> | null;
  delivery: 'dashboard' | 'email' | 'none';
}

/** Repositories are built on a Queryable: the Db itself or a transaction. */
export function createProposalsRepo(db: Queryable) {
  return {
    async insert(p: NewProposal): Promise<string> {
      const rows = await db.query<{ id: string }>(
        `INSERT INTO proposals (agent_id, company_id, customer_email, customer_name, description, type, status, budget_amount, budget_currency, needed_by, location, details, delivery)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::date, $11, $12::json, $13) RETURNING id`,
        [
          p.agentId, p.companyId, p.customerEmail, p.customerName, p.description, p.type, p.status,
          p.budget?.amount ?? null, p.budget?.currency ?? null, p.neededBy, p.location, p.details === null ? null : JSON.stringify(p.details), p.delivery,
        ],
      );
      return rows[0]!.id;
    },

    async addMessage(m: { proposalId: string; authorRole: 'agent' | 'company'; kind: 'request' | 'reply' | 'response'; action?: string | null; text: string }): Promise<number> {
      const rows = await db.query<{ id: number | string }>(
        `INSERT INTO proposal_messages (proposal_id, author_role, kind, action, text) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [m.proposalId, m.authorRole, m.kind, m.action ?? null, m.text],
      );
      return Number(rows[0]!.id);
    },

    async findById(id: string): Promise<ProposalRow | undefined> {
      return (await db.query<ProposalRow>(`${SELECT} WHERE p.id = $1`, [id]))[0];
    },

    async findManyByIds(ids: string[]): Promise<ProposalRow[]> {
      if (ids.length === 0) return [];
      const rows = await db.query<ProposalRow>(`${SELECT} WHERE p.id = ANY($1::uuid[])`, [ids]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id)).filter((r): r is ProposalRow => r !== undefined);
    },

    /** Locks the proposal row until the transaction ends: racing writers queue here. */
    async lock(id: string): Promise<LockedProposal | undefined> {
      return (await db.query<LockedProposal>(`SELECT p.id, p.agent_id, p.company_id, p.status, p.deleted_at, ${STRUCTURED} FROM proposals p WHERE p.id = $1 FOR UPDATE`, [id]))[0];
    },

    async setStatus(id: string, status: ProposalStatus): Promise<void> {
      await db.query('UPDATE proposals SET status = $2, updated_at = now() WHERE id = $1', [id, status]);
    },

    /** Agents that ever proposed to the company (deleted proposals included). */
    async agentIdsProposedTo(companyId: string): Promise<string[]> {
      return (await db.query<{ agent_id: string }>('SELECT DISTINCT agent_id FROM proposals WHERE company_id = $1', [companyId])).map((r) => r.agent_id);
    },

    /** A person's requests (quote form, widget) from this address in the last hours, and the companies still to answer one. */
    async personRequestsSince(email: string, hours: number): Promise<{ total: number; openCompanyIds: string[] }> {
      const rows = await db.query<{ company_id: string; status: string; recent: boolean }>(
        `SELECT p.company_id, p.status, p.created_at > now() - make_interval(hours => $2) AS recent FROM proposals p JOIN agents a ON a.id = p.agent_id
         WHERE lower(p.customer_email) = $1 AND a.kind <> 'api' AND (p.created_at > now() - make_interval(hours => $2) OR p.status = 'pending')`,
        [email.toLowerCase(), hours],
      );
      return { total: rows.filter((r) => r.recent).length, openCompanyIds: rows.filter((r) => r.status === 'pending').map((r) => r.company_id) };
    },

    async setDeleted(id: string, deleted: boolean): Promise<void> {
      await db.query(`UPDATE proposals SET deleted_at = ${deleted ? 'COALESCE(deleted_at, now())' : 'NULL'}, updated_at = now() WHERE id = $1`, [id]);
    },

    async messagesOf(proposalIds: string[]): Promise<MessageRow[]> {
      if (proposalIds.length === 0) return [];
      return db.query<MessageRow>(
        'SELECT id, proposal_id, author_role, kind, action, text, created_at FROM proposal_messages WHERE proposal_id = ANY($1::uuid[]) ORDER BY id',
        [proposalIds],
      );
    },

    async list(f: ProposalFilter): Promise<{ rows: ProposalRow[]; total: number }> {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (sql: (n: number) => string, value: unknown) => {
        params.push(value);
        where.push(sql(params.length));
      };
      if (f.agentId) add((n) => `p.agent_id = $${n}`, f.agentId);
      if (f.companyIds) add((n) => `p.company_id = ANY($${n}::uuid[])`, f.companyIds);
      if (f.status) add((n) => `p.status = $${n}`, f.status);
      if (!f.includeDeleted) where.push('p.deleted_at IS NULL');
      if (f.q) {
        add((n) => `(lower(p.customer_name) LIKE $${n} OR lower(p.customer_email) LIKE $${n})`, `%${f.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      }
      const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM proposals p ${filter}`, params))[0]!.n;
      const rows = await db.query<ProposalRow>(
        `${SELECT} ${filter} ORDER BY p.created_at DESC, p.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, f.limit, f.offset],
      );
      return { rows, total };
    },

    async countsByAgents(agentIds: string[]): Promise<{ agent_id: string; status: ProposalStatus; n: number }[]> {
      if (agentIds.length === 0) return [];
      return db.query(
        'SELECT agent_id, status, count(*)::int AS n FROM proposals WHERE agent_id = ANY($1::uuid[]) GROUP BY agent_id, status',
        [agentIds],
      );
    },

    // Idempotency keys

    /** Drops this key's record when older than the retention window, so the key can be reused. */
    async expireKey(agentId: string, key: string, hours: number): Promise<void> {
      await db.query(`DELETE FROM proposal_idempotency WHERE agent_id = $1 AND key = $2 AND created_at < now() - make_interval(hours => $3)`, [agentId, key, hours]);
    },

    /**
     * Claims the key. On PostgreSQL a concurrent claim of the same key waits here until the
     * first transaction ends, then sees its stored response.
     */
    async claimKey(agentId: string, key: string, requestHash: string): Promise<boolean> {
      const rows = await db.query(
        'INSERT INTO proposal_idempotency (agent_id, key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING key',
        [agentId, key, requestHash],
      );
      return rows.length > 0;
    },

    async getKey(agentId: string, key: string): Promise<{ request_hash: string; status_code: number | null; response: unknown } | undefined> {
      return (await db.query<{ request_hash: string; status_code: number | null; response: unknown }>(
        'SELECT request_hash, status_code, response FROM proposal_idempotency WHERE agent_id = $1 AND key = $2',
        [agentId, key],
      ))[0];
    },

    async saveKeyResponse(agentId: string, key: string, statusCode: number, response: unknown): Promise<void> {
      await db.query('UPDATE proposal_idempotency SET status_code = $3, response = $4::jsonb WHERE agent_id = $1 AND key = $2', [agentId, key, statusCode, JSON.stringify(response)]);
    },
  };
}

export type ProposalsRepo = ReturnType<typeof createProposalsRepo>;
