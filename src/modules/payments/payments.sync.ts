import type { Queryable } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import type { Mail, PaymentsCtx } from './payments.context.js';
import { ENTITLED_STATUSES, isEntitled } from './payments.plans.js';
import type { ProviderEvent, SubscriptionSnapshot } from './payments.provider.js';
import { createPaymentsRepo } from './payments.repo.js';

/**
 * Provider state into our records: a provider event (or the success landing) is first gathered
 * from the provider outside any transaction, then applied in one. Idempotent: applying twice
 * changes nothing the first did not.
 */
const TERMINAL = new Set(['canceled', 'incomplete_expired']);

export type Apply = (tx: Queryable, mails: Mail[]) => Promise<void>;
const nothing: Apply = async () => {};

/**
 * Writes a provider subscription into the subscription record, under the row lock. Never moves a
 * subscription back out of a terminal state; an administrator's plan in force is left alone; another
 * subscription id replaces the current one only when it is entitled or the current one is not.
 */
export async function applySubscription(ctx: PaymentsCtx, tx: Queryable, companyId: string, snap: SubscriptionSnapshot, eventAt: Date | null, mails: Mail[]): Promise<void> {
  const r = createPaymentsRepo(tx);
  const now = ctx.clock();
  const row = await r.subscription(companyId, true);
  // An administrator's decision stands against the subscription it replaced: no event about that one
  // (a late renewal, its `deleted`) changes it, and while a granted plan is in force nothing does. Only a
  // new paid subscription, once the administrator's plan has ended or was set to free, takes over.
  const entitledAtProvider = (ENTITLED_STATUSES as readonly string[]).includes(snap.status);
  if (row?.source === 'admin' && (isEntitled(row, now) || row.provider_subscription_id === snap.id || !entitledAtProvider)) {
    ctx.deps.log.info({ companyId }, 'payments: administrator plan stands, provider update not applied');
    return;
  }
  if (row && row.provider_subscription_id === snap.id && TERMINAL.has(row.status) && !TERMINAL.has(snap.status)) return;
  if (row && row.provider_subscription_id && row.provider_subscription_id !== snap.id && isEntitled(row, now) && !entitledAtProvider) return;
  const after = await r.writeProviderSubscription({
    company_id: companyId, plan: 'pro', status: snap.status, period_end: snap.currentPeriodEnd, provider: ctx.deps.provider.name, provider_subscription_id: snap.id,
    billing_interval: snap.interval, cancel_at_period_end: snap.cancelAtPeriodEnd, cancel_at: snap.cancelAt, trial_end: snap.trialEnd, last_event_at: eventAt,
  });
  const was = isEntitled(row, now);
  const is = isEntitled(after, now);
  const until = after.period_end ? ` (paid until ${after.period_end.toISOString().slice(0, 10)})` : '';
  const { base } = ctx;
  if (!was && is) mails.push({ companyId, render: (name) => ({ subject: `${name}: the pro plan is active`, text: `Thank you: ${name} is now on the pro plan${until}.\nYour receipts are under Billing: ${base}/app/billing` }) });
  if (was && !is) mails.push({ companyId, render: (name) => ({ subject: `${name}: back on the free plan`, text: `The pro plan of ${name} has ended. You can subscribe again any time at ${base}/app/billing` }) });
}

/**
 * The same idempotent sync for the success landing and the webhook: state comes from the provider,
 * fetched before our transaction opens (the local provider reads the same store), then applied in it.
 */
export async function gatherCheckout(ctx: PaymentsCtx, checkoutId: string, eventAt: Date | null): Promise<{ companyId: string | undefined; apply: Apply }> {
  const { provider } = ctx.deps;
  const ours = await ctx.repo.checkout(checkoutId);
  const snap = await provider.getCheckout(checkoutId);
  if (!ours || !snap) return { companyId: undefined, apply: nothing };
  if (snap.status !== 'complete' || !snap.paid) return { companyId: ours.company_id, apply: nothing };
  const sub = snap.subscriptionId ? await provider.getSubscription(snap.subscriptionId) : null;
  return {
    companyId: ours.company_id,
    apply: async (tx, mails) => {
      const r = createPaymentsRepo(tx);
      if (snap.customerId) await r.linkCustomer(ours.company_id, provider.name, snap.customerId, null);
      const fresh = await r.checkout(checkoutId);
      if (fresh && fresh.status !== 'complete') await r.markCheckout(checkoutId, 'complete');
      if (ours.promo_id) await r.redeem(ours.promo_id, ours.company_id, checkoutId);
      if (sub) await applySubscription(ctx, tx, ours.company_id, sub, eventAt, mails);
    },
  };
}

