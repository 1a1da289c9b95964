import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { actors, bearer, buildTestApp, closeTestEmbeddings, type TestContext, useTestApp } from '../../../test/helpers/index.js';

// Regression tests for the sign-in findings of the security probe (issue 11: 1, 4, 8, 10).
const ADMIN = 'root@agentpages.test';
const PASSWORD = 'a long enough admin password';

describe('developer mailbox and mail logging (finding 1)', () => {
  let t: TestContext;
  const logLines: string[] = [];

  before(async () => {
    t = await buildTestApp({ adminEmail: ADMIN, adminPassword: PASSWORD, logLevel: 'debug' }, {}, { logStream: { write: (line: string) => void logLines.push(line) } });
    await t.app.services.auth.ensureConfiguredAdmin();
  });
  after(async () => {
    await t.close();
    await closeTestEmbeddings();
  });

  it('serves the outbox to loopback callers only, never to a remote or forwarded client', async () => {
    const sent = await t.app.inject({ method: 'POST', url: '/api/admin/magic-link/request', payload: { email: ADMIN } });
    assert.equal(sent.statusCode, 200);
    const remote = await t.app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: '203.0.113.9' });
    assert.equal(remote.statusCode, 404);
    assert.ok(!remote.body.includes('token='));
    const local = await t.app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: '127.0.0.1' });
    assert.equal(local.statusCode, 200);
    assert.match(local.body, /magic-link\/confirm\?token=/);
    const mapped = await t.app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: '::ffff:127.0.0.1' });
    assert.equal(mapped.statusCode, 200);
  });

  it('answers direct loopback connections only: a proxy on the same host (any forwarding header) gets the 404, whatever TRUST_PROXY says (issue 35 B)', async () => {
    // TRUST_PROXY=false (this app): a proxy on 127.0.0.1 makes every visitor's socket look like loopback.
    for (const headers of [{ 'x-forwarded-for': '203.0.113.9' }, { 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=203.0.113.9' }, { 'x-real-ip': '203.0.113.9' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: '127.0.0.1', headers });
      assert.equal(res.statusCode, 404, JSON.stringify(headers));
      assert.ok(!res.body.includes('token='));
      assert.equal(res.json().code, 'not_found');
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: '::1' })).statusCode, 200);
  });

  it('logs that a mail was queued, never its link or token', async () => {
    await t.app.inject({ method: 'POST', url: '/api/admin/magic-link/request', payload: { email: ADMIN } });
    await t.app.inject({ method: 'POST', url: '/api/auth/magic-link', payload: { email: 'someone@example.org' } });
    const outbox = await t.app.services.mail.recent({ limit: 10 });
    const tokens = outbox.flatMap((m) => [...m.text_body.matchAll(/token=([A-Za-z0-9_-]+)/g)].map((x) => x[1]!));
    assert.ok(tokens.length >= 2);
    const log = logLines.join('\n');
    assert.match(log, /mail queued in the outbox/);
    for (const token of tokens) assert.ok(!log.includes(token), 'a sign-in token reached the log');
    assert.ok(!/magic-link\/confirm\?token=/.test(log));
  });

  it('logs no secret of the main flows at debug level: API keys, bearer tokens, passwords, confirmation and magic links, webhook secrets (issue 20)', async () => {
    const secrets: string[] = [PASSWORD];
    const reg = await t.app.inject({ method: 'POST', url: '/api/v1/agent/register', payload: { name: 'Log bot', owner_email: 'bot@logs.example.org' } });
    const key = reg.json().api_key as string;
    secrets.push(key);
    await t.app.inject({ method: 'GET', url: '/api/v1/agent/me', headers: { 'x-api-key': key } });
    await t.app.inject({ method: 'GET', url: '/api/v1/agent/me', headers: { 'x-api-key': `${key.slice(0, -3)}xyz` } });
    const login = await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: ADMIN, password: PASSWORD } });
    const adminToken = login.json().access_token as string;
    secrets.push(adminToken);
    await t.app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(adminToken) });
    await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: ADMIN, password: `${PASSWORD}!` } });
    const mails = await t.app.services.mail.recent({ to: 'bot@logs.example.org' });
    const confirm = /confirm-email\?token=([A-Za-z0-9_-]+)/.exec(mails[0]!.text_body)![1]!;
    secrets.push(confirm);
    await t.app.inject({ method: 'GET', url: `/api/v1/agent/confirm-email?token=${confirm}` });
    await t.app.inject({ method: 'POST', url: '/api/v1/agent/confirm-email', payload: { token: confirm } });
    // Webhook signing secrets: shown once at creation and at rotation, never logged.
    const hook = await t.app.inject({ method: 'POST', url: '/api/v1/agent/webhooks', headers: { 'x-api-key': key }, payload: { url: 'https://hooks.logs.example.org/in', event_types: ['proposal.responded'] } });
    assert.equal(hook.statusCode, 201, hook.body);
    secrets.push(hook.json().secret as string);
    const rotated = await t.app.inject({ method: 'POST', url: `/api/v1/agent/webhooks/${hook.json().endpoint.id}/rotate-secret`, headers: { 'x-api-key': key } });
    assert.equal(rotated.statusCode, 200, rotated.body);
    secrets.push(rotated.json().secret as string);
    // An owner's magic link.
    await t.app.inject({ method: 'POST', url: '/api/auth/magic-link', payload: { email: 'owner@logs-owner.example.com', purpose: 'verify', website_url: 'https://logs-owner.example.com' } });
    const ownerLink = (await t.app.services.mail.recent({ to: 'owner@logs-owner.example.com' }))[0]!.text_body;
    const ownerToken = /token=([A-Za-z0-9_-]+)/.exec(ownerLink)![1]!;
    secrets.push(ownerToken);
    await t.app.inject({ method: 'GET', url: `/api/auth/verify-magic?token=${ownerToken}&purpose=verify` });
    const log = logLines.join('\n');
    assert.ok(log.length > 1000, 'debug logging captured the flows');
    for (const secret of secrets) assert.ok(!log.includes(secret), `a secret reached the log: ${secret.slice(0, 6)}…`);
  });
});

