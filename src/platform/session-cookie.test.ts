import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actors, signInAdmin, signInOwner, TEST_ADMIN_EMAIL, useTestApp } from '../../test/helpers/index.js';
import { clearSessionCookie, readSessionCookie, sessionCookie } from './session-cookie.js';

/**
 * Browser sessions: the sign-in confirmation sets an HttpOnly, SameSite=Strict cookie (Secure
 * unless on localhost); the bearer guard reads it; writes need the CSRF header; sign-out revokes.
 */
describe('session cookie helpers', () => {
  it('sets HttpOnly, SameSite=Strict, Path=/api, and Secure only outside localhost', () => {
    const local = sessionCookie('abc.def', 3600, 'http://localhost:3000');
    assert.match(local, /^agentpages_session=abc\.def; Max-Age=3600; Path=\/api; HttpOnly; SameSite=Strict$/);
    assert.match(sessionCookie('t', 10, 'http://127.0.0.1:3000'), /SameSite=Strict$/);
    assert.match(sessionCookie('t', 10, 'https://agentpages.example'), /; Secure$/);
    assert.match(clearSessionCookie('https://agentpages.example'), /^agentpages_session=; Max-Age=0; .*Secure/);
  });

  it('reads only its own cookie and ignores malformed values', () => {
    assert.equal(readSessionCookie('a=1; agentpages_session=tok.en-1; b=2'), 'tok.en-1');
    assert.equal(readSessionCookie('xagentpages_session=tok'), undefined);
    assert.equal(readSessionCookie('agentpages_session=bad value;'), undefined);
    assert.equal(readSessionCookie('agentpages_session='), undefined);
    assert.equal(readSessionCookie(undefined), undefined);
  });
});

describe('browser sessions through the API', () => {
  const t = useTestApp();
  const as = actors(t);

  const cookieOf = (setCookie: unknown) => {
    const v = Array.isArray(setCookie) ? setCookie[0] : String(setCookie);
    return /agentpages_session=([^;]*)/.exec(v)![1]!;
  };

  async function confirmOwner(email: string) {
    const { token } = await t.app.services.auth.createSignInToken({ email, purpose: 'login' });
    return t.app.inject({ method: 'POST', url: '/api/auth/confirm', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.config.baseUrl }, payload: `token=${token}&purpose=login` });
  }

  it('the owner confirmation sets the cookie, stores nothing in page script, and leads to /app', async () => {
    const res = await confirmOwner('cookie-owner@example.org');
    assert.equal(res.statusCode, 200, res.body);
    const set = String(res.headers['set-cookie']);
    assert.match(set, /agentpages_session=[\w.~+/=-]+; Max-Age=\d+; Path=\/api; HttpOnly; SameSite=Strict/);
    if (!/localhost|127\.0\.0\.1/.test(t.config.baseUrl)) assert.match(set, /; Secure/);
    assert.ok(!res.body.includes('localStorage'));
    assert.ok(!res.body.includes(cookieOf(set)), 'the token is not in the page');
    assert.match(res.body, /href="\/app\/"/);
  });

  it('accepts the confirm form a browser posts with "Origin: null" (no-referrer page) only when Sec-Fetch-Site is same-origin', async () => {
    for (const [site, status] of [['same-origin', 200], ['cross-site', 403], ['none', 403]] as const) {
      const { token } = await t.app.services.auth.createSignInToken({ email: `null-origin-${site}@example.org`, purpose: 'login' });
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/confirm', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': site }, payload: `token=${token}&purpose=login` });
      assert.equal(res.statusCode, status, site);
    }
  });

  it('the cookie authenticates reads; writes need the CSRF header; sign-out revokes and clears it', async () => {
    const session = cookieOf((await confirmOwner('cookie-writer@example.org')).headers['set-cookie']);
    const cookie = `agentpages_session=${session}`;
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    assert.equal(me.statusCode, 200, me.body);
    assert.equal(me.json().user.email, 'cookie-writer@example.org');

    // A cross-site form or fetch cannot add a custom header without a preflight: refused.
    const noHeader = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    assert.equal(noHeader.statusCode, 403);
    assert.match(noHeader.json().detail, /x-agentpages-csrf/);
    const del = await t.app.inject({ method: 'DELETE', url: '/api/auth/me', headers: { cookie } });
    assert.equal(del.statusCode, 403);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).statusCode, 200, 'the refused requests changed nothing');

    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, 'x-agentpages-csrf': '1' } });
    assert.equal(out.statusCode, 200, out.body);
    assert.match(String(out.headers['set-cookie']), /^agentpages_session=; Max-Age=0; Path=\/api; HttpOnly; SameSite=Strict/);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).statusCode, 401, 'revoked');
  });

  it('refuses a cookie write on an owner tool without the header, accepts it with the header', async () => {
    const owner = await signInOwner(t, 'owner@cookie-co.example', 'https://cookie-co.example');
    const cookie = `agentpages_session=${owner.token}`;
    const url = `/api/tools/${owner.companyId}`;
    const refused = await t.app.inject({ method: 'PUT', url, headers: { cookie }, payload: { industry: 'Bakery' } });
    assert.equal(refused.statusCode, 403);
    const ok = await t.app.inject({ method: 'PUT', url, headers: { cookie, 'x-agentpages-csrf': '1' }, payload: { industry: 'Bakery' } });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().industry, 'Bakery');
  });

  it('API clients keep bearer tokens: no CSRF header needed, and the header wins over a cookie', async () => {
    const a = await as.owner('bearer-a@example.org');
    const b = await as.owner('bearer-b@example.org');
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { ...a.headers, ...b.cookie } });
    assert.equal(me.json().user.email, 'bearer-a@example.org');
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: a.headers });
    assert.equal(out.statusCode, 200);
    const bad = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: 'agentpages_session=not-a-token' } });
    assert.equal(bad.statusCode, 401);
  });

  it('the administrator confirmation sets the cookie for /api/admin and the admin API', async () => {
    await signInAdmin(t);
    await t.app.inject({ method: 'POST', url: '/api/admin/magic-link/request', payload: { email: TEST_ADMIN_EMAIL } });
    const mail = (await t.app.services.mail.recent()).find((m) => m.to_address === TEST_ADMIN_EMAIL)!;
    const token = /magic-link\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!;
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/magic-link/confirm', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.config.baseUrl }, payload: `token=${token}` });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /href="\/admin\/"/);
    const cookie = `agentpages_session=${cookieOf(res.headers['set-cookie'])}`;
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/admin/me', headers: { cookie } })).json().admin.email, TEST_ADMIN_EMAIL);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/tools/admin/audit-log', headers: { cookie } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie } })).statusCode, 403);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie, 'x-agentpages-csrf': '1' } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/admin/me', headers: { cookie } })).statusCode, 401);
  });
});
