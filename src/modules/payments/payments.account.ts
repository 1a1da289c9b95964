import { AppError } from '../../platform/errors.js';
import { companyFor, iso, sendMails, withinBase, type Caller, type Mail, type PaymentsCtx } from './payments.context.js';
import { deliverLocalEvents } from './payments.events.js';
import { entitlementOf, isEntitled, PLAN_LIMITS, planPrices } from './payments.plans.js';
import { applySubscription } from './payments.sync.js';
import type { SubscriptionRecord } from './payments.types.js';

/** A company's billing as its owner sees it: plan, receipts, the provider's portal and cancelling. */
export async function billingOf(ctx: PaymentsCtx, caller: Caller, toolId: string | undefined) {
  const { repo, deps } = ctx;
  const { config, provider } = deps;
  const companyId = await companyFor(ctx, caller, toolId, 'query');
  const row: SubscriptionRecord | undefined = await repo.subscription(companyId);
  const e = entitlementOf(row, ctx.clock());
  return {
    tool_id: companyId, plan: e.plan, effective_plan: e.effective_plan, interval: row?.billing_interval ?? null, status: e.status, entitled: e.entitled,
    source: row?.source ?? null, provider: provider.name, test_mode: config.payments.testMode, can_subscribe: provider.name !== 'off', current_period_end: iso(row?.period_end), cancel_at_period_end: row?.cancel_at_period_end ?? false,
    cancel_at: iso(row?.cancel_at), trial_end: iso(row?.trial_end), payment_failed_at: iso(row?.payment_failed_at), has_billing_account: !!(await repo.customerOf(companyId)),
    limits: e.limits,
    invoices: (await repo.invoices(companyId)).map((i) => ({
      id: i.id,
      number: i.number,
      status: i.status,
      amount_paid: i.amount_paid,
      currency: i.currency,
      created: i.created.toISOString(),
      hosted_invoice_url: i.hosted_invoice_url,
      invoice_pdf: i.invoice_pdf,
    })),
    plans: planPrices(config).map((p) => ({ ...p, limits: PLAN_LIMITS[p.id] })),
  };
}

export async function portal(ctx: PaymentsCtx, caller: Caller, body: { tool_id?: string | undefined; return_url?: string | undefined }) {
  const companyId = await companyFor(ctx, caller, body.tool_id, 'body');
  const customer = await ctx.repo.customerOf(companyId);
  if (!customer) throw new AppError('conflict', 'This company has no billing account yet: subscribe first (no_billing_account)');
  return ctx.deps.provider.createPortal({ customerId: customer.customer_id, returnUrl: withinBase(ctx, body.return_url, 'return_url', '/app/billing') });
}

/** Keeps a subscription that was set to end at the period's end (the owner changed their mind before it ended). */
export async function resume(ctx: PaymentsCtx, caller: Caller, body: { tool_id?: string | undefined }) {
  const { repo, deps } = ctx;
  const companyId = await companyFor(ctx, caller, body.tool_id, 'body');
  const row = await repo.subscription(companyId);
  if (!row || !row.provider_subscription_id || !isEntitled(row, ctx.clock())) {
    throw new AppError('conflict', 'There is no running subscription to keep: the plan already ended, so subscribe again.');
  }
  const answer = (r: SubscriptionRecord) => ({ status: r.status, cancel_at_period_end: r.cancel_at_period_end, current_period_end: iso(r.period_end), access_until: iso(r.period_end) });
  if (!row.cancel_at_period_end) return answer(row);
  const snap = await deps.provider.resume(row.provider_subscription_id, `resume-${row.provider_subscription_id}-${new Date(row.updated_at ?? 0).getTime()}`);
  const mails: Mail[] = [];
  await deps.db.transaction((tx) => applySubscription(ctx, tx, companyId, snap, null, mails));
  await sendMails(ctx, mails);
  if (deps.local) await deliverLocalEvents(ctx);
  return answer((await repo.subscription(companyId))!);
}

export async function cancel(ctx: PaymentsCtx, caller: Caller, body: { tool_id?: string | undefined; reason?: string | undefined }) {
  const { repo, deps } = ctx;
  const companyId = await companyFor(ctx, caller, body.tool_id, 'body');
  const row = await repo.subscription(companyId);
  if (row?.source === 'admin' && isEntitled(row, ctx.clock())) throw new AppError('conflict', 'This plan was set by an administrator: ask support to change it (managed_by_admin)');
  if (!row || !row.provider_subscription_id || !isEntitled(row, ctx.clock())) throw new AppError('conflict', 'There is no active subscription to cancel (no_active_subscription)');
  const answer = (r: SubscriptionRecord) => ({ status: r.status, cancel_at_period_end: true, current_period_end: iso(r.period_end), access_until: iso(r.period_end) });
  if (row.cancel_at_period_end) return answer(row);
  // A key per state: cancelling again after keeping the plan must reach the provider, not replay the first answer.
  const snap = await deps.provider.cancelAtPeriodEnd(row.provider_subscription_id, body.reason ?? null, `cancel-${row.provider_subscription_id}-${new Date(row.updated_at ?? 0).getTime()}`);
  const mails: Mail[] = [];
  await deps.db.transaction((tx) => applySubscription(ctx, tx, companyId, snap, null, mails));
  await sendMails(ctx, mails);
  if (deps.local) await deliverLocalEvents(ctx);
  return answer((await repo.subscription(companyId))!);
}
