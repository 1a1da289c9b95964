import assert from 'node:assert/strict';
import type { App } from '../../src/platform/http.js';
import { SESSION_COOKIE } from '../../src/platform/session-cookie.js';

/**
 * Who calls the API in a test, and with which credential. `actors(t)` gives owners, the administrator
 * and agents, each signed in through the real flows (service level for owners and the admin, the HTTP
 * registration for agents):
 *
 *   const t = useTestApp();
 *   const as = actors(t);
 *   ...
 *   const owner = await as.owner('owner@acme.com', 'https://acme.com');
 *   await t.app.inject({ method: 'GET', url: '/api/proposals', headers: owner.headers });
 *   const agent = await as.agent();
 *   await t.app.inject({ method: 'GET', url: '/api/v1/agent/me', headers: agent.headers });
 *
 * `t` is read when an actor is made, so `actors(t)` may be called at describe level, before the app exists.
 * `bearer(token)` is the header for a token got some other way (a sign-in flow under test, another process).
 */
export interface Actor {
  /** The request headers that carry this actor's credential. */
  readonly headers: Record<string, string>;
}

export interface Owner extends Actor {
  token: string;
  userId: string;
  /** The company this owner was verified for (owner(email, websiteUrl)). */
  companyId?: string;
  /** The same session as the browser sends it: the session cookie instead of the Authorization header. */
  readonly cookie: { cookie: string };
}

export interface Admin extends Actor {
  token: string;
}

export interface Agent extends Actor {
  id: string;
  key: string;
}

type HasApp = { app: App };

let agents = 0;
let owners = 0;

export type Actors = ReturnType<typeof actors>;

export function actors(t: HasApp) {
  return {
    /**
     * An owner signed in through the magic-link token flow. With websiteUrl the owner is verified for the
     * company at that website (created when missing); the email's domain must match it. Without an email,
     * a new user with an address of its own.
     */
    async owner(email = `owner-${++owners}@owners.example.org`, websiteUrl?: string): Promise<Owner> {
      const signedIn = await signInOwner(t, email, websiteUrl);
      return { ...signedIn, headers: bearer(signedIn.token), cookie: { cookie: `${SESSION_COOKIE}=${signedIn.token}` } };
    },
    /** The administrator (created on first use), with a new session on each call. */
    async admin(): Promise<Admin> {
      const token = await signInAdmin(t);
      return { token, headers: bearer(token) };
    },
    /** An agent registered through the API; its owner email confirmed unless { confirm: false }. */
    async agent(name?: string, email?: string, options: { confirm?: boolean } = {}): Promise<Agent> {
      const n = ++agents;
      const registered = await registerAgent(t.app, name ?? `Agent ${n}`, email ?? `agent-${n}@agents.example.org`, options);
      return { ...registered, headers: { 'x-api-key': registered.key } };
    },
  };
}

/** The Authorization header for a bearer token (what owners' and the administrator's `headers` hold). */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Signs an owner in through the real magic-link token flow (service level: no mail, no rate
 * limits). With websiteUrl the purpose is verify: the user becomes an owner of the company at
 * that website (created when missing); the email's domain must match it (owner@acme.com for
 * https://acme.com).
 */
export async function signInOwner(t: HasApp, email: string, websiteUrl?: string): Promise<{ token: string; userId: string; companyId?: string }> {
  const auth = t.app.services.auth;
  const purpose = websiteUrl ? 'verify' : 'login';
  const { token } = await auth.createSignInToken({ email, purpose, website_url: websiteUrl });
  const r = await auth.verifyUserToken(token, purpose);
  return { token: r.access_token, userId: r.user.id, ...(r.company_id ? { companyId: r.company_id } : {}) };
}

export const TEST_ADMIN_EMAIL = 'admin@agentpages.test';
export const TEST_ADMIN_PASSWORD = 'correct horse battery staple';

/** An administrator bearer token (the admin is created on first use). */
export async function signInAdmin(t: HasApp): Promise<string> {
  const auth = t.app.services.auth;
  await auth.ensureAdmin(TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
  return (await auth.adminLogin({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD })).access_token;
}

/**
 * Registers an agent through the API and returns its id and key. By default the owner email is
 * then confirmed the way a person does it: with the token from the emailed link.
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