describe('developer mailbox elsewhere (finding 1)', () => {
  it('does not exist when SMTP is configured, nor behind a proxy for a forwarded remote client', async () => {
    const withSmtp = await buildTestApp({ smtpUrl: 'smtp://127.0.0.1:1' });
    try {
      assert.equal((await withSmtp.app.inject({ method: 'GET', url: '/dev/mailbox' })).statusCode, 404);
    } finally {
      await withSmtp.close();
    }
    const proxied = await buildTestApp({ trustProxy: true });
    try {
      const forwarded = await proxied.app.inject({ method: 'GET', url: '/dev/mailbox', headers: { 'x-forwarded-for': '198.51.100.7' } });
      assert.equal(forwarded.statusCode, 404);
      // A trusted proxy that says the visitor is on loopback is still a proxy: req.ip is not the socket's peer.
      const claimed = await proxied.app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '127.0.0.1' } });
      assert.equal(claimed.statusCode, 404);
    } finally {
      await proxied.close();
      await closeTestEmbeddings();
    }
  });

  it('the default configuration listens on loopback only', async () => {
    const { loadConfig } = await import('../../config.js');
    assert.equal(loadConfig({}).host, '127.0.0.1');
    assert.equal(loadConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
  });
});

describe('sign-in throttling cannot lock out the real person (finding 4)', () => {
  let t: TestContext;
  before(async () => {
    t = await buildTestApp({ adminEmail: ADMIN, adminPassword: PASSWORD });
    await t.app.services.auth.ensureConfiguredAdmin();
  });
  after(async () => {
    await t.close();
    await closeTestEmbeddings();
  });
  const login = (password: string, ip: string) => t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: ADMIN, password }, remoteAddress: ip });

  it('a stranger guessing passwords blocks only themselves, with a growing block', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await login(`guess ${i}`, '198.51.100.1')).statusCode, 401);
    const blocked = await login(PASSWORD, '198.51.100.1');
    assert.equal(blocked.statusCode, 429);
    const firstBlock = Number(blocked.headers['retry-after']);
    assert.ok(firstBlock > 0);
    // The administrator, from their own client, signs in at once.
    assert.equal((await login(PASSWORD, '192.0.2.10')).statusCode, 200);
    // The same for magic links: a stranger's requests for the admin's address do not stop the admin's own.
    for (let i = 0; i < 6; i++) await t.app.inject({ method: 'POST', url: '/api/admin/magic-link/request', payload: { email: ADMIN }, remoteAddress: '198.51.100.2' });
    const own = await t.app.inject({ method: 'POST', url: '/api/admin/magic-link/request', payload: { email: ADMIN }, remoteAddress: '192.0.2.10' });
    assert.equal(own.statusCode, 200);
  });

  it('one client is capped across addresses (a ceiling per client)', async () => {
    let last = 200;
    for (let i = 0; i < 31 && last === 200; i++) {
      last = (await t.app.inject({ method: 'POST', url: '/api/auth/magic-link', payload: { email: `p${i}@ceiling.example.org` }, remoteAddress: '198.51.100.3' })).statusCode;
    }
    assert.equal(last, 429);
  });
});

