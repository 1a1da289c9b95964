import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../../test/helpers.js';
import { confirmationToken, registerAgent } from './agents.test-helpers.js';

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

  it('an unconfirmed registration blocks its address for 24 h only, then expires (its key stops working)', async () => {
    const squatter = await registerAgent(t.app, 'Squatter', 'owner@squat.example.org', { confirm: false });
    const blocked = await t.app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: 'Real owner', owner_email: 'owner@squat.example.org' } });
    assert.equal(blocked.statusCode, 409);
    await t.db.query(`UPDATE agents SET email_confirm_expires_at = now() - interval '1 second' WHERE id = $1`, [squatter.id]);
    const expired = await me(squatter.key);
    assert.equal(expired.statusCode, 401);
    assert.match(expired.json().detail, /never confirmed/);
    const real = await registerAgent(t.app, 'Real owner', 'owner@squat.example.org');
    assert.equal((await me(real.key)).json().email_confirmed, true);
    assert.equal((await me(squatter.key)).statusCode, 401);
  });

  it('a confirmed address keeps its 409 for a second registration', async () => {
    await registerAgent(t.app, 'Confirmed', 'taken@confirm.example.org');
    const dup = await t.app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: 'Other', owner_email: 'taken@confirm.example.org' } });
    assert.equal(dup.statusCode, 409);
  });
});
