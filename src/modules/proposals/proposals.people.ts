import { createWindowLimiter, type WindowLimiter } from '../../lib/rate-window.js';
import { toPlainLine, toPlainText } from '../../lib/text.js';
import { AppError, invalid } from '../../platform/errors.js';
import type { PersonChannel, ProposalsCtx } from './proposals.context.js';
import { createProposal } from './proposals.send.js';

/**
 * People ask a company for a quote on its page, or leave their details in its chat widget (issue 38). The
 * request lands in the owner's inbox as a proposal from the channel's built-in sender; the owner's answer is
 * mailed to the person. Spam brakes: a hidden field bots fill in, requests per network address per hour, per
 * email address per day, and one open request per company and address.
 */

export interface PersonRequest {
  name: string;
  email: string;
  message: string;
  phone?: string | undefined;
  /** The hidden field of the form: people leave it empty. */
  website?: string | undefined;
}

export interface PersonRequestResult {
  proposal_id: string;
  company_name: string;
  delivery: 'dashboard' | 'email' | 'none';
  message: string;
}

export const PERSON_LIMITS = { perNetworkPerHour: 10, perAddressPerDay: 5 } as const;

export function createPersonLimiter(now?: () => number): WindowLimiter {
  return createWindowLimiter({ limit: PERSON_LIMITS.perNetworkPerHour, windowMs: 3_600_000, ...(now ? { now } : {}) });
}

export async function requestFromPerson(
  ctx: ProposalsCtx,
  limiter: WindowLimiter,
  channel: PersonChannel,
  companyId: string,
  input: PersonRequest,
  ip: string,
): Promise<PersonRequestResult> {
  if (input.website?.trim()) throw invalid(['body', 'website'], 'Leave this field empty: it is there to stop automated requests', input.website, 'value_error');
  const name = toPlainLine(input.name).slice(0, 200);
  if (!name) throw invalid(['body', 'name'], 'Please write your name', input.name, 'string_too_short');
  const message = toPlainText(input.message).slice(0, 5000);
  if (message.length < 10) throw invalid(['body', 'message'], 'Please say in a sentence or two what you need', input.message, 'string_too_short');
  const phone = toPlainLine(input.phone ?? '').slice(0, 40);
  if (phone && !/^\+?[\d\s()./-]{6,}$/.test(phone)) throw invalid(['body', 'phone'], 'Please write the phone number with digits only (spaces, +, - and brackets are fine), or leave it empty', input.phone, 'value_error');
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(email) || email.length > 254) {
    throw invalid(['body', 'email'], 'Please write a valid email address, like name@example.com: the answer is sent there', input.email, 'value_error');
  }

  const company = await ctx.deps.companies.getById(companyId);
  if (!company.is_verified) {
    throw new AppError('conflict', `${company.name} has not confirmed its listing yet, so it cannot receive requests here. Please contact it directly.`);
  }
  const hit = limiter.hit(ip);
  if (!hit.ok) {
    throw new AppError('rate_limited', 'Too many requests were sent from your network in the last hour. Please try again later.', { headers: { 'retry-after': String(hit.retryAfterSeconds) } });
  }
  const recent = await ctx.repo.personRequestsSince(email, 24);
  if (recent.total >= PERSON_LIMITS.perAddressPerDay) {
    throw new AppError('rate_limited', `You have sent ${PERSON_LIMITS.perAddressPerDay} requests today, the most we accept from one address in a day. Please try again tomorrow.`);
  }
  if (recent.openCompanyIds.includes(company.id)) {
    throw new AppError('conflict', `You already asked ${company.name}, and your request is waiting for an answer. It will answer you at ${email}.`);
  }

  const senderId = await ctx.deps.agents.builtinSender(channel);
  const created = await createProposal(ctx, senderId, {
    company_id: company.id,
    customer_name: name,
    customer_email: email,
    description: message,
    type: 'custom',
    ...(phone ? { details: { phone } } : {}),
  });
  const delivery = created.body.delivery;
  return {
    proposal_id: created.body.id,
    company_name: company.name,
    delivery,
    message: delivery === 'none'
      ? `Your request is saved, but ${company.name} has not set up its inbox yet, so it may not see it soon. Please also contact it directly.`
      : `Your request was sent to ${company.name}. It will answer you by email at ${email}.`,
  };
}
