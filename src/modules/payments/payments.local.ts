import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../platform/db.js';
import { createLocalBillingRepo } from './payments.local.repo.js';
import type { BillingInterval, SubscriptionStatus } from './payments.types.js';
import type { CheckoutSnapshot, InvoiceSnapshot, PaymentProvider, SubscriptionSnapshot } from './payments.provider.js';

/**
 * The offline provider (no STRIPE_SECRET_KEY): keeps what Stripe would keep in local_billing_objects.
 * A checkout is "paid" when the owner lands on the success page; periods end through `endPeriods(now)`
 * (the daily job; tests pass their own clock). Every change yields Stripe-shaped events that the
 * service signs and feeds to the same webhook path as Stripe's.
 */
interface LocalCheckout { id: string; customerId: string; toolId: string; interval: BillingInterval; amount: number; currency: string; status: 'open' | 'complete' | 'expired'; subscriptionId: string | null }
interface LocalSubscription {
  id: string;
  customerId: string;
  toolId: string;
  interval: BillingInterval;
  status: SubscriptionStatus;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  created: string;
  amount: number;
  currency: string;
}
type LocalInvoice = Omit<InvoiceSnapshot, 'created'> & { created: string };

export interface LocalEvent { id: string; object: 'event'; type: string; created: number; data: { object: Record<string, unknown> } }

