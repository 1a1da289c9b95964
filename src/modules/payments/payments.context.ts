import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import { AppError, invalid } from '../../platform/errors.js';
import type { Jobs } from '../../platform/jobs.js';
import type { MailService } from '../../platform/mail.js';
import type { LocalProvider } from './payments.local.js';
import type { PaymentProvider } from './payments.provider.js';
import type { PaymentsRepo } from './payments.repo.js';
import type { BillingInterval } from './payments.types.js';

/**
 * What every verb group of the payments service shares: its dependencies, the repo, the clock and
 * the small rules about callers, return addresses and billing mail.
 */
export interface PaymentsDeps {
  db: Db;
  config: Config;
  provider: PaymentProvider;
  /** Set when the provider is the local one (it is then also `provider`). */
  local: LocalProvider | undefined;
  jobs: Jobs;
  mail: MailService;
  log: FastifyBaseLogger;
  owns: (userId: string, companyId: string) => Promise<boolean>;
  companyIdsOf: (userId: string) => Promise<string[]>;
  ownerEmailsOf: (companyId: string) => Promise<string[]>;
  companyName: (companyId: string) => Promise<string>;
  clock?: () => Date;
}

export type Caller = { kind: 'user'; userId: string; email: string } | { kind: 'admin'; email: string } | null;
/** Mail is rendered and sent after the transaction commits (PGlite has one connection: no query outside it meanwhile). */
export type Mail = { companyId: string; render: (name: string) => { subject: string; text: string } };

export interface PaymentsCtx {
  deps: PaymentsDeps;
  repo: PaymentsRepo;
  clock: () => Date;
  /** The public base URL (config.baseUrl): every return address stays within it. */
  base: string;
  /** The local provider's events are signed with a per-process secret and verified like Stripe's. */
  localSecret: string;
}

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function priceOf(ctx: PaymentsCtx, interval: BillingInterval) {
  const { payments } = ctx.deps.config;
  return { amount: payments.proAmounts[interval], currency: payments.currency, interval };
}

export function withinBase(ctx: PaymentsCtx, value: string | undefined, field: string, fallback: string): string {
  const { base } = ctx;
  if (!value) return `${base}${fallback}`;
  let u: URL;
  try {
    u = new URL(value, `${base}/`);
  } catch {
    throw invalid(['body', field], 'Should be a URL within this site', value);
  }
  const b = new URL(base);
  if (u.origin !== b.origin || !u.pathname.startsWith(b.pathname.replace(/\/$/, '') + '/') && u.pathname !== b.pathname) {
    throw invalid(['body', field], `Should be a URL within ${base} (return addresses never leave this site)`, value);
  }
  return u.toString();
}

export async function companyFor(ctx: PaymentsCtx, caller: Caller, toolId: string | undefined, where: 'query' | 'body'): Promise<string> {
  if (!caller) throw new AppError('unauthorized', 'Not authenticated');
  if (caller.kind === 'admin') {
    if (!toolId) throw invalid([where, 'tool_id'], 'Administrators name the company (tool_id)');
    return toolId;
  }
  if (toolId) {
    if (!(await ctx.deps.owns(caller.userId, toolId))) throw new AppError('not_found', 'Company not found among yours');
    return toolId;
  }
  const ids = await ctx.deps.companyIdsOf(caller.userId);
  if (ids.length === 0) throw new AppError('not_found', 'You own no company yet: verify one first');
  if (ids.length > 1) throw invalid([where, 'tool_id'], 'You own several companies: name one with tool_id');
  return ids[0]!;
}

/** Who opened a checkout, as stored on it. */
export function openerOf(caller: Caller): string | undefined {
  if (!caller) return undefined;
  return caller.kind === 'admin' ? `admin:${caller.email.toLowerCase()}` : `user:${caller.userId}`;
}

export async function sendMails(ctx: PaymentsCtx, mails: Mail[]) {
  const { deps } = ctx;
  for (const m of mails) {
    const { subject, text } = m.render(await deps.companyName(m.companyId).catch(() => 'Your company'));
    for (const to of await deps.ownerEmailsOf(m.companyId).catch(() => [])) {
      await deps.mail.send({ to, subject, text }).catch((err: unknown) => deps.log.error({ err }, 'billing mail failed'));
    }
  }
}
