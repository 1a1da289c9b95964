import { DELIVERY_NOTES } from './proposals.invitations.js';
import { isoTime as iso } from '../../lib/time.js';
import type { StructuredFields } from './proposals.fields.js';
import type { LockedProposal, ProposalsRepo } from './proposals.repo.js';
import type { MessageRow, Proposal, ProposalDetail, ProposalMessage, ProposalRow } from './proposals.schemas.js';

/** Stored proposals as the API shows them, and what their webhook events carry. */

/** The structured request fields of a stored proposal (null when the request did not carry one). */
export function structuredOf(row: Pick<LockedProposal, 'budget_amount' | 'budget_currency' | 'needed_by' | 'location' | 'details'>): StructuredFields {
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
    origin: row.origin === 'api' ? 'agent' : row.origin,
    company_id: row.company_id,
    company_name: row.company_name,
    customer_email: row.customer_email,
    customer_name: row.customer_name,
    description: row.description,
    type: row.type,
    ...structuredOf(row),
    delivery: row.delivery,
    delivery_note: DELIVERY_NOTES[row.delivery],
    status: row.status,
    message_count: row.message_count,
    is_deleted: row.deleted_at !== null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function toMessage(m: MessageRow): ProposalMessage {
  return { id: Number(m.id), author_role: m.author_role, kind: m.kind, action: m.action, text: m.text, created_at: iso(m.created_at) };
}

/** The proposals with their whole threads (one query for all the messages). */
export async function withThreads(repo: ProposalsRepo, rows: ProposalRow[]): Promise<ProposalDetail[]> {
  const messages = await repo.messagesOf(rows.map((r) => r.id));
  const byProposal = new Map<string, ProposalMessage[]>();
  for (const m of messages) {
    const list = byProposal.get(m.proposal_id) ?? [];
    list.push(toMessage(m));
    byProposal.set(m.proposal_id, list);
  }
  return rows.map((r) => ({ ...toProposal(r), messages: byProposal.get(r.id) ?? [] }));
}

/** What every proposal.* event carries: the ids and the request's structured fields (null when absent). */
export function eventData(locked: LockedProposal) {
  const { budget, needed_by, location, details } = structuredOf(locked);
  return { proposal_id: locked.id, company_id: locked.company_id, budget, needed_by, location, details };
}
