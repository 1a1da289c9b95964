import type Stripe from 'stripe';
import type { Config } from '../../config.js';
import { AppError } from '../../platform/errors.js';
import { SUBSCRIPTION_STATUSES, type BillingInterval, type SubscriptionStatus } from './payments.types.js';
import type { CheckoutSnapshot, InvoiceSnapshot, PaymentProvider, SubscriptionSnapshot } from './payments.provider.js';

/**
 * Stripe behind the provider interface. Only ids and stable fields are read (period end on the
 * subscription item, invoice → subscription through `parent.subscription_details`), so a webhook
 * endpoint on another API version does not change what we store. Errors become AppErrors here.
 */
type Obj = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as Obj).id === 'string' ? ((v as Obj).id as string) : null);
const date = (v: unknown): Date | null => (typeof v === 'number' ? new Date(v * 1000) : null);
const metaTool = (o: Obj): string | null => {
  const m = o.metadata as Obj | undefined;
  return typeof m?.tool_id === 'string' ? m.tool_id : null;
};

/** Provider errors as answers a caller can act on: never a 500. */
export function mapStripeError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; statusCode?: number; code?: string; message?: string; headers?: Record<string, string> };
  switch (e.type) {
    case 'StripeCardError':
      return new AppError('payment_required', `The payment provider declined the card${e.code ? ` (${e.code})` : ''}: use another payment method.`);
    case 'StripeRateLimitError':
      return new AppError('unavailable', 'The payment provider is busy: try again in a few seconds.', { headers: { 'retry-after': '5' } });
    case 'StripeConnectionError':
      return new AppError('unavailable', 'The payment provider cannot be reached right now: try again in a minute.', { headers: { 'retry-after': '30' } });
    case 'StripeInvalidRequestError':
      if (e.statusCode === 404) return new AppError('not_found', 'The payment provider does not know this object');
      return new AppError('bad_gateway', 'The payment provider refused the request; the operator has been told.');
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return new AppError('bad_gateway', 'The payment provider refused our credentials; the operator has been told.');
    default:
      return new AppError('bad_gateway', 'The payment provider answered with an error: try again later.');
  }
}

function toStatus(s: unknown): SubscriptionStatus {
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(s as string) ? (s as SubscriptionStatus) : 'incomplete';
}

