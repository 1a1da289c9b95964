import { createHash } from 'node:crypto';
import type { BearerPrincipal } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, invalid, notFound } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail.js';
import { toPlainLine, toPlainText } from '../../lib/text.js';
import { emailConfirmed, type AgentsService } from '../agents/agents.service.js';
import type { CompaniesService } from '../companies/companies.service.js';
import { INITIAL_STATUS, nextStatus, type ProposalEvent, type ProposalStatus, type ResponseAction } from './proposal-status.js';
import { checkNeededByWindow, cleanStructured, structuredLines, type StructuredFields, type StructuredInput } from './proposals.fields.js';
import { createProposalsRepo, type LockedProposal, type ProposalsRepo } from './proposals.repo.js';
import type { BatchResult, MessageRow, Proposal, ProposalDetail, ProposalMessage, ProposalRow } from './proposals.schemas.js';
import { isoTime as iso } from '../../lib/time.js';
import { stableJson } from '../../lib/stable-json.js';
import type { WebhookEmitter } from '../webhooks/webhooks.events.js';

export interface ProposalsServiceDeps {
  db: Db;
  companies: CompaniesService;
  agents: AgentsService;
  /** Company ownership from the accounts module: which companies a user owns, and one check. */
  ownership: {
    companyIdsOf(userId: string): Promise<string[]>;
    owns(userId: string, companyId: string): Promise<boolean>;
  };
  /** Notifications: absent mailer = no emails (tests of other modules, early wiring). */
  mail?: Mailer | undefined;
  ownerEmailsOf?: ((companyId: string) => Promise<string[]>) | undefined;
  serviceName: string;
  baseUrl: string;
  log?: { warn(obj: object, msg: string): void };
  /** Webhook events for the agent: recorded in the transaction of the change, dispatched after it. */
  events?: WebhookEmitter | undefined;
}

interface ProposalInput extends StructuredInput {
  customer_email: string;
  customer_name: string;
  description: string;
  type?: 'standard' | 'custom' | undefined;
}

export interface CreateResult<T> {
  statusCode: number;
  body: T;
  /** True when an Idempotency-Key retry returned the stored first result. */
  replayed: boolean;
}

/** How long an Idempotency-Key is remembered. */
const IDEMPOTENCY_HOURS = 24;

/** The structured request fields of a stored proposal (null when the request did not carry one). */
function structuredOf(row: Pick<LockedProposal, 'budget_amount' | 'budget_currency' | 'needed_by' | 'location' | 'details'>): StructuredFields {
  return {
    budget: row.budget_amount === null || row.budget_currency === null ? null : { amount: Number(row.budget_amount), currency: row.budget_currency },
    needed_by: row.needed_by,
    location: row.location,
    details: row.details,
  };
}