export interface LocalProvider extends PaymentProvider {
  readonly name: 'local';
  /** The test payment: completes an open session (subscription + paid invoice). */
  complete(sessionId: string, now: Date): Promise<void>;
  /** Ends or renews every period that is over at `now`. */
  endPeriods(now: Date): Promise<void>;
  /** Events produced since the last call (oldest first). */
  drainEvents(): LocalEvent[];
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function addInterval(d: Date, interval: BillingInterval): Date {
  const out = new Date(d);
  if (interval === 'year') out.setUTCFullYear(out.getUTCFullYear() + 1);
  else out.setUTCMonth(out.getUTCMonth() + 1);
  return out;
}

function snapshot(s: LocalSubscription): SubscriptionSnapshot {
  return {
    id: s.id, customerId: s.customerId, status: s.status, interval: s.interval, currentPeriodEnd: new Date(s.currentPeriodEnd),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd, cancelAt: s.cancelAtPeriodEnd ? new Date(s.currentPeriodEnd) : null, trialEnd: null,
    toolId: s.toolId, created: new Date(s.created),
  };
}

export function createLocalProvider(deps: { db: Queryable; baseUrl: string; clock: () => Date }): LocalProvider {
  const { db, baseUrl, clock } = deps;
  let events: LocalEvent[] = [];
  const emit = (type: string, object: Record<string, unknown>, now: Date) => {
    events.push({ id: id('evt_local'), object: 'event', type, created: seconds(now), data: { object } });
  };
  const repo = createLocalBillingRepo(db);
  const { load, save } = repo;
  const subEvent = (s: LocalSubscription) => ({ id: s.id, object: 'subscription', customer: s.customerId, status: s.status, metadata: { tool_id: s.toolId } });
  async function invoice(s: LocalSubscription, now: Date): Promise<void> {
    const inv: LocalInvoice = {
      id: id('in_local'), customerId: s.customerId, subscriptionId: s.id, number: `LOCAL-${Date.now().toString(36).toUpperCase()}`, status: 'paid',
      amountPaid: s.amount, amountDue: s.amount, currency: s.currency, created: now.toISOString(), hostedInvoiceUrl: `${baseUrl}/app/billing?invoice=local`, invoicePdf: null,
    };
    await save('invoice', { ...inv });
    emit('invoice.paid', { id: inv.id, object: 'invoice', customer: s.customerId, parent: { subscription_details: { subscription: s.id } } }, now);
  }

  return {
    name: 'local',
    async ensureCustomer(t) {
      if (t.existing) return { customerId: t.existing };
      const customerId = id('cus_local');
      await save('customer', { id: customerId, customerId });
      return { customerId };
    },
    async createCheckout(i) {
      const c: LocalCheckout = { id: id('cs_local'), customerId: i.customerId, toolId: i.toolId, interval: i.interval, amount: 0, currency: 'eur', status: 'open', subscriptionId: null };
      await save('checkout', { ...c });
      // Landing on the success page is the test payment (no card page offline).
      return { id: c.id, url: `${baseUrl}/api/payments/success?session_id=${c.id}`, expiresAt: new Date(clock().getTime() + 24 * 3600_000) };
    },
    async getCheckout(sessionId): Promise<CheckoutSnapshot | null> {
      const c = await load<LocalCheckout>(sessionId, 'checkout');
      if (!c) return null;
      return { id: c.id, status: c.status, paid: c.status === 'complete', customerId: c.customerId, subscriptionId: c.subscriptionId, toolId: c.toolId };
    },
    async complete(sessionId, now) {
      const c = await load<LocalCheckout>(sessionId, 'checkout');
      if (!c || c.status !== 'open') return;
      const amounts = await repo.checkoutAmount(sessionId);
      const s: LocalSubscription = {
        id: id('sub_local'), customerId: c.customerId, toolId: c.toolId, interval: c.interval, status: 'active', cancelAtPeriodEnd: false,
        currentPeriodEnd: addInterval(now, c.interval).toISOString(), created: now.toISOString(), amount: amounts?.amount_discounted ?? 0, currency: amounts?.currency ?? 'eur',
      };
      await save('subscription', { ...s });
      const done: LocalCheckout = { ...c, status: 'complete', subscriptionId: s.id };
      await save('checkout', { ...done });
      emit('checkout.session.completed', { id: c.id, object: 'checkout.session', customer: c.customerId, subscription: s.id, client_reference_id: c.toolId, metadata: { tool_id: c.toolId } }, now);
      emit('customer.subscription.created', subEvent(s), now);
      await invoice(s, now);
    },
    async createPortal() {
      return { url: `${baseUrl}/app/billing?status=portal_local` };
    },
    async listSubscriptions(customerId) {
      return (await repo.subscriptionsOf<LocalSubscription>(customerId)).map(snapshot);
    },
    async getSubscription(subId) {
      const s = await load<LocalSubscription>(subId, 'subscription');
      return s ? snapshot(s) : null;
    },
    async cancelAtPeriodEnd(subId) {
      const s = await load<LocalSubscription>(subId, 'subscription');
      if (!s) throw new Error('unknown local subscription');
      if (!s.cancelAtPeriodEnd) {
        s.cancelAtPeriodEnd = true;
        await save('subscription', { ...s });
        emit('customer.subscription.updated', subEvent(s), clock());
      }
      return snapshot(s);
    },
    async resume(subId) {
      const s = await load<LocalSubscription>(subId, 'subscription');
      if (!s) throw new Error('unknown local subscription');
      if (s.cancelAtPeriodEnd) {
        s.cancelAtPeriodEnd = false;
        await save('subscription', { ...s });
        emit('customer.subscription.updated', subEvent(s), clock());
      }
      return snapshot(s);
    },
    async endPeriods(now) {
      for (const s of await repo.runningSubscriptions<LocalSubscription>()) {
        if (new Date(s.currentPeriodEnd).getTime() > now.getTime()) continue;
        if (s.cancelAtPeriodEnd) {
          s.status = 'canceled';
          await save('subscription', { ...s });
          emit('customer.subscription.deleted', subEvent(s), now);
        } else {
          s.currentPeriodEnd = addInterval(new Date(s.currentPeriodEnd), s.interval).toISOString();
          await save('subscription', { ...s });
          emit('customer.subscription.updated', subEvent(s), now);
          await invoice(s, now);
        }
      }
    },
    async getInvoice(invoiceId) {
      const inv = await load<LocalInvoice>(invoiceId, 'invoice');
      return inv ? { ...inv, created: new Date(inv.created) } : null;
    },
    async createPromo() {
      return { couponId: null, promotionCodeId: null };
    },
    async setPromoActive() {},
    drainEvents() {
      const out = events;
      events = [];
      return out;
    },
  };
}
