import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, invalid } from '../../platform/errors.js';
import type { Jobs } from '../../platform/jobs.js';
import type { MailService } from '../../platform/mail.js';
import type { LocalProvider } from './payments.local.js';
import { PAYMENTS_OFF_DETAIL } from './payments.off.js';
import { ENTITLED_STATUSES, entitlementOf, isEntitled, PLAN_LIMITS, planPrices, type BillingInterval, type SubscriptionRecord } from './payments.plans.js';
import { createPromoService, discounted } from './payments.promo.js';
import type { PaymentProvider, ProviderEvent, SubscriptionSnapshot } from './payments.provider.js';
import { createPaymentsRepo, type PaymentsRepo } from './payments.repo.js';
import type { CheckoutRequest } from './payments.schemas.js';
import { signPayload, verifySignature } from './payments.signature.js';

export const PAYMENTS_EVENT_JOB = 'payments.event';
export const PAYMENTS_DAILY_JOB = 'payments.daily';
const HANDLED = new Set(['checkout.session.completed', 'customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted', 'invoice.paid', 'invoice.payment_succeeded', 'invoice.payment_failed']);
const TERMINAL = new Set(['canceled', 'incomplete_expired']);

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
type Mail = { companyId: string; render: (name: string) => { subject: string; text: string } };

