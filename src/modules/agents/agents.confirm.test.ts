import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { confirmationToken, registerAgent, useTestApp } from '../../../test/helpers/index.js';

// Issue 11 finding 5: an agent's owner_email is confirmed before it receives anything else.
const BASE = '/api/v1/agent';

describe('agent owner email confirmation', () => {
  const t = useTestApp();
  const me = (key: string) => t.app.inject({ method: 'GET', url: `${BASE}/me`, headers: { 'x-api-key': key } });

  it('mails only a confirmation link until the address is confirmed; the link works once', async () => {
    const agent = await registerAgent(t.app, 'Unconfirmed bot', 'first@confirm.example.org', { confirm: false });
    const mails = await t.app.services.mail.recent({ to: 'first@confirm.example.org' });
    assert.equal(mails.length, 1);
    assert.match(mails[0]!.subject, /Confirm your email/);
    const before = (await me(agent.key)).json();
    assert.equal(before.email_confirmed, false);
    assert.ok(before.email_confirm_expires_at);

    const token = await confirmationToken(t.app, 'first@confirm.example.org');
    const page = await t.app.inject({ method: 'GET', url: `${BASE}/confirm-email?token=${token}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<form method="post"/);
    assert.equal((await me(agent.key)).json().email_confirmed, false, 'opening the page (a mail scanner) confirms nothing');
    const foreign = await t.app.inject({ method: 'POST', url: `${BASE}/confirm-email`, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, payload: `token=${token}` });
    assert.equal(foreign.statusCode, 403);
    const form = await t.app.inject({ method: 'POST', url: `${BASE}/confirm-email`, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.config.baseUrl }, payload: `token=${token}` });
    assert.equal(form.statusCode, 200, form.body);
    assert.match(form.body, /Email confirmed/);
    assert.equal((await me(agent.key)).json().email_confirmed, true);
    const again = await t.app.inject({ method: 'POST', url: `${BASE}/confirm-email`, payload: { token } });
    assert.equal(again.statusCode, 400);
  });

  it('an unconfirmed registration never holds its address: the real owner registers at once, and confirming supersedes the squatter (issue 35.4)', async () => {
    const squatter = await registerAgent(t.app, 'Squatter', 'owner@squat.example.org', { confirm: false });
    const squatterToken = await confirmationToken(t.app, 'owner@squat.example.org');
    const res = await t.app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: 'Real owner', owner_email: 'owner@squat.example.org' } });
    assert.equal(res.statusCode, 201, res.body);
    const realKey = res.json().api_key as string;
    const realToken = await confirmationToken(t.app, 'owner@squat.example.org');
    assert.notEqual(realToken, squatterToken);
    const confirmed = await t.app.inject({ method: 'POST', url: `${BASE}/confirm-email`, payload: { token: realToken } });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal((await me(realKey)).json().email_confirmed, true);
    assert.equal((await me(squatter.key)).statusCode, 401, 'the superseded registration\'s key stops working');
    assert.equal((await t.app.inject({ method: 'POST', url: `${BASE}/confirm-email`, payload: { token: squatterToken } })).statusCode, 400, 'its link is dead');
    const dup = await t.app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: 'Late', owner_email: 'owner@squat.example.org' } });
    assert.equal(dup.statusCode, 409, 'a confirmed address is held');
  });

  it('an unconfirmed registration expires after 24 h (its key stops working); at most three wait for one address', async () => {
    const first = await registerAgent(t.app, 'Slow', 'slow@squat.example.org', { confirm: false });
    await t.db.query(`UPDATE agents SET email_confirm_expires_at = now() - interval '1 second' WHERE id = $1`, [first.id]);
    const expired = await me(first.key);
    assert.equal(expired.statusCode, 401);
    assert.match(expired.json().detail, /never confirmed/);
    for (let i = 0; i < 3; i++) await registerAgent(t.app, `Pending ${i}`, 'flood@squat.example.org', { confirm: false });
    const fourth = await t.app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: 'Fourth', owner_email: 'flood@squat.example.org' } });
    assert.equal(fourth.statusCode, 409);
    assert.match(fourth.json().detail, /already waiting for confirmation/);
  });

  it('an agent changing its address to one another agent confirmed first gets 409 when it confirms', async () => {
    const a = await registerAgent(t.app, 'Mover', 'mover@confirm.example.org');
    const change = await t.app.inject({ method: 'PUT', url: `${BASE}/me`, headers: { 'x-api-key': a.key }, payload: { owner_email: 'contested@confirm.example.org' } });
    assert.equal(change.statusCode, 200, change.body);
    const moverToken = await confirmationToken(t.app, 'contested@confirm.example.org');
    await registerAgent(t.app, 'Holder', 'contested@confirm.example.org');
    const late = await t.app.inject({ method: 'POST', url: `${BASE}/confirm-email`, payload: { token: moverToken } });
    assert.equal(late.statusCode, 409);
    assert.match(late.json().detail, /already confirmed by another agent/);
  });

  it('a confirmed address keeps its 409 for a second registration', async () => {
    await registerAgent(t.app, 'Confirmed', 'taken@confirm.example.org');
    const dup = await t.app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: 'Other', owner_email: 'taken@confirm.example.org' } });
    assert.equal(dup.statusCode, 409);
  });
});
