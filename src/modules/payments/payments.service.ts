import { randomBytes } from 'node:crypto';
import { billingOf, cancel, portal, resume } from './payments.account.js';
import { checkoutReturn, createCheckout } from './payments.checkout.js';
import { priceOf, type Caller, type PaymentsCtx, type PaymentsDeps } from './payments.context.js';
import { adminSubscriptions } from './payments.admin.js';
import { daily, deliverLocalEvents, processEvent, processPending, queuePending, receiveWebhook } from './payments.events.js';
import { entitlementOf } from './payments.plans.js';
import { createPromoService } from './payments.promo.js';
import { createPaymentsRepo } from './payments.repo.js';
import type { CheckoutRequest } from './payments.schemas.js';
import type { BillingInterval } from './payments.types.js';

export { PAYMENTS_DAILY_JOB, PAYMENTS_EVENT_JOB } from './payments.events.js';
export type { Caller, PaymentsDeps } from './payments.context.js';

/**
 * The payments service: plans bought through a provider (Stripe, the local test provider or off).
 * The verbs live by group: checkout (payments.checkout.ts), the owner's billing (payments.account.ts),
 * provider events (payments.events.ts) and applying provider state (payments.sync.ts).
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const clock = deps.clock ?? (() => new Date());
  const repo = createPaymentsRepo(deps.db);
  const ctx: PaymentsCtx = { deps, repo, clock, base: deps.config.baseUrl, localSecret: `whsec_local_${randomBytes(24).toString('hex')}` };
  const promos = createPromoService({ repo, provider: deps.provider, clock });
  return {
    providerName: deps.provider.name,
    priceOf: (interval: BillingInterval) => priceOf(ctx, interval),
    promos,
    entitlementsOf: async (companyId: string) => entitlementOf(await repo.subscription(companyId), clock()),
    me: (caller: Caller, toolId: string | undefined) => billingOf(ctx, caller, toolId),
    adminSubscriptions: (f: { status?: string | undefined; q?: string | undefined; limit?: number | undefined; offset?: number | undefined }) => adminSubscriptions(ctx, f),
    createCheckout: (caller: Caller, body: CheckoutRequest, idempotencyKey: string | undefined) => createCheckout(ctx, promos, caller, body, idempotencyKey),
    success: (sessionId: string, caller: Caller) => checkoutReturn(ctx, sessionId, caller),
    portal: (caller: Caller, body: { tool_id?: string | undefined; return_url?: string | undefined }) => portal(ctx, caller, body),
    cancel: (caller: Caller, body: { tool_id?: string | undefined; reason?: string | undefined }) => cancel(ctx, caller, body),
    resume: (caller: Caller, body: { tool_id?: string | undefined }) => resume(ctx, caller, body),
    receiveWebhook: (raw: Buffer, signature: string | undefined) => receiveWebhook(ctx, raw, signature),
    processEvent: (eventId: string) => processEvent(ctx, eventId),
    processPending: () => processPending(ctx),
    queuePending: () => queuePending(ctx),
    deliverLocalEvents: () => deliverLocalEvents(ctx),
    daily: (now: Date = clock()) => daily(ctx, now),
  };
}

export type PaymentsServiceImpl = ReturnType<typeof createPaymentsService>;
