import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actors, useTestApp } from '../../../test/helpers/index.js';

/** The local provider end to end (no Stripe key, no network), and who may call what. */
describe('payments with the local provider', () => {
  const t = useTestApp();
  const as = actors(t);

  it('checkout → success page → pro active → portal → cancel → free after the period (clock passed to the daily pass)', async () => {
    const a = await as.owner('owner@local-a.example.com', 'https://local-a.example.com');
    const other = await as.owner('owner@local-b.example.com', 'https://local-b.example.com');
    const me = async () => (await t.app.inject({ method: 'GET', url: '/api/payments/me', headers: a.headers })).json();
    assert.equal((await me()).effective_plan, 'free');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/payments/me' })).statusCode, 401);

    const open = await t.app.inject({ method: 'POST', url: '/api/payments/create-checkout', headers: a.headers, payload: { tool_id: a.companyId, plan: 'pro', interval: 'month' } });
    assert.equal(open.statusCode, 201, open.body);
    assert.equal(open.json().provider, 'local');
    const landing = new URL(open.json().url);
    // A forged query grants nothing: only a session we opened counts.
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/payments/success?session_id=cs_local_forged&plan=pro' })).headers.location, '/app/billing?status=unknown');
    // Landing on the local provider's success page is the payment: nobody but the caller who opened it completes it.
    const path = `${landing.pathname}${landing.search}`;
    assert.equal((await t.app.inject({ method: 'GET', url: path })).headers.location, '/app/billing?status=unknown', 'anonymous');
    assert.equal((await t.app.inject({ method: 'GET', url: path, headers: { ...other.headers, accept: 'application/json' } })).statusCode, 404, 'another owner');
    assert.equal((await me()).effective_plan, 'free', 'nothing completed by them');
    const done = await t.app.inject({ method: 'GET', url: path, headers: a.cookie });
    assert.equal(done.statusCode, 303);
    assert.match(String(done.headers.location), /\/app\/billing\?status=success$/);
    await t.app.services.payments.processPending();
    const active = await me();
    assert.deepEqual([active.effective_plan, active.status, active.entitled, active.source], ['pro', 'active', true, 'local']);
    assert.equal(active.invoices.length, 1);
    assert.equal((await t.app.services.payments.entitlementsOf(a.companyId!)).scheduled_rescans, true);
    const mails = await t.app.services.mail.recent({ to: 'owner@local-a.example.com' });
    assert.equal(mails.filter((m) => /pro plan is active/.test(m.subject)).length, 1, 'one receipt');

    const portal = await t.app.inject({ method: 'POST', url: '/api/payments/billing-portal', headers: a.headers, payload: {} });
    assert.equal(portal.statusCode, 200);
    assert.match(portal.json().url, /portal_local/);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/payments/billing-portal', headers: other.headers, payload: {} })).statusCode, 409);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/payments/cancel-subscription', headers: other.headers, payload: { tool_id: a.companyId } })).statusCode, 404);

    const cancel = await t.app.inject({ method: 'POST', url: '/api/payments/cancel-subscription', headers: a.headers, payload: { reason: 'testing' } });
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.equal(cancel.json().cancel_at_period_end, true);
    // Keeping the plan after all, then ending it again (issue 38).
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/payments/resume-subscription', headers: other.headers, payload: { tool_id: a.companyId } })).statusCode, 404);
    const kept = await t.app.inject({ method: 'POST', url: '/api/payments/resume-subscription', headers: a.headers, payload: {} });
    assert.equal(kept.statusCode, 200, kept.body);
    assert.equal(kept.json().cancel_at_period_end, false);
    assert.equal((await me()).cancel_at_period_end, false);
    const recancel = await t.app.inject({ method: 'POST', url: '/api/payments/cancel-subscription', headers: a.headers, payload: {} });
    assert.equal(recancel.json().cancel_at_period_end, true);
    const end = new Date(cancel.json().access_until);
    await t.app.services.payments.daily(new Date(end.getTime() - 86_400_000));
    assert.equal((await me()).effective_plan, 'pro', 'still pro before the end');
    await t.app.services.payments.daily(new Date(end.getTime() - 86_400_000));
    const notices = (await t.app.services.mail.recent({ to: 'owner@local-a.example.com' })).filter((m) => /ends on/.test(m.subject));
    assert.equal(notices.length, 1, 'one notice before the end');
    await t.app.services.payments.daily(new Date(end.getTime() + 1000));
    const after = await me();
    assert.deepEqual([after.effective_plan, after.status], ['free', 'canceled']);
    const late = await t.app.inject({ method: 'POST', url: '/api/payments/resume-subscription', headers: a.headers, payload: {} });
    assert.equal(late.statusCode, 409);
    assert.match(late.json().detail, /already ended, so subscribe again/);
  });

  it('checkout needs the owner of the company or an administrator; an open checkout is never handed to another caller (issue 35)', async () => {
    const a = await as.owner('owner@local-d.example.com', 'https://local-d.example.com');
    const b = await as.owner('owner@local-e.example.com', 'https://local-e.example.com');
    const admin = await as.admin();
    const open = (headers: Record<string, string>, extra: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/api/payments/create-checkout', headers, payload: { tool_id: a.companyId, plan: 'pro', ...extra } });
    assert.equal((await open({})).statusCode, 401, 'anonymous');
    assert.equal((await open(b.headers)).statusCode, 404, 'another owner');
    const byAdmin = await open(admin.headers, { success_url: '/app/admin?paid=1' });
    assert.equal(byAdmin.statusCode, 201, byAdmin.body);
    const byOwner = await open(a.headers);
    assert.equal(byOwner.statusCode, 201, 'the owner gets a checkout of their own, not the administrator\'s');
    assert.notEqual(byOwner.json().checkout_id, byAdmin.json().checkout_id);
    const again = await open(a.headers);
    assert.deepEqual([again.statusCode, again.json().checkout_id], [200, byOwner.json().checkout_id], 'reused for the same caller');
    // The same Idempotency-Key from two callers names two requests.
    const keyed = (h: Record<string, string>) => open({ ...h, 'idempotency-key': 'same-key-1' });
    const k1 = await keyed(admin.headers);
    const k2 = await keyed(a.headers);
    assert.notEqual(k1.json().checkout_id, k2.json().checkout_id);
    // The administrator's checkout completes for the administrator only.
    const url = new URL(byAdmin.json().url);
    const path = `${url.pathname}${url.search}`;
    assert.equal((await t.app.inject({ method: 'GET', url: path, headers: a.headers })).headers.location, '/app/billing?status=unknown');
    const done = await t.app.inject({ method: 'GET', url: path, headers: admin.headers });
    assert.match(String(done.headers.location), /\/app\/admin\?paid=1$/);
  });

  it('says payments are in test mode (billing state and public config)', async () => {
    const a = await as.owner('owner@local-f.example.com', 'https://local-f.example.com');
    const state = (await t.app.inject({ method: 'GET', url: '/api/payments/me', headers: a.headers })).json();
    assert.deepEqual([state.provider, state.test_mode, state.can_subscribe], ['local', true, true]);
    assert.deepEqual((await t.app.inject({ method: 'GET', url: '/api/public-config' })).json().payments, { provider: 'local', test_mode: true, enabled: true });
  });

  it('authorization: admin routes refuse owners, promo validation needs no credential', async () => {
    const owner = await as.owner('owner@local-c.example.com', 'https://local-c.example.com');
    const admin = await as.admin();
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/payments/admin/promo-codes', headers: owner.headers })).statusCode, 403);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/payments/admin/promo-codes' })).statusCode, 401);
    const created = await t.app.inject({ method: 'POST', url: '/api/payments/admin/promo-codes', headers: admin.headers, payload: { code: 'SPRING', discount_type: 'amount', amount_off: 500, currency: 'eur', duration: 'repeating', duration_in_months: 3 } });
    assert.equal(created.statusCode, 201, created.body);
    const list = await t.app.inject({ method: 'GET', url: '/api/payments/admin/promo-codes?limit=1', headers: admin.headers });
    assert.equal(list.json().items[0].code, 'SPRING');
    const v = await t.app.inject({ method: 'POST', url: '/api/payments/promo/validate', payload: { code: 'spring', plan: 'pro', interval: 'month' } });
    assert.deepEqual([v.json().valid, v.json().price.amount_discounted], [true, 1400]);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/payments/promo/validate', payload: { code: 'NOPE', plan: 'pro' } })).json().reason, 'not_found');
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/api/payments/admin/promo-codes/${created.json().id}`, headers: admin.headers, payload: { active: false } })).json().active, false);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/payments/promo/validate', payload: { code: 'SPRING', plan: 'pro' } })).json().reason, 'inactive');
  });
});

describe('payments switched off (production without a Stripe key)', () => {
  const t = useTestApp({}, { PAYMENTS_PROVIDER: 'off' });
  const as = actors(t);

  it('sells nothing, says so in sentences, and the public config names the provider', async () => {
    const a = await as.owner('owner@off-a.example.com', 'https://off-a.example.com');
    const res = await t.app.inject({ method: 'POST', url: '/api/payments/create-checkout', headers: a.headers, payload: { tool_id: a.companyId, plan: 'pro' } });
    assert.equal(res.statusCode, 503);
    assert.match(res.json().detail, /^Paid plans cannot be bought on this server: payments are switched off/);
    const state = (await t.app.inject({ method: 'GET', url: '/api/payments/me', headers: a.headers })).json();
    assert.deepEqual([state.provider, state.test_mode, state.can_subscribe, state.effective_plan], ['off', false, false, 'free']);
    assert.deepEqual((await t.app.inject({ method: 'GET', url: '/api/public-config' })).json().payments, { provider: 'off', test_mode: false, enabled: false });
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/payments/success?session_id=cs_local_anything', headers: a.headers })).headers.location, '/app/billing?status=unknown');
  });

});

describe('administrators\' subscriptions view (local provider)', () => {
  const t = useTestApp();
  const as = actors(t);
  it('administrators list the paid plans with their companies, filtered, with a summary of what they bring (issue 38)', async () => {
    const payer = await as.owner('owner@yearly-payer.example.com', 'https://yearly-payer.example.com');
    const open = await t.app.inject({ method: 'POST', url: '/api/payments/create-checkout', headers: payer.headers, payload: { tool_id: payer.companyId, plan: 'pro', interval: 'year' } });
    assert.equal(open.statusCode, 201, open.body);
    const landing = new URL(open.json().url);
    assert.equal((await t.app.inject({ method: 'GET', url: `${landing.pathname}${landing.search}`, headers: payer.cookie })).statusCode, 303);
    await t.app.services.payments.processPending();
    const gifted = await as.owner('owner@gifted-plan.example.com', 'https://gifted-plan.example.com');
    const admin = await as.admin();
    const grant = await t.app.inject({ method: 'POST', url: `/api/tools/admin/companies/${gifted.companyId}/subscription`, headers: admin.headers, payload: { plan: 'pro', period_months: 12, note: 'partner' } });
    assert.equal(grant.statusCode, 200, grant.body);

    const list = (query = '', headers = admin.headers) => t.app.inject({ method: 'GET', url: `/api/payments/admin/subscriptions${query}`, headers });
    assert.equal((await list('', {})).statusCode, 401);
    assert.equal((await list('', payer.headers)).statusCode, 403);
    const bad = await list('?status=expired');
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['query', 'status']);

    const all = (await list()).json();
    const names = all.subscriptions.map((s: { company_domain: string }) => s.company_domain);
    assert.ok(names.includes('yearly-payer.example.com') && names.includes('gifted-plan.example.com'), JSON.stringify(names));
    const paid = all.subscriptions.find((s: { company_domain: string }) => s.company_domain === 'yearly-payer.example.com');
    assert.deepEqual([paid.plan, paid.status, paid.interval, paid.source], ['pro', 'active', 'year', 'local']);
    assert.ok(paid.current_period_end);
    const granted = all.subscriptions.find((s: { company_domain: string }) => s.company_domain === 'gifted-plan.example.com');
    assert.deepEqual([granted.source, granted.note], ['admin', 'partner']);
    assert.equal(all.summary.granted, 1);
    // The yearly plan counts a twelfth of its price per month; the granted plan nothing.
    assert.equal(all.summary.monthly_recurring.amount, Math.round(t.config.payments.proAmounts.year / 12));
    assert.equal(all.summary.monthly_recurring.currency, t.config.payments.currency);

    const found = (await list('?q=gifted')).json();
    assert.deepEqual(found.subscriptions.map((s: { company_domain: string }) => s.company_domain), ['gifted-plan.example.com']);
    assert.equal(found.total, 1);
    assert.equal(found.summary.granted, 1, 'the summary ignores the filter');
    const ended = (await list('?status=canceled')).json();
    assert.ok(ended.subscriptions.every((s: { status: string }) => s.status === 'canceled'));
  });
});
