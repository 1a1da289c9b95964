import assert from 'node:assert/strict';
import type { App } from '../../platform/http.js';

/** Registers an agent through the API and returns its id and key (tests only). */
export async function registerAgent(app: App, name: string, email: string): Promise<{ id: string; key: string }> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/agent/register', payload: { name, owner_email: email } });
  assert.equal(res.statusCode, 201, res.body);
  const body = res.json();
  return { id: body.agent.id, key: body.api_key };
}