export function toProposal(row: ProposalRow): Proposal {
  return {
    id: row.id,
    agent_id: row.agent_id,
    agent_name: row.agent_name,
    company_id: row.company_id,
    company_name: row.company_name,
    customer_email: row.customer_email,
    customer_name: row.customer_name,
    description: row.description,
    type: row.type,
    ...structuredOf(row),
    status: row.status,
    message_count: row.message_count,
    is_deleted: row.deleted_at !== null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function toMessage(m: MessageRow): ProposalMessage {
  return { id: Number(m.id), author_role: m.author_role, kind: m.kind, action: m.action, text: m.text, created_at: iso(m.created_at) };
}

export function createProposalsService(deps: ProposalsServiceDeps) {
  const { db, companies, agents, ownership } = deps;
  const repo = createProposalsRepo(db);

  function clean(input: ProposalInput) {
    const customerName = toPlainLine(input.customer_name).slice(0, 200);
    if (!customerName) throw invalid(['body', 'customer_name'], 'customer_name must contain visible text', input.customer_name, 'string_too_short');
    const description = toPlainText(input.description).slice(0, 10_000);
    if (!description) throw invalid(['body', 'description'], 'description must contain visible text', input.description, 'string_too_short');
    return { customerEmail: input.customer_email.trim().toLowerCase(), customerName, description, type: input.type ?? 'custom', structured: cleanStructured(input) };
  }

  async function withThreads(rows: ProposalRow[]): Promise<ProposalDetail[]> {
    const messages = await repo.messagesOf(rows.map((r) => r.id));
    const byProposal = new Map<string, ProposalMessage[]>();
    for (const m of messages) {
      const list = byProposal.get(m.proposal_id) ?? [];
      list.push(toMessage(m));
      byProposal.set(m.proposal_id, list);
    }
    return rows.map((r) => ({ ...toProposal(r), messages: byProposal.get(r.id) ?? [] }));
  }

  async function detail(id: string): Promise<ProposalDetail> {
    const row = await repo.findById(id);
    if (!row) throw notFound('Proposal');
    return (await withThreads([row]))[0]!;
  }

  /**
   * Notifications are stored in the transaction of the change they report, so a crash right
   * after the commit cannot lose the mail of an acknowledged write (an Idempotency-Key retry
   * replays the stored answer and must not need to send anything). Delivery jobs follow the
   * commit (`dispatchMail`); one missed there is requeued at the next start.
   */
  async function queueMail(tx: Queryable, to: readonly string[], message: { subject: string; text: string }, ids: string[]): Promise<void> {
    if (!deps.mail) return;
    for (const address of new Set(to.map((t) => t.toLowerCase()))) {
      const id = await deps.mail.queueIn(tx, { to: address, ...message });
      if (id) ids.push(id);
    }
  }

  async function dispatchMail(ids: readonly string[]): Promise<void> {
    if (!deps.mail || ids.length === 0) return;
    await deps.mail.dispatch(ids).catch((err: unknown) => deps.log?.warn({ err }, 'proposal notification stored, delivery job not queued yet'));
  }

  /** Owners' addresses, read before a transaction opens (on PGlite a read outside it would wait for it). */
  async function ownerAddresses(companyId: string): Promise<string[]> {
    if (!deps.ownerEmailsOf || !deps.mail) return [];
    return deps.ownerEmailsOf(companyId).catch(() => [] as string[]);
  }

  interface MailFacts { company_name: string; agent_name: string; customer_name: string; customer_email: string }

  function companyMessage(p: MailFacts, what: 'new' | 'reply', lastText: string, structured?: StructuredFields): { subject: string; text: string } {
    const subject = what === 'new' ? `New proposal for ${p.company_name} from ${p.customer_name}` : `New reply on the proposal from ${p.customer_name}`;
    const facts = structured ? structuredLines(structured) : [];
    const text = [
      what === 'new' ? `The agent "${p.agent_name}" sent a proposal to ${p.company_name} on behalf of ${p.customer_name} <${p.customer_email}>.` : `The agent "${p.agent_name}" replied; the proposal is pending again.`,
      '',
      lastText,
      ...(facts.length ? ['', ...facts] : []),
      '',
      `Answer it in your dashboard: ${deps.baseUrl}/app/proposals`,
      '',
      `-- ${deps.serviceName}`,
    ].join('\n');
    return { subject, text };
  }

  function agentMessage(p: MailFacts & { id: string }, status: ProposalStatus, lastText: string): { subject: string; text: string } {
    return {
      subject: `${p.company_name} ${status === 'responded' ? 'responded to' : status} the proposal for ${p.customer_name}`,
      text: [
        `${p.company_name} answered the proposal ${p.id} (status: ${status}).`,
        '',
        lastText || '(no message)',
        '',
        `Read the thread: GET ${deps.baseUrl}/api/v1/agent/proposals/${p.id}`,
        '',
        `-- ${deps.serviceName}`,
      ].join('\n'),
    };
  }

  /** The agent's confirmed address; an owner_email nobody confirmed gets nothing but its confirmation link. */
  async function agentAddress(agentId: string): Promise<string[]> {
    if (!deps.mail) return [];
    const agent = await agents.getById(agentId);
    return agent && emailConfirmed(agent) ? [agent.owner_email] : [];
  }

  /**
   * Idempotency-Key on the creates. The stored response is looked up first (a retry returns it
   * without re-checking companies); otherwise the key is claimed in the same transaction as
   * the writes, so a concurrent retry waits and then replays, and a failed attempt leaves no
   * key behind. The same key with a different body is a 422; the body is the whole request, the structured fields
   * (budget, needed_by, location, details) included.
   */
  function requestHash(operation: string, body: unknown): string {
    return createHash('sha256').update(`${operation}\n${stableJson(body)}`).digest('hex');
  }

  function replay<T>(key: string, hash: string, stored: { request_hash: string; status_code: number | null; response: unknown }): CreateResult<T> {
    if (stored.request_hash !== hash) {
      throw invalid(['header', 'idempotency-key'], 'This Idempotency-Key was already used with a different request; use a new key for a new request', key);
    }
    return { statusCode: stored.status_code ?? 200, body: stored.response as T, replayed: true };
  }

  async function storedResult<T>(agentId: string, key: string | undefined, hash: string): Promise<CreateResult<T> | undefined> {
    if (!key) return undefined;
    await repo.expireKey(agentId, key, IDEMPOTENCY_HOURS);
    const seen = await repo.getKey(agentId, key);
    return seen ? replay<T>(key, hash, seen) : undefined;
  }

  async function writeOnce<T>(
    agentId: string,
    key: string | undefined,
    hash: string,
    write: (tx: ProposalsRepo, raw: Queryable) => Promise<{ statusCode: number; body: T }>,
  ): Promise<CreateResult<T>> {
    return db.transaction(async (tx) => {
      const txRepo = createProposalsRepo(tx);
      if (key && !(await txRepo.claimKey(agentId, key, hash))) return replay<T>(key, hash, (await txRepo.getKey(agentId, key))!);
      const out = await write(txRepo, tx);
      if (key) await txRepo.saveKeyResponse(agentId, key, out.statusCode, out.body);
      return { ...out, replayed: false };
    });
  }

  async function insertOne(tx: ProposalsRepo, agentId: string, companyId: string, p: ReturnType<typeof clean>): Promise<string> {
    const { structured, ...fields } = p;
    const id = await tx.insert({
      agentId, companyId, ...fields, status: INITIAL_STATUS,
      budget: structured.budget, neededBy: structured.needed_by, location: structured.location, details: structured.details,
    });
    await tx.addMessage({ proposalId: id, authorRole: 'agent', kind: 'request', text: p.description });
    return id;
  }

  /** The proposal behind an owner action, or 404 when the caller does not manage its company. */
  async function managedProposal(principal: BearerPrincipal, proposalId: string): Promise<ProposalRow> {
    const row = await repo.findById(proposalId);
    if (!row) throw notFound('Proposal');
    if (principal.kind === 'admin') return row;
    if (!(await ownership.owns(principal.userId, row.company_id))) throw notFound('Proposal');
    return row;
  }

  type TransitionMail = { to: readonly string[]; compose: (next: ProposalStatus) => { subject: string; text: string }; ids: string[] };

  async function transition(
    proposalId: string,
    event: ProposalEvent,
    text: string,
    check: (locked: LockedProposal) => void,
    mail?: TransitionMail,
  ): Promise<ProposalStatus> {
    return db.transaction((tx) => transitionIn(tx, proposalId, event, text, check, mail));
  }

  /** One status change and its message, inside the caller's transaction. */
  async function transitionIn(
    tx: Queryable,
    proposalId: string,
    event: ProposalEvent,
    text: string,
    check: (locked: LockedProposal) => void,
    mail?: TransitionMail,
  ): Promise<ProposalStatus> {
    const txRepo = createProposalsRepo(tx);
    const locked = await txRepo.lock(proposalId);
    if (!locked) throw notFound('Proposal');
    check(locked);
    const next = nextStatus(locked.status, event);
    if (!next.ok) throw new AppError('conflict', next.reason);
    const messageId = await txRepo.addMessage(
      event.by === 'agent'
        ? { proposalId, authorRole: 'agent', kind: 'reply', text }
        : { proposalId, authorRole: 'company', kind: 'response', action: event.action, text },
    );
    await txRepo.setStatus(proposalId, next.status);
    // The company answered: the agent hears it (its own replies are no news to it).
    if (event.by === 'company' && deps.events) {
      const data = eventData(locked);
      await deps.events.emit(tx, { type: `proposal.${next.status as 'approved' | 'rejected' | 'responded'}`, agentId: locked.agent_id, data: { ...data, status: next.status } });
      if (text) await deps.events.emit(tx, { type: 'proposal.message', agentId: locked.agent_id, data: { ...data, message_id: messageId } });
    }
    if (mail) await queueMail(tx, mail.to, mail.compose(next.status), mail.ids);
    return next.status;
  }

  /** What every proposal.* event carries: the ids and the request's structured fields (null when absent). */
  function eventData(locked: LockedProposal) {
    const { budget, needed_by, location, details } = structuredOf(locked);
    return { proposal_id: locked.id, company_id: locked.company_id, budget, needed_by, location, details };
  }

  /** Queues what the last change recorded; a failure loses nothing (the webhooks sweep queues it within a minute). */
  async function dispatchEvents(): Promise<void> {
    await deps.events?.dispatch().catch((err: unknown) => deps.log?.warn({ err }, 'webhook deliveries not queued yet'));
  }

  return {
    // Agent side

    async create(agentId: string, input: ProposalInput & { company_id: string }, idempotencyKey?: string): Promise<CreateResult<ProposalDetail>> {
      const p = clean(input);
      const hash = requestHash('proposals.create', input);
      const seen = await storedResult<ProposalDetail>(agentId, idempotencyKey, hash);
      if (seen) return seen;
      // After the replay lookup: a retry the next day replays, though its needed_by may be yesterday by then.
      checkNeededByWindow(p.structured.needed_by);
      // Company checks run before the transaction: on PGlite a query outside an open
      // transaction waits for it to end.
      const company = await companies.getById(input.company_id);
      if (!company.is_verified) {
        throw new AppError('conflict', `${company.name} is not verified and does not accept proposals; only verified companies can receive proposals`);
      }
      const owners = await ownerAddresses(company.id);
      const mailIds: string[] = [];
      const out = await writeOnce<ProposalDetail>(agentId, idempotencyKey, hash, async (tx, raw) => {
        const id = await insertOne(tx, agentId, company.id, p);
        const row = (await tx.findById(id))!;
        await queueMail(raw, owners, companyMessage(row, 'new', p.description, p.structured), mailIds);
        return { statusCode: 201, body: { ...toProposal(row), messages: (await tx.messagesOf([id])).map(toMessage) } };
      });
      await dispatchMail(mailIds);
      return out;
    },

    async createBatch(agentId: string, input: ProposalInput & { company_ids: string[] }, idempotencyKey?: string): Promise<CreateResult<BatchResult>> {
      const p = clean(input);
      const hash = requestHash('proposals.batch', input);
      const seen = await storedResult<BatchResult>(agentId, idempotencyKey, hash);
      if (seen) return seen;
      checkNeededByWindow(p.structured.needed_by);
      const ids = [...new Set(input.company_ids.map((id) => id.toLowerCase()))];
      const found = new Map((await companies.findManyByIds(ids)).map((c) => [c.id, c]));
      const owners = new Map<string, string[]>();
      for (const c of found.values()) if (c.is_verified) owners.set(c.id, await ownerAddresses(c.id));
      const mailIds: string[] = [];
      const out = await writeOnce<BatchResult>(agentId, idempotencyKey, hash, async (tx, raw) => {
        let created = 0;
        const results: BatchResult['results'] = [];
        for (const companyId of ids) {
          const company = found.get(companyId);
          if (!company) {
            results.push({ company_id: companyId, outcome: 'refused', reason: 'not_found', detail: 'No company with this id in the directory' });
          } else if (!company.is_verified) {
            results.push({ company_id: companyId, outcome: 'refused', reason: 'not_verified', detail: `${company.name} is not verified and does not accept proposals` });
          } else {
            const id = await insertOne(tx, agentId, companyId, p);
            const row = (await tx.findById(id))!;
            await queueMail(raw, owners.get(companyId) ?? [], companyMessage(row, 'new', p.description, p.structured), mailIds);
            created++;
            results.push({ company_id: companyId, outcome: 'created', proposal: toProposal(row) });
          }
        }
        return { statusCode: created > 0 ? 201 : 200, body: { results, created, refused: results.length - created } };
      });
      await dispatchMail(mailIds);
      return out;
    },

    async listForAgent(agentId: string, q: { status?: ProposalStatus; limit: number; offset: number }) {
      const { rows, total } = await repo.list({ agentId, status: q.status, includeDeleted: true, limit: q.limit, offset: q.offset });
      return { proposals: rows.map(toProposal), total, limit: q.limit, offset: q.offset, has_more: q.offset + rows.length < total };
    },

    async getForAgent(agentId: string, proposalId: string): Promise<ProposalDetail> {
      const row = await repo.findById(proposalId);
      // Another agent's proposal does not exist for this caller.
      if (!row || row.agent_id !== agentId) throw notFound('Proposal');
      return (await withThreads([row]))[0]!;
    },

    /**
     * Agent reply: joins the thread and sets the status to pending (allowed in every status). An Idempotency-Key works
     * as for the creates (same table, the proposal id in the request hash): a retry returns the first answer, adds nothing.
     */
    async reply(agentId: string, proposalId: string, message: string, idempotencyKey?: string): Promise<CreateResult<ProposalDetail>> {
      const text = toPlainText(message).slice(0, 10_000);
      if (!text) throw invalid(['body', 'message'], 'message must contain visible text', message, 'string_too_short');
      const hash = requestHash('proposals.reply', { proposal_id: proposalId.toLowerCase(), message });
      const seen = await storedResult<ProposalDetail>(agentId, idempotencyKey, hash);
      if (seen) return seen;
      const row = await repo.findById(proposalId);
      if (!row || row.agent_id !== agentId) throw notFound('Proposal');
      const owners = await ownerAddresses(row.company_id);
      const mailIds: string[] = [];
      const out = await writeOnce<ProposalDetail>(agentId, idempotencyKey, hash, async (tx, raw) => {
        await transitionIn(raw, row.id, { by: 'agent', kind: 'reply' }, text, (locked) => {
          if (locked.agent_id !== agentId) throw notFound('Proposal');
        }, { to: owners, compose: () => companyMessage(row, 'reply', text), ids: mailIds });
        const updated = (await tx.findById(row.id))!;
        return { statusCode: 200, body: { ...toProposal(updated), messages: (await tx.messagesOf([row.id])).map(toMessage) } };
      });
      await dispatchMail(mailIds);
      return out;
    },

    // Owner side

    async listForOwner(principal: BearerPrincipal, q: { status?: ProposalStatus; limit: number; offset: number; include_deleted?: boolean; q?: string }) {
      // Administrators manage every company, so they see every proposal.
      const companyIds = principal.kind === 'admin' ? undefined : await ownership.companyIdsOf(principal.userId);
      const { rows, total } = await repo.list({
        companyIds,
        status: q.status,
        includeDeleted: q.include_deleted ?? false,
        q: q.q?.trim() || undefined,
        limit: q.limit,
        offset: q.offset,
      });
      return { proposals: await withThreads(rows), total, limit: q.limit, offset: q.offset, has_more: q.offset + rows.length < total };
    },

    async respond(principal: BearerPrincipal, proposalId: string, body: { action: ResponseAction; message?: string | undefined }): Promise<ProposalDetail> {
      const text = toPlainText(body.message ?? '').slice(0, 10_000);
      if (body.action === 'respond' && !text) throw invalid(['body', 'message'], 'A custom response needs a message', body.message, 'missing');
      const row = await managedProposal(principal, proposalId);
      const mailIds: string[] = [];
      await transition(proposalId, { by: 'company', action: body.action }, text, (locked) => {
        if (locked.deleted_at) throw new AppError('conflict', 'This proposal is deleted: restore it before responding');
      }, { to: await agentAddress(row.agent_id), compose: (next) => agentMessage(row, next, text), ids: mailIds });
      await Promise.all([dispatchEvents(), dispatchMail(mailIds)]);
      return detail(proposalId);
    },

    async setDeleted(principal: BearerPrincipal, proposalId: string, deleted: boolean): Promise<ProposalDetail> {
      await managedProposal(principal, proposalId);
      await db.transaction(async (tx) => {
        const txRepo = createProposalsRepo(tx);
        const locked = await txRepo.lock(proposalId);
        if (!locked) throw notFound('Proposal');
        await txRepo.setDeleted(proposalId, deleted);
        if (deps.events && Boolean(locked.deleted_at) !== deleted) {
          await deps.events.emit(tx, { type: deleted ? 'proposal.deleted' : 'proposal.restored', agentId: locked.agent_id, data: eventData(locked) });
        }
      });
      await dispatchEvents();
      return detail(proposalId);
    },

    /** Agents that proposed to a company, read with the caller's query runner (inside its transaction). */
    agentIdsProposedTo(q: Queryable, companyId: string): Promise<string[]> {
      return createProposalsRepo(q).agentIdsProposedTo(companyId);
    },

    // Administration

    async listForAdmin(agentId: string, q: { limit: number; offset: number; include_deleted?: boolean }) {
      const { rows, total } = await repo.list({ agentId, includeDeleted: q.include_deleted ?? false, limit: q.limit, offset: q.offset });
      return { proposals: await withThreads(rows), total, limit: q.limit, offset: q.offset, has_more: q.offset + rows.length < total };
    },

    async countsByAgents(agentIds: string[]): Promise<Map<string, { total: number; pending: number; approved: number; rejected: number; responded: number }>> {
      const out = new Map(agentIds.map((id) => [id, { total: 0, pending: 0, approved: 0, rejected: 0, responded: 0 }]));
      for (const r of await repo.countsByAgents(agentIds)) {
        const c = out.get(r.agent_id)!;
        c[r.status] += r.n;
        c.total += r.n;
      }
      return out;
    },
  };
}

export type ProposalsService = ReturnType<typeof createProposalsService>;
