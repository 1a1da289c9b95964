import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actors, bearer, buildTestApp, closeTestEmbeddings, signInAdmin, signInOwner, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, useTestApp } from '../../../test/helpers/index.js';

/** Two answers compared for what they say (each request has its own id). */
const withoutRequestId = ({ request_id: _id, ...rest }: Record<string, unknown>) => rest;

const ADMIN = 'root@agentpages.test';
const PASSWORD = 'a long enough admin password';

describe('administrator sign-in (no SMTP: outbox and developer mailbox)', () => {
  const t = useTestApp({ adminEmail: ADMIN, adminPassword: PASSWORD });
  const as = actors(t);

  const login = (email: string, password: string, ip = '10.1.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password }, remoteAddress: ip });
  const adminMe = (token: string) => t.app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(token) });

  it('creates the first administrator from ADMIN_EMAIL/ADMIN_PASSWORD (idempotent) and signs in with the password', async () => {
    await t.app.services.auth.ensureConfiguredAdmin();
    const rows = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM admins');
    assert.equal(rows[0]!.n, 1);
    const stored = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM admins');
    assert.match(stored[0]!.password_hash, /^scrypt\$/);
    assert.ok(!stored[0]!.password_hash.includes(PASSWORD));

    const res = await login(ADMIN.toUpperCase(), PASSWORD);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.token_type, 'bearer');
    assert.equal(body.admin.email, ADMIN);
    const who = await adminMe(body.access_token);
    assert.equal(who.statusCode, 200);
    assert.equal(who.json().admin.email, ADMIN);
  });

  it('the admin screen\'s own sign-in (a same-origin browser request) also gets the session cookie; an API client does not', async () => {
    assert.equal((await login(ADMIN, PASSWORD, '10.1.0.9')).headers['set-cookie'], undefined);
    const fromScreen = await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: ADMIN, password: PASSWORD }, remoteAddress: '10.1.0.9', headers: { 'sec-fetch-site': 'same-origin' } });
    assert.equal(fromScreen.statusCode, 200);
    const cookie = String(fromScreen.headers['set-cookie']);
    assert.match(cookie, /HttpOnly/i);
    const me = await t.app.inject({ method: 'GET', url: '/api/admin/me', headers: { cookie: cookie.split(';')[0]! } });
    assert.equal(me.statusCode, 200, me.body);
    const crossSite = await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: ADMIN, password: PASSWORD }, remoteAddress: '10.1.0.9', headers: { 'sec-fetch-site': 'cross-site' } });
    assert.equal(crossSite.headers['set-cookie'], undefined);
  });

  it('wrong password and unknown address get the same 401; repeated failures are 429', async () => {
    const wrong = await login(ADMIN, 'not the password', '10.1.0.2');
    const unknown = await login('nobody@agentpages.test', PASSWORD, '10.1.0.2');
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.deepEqual(withoutRequestId(wrong.json()), withoutRequestId(unknown.json()));
    for (let i = 0; i < 4; i++) assert.equal((await login(ADMIN, `guess ${i}`, '10.1.0.2')).statusCode, 401);
    const limited = await login(ADMIN, PASSWORD, '10.1.0.2');
    assert.equal(limited.statusCode, 429, 'even the right password is refused from the client that kept guessing');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    // Failures count per (address, client): guesses spread over other clients lock nobody out.
    for (let i = 0; i < 6; i++) assert.equal((await login(ADMIN, `guess ${i}`, `10.1.1.${i}`)).statusCode, 401);
    // Other administrators are unaffected.
    assert.equal((await login(TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, '10.1.2.1')).statusCode, 401, 'not created yet: plain 401');
    const token = await signInAdmin(t);
    assert.equal((await adminMe(token)).statusCode, 200);
  });

  it('signs in with an administrator magic link (outbox, confirm page) and answers the same for unknown addresses', async () => {
    const known = await t.app.inject({ method: 'POST', url: '/api/admin/magic-link/request', payload: { email: TEST_ADMIN_EMAIL } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/admin/magic-link/request', payload: { email: 'stranger@agentpages.test' } });
    assert.equal(known.statusCode, 200);
    assert.deepEqual(withoutRequestId(known.json()), withoutRequestId(unknown.json()));
    const outbox = await t.app.services.mail.recent();
    assert.ok(!outbox.some((m) => m.to_address === 'stranger@agentpages.test'), 'no mail to a non-administrator');
    const mail = outbox.find((m) => m.to_address === TEST_ADMIN_EMAIL)!;
    assert.equal(mail.status, 'logged', 'kept in the outbox when SMTP is not configured');
    const m = /\/api\/admin\/magic-link\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)!;
    assert.ok(m);
    const page = await t.app.inject({ method: 'GET', url: m[0] });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<form method="post"/);

    const mailbox = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    assert.equal(mailbox.statusCode, 200);
    assert.match(mailbox.body, /<a href="http:\/\/localhost:8000\/api\/admin\/magic-link\/confirm\?token=/);

    const res = await t.app.inject({ method: 'GET', url: `/api/admin/magic-link/verify?token=${m[1]}` });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().admin.email, TEST_ADMIN_EMAIL);
    assert.equal((await adminMe(res.json().access_token)).statusCode, 200);
    const replay = await t.app.inject({ method: 'GET', url: `/api/admin/magic-link/verify?token=${m[1]}` });
    assert.equal(replay.statusCode, 400);
  });

  it('an owner token on admin routes is 403, an owner magic token is no admin token', async () => {
    const owner = await signInOwner(t, 'owner@some-owner.com');
    const res = await adminMe(owner.token);
    assert.equal(res.statusCode, 403);
    const { token } = await t.app.services.auth.createSignInToken({ email: TEST_ADMIN_EMAIL, purpose: 'login' });
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/admin/magic-link/verify?token=${token}` })).statusCode, 400);
    // An admin token passes owner guards (admins may act as owners) but has no owner profile.
    const admin = await as.admin();
    assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/auth/cleanup-tokens', headers: admin.headers })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: admin.headers })).statusCode, 403);
  });

  it('logout revokes the administrator token', async () => {
    const admin = await as.admin();
    const out = await t.app.inject({ method: 'POST', url: '/api/admin/logout', headers: admin.headers });
    assert.equal(out.statusCode, 200);
    assert.equal((await adminMe(admin.token)).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/admin/logout' })).statusCode, 401);
  });

  it('validates bodies (422) and documents the routes in OpenAPI, without the HTML pages', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: 'x' } });
    assert.equal(res.statusCode, 422);
    const locs = res.json().detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    assert.ok(locs.includes('body.password'));
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.ok(doc.paths['/api/auth/magic-link'].post);
    assert.equal(doc.paths['/api/auth/magic-link'].post.operationId, 'auth.magicLink');
    assert.ok(doc.paths['/api/admin/login'].post);
    assert.ok(doc.paths['/api/auth/verify-magic'].get);
    assert.equal(doc.paths['/dev/mailbox'], undefined);
    assert.equal(doc.paths['/api/auth/confirm'], undefined);
  });
});

describe('production mode', () => {
  it('has no developer mailbox', async () => {
    const t = await buildTestApp({ nodeEnv: 'production' });
    try {
      assert.equal((await t.app.inject({ method: 'GET', url: '/dev/mailbox' })).statusCode, 404);
    } finally {
      await t.close();
      await closeTestEmbeddings();
    }
  });
});
