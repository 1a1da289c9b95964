import type { PaymentsProviderName } from '../../config.js';
import type { BillingInterval, SubscriptionStatus } from './payments.types.js';

/**
 * What the payments service needs from a payment provider, in provider-neutral types: nothing of the
 * Stripe SDK leaves payments.stripe.ts. Three implementations: Stripe, the local (offline, test) provider and `off` (nothing can be bought).
 */
export interface SubscriptionSnapshot {
  id: string;
  customerId: string;
  status: SubscriptionStatus;
  interval: BillingInterval | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  cancelAt: Date | null;
  trialEnd: Date | null;
  /** metadata.tool_id written at checkout. */
  toolId: string | null;
  created: Date;
}

export interface CheckoutSnapshot {
  id: string;
  status: 'open' | 'complete' | 'expired';
  /** payment_status paid or no_payment_required. */
  paid: boolean;
  customerId: string | null;
  subscriptionId: string | null;
  toolId: string | null;
}

export interface InvoiceSnapshot {
  id: string;
  customerId: string;
  subscriptionId: string | null;
  number: string | null;
  status: string;
  amountPaid: number;
  amountDue: number;
  currency: string;
  created: Date;
  hostedInvoiceUrl: string | null;
  invoicePdf: string | null;
}

/** A verified notification: only ids are taken from it, the state is fetched from the provider. */
export interface ProviderEvent {
  id: string;
  type: string;
  created: Date;
  object: {
    id: string;
    object: string;
    customer: string | null;
    subscription: string | null;
    toolId: string | null;
  };
  payload: unknown;
}

export interface PromoCreateInput {
  promoId: number;
  code: string;
  discountType: 'percent' | 'amount';
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
  duration: 'once' | 'repeating' | 'forever';
  durationInMonths: number | null;
  maxRedemptions: number | null;
  expiresAt: Date | null;
  firstTimeOnly: boolean;
}

export interface PaymentProvider {
  readonly name: PaymentsProviderName;
  ensureCustomer(t: { toolId: string; email: string | null; name: string; existing: string | null }): Promise<{ customerId: string }>;
  createCheckout(i: {
    customerId: string;
    toolId: string;
    plan: 'pro';
    interval: BillingInterval;
    promotionCodeId: string | null;
    promoId: number | null;
    successUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<{ id: string; url: string; expiresAt: Date }>;
  getCheckout(id: string): Promise<CheckoutSnapshot | null>;
  createPortal(i: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  listSubscriptions(customerId: string): Promise<SubscriptionSnapshot[]>;
  getSubscription(id: string): Promise<SubscriptionSnapshot | null>;
  cancelAtPeriodEnd(id: string, reason: string | null, idempotencyKey: string): Promise<SubscriptionSnapshot>;
  /** Undoes a cancellation at period end while the period runs (the subscription renews again). */
  resume(id: string, idempotencyKey: string): Promise<SubscriptionSnapshot>;
  getInvoice(id: string): Promise<InvoiceSnapshot | null>;
  createPromo(p: PromoCreateInput): Promise<{ couponId: string | null; promotionCodeId: string | null }>;
  setPromoActive(promotionCodeId: string, active: boolean): Promise<void>;
}
