import type { Queryable } from '../../platform/db.js';
import type { MailMessage } from '../../platform/mail.js';
import type { ProposalStatus } from './proposal-status.js';
import type { PersonChannel, ProposalsCtx } from './proposals.context.js';
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

/** origin: the sender's kind ('api' for an agent; a person's channel otherwise). */
export interface MailFacts { company_name: string; agent_name: string; customer_name: string; customer_email: string; origin?: 'api' | PersonChannel }

/** Who sent a new request, as its first sentence. */
function newRequestLine(ctx: ProposalsCtx, p: MailFacts): string {
  const who = `${p.customer_name} <${p.customer_email}>`;
  if (p.origin === 'quote_form') return `${who} asked ${p.company_name} for a quote on its page in ${ctx.deps.serviceName}. Your answer is emailed to them.`;
  if (p.origin === 'widget') return `${who} left a request for ${p.company_name} in the chat widget on your website. Your answer is emailed to them.`;
  return `The agent "${p.agent_name}" sent a proposal to ${p.company_name} on behalf of ${who}.`;
}

export function companyMessage(ctx: ProposalsCtx, p: MailFacts, what: 'new' | 'reply', lastText: string, structured?: StructuredFields): Message {
  const { baseUrl, serviceName } = ctx.deps;
  const person = p.origin !== undefined && p.origin !== 'api';
  const subject = what === 'new'
    ? `New ${person ? 'request' : 'proposal'} for ${p.company_name} from ${p.customer_name}`
    : `New reply on the proposal from ${p.customer_name}`;
  const facts = structured ? structuredLines(structured) : [];
  const text = [
    what === 'new' ? newRequestLine(ctx, p) : `The agent "${p.agent_name}" replied; the proposal is pending again.`,
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

/**
 * The company's answer to a person who asked on its page or in its widget: mailed to the person, with the
 * company's address to reply to (a person has no API to read the thread with).
 */
export function customerMessage(ctx: ProposalsCtx, p: MailFacts, status: ProposalStatus, lastText: string, replyTo: string | undefined): Message {
  const { serviceName } = ctx.deps;
  const verb = status === 'approved' ? 'accepted' : status === 'rejected' ? 'declined' : 'answered';
  return {
    subject: `${p.company_name} ${verb} your request`,
    text: [
      `Hello ${p.customer_name},`,
      '',
      `${p.company_name} ${verb} the request you sent through ${serviceName}.`,
      ...(lastText ? ['', `Their message:`, '', lastText] : []),
      '',
      replyTo ? `To answer ${p.company_name}, reply to this email: it goes to ${replyTo}.` : `To answer ${p.company_name}, use the contact details on its page.`,
      '',
      `-- ${serviceName}`,
    ].join('\n'),
    ...(replyTo ? { replyTo } : {}),
  };
}