describe('sign-in confirm forms, security headers, token cleanup (findings 8 and 10)', () => {
  const t = useTestApp();
  const as = actors(t);

  const confirm = async (headers: Record<string, string>) => {
    const { token } = await t.app.services.auth.createSignInToken({ email: 'csrf@example.org', purpose: 'login' });
    return t.app.inject({ method: 'POST', url: '/api/auth/confirm', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: `token=${token}&purpose=login` });
  };

  it('refuses a confirm form posted from another site (login CSRF) and accepts one from this site', async () => {
    const foreign = await confirm({ origin: 'https://evil.example' });
    assert.equal(foreign.statusCode, 403);
    assert.ok(!foreign.body.includes('Signed in'));
    assert.equal((await confirm({ 'sec-fetch-site': 'cross-site' })).statusCode, 403);
    assert.equal((await confirm({ referer: 'https://evil.example/page' })).statusCode, 403);
    const own = await confirm({ origin: t.config.baseUrl });
    assert.equal(own.statusCode, 200, own.body);
    const { token } = await t.app.services.auth.createSignInToken({ email: 'admin-csrf@example.org', purpose: 'login' });
    const admin = await t.app.inject({ method: 'POST', url: '/api/admin/magic-link/confirm', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, payload: `token=${token}` });
    assert.equal(admin.statusCode, 403);
  });

  it('sends a Content-Security-Policy, frame and referrer rules on HTML pages and nosniff everywhere', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/auth/confirm?token=abc' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.ok(page.headers['referrer-policy']);
    const json = await t.app.inject({ method: 'GET', url: '/api/health' });
    assert.equal(json.headers['x-content-type-options'], 'nosniff');
  });

  it('an owner cleans only their own stale sign-in tokens; an administrator everyone\'s', async () => {
    await t.app.services.auth.createSignInToken({ email: 'mine@cleanup.example.org', purpose: 'login' });
    await t.app.services.auth.createSignInToken({ email: 'theirs@cleanup.example.org', purpose: 'login' });
    await t.db.query(`UPDATE magic_tokens SET expires_at = now() - interval '1 second' WHERE email LIKE '%@cleanup.example.org'`);
    const owner = await as.owner('mine@cleanup.example.org');
    const res = await t.app.inject({ method: 'DELETE', url: '/api/auth/cleanup-tokens', headers: owner.headers });
    assert.equal(res.statusCode, 200);
    const left = await t.db.query<{ email: string }>(`SELECT email FROM magic_tokens WHERE email LIKE '%@cleanup.example.org' AND expires_at <= now()`);
    assert.deepEqual(left.map((r) => r.email), ['theirs@cleanup.example.org']);
    const admin = await as.admin();
    await t.app.inject({ method: 'DELETE', url: '/api/auth/cleanup-tokens', headers: admin.headers });
    assert.equal((await t.db.query(`SELECT 1 FROM magic_tokens WHERE email LIKE '%@cleanup.example.org' AND expires_at <= now()`)).length, 0);
  });
});