export function createPaymentsService(deps: PaymentsDeps) {
  const { db, config, provider, local, log } = deps;
  const clock = deps.clock ?? (() => new Date());
  const repo = createPaymentsRepo(db);
  const promos = createPromoService({ repo, provider, clock });
  const base = config.baseUrl;
  // The local provider's events are signed with a per-process secret and verified like Stripe's.
  const localSecret = `whsec_local_${randomBytes(24).toString('hex')}`;
  const secrets = [...config.payments.stripeWebhookSecrets, ...(local ? [localSecret] : [])];
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

  function priceOf(interval: BillingInterval) {
    return { amount: config.payments.proAmounts[interval], currency: config.payments.currency, interval };
  }

  function withinBase(value: string | undefined, field: string, fallback: string): string {
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

  async function companyFor(caller: Caller, toolId: string | undefined, where: 'query' | 'body'): Promise<string> {
    if (!caller) throw new AppError('unauthorized', 'Not authenticated');
    if (caller.kind === 'admin') {
      if (!toolId) throw invalid([where, 'tool_id'], 'Administrators name the company (tool_id)');
      return toolId;
    }
    if (toolId) {
      if (!(await deps.owns(caller.userId, toolId))) throw new AppError('not_found', 'Company not found among yours');
      return toolId;
    }
    const ids = await deps.companyIdsOf(caller.userId);
    if (ids.length === 0) throw new AppError('not_found', 'You own no company yet: verify one first');
    if (ids.length > 1) throw invalid([where, 'tool_id'], 'You own several companies: name one with tool_id');
    return ids[0]!;
  }

  /** Who opened a checkout, as stored on it. */
  function openerOf(caller: Caller): string | undefined {
    if (!caller) return undefined;
    return caller.kind === 'admin' ? `admin:${caller.email.toLowerCase()}` : `user:${caller.userId}`;
  }

  async function sendMails(mails: Mail[]) {
    for (const m of mails) {
      const { subject, text } = m.render(await deps.companyName(m.companyId).catch(() => 'Your company'));
      for (const to of await deps.ownerEmailsOf(m.companyId).catch(() => [])) {
        await deps.mail.send({ to, subject, text }).catch((err: unknown) => log.error({ err }, 'billing mail failed'));
      }
    }
  }

  /**
   * Writes a provider subscription into the subscription record, under the row lock. Never moves a
   * subscription back out of a terminal state; an administrator's plan in force is left alone; another
   * subscription id replaces the current one only when it is entitled or the current one is not.
   */
  async function applySubscription(tx: Queryable, companyId: string, snap: SubscriptionSnapshot, eventAt: Date | null, mails: Mail[]): Promise<void> {
    const r = createPaymentsRepo(tx);
    const now = clock();
    const row = await r.subscription(companyId, true);
    // An administrator's decision stands against the subscription it replaced: no event about that one
    // (a late renewal, its `deleted`) changes it, and while a granted plan is in force nothing does. Only a
    // new paid subscription, once the administrator's plan has ended or was set to free, takes over.
    const entitledAtProvider = (ENTITLED_STATUSES as readonly string[]).includes(snap.status);
    if (row?.source === 'admin' && (isEntitled(row, now) || row.provider_subscription_id === snap.id || !entitledAtProvider)) {
      log.info({ companyId }, 'payments: administrator plan stands, provider update not applied');
      return;
    }
    if (row && row.provider_subscription_id === snap.id && TERMINAL.has(row.status) && !TERMINAL.has(snap.status)) return;
    if (row && row.provider_subscription_id && row.provider_subscription_id !== snap.id && isEntitled(row, now) && !entitledAtProvider) return;
    const after = await r.writeProviderSubscription({
      company_id: companyId, plan: 'pro', status: snap.status, period_end: snap.currentPeriodEnd, provider: provider.name, provider_subscription_id: snap.id,
      billing_interval: snap.interval, cancel_at_period_end: snap.cancelAtPeriodEnd, cancel_at: snap.cancelAt, trial_end: snap.trialEnd, last_event_at: eventAt,
    });
    const was = isEntitled(row, now);
    const is = isEntitled(after, now);
    const until = after.period_end ? ` (paid until ${after.period_end.toISOString().slice(0, 10)})` : '';
    if (!was && is) mails.push({ companyId, render: (name) => ({ subject: `${name}: the pro plan is active`, text: `Thank you: ${name} is now on the pro plan${until}.\nYour receipts are under Billing: ${base}/app/billing` }) });
    if (was && !is) mails.push({ companyId, render: (name) => ({ subject: `${name}: back on the free plan`, text: `The pro plan of ${name} has ended. You can subscribe again any time at ${base}/app/billing` }) });
  }

  type Apply = (tx: Queryable, mails: Mail[]) => Promise<void>;

  /**
   * The same idempotent sync for the success landing and the webhook: state comes from the provider,
   * fetched before our transaction opens (the local provider reads the same store), then applied in it.
   */
  async function gatherCheckout(checkoutId: string, eventAt: Date | null): Promise<{ companyId: string | undefined; apply: Apply }> {
    const ours = await repo.checkout(checkoutId);
    const snap = await provider.getCheckout(checkoutId);
    if (!ours || !snap) return { companyId: undefined, apply: async () => {} };
    if (snap.status !== 'complete' || !snap.paid) return { companyId: ours.company_id, apply: async () => {} };
    const sub = snap.subscriptionId ? await provider.getSubscription(snap.subscriptionId) : null;
    return {
      companyId: ours.company_id,
      apply: async (tx, mails) => {
        const r = createPaymentsRepo(tx);
        if (snap.customerId) await r.linkCustomer(ours.company_id, provider.name, snap.customerId, null);
        const fresh = await r.checkout(checkoutId);
        if (fresh && fresh.status !== 'complete') await r.markCheckout(checkoutId, 'complete');
        if (ours.promo_id) await r.redeem(ours.promo_id, ours.company_id, checkoutId);
        if (sub) await applySubscription(tx, ours.company_id, sub, eventAt, mails);
      },
    };
  }

  async function gather(e: ProviderEvent): Promise<Apply> {
    if (e.type === 'checkout.session.completed') {
      const g = await gatherCheckout(e.object.id, e.created);
      if (!g.companyId) throw new Error('checkout of an unknown company');
      return g.apply;
    }
    if (e.type.startsWith('customer.subscription.')) {
      const sub = await provider.getSubscription(e.object.id);
      if (!sub) return async () => {};
      const companyId = sub.toolId ?? (await repo.companyOfCustomer(sub.customerId)) ?? e.object.toolId ?? undefined;
      if (!companyId) throw new Error('subscription of an unknown company');
      return (tx, mails) => applySubscription(tx, companyId, sub, e.created, mails);
    }
    // invoice.*
    const inv = await provider.getInvoice(e.object.id);
    if (!inv) return async () => {};
    const companyId = await repo.companyOfCustomer(inv.customerId);
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
      if (sub) await applySubscription(tx, companyId, sub, e.created, mails);
      const row = await r.subscription(companyId, true);
      if (e.type === 'invoice.payment_failed') {
        if (row && !row.payment_failed_at) {
          await r.setPaymentFailed(companyId, clock());
          const link = inv.hostedInvoiceUrl ?? `${base}/app/billing`;
          mails.push({ companyId, render: (name) => ({ subject: `${name}: the payment for the pro plan failed`, text: `The last payment for ${name} did not go through. The plan stays active while the card is retried.\nUpdate the card or pay the invoice here: ${link}` }) });
        }
      } else if (row?.payment_failed_at) {
        await r.setPaymentFailed(companyId, null);
      }
    };
  }

  function parseEvent(raw: Buffer): ProviderEvent {
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

  const service = {
    providerName: provider.name,
    priceOf,
    promos,
    entitlementsOf: async (companyId: string) => entitlementOf(await repo.subscription(companyId), clock()),

    async me(caller: Caller, toolId: string | undefined) {
      const companyId = await companyFor(caller, toolId, 'query');
      const row: SubscriptionRecord | undefined = await repo.subscription(companyId);
      const e = entitlementOf(row, clock());
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
    },

    /** Only the signed-in owner of the company (or an administrator) opens a checkout; it is reused only for that caller. */
    async createCheckout(caller: Caller, body: CheckoutRequest, idempotencyKey: string | undefined) {
      const companyId = await companyFor(caller, body.tool_id, 'body');
      if (provider.name === 'off') throw new AppError('unavailable', PAYMENTS_OFF_DETAIL);
      const openedBy = openerOf(caller)!;
      const name = await deps.companyName(companyId);
      const interval: BillingInterval = body.interval ?? 'month';
      const successUrl = withinBase(body.success_url, 'success_url', '/app/billing?status=success');
      const cancelUrl = withinBase(body.cancel_url, 'cancel_url', '/app/billing?status=canceled');
      if (idempotencyKey !== undefined && !/^[\x21-\x7e]{1,200}$/.test(idempotencyKey)) throw invalid(['header', 'idempotency-key'], 'Idempotency-Key should be 1 to 200 visible ASCII characters');
      const now = clock();
      const shape = (c: Awaited<ReturnType<PaymentsRepo['insertCheckout']>>, reused: boolean, code: string | null) => ({
        checkout_id: c.id, url: c.url, expires_at: c.expires_at.toISOString(), provider: c.provider, plan: c.plan, interval: c.billing_interval,
        price: { amount: c.amount, amount_discounted: c.amount_discounted, currency: c.currency }, promo: code ? { code } : null, reused,
      });
      if (idempotencyKey) {
        const prior = await repo.checkoutByKey(companyId, openedBy, idempotencyKey);
        if (prior) return shape(prior, true, prior.promo_id ? (await repo.promo(prior.promo_id))?.code ?? null : null);
      }
      if (isEntitled(await repo.subscription(companyId), now)) throw new AppError('conflict', 'This company already has an active paid plan: manage it in the billing portal (already_subscribed)');
      let promo;
      if (body.promo_code) {
        promo = await repo.promoByCode(body.promo_code.trim().toUpperCase());
        const reason = await promos.check(promo, body.plan, interval, companyId);
        if (reason) throw invalid(['body', 'promo_code'], `This promo code cannot be used: ${reason}`, body.promo_code);
        if (provider.name === 'stripe' && !promo!.provider_promotion_code_id) throw invalid(['body', 'promo_code'], 'This promo code is not set up with the payment provider: not_applicable', body.promo_code);
      }
      const open = await repo.openCheckout(companyId, openedBy, body.plan, interval, promo?.id ?? null, now);
      if (open) return shape(open, true, promo?.code ?? null);
      const price = priceOf(interval);
      const existing = await repo.customerOf(companyId);
      const owners = await deps.ownerEmailsOf(companyId);
      const { customerId } = await provider.ensureCustomer({ toolId: companyId, email: caller?.kind === 'user' ? caller.email : owners[0] ?? null, name, existing: existing?.customer_id ?? null });
      if (!existing) await repo.linkCustomer(companyId, provider.name, customerId, caller?.kind === 'user' ? caller.email : null);
      const session = await provider.createCheckout({
        customerId, toolId: companyId, plan: 'pro', interval, promotionCodeId: promo?.provider_promotion_code_id ?? null, promoId: promo?.id ?? null,
        // Literal {CHECKOUT_SESSION_ID}: Stripe fills it in (a URL object would percent-encode the braces).
        successUrl: `${base}/api/payments/success?session_id={CHECKOUT_SESSION_ID}`, cancelUrl,
        idempotencyKey: `checkout-${companyId}-${idempotencyKey ?? randomUUID()}`,
      });
      const row = await repo.insertCheckout({
        id: session.id, company_id: companyId, provider: provider.name, plan: 'pro', billing_interval: interval, promo_id: promo?.id ?? null, url: session.url,
        success_url: successUrl, cancel_url: cancelUrl, idempotency_key: idempotencyKey ?? null, amount: price.amount, amount_discounted: discounted(promo, price.amount, price.currency),
        currency: price.currency, expires_at: session.expiresAt, opened_by: openedBy,
      });
      return shape(row, false, promo?.code ?? null);
    },

    /**
     * The browser's return: the session is fetched server-side; nothing in the query but its id is used.
     * With Stripe the payment happened on Stripe's page and this only reads its state (the browser comes
     * back from another site, so no session cookie is sent). With the local test provider landing here IS
     * the payment: only the signed-in caller who opened the checkout completes it; anyone else finds nothing.
     */
    async success(sessionId: string, caller: Caller): Promise<{ found: false } | { found: true; status: string; tool_id: string; plan: string; redirect: string }> {
      const ours = await repo.checkout(sessionId);
      if (!ours) return { found: false };
      if (ours.provider === 'local') {
        if (!local || !ours.opened_by || ours.opened_by !== openerOf(caller)) return { found: false };
        await local.complete(sessionId, clock());
        await service.deliverLocalEvents();
      }
      const mails: Mail[] = [];
      const g = await gatherCheckout(sessionId, null);
      await db.transaction((tx) => g.apply(tx, mails));
      await sendMails(mails);
      const after = await repo.checkout(sessionId);
      const e = await service.entitlementsOf(ours.company_id);
      return { found: true, status: after!.status, tool_id: ours.company_id, plan: e.effective_plan, redirect: after!.status === 'complete' ? ours.success_url : ours.cancel_url };
    },

    async portal(caller: Caller, body: { tool_id?: string | undefined; return_url?: string | undefined }) {
      const companyId = await companyFor(caller, body.tool_id, 'body');
      const customer = await repo.customerOf(companyId);
      if (!customer) throw new AppError('conflict', 'This company has no billing account yet: subscribe first (no_billing_account)');
      return provider.createPortal({ customerId: customer.customer_id, returnUrl: withinBase(body.return_url, 'return_url', '/app/billing') });
    },

    async cancel(caller: Caller, body: { tool_id?: string | undefined; reason?: string | undefined }) {
      const companyId = await companyFor(caller, body.tool_id, 'body');
      const row = await repo.subscription(companyId);
      if (row?.source === 'admin' && isEntitled(row, clock())) throw new AppError('conflict', 'This plan was set by an administrator: ask support to change it (managed_by_admin)');
      if (!row || !row.provider_subscription_id || !isEntitled(row, clock())) throw new AppError('conflict', 'There is no active subscription to cancel (no_active_subscription)');
      const answer = (r: SubscriptionRecord) => ({ status: r.status, cancel_at_period_end: true, current_period_end: iso(r.period_end), access_until: iso(r.period_end) });
      if (row.cancel_at_period_end) return answer(row);
      const snap = await provider.cancelAtPeriodEnd(row.provider_subscription_id, body.reason ?? null, `cancel-${row.provider_subscription_id}`);
      const mails: Mail[] = [];
      await db.transaction((tx) => applySubscription(tx, companyId, snap, null, mails));
      await sendMails(mails);
      if (local) await service.deliverLocalEvents();
      return answer((await repo.subscription(companyId))!);
    },

    /** POST /webhook: signature over the raw bytes first; then one row per event id; the work is a job. */
    async receiveWebhook(raw: Buffer, signature: string | undefined): Promise<{ received: true; duplicate?: true; ignored?: true }> {
      const check = verifySignature(raw, signature, secrets, clock().getTime());
      if (!check.ok) throw new AppError('bad_request', `Invalid signature (${check.reason}): check STRIPE_WEBHOOK_SECRET`);
      const e = parseEvent(raw);
      const known = HANDLED.has(e.type);
      const fresh = await repo.insertEvent({ event_id: e.id, provider: e.id.startsWith('evt_local') ? 'local' : provider.name, type: e.type, created: e.created, status: known ? 'pending' : 'ignored', payload: e.payload });
      if (!fresh) return { received: true, duplicate: true };
      if (!known) return { received: true, ignored: true };
      if (deps.jobs.isRunning()) await deps.jobs.send(PAYMENTS_EVENT_JOB, { event_id: e.id }, { singletonKey: e.id }).catch((err: unknown) => log.error({ err }, 'payments: enqueue failed (the daily pass retries)'));
      return { received: true };
    },

    /** The job: the dedup row and the effects commit together; a failure is recorded and retried. */
    async processEvent(eventId: string): Promise<void> {
      const mails: Mail[] = [];
      try {
        const stored = await repo.event(eventId);
        if (!stored || stored.status === 'done' || stored.status === 'ignored') return;
        const apply = await gather(parseEvent(Buffer.from(JSON.stringify(stored.payload))));
        await db.transaction(async (tx) => {
          const r = createPaymentsRepo(tx);
          const row = await r.lockEvent(eventId);
          if (!row || row.status === 'done' || row.status === 'ignored') return;
          await apply(tx, mails);
          await r.finishEvent(eventId, 'done', null);
        });
      } catch (err) {
        mails.length = 0;
        await repo.finishEvent(eventId, 'failed', err instanceof Error ? err.message.slice(0, 300) : 'failed');
        throw err;
      }
      await sendMails(mails);
    },

    /** Processes every pending or failed event in order (tests, the daily pass, a worker catching up). */
    async processPending(): Promise<number> {
      let n = 0;
      for (const { event_id } of await repo.pendingEvents()) {
        await service.processEvent(event_id).then(() => n++, (err: unknown) => log.error({ err, eventId: event_id }, 'payments: event failed'));
      }
      return n;
    },

    /**
     * At start: a job for every event stored but not processed (a stop between the acknowledgement
     * and the enqueue, or a failed attempt), so an acknowledged event waits seconds, not the daily pass.
     */
    async queuePending(): Promise<number> {
      if (!deps.jobs.isRunning()) return 0;
      const pending = await repo.pendingEvents();
      for (const { event_id } of pending) await deps.jobs.send(PAYMENTS_EVENT_JOB, { event_id }, { singletonKey: event_id });
      return pending.length;
    },

    /** The local provider's events, signed and sent through the webhook path like Stripe's. */
    async deliverLocalEvents(): Promise<void> {
      if (!local) return;
      for (const ev of local.drainEvents()) {
        const raw = Buffer.from(JSON.stringify(ev));
        await service.receiveWebhook(raw, signPayload(raw, localSecret, Math.floor(clock().getTime() / 1000)));
      }
    },

    /** The daily job (now injectable): local periods end, notices before a cancelled plan ends, missed events. */
    async daily(now: Date = clock()): Promise<void> {
      if (local) {
        await local.endPeriods(now);
        await service.deliverLocalEvents();
      }
      await service.processPending();
      const mails: Mail[] = [];
      for (const row of await repo.endingSoon(now, new Date(now.getTime() + 3 * 86_400_000))) {
        if (await repo.markEndingNotice(row.company_id, row.period_end!)) {
          const day = row.period_end!.toISOString().slice(0, 10);
          mails.push({ companyId: row.company_id, render: (name) => ({ subject: `${name}: the pro plan ends on ${day}`, text: `The pro plan of ${name} was cancelled and ends on ${day}; the company then returns to the free plan. Changed your mind? Open ${base}/app/billing` }) });
        }
      }
      await sendMails(mails);
    },
  };
  return service;
}

export type PaymentsServiceImpl = ReturnType<typeof createPaymentsService>;
