import assert from 'node:assert/strict';
import type { App } from '../../platform/http.js';

/**
 * Registers an agent through the API and returns its id and key (tests only). By default the
 * owner email is then confirmed the way a person does it: with the token from the emailed link.
 */
export async function registerAgent(app: App, name: string, email: string, { confirm = true } = {}): Promise<{ id: string; key: string }> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/agent/register', payload: { name, owner_email: email } });
  assert.equal(res.statusCode, 201, res.body);
  const body = res.json();
  if (confirm) {
    const token = await confirmationToken(app, email);
    const confirmed = await app.inject({ method: 'POST', url: '/api/v1/agent/confirm-email', payload: { token } });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
  }
  return { id: body.agent.id, key: body.api_key };
}

/** The token of the newest confirmation link mailed to an address. */
export async function confirmationToken(app: App, email: string): Promise<string> {
  const mails = await app.services.mail.recent({ to: email, limit: 10 });
  const m = mails.map((x) => /\/api\/v1\/agent\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(x.text_body)).find(Boolean);
  assert.ok(m, `no confirmation mail to ${email}`);
  return m[1]!;
}
