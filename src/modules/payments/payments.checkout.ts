import { randomUUID } from 'node:crypto';
import { AppError, invalid } from '../../platform/errors.js';
import { companyFor, openerOf, priceOf, sendMails, withinBase, type Caller, type Mail, type PaymentsCtx } from './payments.context.js';
import { deliverLocalEvents } from './payments.events.js';
import { PAYMENTS_OFF_DETAIL } from './payments.off.js';
import { entitlementOf, isEntitled } from './payments.plans.js';
import { discounted, type PromoService } from './payments.promo.js';
import type { PaymentsRepo, PromoRow } from './payments.repo.js';
import type { CheckoutRequest } from './payments.schemas.js';
import { gatherCheckout } from './payments.sync.js';
import type { BillingInterval } from './payments.types.js';

/** Opening a checkout for the pro plan, and the browser's return from it. */
type CheckoutRow = Awaited<ReturnType<PaymentsRepo['insertCheckout']>>;

function checkoutView(c: CheckoutRow, reused: boolean, code: string | null) {
  return {
    checkout_id: c.id, url: c.url, expires_at: c.expires_at.toISOString(), provider: c.provider, plan: c.plan, interval: c.billing_interval,
    price: { amount: c.amount, amount_discounted: c.amount_discounted, currency: c.currency }, promo: code ? { code } : null, reused,
  };
}

/** The promo code of the request, checked for this plan, interval and company (undefined without one). */
async function promoFor(ctx: PaymentsCtx, promos: PromoService, body: CheckoutRequest, interval: BillingInterval, companyId: string): Promise<PromoRow | undefined> {
  if (!body.promo_code) return undefined;
  const promo = await ctx.repo.promoByCode(body.promo_code.trim().toUpperCase());
  const reason = await promos.check(promo, body.plan, interval, companyId);
  if (reason) throw invalid(['body', 'promo_code'], `This promo code cannot be used: ${reason}`, body.promo_code);
  if (ctx.deps.provider.name === 'stripe' && !promo!.provider_promotion_code_id) throw invalid(['body', 'promo_code'], 'This promo code is not set up with the payment provider: not_applicable', body.promo_code);
  return promo;
}

/** Only the signed-in owner of the company (or an administrator) opens a checkout; it is reused only for that caller. */
export async function createCheckout(ctx: PaymentsCtx, promos: PromoService, caller: Caller, body: CheckoutRequest, idempotencyKey: string | undefined) {
  const { repo, deps } = ctx;
  const companyId = await companyFor(ctx, caller, body.tool_id, 'body');
  if (deps.provider.name === 'off') throw new AppError('unavailable', PAYMENTS_OFF_DETAIL);
  const openedBy = openerOf(caller)!;
  const name = await deps.companyName(companyId);
  const interval: BillingInterval = body.interval ?? 'month';
  const successUrl = withinBase(ctx, body.success_url, 'success_url', '/app/billing?status=success');
  const cancelUrl = withinBase(ctx, body.cancel_url, 'cancel_url', '/app/billing?status=canceled');
  if (idempotencyKey !== undefined && !/^[\x21-\x7e]{1,200}$/.test(idempotencyKey)) throw invalid(['header', 'idempotency-key'], 'Idempotency-Key should be 1 to 200 visible ASCII characters');
  const now = ctx.clock();
  if (idempotencyKey) {
    const prior = await repo.checkoutByKey(companyId, openedBy, idempotencyKey);
    if (prior) return checkoutView(prior, true, prior.promo_id ? (await repo.promo(prior.promo_id))?.code ?? null : null);
  }
  if (isEntitled(await repo.subscription(companyId), now)) throw new AppError('conflict', 'This company already has an active paid plan: manage it in the billing portal (already_subscribed)');
  const promo = await promoFor(ctx, promos, body, interval, companyId);
  const open = await repo.openCheckout(companyId, openedBy, body.plan, interval, promo?.id ?? null, now);
  if (open) return checkoutView(open, true, promo?.code ?? null);
  const row = await openAtProvider(ctx, { caller, companyId, name, interval, promo, openedBy, successUrl, cancelUrl, idempotencyKey });
  return checkoutView(row, false, promo?.code ?? null);
}

