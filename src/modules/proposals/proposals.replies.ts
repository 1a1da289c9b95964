import { toPlainText } from '../../lib/text.js';
import type { BearerPrincipal } from '../../platform/auth.js';
import type { Queryable } from '../../platform/db.js';
import type { MailMessage } from '../../platform/mail.js';
import { AppError, invalid, notFound } from '../../platform/errors.js';
import { nextStatus, type ProposalEvent, type ProposalStatus, type ResponseAction } from './proposal-status.js';
import type { ProposalsCtx } from './proposals.context.js';
import { requestHash, storedResult, writeOnce, type CreateResult } from './proposals.idempotency.js';
import { detail, managedProposal } from './proposals.inbox.js';
import { assertNotBlocked } from './proposals.reports.js';
import { agentAddress, agentMessage, companyMessage, customerMessage, dispatchEvents, dispatchMail, ownerAddresses, queueMail } from './proposals.notify.js';
import { createProposalsRepo, type LockedProposal } from './proposals.repo.js';
import type { ProposalDetail } from './proposals.schemas.js';
import { eventData, toMessage, toProposal } from './proposals.views.js';

/** The thread after the first message: the agent replies, the owner answers, deletes or restores. */
type TransitionMail = { to: readonly string[]; compose: (next: ProposalStatus) => Omit<MailMessage, 'to'>; ids: string[] };

/** One status change and its message, inside the caller's transaction. */
async function transitionIn(
  ctx: ProposalsCtx,
  tx: Queryable,
  proposalId: string,
  event: ProposalEvent,
  text: string,
  check: (locked: LockedProposal) => void,
  mail?: TransitionMail,
): Promise<ProposalStatus> {
  const { events } = ctx.deps;
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
  if (event.by === 'company' && events) {
    const data = eventData(locked);
    await events.emit(tx, { type: `proposal.${next.status as 'approved' | 'rejected' | 'responded'}`, agentId: locked.agent_id, data: { ...data, status: next.status } });
    if (text) await events.emit(tx, { type: 'proposal.message', agentId: locked.agent_id, data: { ...data, message_id: messageId } });
  }
  if (mail) await queueMail(ctx, tx, mail.to, mail.compose(next.status), mail.ids);
  return next.status;
}

/**
 * Agent reply: joins the thread and sets the status to pending (allowed in every status). An Idempotency-Key works
 * as for the creates (same table, the proposal id in the request hash): a retry returns the first answer, adds nothing.
 */
export async function reply(ctx: ProposalsCtx, agentId: string, proposalId: string, message: string, idempotencyKey?: string): Promise<CreateResult<ProposalDetail>> {
  const text = toPlainText(message).slice(0, 10_000);
  if (!text) throw invalid(['body', 'message'], 'message must contain visible text', message, 'string_too_short');
  const hash = requestHash('proposals.reply', { proposal_id: proposalId.toLowerCase(), message });
  const seen = await storedResult<ProposalDetail>(ctx, agentId, idempotencyKey, hash);
  if (seen) return seen;
  const row = await ctx.repo.findById(proposalId);
  if (!row || row.agent_id !== agentId) throw notFound('Proposal');
  await assertNotBlocked(ctx, { id: row.company_id, name: row.company_name }, agentId, 'replies');
  const owners = await ownerAddresses(ctx, row.company_id);
  const mailIds: string[] = [];
  const out = await writeOnce<ProposalDetail>(ctx, agentId, idempotencyKey, hash, async (tx, raw) => {
    await transitionIn(ctx, raw, row.id, { by: 'agent', kind: 'reply' }, text, (locked) => {
      if (locked.agent_id !== agentId) throw notFound('Proposal');
    }, { to: owners, compose: () => companyMessage(ctx, row, 'reply', text), ids: mailIds });
    const updated = (await tx.findById(row.id))!;
    return { statusCode: 200, body: { ...toProposal(updated), messages: (await tx.messagesOf([row.id])).map(toMessage) } };
  });
  await dispatchMail(ctx, mailIds);
  return out;
}

export async function respond(ctx: ProposalsCtx, principal: BearerPrincipal, proposalId: string, body: { action: ResponseAction; message?: string | undefined }): Promise<ProposalDetail> {
  const text = toPlainText(body.message ?? '').slice(0, 10_000);
  if (body.action === 'respond' && !text) throw invalid(['body', 'message'], 'A custom response needs a message', body.message, 'missing');
  const row = await managedProposal(ctx, principal, proposalId);
  const company = row.origin === 'api' ? undefined : await ctx.deps.companies.getById(row.company_id).catch(() => undefined);
  const mailIds: string[] = [];
  const mail: TransitionMail = row.origin === 'api'
    ? { to: await agentAddress(ctx, row.agent_id), compose: (next) => agentMessage(ctx, row, next, text), ids: mailIds }
    : { to: ctx.deps.mail ? [row.customer_email] : [], compose: (next) => customerMessage(ctx, row, next, text, replyToOf(company, principal)), ids: mailIds };
  const { reviewInvitations, ownerEmailsOf } = ctx.deps;
  // Read before the transaction (on PGlite a read outside it would wait for it): the company's own people are not invited to review.
  const owners = body.action === 'approve' && reviewInvitations ? await (ownerEmailsOf?.(row.company_id) ?? Promise.resolve([])).catch(() => [] as string[]) : [];
  await ctx.deps.db.transaction(async (tx) => {
    const next = await transitionIn(ctx, tx, proposalId, { by: 'company', action: body.action }, text, (locked) => {
      if (locked.deleted_at) throw new AppError('conflict', 'This proposal is deleted: restore it before responding');
    }, mail);
    if (next === 'approved' && reviewInvitations) mailIds.push(...(await reviewInvitations.inviteIn(tx, proposalId, owners)));
  });
  await Promise.all([dispatchEvents(ctx), dispatchMail(ctx, mailIds)]);
  return detail(ctx, proposalId);
}

export async function setDeleted(ctx: ProposalsCtx, principal: BearerPrincipal, proposalId: string, deleted: boolean): Promise<ProposalDetail> {
  const { events } = ctx.deps;
  await managedProposal(ctx, principal, proposalId);
  await ctx.deps.db.transaction(async (tx) => {
    const txRepo = createProposalsRepo(tx);
    const locked = await txRepo.lock(proposalId);
    if (!locked) throw notFound('Proposal');
    await txRepo.setDeleted(proposalId, deleted);
    if (events && Boolean(locked.deleted_at) !== deleted) {
      await events.emit(tx, { type: deleted ? 'proposal.deleted' : 'proposal.restored', agentId: locked.agent_id, data: eventData(locked) });
    }
  });
  await dispatchEvents(ctx);
  return detail(ctx, proposalId);
}

/** A person answers the company by replying to its mail: the company's public address, else the answering owner's. */
function replyToOf(company: { contact_email?: string | null } | undefined, principal: BearerPrincipal): string | undefined {
  return company?.contact_email?.trim() || principal.email;
}
