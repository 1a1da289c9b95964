import type { Queryable } from '../../platform/db.js';
import type { MailMessage } from '../../platform/mail.js';
import type { ProposalStatus } from './proposal-status.js';
import type { ProposalsCtx } from './proposals.context.js';
import { structuredLines, type StructuredFields } from './proposals.fields.js';

/** The mail and webhook events a proposal change sends: stored with the change, delivered after it. */
type Message = Omit<MailMessage, 'to'>;

/**
 * Notifications are stored in the transaction of the change they report, so a crash right
 * after the commit cannot lose the mail of an acknowledged write (an Idempotency-Key retry
 * replays the stored answer and must not need to send anything). Delivery jobs follow the
 * commit (`dispatchMail`); one missed there is requeued at the next start.
 */
export async function queueMail(ctx: ProposalsCtx, tx: Queryable, to: readonly string[], message: Message, ids: string[]): Promise<void> {
  const { mail } = ctx.deps;
  if (!mail) return;
  for (const address of new Set(to.map((t) => t.toLowerCase()))) {
    const id = await mail.queueIn(tx, { to: address, ...message });
    if (id) ids.push(id);
  }
}

export async function dispatchMail(ctx: ProposalsCtx, ids: readonly string[]): Promise<void> {
  const { deps } = ctx;
  if (!deps.mail || ids.length === 0) return;
  await deps.mail.dispatch(ids).catch((err: unknown) => deps.log?.warn({ err }, 'proposal notification stored, delivery job not queued yet'));
}

/** Queues what the last change recorded; a failure loses nothing (the webhooks sweep queues it within a minute). */
export async function dispatchEvents(ctx: ProposalsCtx): Promise<void> {
  const { deps } = ctx;
  await deps.events?.dispatch().catch((err: unknown) => deps.log?.warn({ err }, 'webhook deliveries not queued yet'));
}

/** Owners' addresses, read before a transaction opens (on PGlite a read outside it would wait for it). */
export async function ownerAddresses(ctx: ProposalsCtx, companyId: string): Promise<string[]> {
  const { deps } = ctx;
  if (!deps.ownerEmailsOf || !deps.mail) return [];
  return deps.ownerEmailsOf(companyId).catch(() => [] as string[]);
}

/** The agent's confirmed address; an owner_email nobody confirmed gets nothing but its confirmation link. */
export async function agentAddress(ctx: ProposalsCtx, agentId: string): Promise<string[]> {
  if (!ctx.deps.mail) return [];
  const address = await ctx.deps.agents.confirmedEmailOf(agentId);
  return address ? [address] : [];
}

export interface MailFacts { company_name: string; agent_name: string; customer_name: string; customer_email: string }

export function companyMessage(ctx: ProposalsCtx, p: MailFacts, what: 'new' | 'reply', lastText: string, structured?: StructuredFields): Message {
  const { baseUrl, serviceName } = ctx.deps;
  const subject = what === 'new' ? `New proposal for ${p.company_name} from ${p.customer_name}` : `New reply on the proposal from ${p.customer_name}`;
  const facts = structured ? structuredLines(structured) : [];
  const text = [
    what === 'new' ? `The agent "${p.agent_name}" sent a proposal to ${p.company_name} on behalf of ${p.customer_name} <${p.customer_email}>.` : `The agent "${p.agent_name}" replied; the proposal is pending again.`,
    '',
    lastText,
    ...(facts.length ? ['', ...facts] : []),
    '',
    `Answer it in your dashboard: ${baseUrl}/app/proposals`,
    '',
    `-- ${serviceName}`,
  ].join('\n');
  return { subject, text };
}

export function agentMessage(ctx: ProposalsCtx, p: MailFacts & { id: string }, status: ProposalStatus, lastText: string): Message {
  const { baseUrl, serviceName } = ctx.deps;
  return {
    subject: `${p.company_name} ${status === 'responded' ? 'responded to' : status} the proposal for ${p.customer_name}`,
    text: [
      `${p.company_name} answered the proposal ${p.id} (status: ${status}).`,
      '',
      lastText || '(no message)',
      '',
      `Read the thread: GET ${baseUrl}/api/v1/agent/proposals/${p.id}`,
      '',
      `-- ${serviceName}`,
    ].join('\n'),
  };
}