interface NewCheckout {
  caller: Caller;
  companyId: string;
  name: string;
  interval: BillingInterval;
  promo: PromoRow | undefined;
  openedBy: string;
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string | undefined;
}

/** A new checkout session at the provider (its customer made first when the company has none), stored as ours. */
async function openAtProvider(ctx: PaymentsCtx, c: NewCheckout): Promise<CheckoutRow> {
  const { repo, deps } = ctx;
  const { provider } = deps;
  const { caller, companyId, interval, promo } = c;
  const price = priceOf(ctx, interval);
  const existing = await repo.customerOf(companyId);
  const owners = await deps.ownerEmailsOf(companyId);
  const { customerId } = await provider.ensureCustomer({ toolId: companyId, email: caller?.kind === 'user' ? caller.email : owners[0] ?? null, name: c.name, existing: existing?.customer_id ?? null });
  if (!existing) await repo.linkCustomer(companyId, provider.name, customerId, caller?.kind === 'user' ? caller.email : null);
  const session = await provider.createCheckout({
    customerId, toolId: companyId, plan: 'pro', interval, promotionCodeId: promo?.provider_promotion_code_id ?? null, promoId: promo?.id ?? null,
    // Literal {CHECKOUT_SESSION_ID}: Stripe fills it in (a URL object would percent-encode the braces).
    successUrl: `${ctx.base}/api/payments/success?session_id={CHECKOUT_SESSION_ID}`, cancelUrl: c.cancelUrl,
    idempotencyKey: `checkout-${companyId}-${c.idempotencyKey ?? randomUUID()}`,
  });
  return repo.insertCheckout({
    id: session.id, company_id: companyId, provider: provider.name, plan: 'pro', billing_interval: interval, promo_id: promo?.id ?? null, url: session.url,
    success_url: c.successUrl, cancel_url: c.cancelUrl, idempotency_key: c.idempotencyKey ?? null,
    amount: price.amount, amount_discounted: discounted(promo, price.amount, price.currency), currency: price.currency, expires_at: session.expiresAt, opened_by: c.openedBy,
  });
}

/**
 * The browser's return: the session is fetched server-side; nothing in the query but its id is used.
 * With Stripe the payment happened on Stripe's page and this only reads its state (the browser comes
 * back from another site, so no session cookie is sent). With the local test provider landing here IS
 * the payment: only the signed-in caller who opened the checkout completes it; anyone else finds nothing.
 */
type CheckoutReturn = { found: false } | { found: true; status: string; tool_id: string; plan: string; redirect: string };

export async function checkoutReturn(ctx: PaymentsCtx, sessionId: string, caller: Caller): Promise<CheckoutReturn> {
  const { repo } = ctx;
  const { local } = ctx.deps;
  const ours = await repo.checkout(sessionId);
  if (!ours) return { found: false };
  if (ours.provider === 'local') {
    if (!local || !ours.opened_by || ours.opened_by !== openerOf(caller)) return { found: false };
    await local.complete(sessionId, ctx.clock());
    await deliverLocalEvents(ctx);
  }
  const mails: Mail[] = [];
  const g = await gatherCheckout(ctx, sessionId, null);
  await ctx.deps.db.transaction((tx) => g.apply(tx, mails));
  await sendMails(ctx, mails);
  const after = await repo.checkout(sessionId);
  const e = entitlementOf(await repo.subscription(ours.company_id), ctx.clock());
  return { found: true, status: after!.status, tool_id: ours.company_id, plan: e.effective_plan, redirect: after!.status === 'complete' ? ours.success_url : ours.cancel_url };
}
