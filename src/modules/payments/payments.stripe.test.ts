import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Stripe from 'stripe';
import { bearer, signInAdmin, signInOwner, useTestApp } from '../../../test/helpers/index.js';
import { startFakeStripe, type FakeStripe } from '../../../test/fakes/stripe.js';

/** The real Stripe SDK against the fake Stripe server: the requests we make, error mapping, the webhook matrix. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bracket-decoded form bodies of the fake
type Form = Record<string, any>;
const SECRET_A = 'whsec_testsecretAAAAAAAA';
const SECRET_B = 'whsec_testsecretBBBBBBBB';

describe('payments with Stripe (real SDK, fake server)', () => {
  let fake: FakeStripe;
  let a: { token: string; companyId?: string };
  let b: { token: string; companyId?: string };
  let admin: string;
  let seq = 0;

  before(async () => {
    fake = await startFakeStripe();
  });
  const t = useTestApp({}, () => ({ STRIPE_SECRET_KEY: 'sk_test_fakefakefake', STRIPE_WEBHOOK_SECRET: `${SECRET_A}, ${SECRET_B}`, STRIPE_API_BASE: `http://127.0.0.1:${fake.port}`, STRIPE_MAX_NETWORK_RETRIES: '0' }));
  before(async () => {
    a = await signInOwner(t, 'owner@pay-a.example.com', 'https://pay-a.example.com');
    b = await signInOwner(t, 'owner@pay-b.example.com', 'https://pay-b.example.com');
    admin = await signInAdmin(t);
  });
  after(async () => {
    await fake.close();
  });

  const payments = () => t.app.services.payments;
  const checkout = (token: string | null, body: object, key?: string) => t.app.inject({
    method: 'POST', url: '/api/payments/create-checkout', payload: body,
    headers: { ...(token ? bearer(token) : {}), ...(key ? { 'idempotency-key': key } : {}) },
  });
  function event(type: string, object: object, created = Math.floor(Date.now() / 1000)) {
    return JSON.stringify({ id: `evt_test_${++seq}`, object: 'event', type, created, data: { object } });
  }
  const post = (payload: string, signature?: string) => t.app.inject({
    method: 'POST', url: '/api/payments/webhook', payload, headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
  });
  const sign = (payload: string, secret = SECRET_A, timestamp?: number) => Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
  /** A monthly pro checkout paid at the fake and its completion event processed: the owner is on pro. */
  const subscribe = async (owner: { token: string; companyId?: string }) => {
    const opened = await checkout(owner.token, { tool_id: owner.companyId, plan: 'pro', interval: 'month' });
    assert.equal(opened.statusCode, 201, opened.body);
    const open = opened.json();
    const { subscriptionId } = fake.complete(open.checkout_id, 'active');
    const completed = event('checkout.session.completed', { id: open.checkout_id, object: 'checkout.session', client_reference_id: owner.companyId });
    await post(completed, sign(completed));
    await payments().processPending();
    return { subscriptionId };
  };
  const me = async (token: string) => (await t.app.inject({ method: 'GET', url: '/api/payments/me', headers: bearer(token) })).json();
  const eventCount = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM payment_events'))[0]!.n);

  it('opens a subscription checkout: one customer, literal {CHECKOUT_SESSION_ID}, client_reference_id, Idempotency-Key forwarded, reuse', async () => {
    const res = await checkout(a.token, { tool_id: a.companyId, plan: 'pro', interval: 'month' }, 'key-1');
    assert.equal(res.statusCode, 201, res.body);
    const created = fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST');
    assert.equal(created.length, 1);
    const body = created[0]!.body as Form;
    assert.equal(body.mode, 'subscription');
    assert.equal(body.client_reference_id, a.companyId);
    assert.equal(body.line_items[0].price, 'price_agentpages_pro_month');
    assert.match(String(body.success_url), /\/api\/payments\/success\?session_id=\{CHECKOUT_SESSION_ID\}$/);
    assert.equal(body.allow_promotion_codes, undefined);
    assert.match(created[0]!.idempotencyKey ?? '', /key-1$/);
    // Same key: the same checkout, no new provider call. Same choice without key: the open one is reused.
    const again = await checkout(a.token, { tool_id: a.companyId, plan: 'pro', interval: 'month' }, 'key-1');
    assert.equal(again.json().checkout_id, res.json().checkout_id);
    assert.equal((await checkout(a.token, { tool_id: a.companyId, plan: 'pro', interval: 'month' })).json().reused, true);
    assert.equal((await checkout(a.token, { tool_id: a.companyId, plan: 'pro', interval: 'year' })).statusCode, 201);
    assert.equal(fake.requests.filter((r) => r.path === '/v1/customers').length, 1, 'one customer per company');
    assert.equal(fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST').length, 2);
  });

  it('refuses return URLs outside BASE_URL and another owner\'s company', async () => {
    const off = await checkout(a.token, { tool_id: a.companyId, plan: 'pro', success_url: 'https://evil.example/x' });
    assert.equal(off.statusCode, 422);
    assert.equal((await checkout(b.token, { tool_id: a.companyId, plan: 'pro' })).statusCode, 404, 'another owner\'s company is not found among yours');
    assert.equal((await checkout(null, { tool_id: a.companyId, plan: 'pro' })).statusCode, 401, 'a checkout needs the owner (issue 35)');
  });

  it('maps provider failures to readable 402/502/503, never 500', async () => {
    for (const [mode, status] of [['card_declined', 402], ['rate_limit', 503], ['server_error', 502], ['socket_close', 503]] as const) {
      fake.failNext(mode, mode === 'socket_close' ? 3 : 1);
      const res = await checkout(b.token, { tool_id: b.companyId, plan: 'pro' });
      assert.equal(res.statusCode, status, `${mode}: ${res.body}`);
      assert.equal(typeof res.json().detail, 'string');
    }
    fake.failNext('server_error', 0);
  });

  it('webhook signatures: valid, wrong secret, tampered, stale, missing header, rotation, HEAD, unknown type, replay', async () => {
    const before = await eventCount();
    const unknown = event('customer.tax_id.created', { id: 'txi_1', object: 'tax_id' });
    assert.equal((await post(unknown, sign(unknown, 'whsec_wrongwrongwrong'))).statusCode, 400);
    assert.equal((await post(unknown.replace('txi_1', 'txi_2'), sign(unknown))).statusCode, 400);
    assert.equal((await post(unknown, sign(unknown, SECRET_A, Math.floor(Date.now() / 1000) - 301))).statusCode, 400);
    assert.equal((await post(unknown)).statusCode, 400);
    assert.equal(await eventCount(), before, 'nothing written on a bad signature');
    // Rotation: a header with two v1 values (old and new secret) passes; so does the second configured secret.
    const ts = Math.floor(Date.now() / 1000);
    const v1b = sign(unknown, SECRET_B, ts).split(',v1=')[1];
    const both = `${sign(unknown, 'whsec_oldoldoldold', ts)},v1=${v1b}`;
    const ok = await post(unknown, both);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json(), { received: true, ignored: true });
    assert.deepEqual((await post(unknown, sign(unknown))).json(), { received: true, duplicate: true });
    const head = await t.app.inject({ method: 'HEAD', url: '/api/payments/webhook' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
  });

  it('syncs from the provider: checkout completed, replay counts once, out-of-order events never move back, cancel at period end', async () => {
    const open = (await checkout(a.token, { tool_id: a.companyId, plan: 'pro', interval: 'month' })).json();
    const { subscriptionId, invoiceId } = fake.complete(open.checkout_id, 'active');
    // updated(active) arrives before created(incomplete): both fetch the current state.
    const updated = event('customer.subscription.updated', { id: subscriptionId, object: 'subscription', status: 'active' });
    const createdEv = event('customer.subscription.created', { id: subscriptionId, object: 'subscription', status: 'incomplete' }, Math.floor(Date.now() / 1000) - 60);
    const completed = event('checkout.session.completed', { id: open.checkout_id, object: 'checkout.session', client_reference_id: a.companyId });
    const paid = event('invoice.paid', { id: invoiceId, object: 'invoice' });
    for (const e of [completed, updated, createdEv, paid]) assert.equal((await post(e, sign(e))).statusCode, 200);
    assert.deepEqual((await post(completed, sign(completed))).json(), { received: true, duplicate: true });
    await payments().processPending();
    const state = await me(a.token);
    assert.equal(state.effective_plan, 'pro');
    assert.equal(state.status, 'active');
    assert.equal(state.invoices.length, 1);
    assert.equal((await checkout(a.token, { tool_id: a.companyId, plan: 'pro' })).statusCode, 409);

    const cancel = await t.app.inject({ method: 'POST', url: '/api/payments/cancel-subscription', headers: bearer(a.token), payload: {} });
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.equal(cancel.json().cancel_at_period_end, true);
    const again = await t.app.inject({ method: 'POST', url: '/api/payments/cancel-subscription', headers: bearer(a.token), payload: {} });
    assert.deepEqual(again.json(), cancel.json());
    const subCalls = fake.requests.filter((r) => r.path === `/v1/subscriptions/${subscriptionId}` && r.method !== 'GET');
    assert.equal(subCalls.length, 1);
    assert.equal(subCalls[0]!.method, 'POST');
    assert.equal(subCalls[0]!.body.cancel_at_period_end, 'true');
    // Changing one's mind before the period ends keeps the plan; cancelling again reaches the provider again.
    const kept = await t.app.inject({ method: 'POST', url: '/api/payments/resume-subscription', headers: bearer(a.token), payload: {} });
    assert.equal(kept.statusCode, 200, kept.body);
    assert.equal(kept.json().cancel_at_period_end, false);
    const recancel = await t.app.inject({ method: 'POST', url: '/api/payments/cancel-subscription', headers: bearer(a.token), payload: {} });
    assert.equal(recancel.json().cancel_at_period_end, true);
    const calls = fake.requests.filter((r) => r.path === `/v1/subscriptions/${subscriptionId}` && r.method !== 'GET').map((r) => r.body.cancel_at_period_end);
    assert.deepEqual(calls, ['true', 'false', 'true']);

    // deleted, then a stale updated: stays canceled.
    fake.setSubscription(subscriptionId, { status: 'canceled' });
    const deleted = event('customer.subscription.deleted', { id: subscriptionId, object: 'subscription' });
    await post(deleted, sign(deleted));
    await payments().processPending();
    fake.setSubscription(subscriptionId, { status: 'active' });
    const stale = event('customer.subscription.updated', { id: subscriptionId, object: 'subscription' }, Math.floor(Date.now() / 1000) - 3600);
    await post(stale, sign(stale));
    await payments().processPending();
    assert.equal((await me(a.token)).status, 'canceled');
    assert.equal((await me(a.token)).effective_plan, 'free');
  });

  it('a failed payment keeps the plan (past_due grace) and mails the owner once, with the invoice link; paid clears it', async () => {
    const d = await signInOwner(t, 'owner@pay-d.example.com', 'https://pay-d.example.com');
    const { subscriptionId } = await subscribe(d);
    const customer = fake.subscriptions.get(subscriptionId)!.customer as string;
    const failedMails = async () => (await t.app.services.mail.recent({ to: 'owner@pay-d.example.com' })).filter((m) => m.subject.includes('payment for the pro plan failed'));

    // The card is declined: Stripe moves the subscription to past_due and sends invoice.payment_failed (twice, as it may).
    fake.setSubscription(subscriptionId, { status: 'past_due' });
    const failed = { id: 'in_failed_1', object: 'invoice', customer, status: 'open', number: 'F-0002', amount_paid: 0, amount_due: 1900, currency: 'eur', created: Math.floor(Date.now() / 1000), hosted_invoice_url: 'https://invoice.stripe.test/pay-F-0002', invoice_pdf: null, parent: { subscription_details: { subscription: subscriptionId } } };
    fake.invoices.set(failed.id, failed);
    for (let i = 0; i < 2; i++) {
      const e = event('invoice.payment_failed', { id: failed.id, object: 'invoice' });
      assert.equal((await post(e, sign(e))).statusCode, 200);
    }
    await payments().processPending();
    const state = await me(d.token);
    assert.deepEqual([state.status, state.effective_plan, state.entitled], ['past_due', 'pro', true], 'grace while the card is retried');
    assert.ok(state.payment_failed_at);
    const mails = await failedMails();
    assert.equal(mails.length, 1, 'one mail for one failure, whatever the number of events');
    assert.match(mails[0]!.text_body, /https:\/\/invoice\.stripe\.test\/pay-F-0002/);

    // Paid on retry: the failure is cleared; a later failure is a new change and mails again.
    fake.setSubscription(subscriptionId, { status: 'active' });
    fake.invoices.set(failed.id, { ...failed, status: 'paid', amount_paid: 1900 });
    const paid = event('invoice.paid', { id: failed.id, object: 'invoice' });
    await post(paid, sign(paid));
    await payments().processPending();
    const healed = await me(d.token);
    assert.deepEqual([healed.status, healed.payment_failed_at], ['active', null]);
    fake.setSubscription(subscriptionId, { status: 'past_due' });
    const again = event('invoice.payment_failed', { id: failed.id, object: 'invoice' });
    await post(again, sign(again));
    await payments().processPending();
    assert.equal((await failedMails()).length, 2);
  });

  it('an administrator\'s plan is not overwritten by an unrelated webhook, and is audited', async () => {
    assert.equal((await checkout(b.token, { tool_id: b.companyId, plan: 'pro' })).statusCode, 201);
    const set = await t.app.inject({ method: 'POST', url: `/api/tools/admin/companies/${b.companyId}/subscription`, headers: bearer(admin), payload: { plan: 'pro', period_months: 1 } });
    assert.equal(set.statusCode, 200, set.body);
    const open = await checkout(b.token, { tool_id: b.companyId, plan: 'pro' });
    assert.equal(open.statusCode, 409, 'already entitled through the administrator');
    // A subscription of b's customer that the admin plan does not know, ending: no effect.
    const customer = (await t.db.query<{ customer_id: string }>('SELECT customer_id FROM billing_customers WHERE company_id = $1', [b.companyId]))[0]!.customer_id;
    const sessionId = [...fake.sessions.values()].find((s) => s.customer === customer)!.id as string;
    const { subscriptionId } = fake.complete(sessionId, 'incomplete_expired');
    const e = event('customer.subscription.updated', { id: subscriptionId, object: 'subscription' });
    await post(e, sign(e));
    await payments().processPending();
    const row = (await t.db.query<{ source: string; plan: string; status: string }>('SELECT source, plan, status FROM company_subscriptions WHERE company_id = $1', [b.companyId]))[0]!;
    assert.deepEqual(row, { source: 'admin', plan: 'pro', status: 'active' });
    const audit = await t.db.query('SELECT 1 FROM admin_audit_log WHERE action = $1 AND target_id = $2', ['companies.subscription', b.companyId]);
    assert.equal(audit.length, 1);
  });

  it('an administrator\'s plan outlives the end of the company\'s own earlier subscription, and clears its cancel flag', async () => {
    const d = await signInOwner(t, 'owner@pay-e.example.com', 'https://pay-e.example.com');
    const { subscriptionId } = await subscribe(d);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/payments/cancel-subscription', headers: bearer(d.token), payload: {} })).statusCode, 200);
    assert.equal((await me(d.token)).cancel_at_period_end, true);
    const set = await t.app.inject({ method: 'POST', url: `/api/tools/admin/companies/${d.companyId}/subscription`, headers: bearer(admin), payload: { plan: 'pro', period_months: 12 } });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal((await me(d.token)).cancel_at_period_end, false, 'the granted plan does not end with the old subscription');
    // The old subscription ends at the provider: the granted plan stays.
    fake.setSubscription(subscriptionId, { status: 'canceled' });
    const deleted = event('customer.subscription.deleted', { id: subscriptionId, object: 'subscription' });
    await post(deleted, sign(deleted));
    await payments().processPending();
    const row = (await t.db.query<{ source: string; plan: string; status: string }>('SELECT source, plan, status FROM company_subscriptions WHERE company_id = $1', [d.companyId]))[0]!;
    assert.deepEqual(row, { source: 'admin', plan: 'pro', status: 'active' });
    assert.equal((await me(d.token)).effective_plan, 'pro');
    // The administrator then sets free: a late event about the old subscription does not bring pro back.
    const free = await t.app.inject({ method: 'POST', url: `/api/tools/admin/companies/${d.companyId}/subscription`, headers: bearer(admin), payload: { plan: 'free' } });
    assert.equal(free.statusCode, 200, free.body);
    fake.setSubscription(subscriptionId, { status: 'active' });
    const late = event('customer.subscription.updated', { id: subscriptionId, object: 'subscription' });
    await post(late, sign(late));
    await payments().processPending();
    assert.equal((await me(d.token)).effective_plan, 'free');
  });

  it('promo codes: created at the provider, applied only through discounts, redeemed once across replays, then exhausted', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/payments/admin/promo-codes', headers: bearer(admin), payload: { code: 'launch50', discount_type: 'percent', percent_off: 50, duration: 'once', max_redemptions: 1 } });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json().code, 'LAUNCH50');
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/payments/admin/promo-codes', headers: bearer(admin), payload: { code: 'Launch50', discount_type: 'percent', percent_off: 10, duration: 'once' } })).statusCode, 409);
    const pc = fake.requests.find((r) => r.path === '/v1/promotion_codes')!.body as Form;
    assert.equal(pc.promotion.type, 'coupon');
    const c = await signInOwner(t, 'owner@pay-c.example.com', 'https://pay-c.example.com');
    const res = await checkout(c.token, { tool_id: c.companyId, plan: 'pro', promo_code: 'launch50' });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().price.amount_discounted, 950);
    const last = fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST').at(-1)!.body as Form;
    assert.match(last.discounts[0].promotion_code, /^promo_/);
    fake.complete(res.json().checkout_id);
    const e = event('checkout.session.completed', { id: res.json().checkout_id, object: 'checkout.session' });
    await post(e, sign(e));
    await post(e, sign(e));
    await payments().processPending();
    const promo = (await t.db.query<{ times_redeemed: number }>(`SELECT times_redeemed FROM promo_codes WHERE code = 'LAUNCH50'`))[0]!;
    assert.equal(promo.times_redeemed, 1);
    const v = await t.app.inject({ method: 'POST', url: '/api/payments/promo/validate', payload: { code: 'LAUNCH50', plan: 'pro' } });
    assert.deepEqual([v.json().valid, v.json().reason], [false, 'exhausted']);
    const patch = await t.app.inject({ method: 'PATCH', url: `/api/payments/admin/promo-codes/${created.json().id}`, headers: bearer(admin), payload: { percent_off: 20 } });
    assert.equal(patch.statusCode, 422);
    assert.match(patch.body, /create a new/);
  });
});