export function subscriptionSnapshot(sub: Obj): SubscriptionSnapshot {
  const item = ((sub.items as Obj | undefined)?.data as Obj[] | undefined)?.[0];
  const recurring = (item?.price as Obj | undefined)?.recurring as Obj | undefined;
  const interval = recurring?.interval === 'year' ? 'year' : recurring?.interval === 'month' ? 'month' : null;
  return {
    id: String(sub.id),
    customerId: str(sub.customer) ?? '',
    status: toStatus(sub.status),
    interval,
    currentPeriodEnd: date(item?.current_period_end ?? sub.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    cancelAt: date(sub.cancel_at),
    trialEnd: date(sub.trial_end),
    toolId: metaTool(sub),
    created: date(sub.created) ?? new Date(0),
  };
}

export function createStripeProvider(config: Pick<Config, 'payments'>): PaymentProvider {
  const c = config.payments;
  const base = c.stripeApiBase ? new URL(c.stripeApiBase) : undefined;
  // The SDK (several hundred modules) is loaded on the first call, so that an instance that sells nothing never loads it.
  let client: Promise<Stripe> | undefined;
  const sdk = (): Promise<Stripe> => (client ??= import('stripe').then(({ default: StripeClient }) => new StripeClient(c.stripeSecretKey!, {
    maxNetworkRetries: c.stripeMaxRetries,
    timeout: c.stripeTimeoutMs,
    telemetry: false,
    ...(base ? { host: base.hostname, port: base.port || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol === 'https:' ? 'https' : 'http' } : {}),
  })));
  const prices = new Map<BillingInterval, string>();
  async function priceId(interval: BillingInterval): Promise<string> {
    const cached = prices.get(interval);
    if (cached) return cached;
    const key = c.priceLookupKeys[interval];
    const list = await (await sdk()).prices.list({ lookup_keys: [key], active: true, limit: 1 });
    const id = list.data[0]?.id;
    if (!id) throw new AppError('unavailable', `No active Stripe price has the lookup key ${key}: the operator must create it.`);
    prices.set(interval, id);
    return id;
  }
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw mapStripeError(err);
    }
  };
  const orNull = async <T>(fn: () => Promise<T>): Promise<T | null> => {
    try {
      return await call(fn);
    } catch (err) {
      if (err instanceof AppError && err.code === 'not_found') return null;
      throw err;
    }
  };

  return {
    name: 'stripe',
    ensureCustomer: (t) => call(async () => {
      if (t.existing) return { customerId: t.existing };
      const customer = await (await sdk()).customers.create(
        { name: t.name, ...(t.email ? { email: t.email } : {}), metadata: { tool_id: t.toolId } },
        { idempotencyKey: `customer-${t.toolId}` },
      );
      return { customerId: customer.id };
    }),
    createCheckout: (i) => call(async () => {
      const price = await priceId(i.interval);
      const session = await (await sdk()).checkout.sessions.create({
        mode: 'subscription',
        customer: i.customerId,
        client_reference_id: i.toolId,
        line_items: [{ price, quantity: 1 }],
        metadata: { tool_id: i.toolId, plan: i.plan, interval: i.interval, promo_id: i.promoId ? String(i.promoId) : '' },
        subscription_data: { metadata: { tool_id: i.toolId, plan: i.plan } },
        success_url: i.successUrl,
        cancel_url: i.cancelUrl,
        // Codes are applied only after our own validation: never allow_promotion_codes.
        ...(i.promotionCodeId ? { discounts: [{ promotion_code: i.promotionCodeId }] } : {}),
      }, { idempotencyKey: i.idempotencyKey });
      if (!session.url) throw new AppError('bad_gateway', 'The payment provider returned a checkout without a URL');
      return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
    }),
    getCheckout: (id) => orNull(async (): Promise<CheckoutSnapshot> => {
      const s = (await (await sdk()).checkout.sessions.retrieve(id)) as unknown as Obj;
      return {
        id: String(s.id),
        status: s.status === 'complete' ? 'complete' : s.status === 'expired' ? 'expired' : 'open',
        paid: s.payment_status === 'paid' || s.payment_status === 'no_payment_required',
        customerId: str(s.customer),
        subscriptionId: str(s.subscription),
        toolId: metaTool(s) ?? (typeof s.client_reference_id === 'string' ? s.client_reference_id : null),
      };
    }),
    createPortal: (i) => call(async () => {
      const s = await (await sdk()).billingPortal.sessions.create({ customer: i.customerId, return_url: i.returnUrl });
      return { url: s.url };
    }),
    listSubscriptions: (customerId) => call(async () => {
      const list = await (await sdk()).subscriptions.list({ customer: customerId, status: 'all', limit: 20 });
      return list.data.map((s) => subscriptionSnapshot(s as unknown as Obj));
    }),
    getSubscription: (id) => orNull(async () => subscriptionSnapshot((await (await sdk()).subscriptions.retrieve(id)) as unknown as Obj)),
    cancelAtPeriodEnd: (id, reason, idempotencyKey) => call(async () => {
      const s = await (await sdk()).subscriptions.update(id, { cancel_at_period_end: true, ...(reason ? { cancellation_details: { comment: reason } } : {}) }, { idempotencyKey });
      return subscriptionSnapshot(s as unknown as Obj);
    }),
    resume: (id, idempotencyKey) => call(async () => {
      const s = await (await sdk()).subscriptions.update(id, { cancel_at_period_end: false }, { idempotencyKey });
      return subscriptionSnapshot(s as unknown as Obj);
    }),
    getInvoice: (id) => orNull(async (): Promise<InvoiceSnapshot> => {
      const inv = (await (await sdk()).invoices.retrieve(id)) as unknown as Obj;
      const parent = inv.parent as Obj | undefined;
      const details = parent?.subscription_details as Obj | undefined;
      return {
        id: String(inv.id),
        customerId: str(inv.customer) ?? '',
        subscriptionId: str(details?.subscription) ?? str(inv.subscription),
        number: typeof inv.number === 'string' ? inv.number : null,
        status: String(inv.status ?? 'open'),
        amountPaid: Number(inv.amount_paid ?? 0),
        amountDue: Number(inv.amount_due ?? 0),
        currency: String(inv.currency ?? 'eur'),
        created: date(inv.created) ?? new Date(),
        hostedInvoiceUrl: typeof inv.hosted_invoice_url === 'string' ? inv.hosted_invoice_url : null,
        invoicePdf: typeof inv.invoice_pdf === 'string' ? inv.invoice_pdf : null,
      };
    }),
    createPromo: (p) => call(async () => {
      const coupon = await (await sdk()).coupons.create({
        ...(p.discountType === 'percent' ? { percent_off: p.percentOff! } : { amount_off: p.amountOff!, currency: p.currency! }),
        duration: p.duration,
        ...(p.duration === 'repeating' && p.durationInMonths ? { duration_in_months: p.durationInMonths } : {}),
        metadata: { promo_id: String(p.promoId) },
      }, { idempotencyKey: `coupon-${p.promoId}` });
      const code = await (await sdk()).promotionCodes.create({
        promotion: { type: 'coupon', coupon: coupon.id },
        code: p.code,
        ...(p.maxRedemptions ? { max_redemptions: p.maxRedemptions } : {}),
        ...(p.expiresAt ? { expires_at: Math.floor(p.expiresAt.getTime() / 1000) } : {}),
        ...(p.firstTimeOnly ? { restrictions: { first_time_transaction: true } } : {}),
        metadata: { promo_id: String(p.promoId) },
      }, { idempotencyKey: `promotion-code-${p.promoId}` });
      return { couponId: coupon.id, promotionCodeId: code.id };
    }),
    setPromoActive: (id, active) => call(async () => {
      await (await sdk()).promotionCodes.update(id, { active });
    }),
  };
}
