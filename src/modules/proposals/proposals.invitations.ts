import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import type { ProposalsCtx } from './proposals.context.js';
import { structuredLines, type StructuredFields } from './proposals.fields.js';
import { queueMail } from './proposals.notify.js';
import { createInvitationsRepo } from './invitations.repo.js';

/** How a proposal reaches its company (stored on the proposal; issue 37). */
export type Delivery = 'dashboard' | 'email' | 'none';

/** At most one invitation per company in this many days; the proposals that follow wait in the inbox. */
export const INVITATION_PERIOD_DAYS = 30;

/** What an agent reads about a proposal's delivery, one sentence per way. */
export const DELIVERY_NOTES: Record<Delivery, string> = {
  dashboard: "Delivered to the company's inbox: its owners read and answer proposals in their dashboard and are told by email.",
  email:
    'The company had not claimed its listing: its public email address was invited to claim it and answer (at most once every ' +
    `${INVITATION_PERIOD_DAYS} days). The proposal waits in its inbox; you are told when the company answers.`,
  none:
    'The company had not claimed its listing and has no public email address that accepts invitations: nobody could read the proposal ' +
    'when it was sent. It waits in its inbox until someone claims the listing.',
};

/** The company facts the delivery decision reads. */
export interface DeliveryCompany {
  id: string;
  name: string;
  website_url: string;
  contact_email: string | null;
}

/** Decided before the transaction (on PGlite a read outside an open transaction would wait for it). */
export interface DeliveryPlan {
  delivery: Delivery;
  /** The public address to invite, when the listing is unclaimed and the address has not opted out. */
  inviteAddress?: string;
}

export async function planDelivery(ctx: ProposalsCtx, company: DeliveryCompany): Promise<DeliveryPlan> {
  if (await ctx.deps.ownership.isClaimed(company.id)) return { delivery: 'dashboard' };
  const repo = createInvitationsRepo(ctx.deps.db);
  const address = company.contact_email?.trim().toLowerCase();
  if (!address || (await repo.optedOut(address))) return { delivery: 'none' };
  return { delivery: 'email', inviteAddress: address };
}

export interface InvitationFacts {
  proposalId: string;
  agentName: string;
  /** The sender's kind: 'api' for an agent, else the channel a person used. */
  origin: 'api' | 'quote_form' | 'widget';
  customerName: string;
  description: string;
  structured: StructuredFields;
}

/**
 * In the proposal's transaction: invites the company's public address to claim the listing, unless
 * it was invited within the period (or opted out meanwhile). The mail commits with the proposal.
 */
export async function inviteIn(ctx: ProposalsCtx, tx: Queryable, company: DeliveryCompany, plan: DeliveryPlan, facts: InvitationFacts, mailIds: string[]): Promise<void> {
  const address = plan.inviteAddress;
  if (plan.delivery !== 'email' || !address || !ctx.deps.mail) return;
  const repo = createInvitationsRepo(tx);
  await repo.lockCompany(company.id);
  if ((await repo.lastSentWithin(company.id, INVITATION_PERIOD_DAYS)) || (await repo.optedOut(address))) return;
  const token = randomBytes(24).toString('base64url');
  await repo.record({ companyId: company.id, email: address, proposalId: facts.proposalId, tokenHash: tokenHash(token) });
  const unsubscribe = `${ctx.deps.baseUrl}/invitations/unsubscribe?token=${token}`;
  await queueMail(ctx, tx, [address], { ...invitationMessage(ctx, company, facts, unsubscribe), listUnsubscribe: unsubscribe }, mailIds);
}

function invitationMessage(ctx: ProposalsCtx, company: DeliveryCompany, facts: InvitationFacts, unsubscribe: string) {
  const { baseUrl, serviceName } = ctx.deps;
  const host = hostOf(company.website_url);
  const request = facts.description.length > 1500 ? `${facts.description.slice(0, 1500)}…` : facts.description;
  const details = structuredLines(facts.structured);
  return {
    subject: `A request for ${company.name} from ${facts.customerName}, sent through ${serviceName}`,
    text: [
      facts.origin === 'api'
        ? `An AI assistant ("${facts.agentName}") found ${company.name} in ${serviceName}, a directory that AI assistants search for businesses, ` +
          `and sent this request on behalf of ${facts.customerName}:`
        : `${facts.customerName} found ${company.name} in ${serviceName}, a directory of businesses, and sent this request ` +
          `${facts.origin === 'widget' ? 'through the chat on your website' : 'from its page there'}:`,
      '',
      request,
      ...(details.length ? ['', ...details] : []),
      '',
      `Nobody has claimed the listing of ${company.name} (${host}) yet, so nobody can answer it. To read the request and reply, for free:`,
      `1. Sign in at ${baseUrl}/app/sign-in with an email address at ${host}.`,
      `2. Claim ${host} from your dashboard.`,
      'The request waits in your inbox there, with any that arrive before you claim the listing.',
      '',
      `${serviceName} sends this address at most one such invitation every ${INVITATION_PERIOD_DAYS} days. To receive no more: ${unsubscribe}`,
      '',
      `-- ${serviceName}`,
    ].join('\n'),
  };
}

/** Opts the address an invitation went to out of further invitations; the token is the one in that mail. */
export async function unsubscribeInvitations(ctx: ProposalsCtx, token: string): Promise<{ message: string }> {
  const repo = createInvitationsRepo(ctx.deps.db);
  const email = await repo.emailOfToken(tokenHash(token));
  if (!email) throw new AppError('bad_request', 'This unsubscribe link is not valid: use the link from the invitation email as it was sent.');
  await repo.optOut(email);
  return { message: `${maskEmail(email)} will receive no more invitations from ${ctx.deps.serviceName}.` };
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** j•••@acme.com: enough for the person to recognise the address, not enough to harvest it from a shared link. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}