/** What one handled provider event changes, gathered from the provider. */
export async function gatherEvent(ctx: PaymentsCtx, e: ProviderEvent): Promise<Apply> {
  if (e.type === 'checkout.session.completed') {
    const g = await gatherCheckout(ctx, e.object.id, e.created);
    if (!g.companyId) throw new Error('checkout of an unknown company');
    return g.apply;
  }
  if (e.type.startsWith('customer.subscription.')) return gatherSubscription(ctx, e);
  return gatherInvoice(ctx, e);
}

async function gatherSubscription(ctx: PaymentsCtx, e: ProviderEvent): Promise<Apply> {
  const sub = await ctx.deps.provider.getSubscription(e.object.id);
  if (!sub) return nothing;
  const companyId = sub.toolId ?? (await ctx.repo.companyOfCustomer(sub.customerId)) ?? e.object.toolId ?? undefined;
  if (!companyId) throw new Error('subscription of an unknown company');
  return (tx, mails) => applySubscription(ctx, tx, companyId, sub, e.created, mails);
}

/** invoice.*: the receipt is stored, its subscription applied, and a failed payment marked (and mailed once). */
async function gatherInvoice(ctx: PaymentsCtx, e: ProviderEvent): Promise<Apply> {
  const { provider } = ctx.deps;
  const inv = await provider.getInvoice(e.object.id);
  if (!inv) return nothing;
  const companyId = await ctx.repo.companyOfCustomer(inv.customerId);
  if (!companyId) throw new Error('invoice of an unknown customer');
  const sub = inv.subscriptionId ? await provider.getSubscription(inv.subscriptionId) : null;
  return async (tx, mails) => {
    const r = createPaymentsRepo(tx);
    await r.upsertInvoice({
      id: inv.id,
      company_id: companyId,
      number: inv.number,
      status: inv.status,
      amount_paid: inv.amountPaid,
      amount_due: inv.amountDue,
      currency: inv.currency,
      created: inv.created,
      hosted_invoice_url: inv.hostedInvoiceUrl,
      invoice_pdf: inv.invoicePdf,
    });
    if (sub) await applySubscription(ctx, tx, companyId, sub, e.created, mails);
    const row = await r.subscription(companyId, true);
    if (e.type === 'invoice.payment_failed') {
      if (row && !row.payment_failed_at) {
        await r.setPaymentFailed(companyId, ctx.clock());
        const link = inv.hostedInvoiceUrl ?? `${ctx.base}/app/billing`;
        mails.push({ companyId, render: (name) => ({ subject: `${name}: the payment for the pro plan failed`, text: `The last payment for ${name} did not go through. The plan stays active while the card is retried.\nUpdate the card or pay the invoice here: ${link}` }) });
      }
    } else if (row?.payment_failed_at) {
      await r.setPaymentFailed(companyId, null);
    }
  };
}

export function parseEvent(raw: Buffer): ProviderEvent {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new AppError('bad_request', 'The event is not JSON');
  }
  const o = ((body.data as Record<string, unknown> | undefined)?.object ?? {}) as Record<string, unknown>;
  const idOf = (v: unknown) => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : null);
  if (typeof body.id !== 'string' || typeof body.type !== 'string' || typeof body.created !== 'number' || typeof o.id !== 'string') throw new AppError('bad_request', 'Not an event: id, type, created and data.object.id are required');
  const meta = o.metadata as Record<string, unknown> | undefined;
  const toolId = typeof meta?.tool_id === 'string' ? meta.tool_id : typeof o.client_reference_id === 'string' ? o.client_reference_id : null;
  return {
    id: body.id.slice(0, 255), type: body.type.slice(0, 100), created: new Date(body.created * 1000), payload: body,
    object: { id: o.id, object: String(o.object ?? ''), customer: idOf(o.customer), subscription: idOf(o.subscription), toolId: toolId && /^[0-9a-f-]{36}$/i.test(toolId) ? toolId : null },
  };
}
