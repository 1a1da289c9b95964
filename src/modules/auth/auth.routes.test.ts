import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { actors, bearer, companyFixture, seedCompanies, signInOwner, useTestApp } from '../../../test/helpers/index.js';
import { startSmtpSink } from '../../../test/fakes/smtp.js';

type Sink = Awaited<ReturnType<typeof startSmtpSink>>;

describe('owner magic-link sign-in (real SMTP server)', () => {
  let smtp: Sink;
  let n = 0;
  const uniqueEmail = (domain = 'example-owner.com') => `person${++n}@${domain}`;

  before(async () => {
    smtp = await startSmtpSink();
  });
  const t = useTestApp(() => ({ smtpUrl: smtp.url, runJobs: true, baseUrl: 'https://agentpages.test' }));
  const as = actors(t);
  after(async () => {
    await smtp.close();
  });

  const request = (payload: Record<string, unknown>, ip = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/auth/magic-link', payload, remoteAddress: ip });

  /** Requests a link and returns the token read from the delivered mail. */
  async function linkFor(email: string, extra: Record<string, unknown> = {}): Promise<{ token: string; purpose: string; link: string }> {
    const seen = new Set(smtp.messages);
    const res = await request({ email, ...extra });
    assert.equal(res.statusCode, 200, res.body);
    const mail = await smtp.waitFor((m) => !seen.has(m) && m.to.includes(email.toLowerCase()));
    const m = /(https:\/\/agentpages\.test\/api\/auth\/confirm\?token=([A-Za-z0-9_-]+)&purpose=(\w+))/.exec(mail.text);
    assert.ok(m, 'the mail carries a confirm link built from BASE_URL');
    return { link: m[1]!, token: m[2]!, purpose: m[3]! };
  }

  const verify = (token: string, purpose = 'login') => t.app.inject({ method: 'GET', url: `/api/auth/verify-magic?token=${token}&purpose=${purpose}` });
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });

  it('request a link, read the mail, verify, call /api/auth/me', async () => {
    const email = uniqueEmail();
    const { token, purpose } = await linkFor(email);
    assert.equal(purpose, 'login');
    assert.ok(token.length >= 40, 'at least 128 random bits');
    const mail = smtp.messages.find((m) => m.to.includes(email))!;
    assert.match(mail.text, /Subject: Your AgentPages sign-in link/);
    assert.match(mail.raw, /Content-Type: text\/html/, 'plain text plus HTML');

    const res = await verify(token);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.token_type, 'bearer');
    assert.equal(body.user.email, email);
    assert.deepEqual(body.user.company_ids, []);
    assert.equal(body.company_id, null);

    const profile = await me(body.access_token);
    assert.equal(profile.statusCode, 200, profile.body);
    assert.equal(profile.json().user.id, body.user.id);
    assert.equal((await me(profile.json().access_token)).statusCode, 200, 'the fresh token works');

    // Signing in again is the same account (login and sign-up are one flow).
    const again = await linkFor(email.toUpperCase());
    const second = await verify(again.token);
    assert.equal(second.json().user.id, body.user.id);
  });

  it('a GET on the emailed link shows a confirm page and does not use the token; the button (POST) does', async () => {
    const email = uniqueEmail();
    const { link, token } = await linkFor(email);
    const path = link.replace('https://agentpages.test', '');
    for (let i = 0; i < 2; i++) {
      const page = await t.app.inject({ method: 'GET', url: path });
      assert.equal(page.statusCode, 200);
      assert.match(page.headers['content-type'] as string, /text\/html/);
      assert.match(page.body, /<form method="post" action="confirm">/);
      assert.equal(page.headers['cache-control'], 'no-store');
    }
    const post = await t.app.inject({ method: 'POST', url: '/api/auth/confirm', payload: `token=${token}&purpose=login`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(post.statusCode, 200, post.body);
    assert.match(post.body, /Signed in/);
    assert.ok(post.body.includes(email));
    const replay = await t.app.inject({ method: 'POST', url: '/api/auth/confirm', payload: `token=${token}&purpose=login`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(replay.statusCode, 400);
    assert.match(replay.body, /already used/);
  });

  it('refuses a replayed, expired, wrong-purpose or unknown token', async () => {
    const email = uniqueEmail();
    const first = await linkFor(email);
    assert.equal((await verify(first.token)).statusCode, 200);
    const replay = await verify(first.token);
    assert.equal(replay.statusCode, 400);
    assert.match(replay.json().detail, /already used/);

    const wrong = await linkFor(email);
    const wrongPurpose = await verify(wrong.token, 'verify');
    assert.equal(wrongPurpose.statusCode, 400);
    assert.match(wrongPurpose.json().detail, /issued for purpose 'login'/);
    assert.equal((await verify(wrong.token, 'login')).statusCode, 200, 'a wrong-purpose attempt does not burn the token');

    const late = await linkFor(email);
    await t.app.services.auth.expireMagicTokensOf(email);
    const expired = await verify(late.token);
    assert.equal(expired.statusCode, 400);
    assert.match(expired.json().detail, /expired/);

    const unknown = await verify('A'.repeat(43));
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().detail, /unknown/);

    const invalidPurpose = await verify(first.token, 'admin');
    assert.equal(invalidPurpose.statusCode, 422);
    assert.deepEqual(invalidPurpose.json().detail[0].loc, ['query', 'purpose']);
    const missing = await t.app.inject({ method: 'GET', url: '/api/auth/verify-magic' });
    assert.equal(missing.statusCode, 422);
  });

  it('answers the same whether or not the address has an account', async () => {
    const known = uniqueEmail();
    await signInOwner(t, known);
    const a = await request({ email: known });
    const b = await request({ email: uniqueEmail() });
    assert.equal(a.statusCode, 200);
    assert.equal(b.statusCode, 200);
    assert.deepEqual(a.json(), b.json());
  });

  it('verify: email domain must match the website; the user becomes an owner (company created when missing)', async () => {
    const mismatch = await request({ email: 'jane@other-company.com', purpose: 'verify', website_url: 'https://www.acme-widgets.com' });
    assert.equal(mismatch.statusCode, 400);
    assert.match(mismatch.json().detail, /does not match the website domain \(acme-widgets\.com\)/);
    const freeMail = await request({ email: 'jane@gmail.com', purpose: 'verify', website_url: 'gmail.com' });
    assert.equal(freeMail.statusCode, 400);
    assert.match(freeMail.json().detail, /public email provider/);
    const parentClaim = await request({ email: 'jane@mail.acme-widgets.com', purpose: 'crawl', website_url: 'acme-widgets.com' });
    assert.equal(parentClaim.statusCode, 400, 'a sub-domain address cannot claim the parent domain');
    const noSite = await request({ email: 'jane@acme-widgets.com', purpose: 'verify' });
    assert.equal(noSite.statusCode, 422);
    assert.deepEqual(noSite.json().detail[0].loc, ['body', 'website_url']);
    const badSite = await request({ email: 'jane@acme-widgets.com', purpose: 'verify', website_url: 'not a site' });
    assert.equal(badSite.statusCode, 422);
    const outbox = await t.app.services.mail.recent({ limit: 500 });
    assert.ok(!outbox.some((m) => /other-company|gmail|mail\.acme-widgets/.test(m.to_address) || (m.to_address === 'jane@acme-widgets.com')), 'no mail sent for refused requests');

    const { token, purpose } = await linkFor('Jane@Acme-Widgets.com', { purpose: 'verify', website_url: 'https://www.acme-widgets.com/contact' });
    assert.equal(purpose, 'verify');
    const res = await verify(token, 'verify');
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.ok(body.company_id);
    assert.deepEqual(body.user.company_ids, [body.company_id]);
    const company = await t.app.services.companies.getById(body.company_id);
    assert.equal(company.domain, 'acme-widgets.com');
    assert.equal(company.name, 'Acme Widgets');
    assert.equal(company.is_verified, false);
    assert.equal(await t.app.services.ownership.owns(body.user.id, body.company_id), true);
    assert.deepEqual(await t.app.services.ownership.companyIdsOf(body.user.id), [body.company_id]);

    // A parent-domain address may claim a sub-domain site.
    const shop = await signInOwner(t, 'bob@acme-widgets.com', 'https://shop.acme-widgets.com');
    assert.ok(shop.companyId && shop.companyId !== body.company_id);

    // Another owner does not own it.
    const other = await signInOwner(t, uniqueEmail());
    assert.equal(await t.app.services.ownership.owns(other.userId, body.company_id), false);
  });

  it('verify reuses an existing company and leaves its profile untouched', async () => {
    const [id] = await seedCompanies(t.app, [companyFixture({ name: 'Existing Plumbing Ltd', website_url: 'https://existing-plumbing.com', is_verified: true })]);
    const owner = await signInOwner(t, 'boss@existing-plumbing.com', 'existing-plumbing.com');
    assert.equal(owner.companyId, id);
    const company = await t.app.services.companies.getById(id!);
    assert.equal(company.name, 'Existing Plumbing Ltd');
    assert.equal(company.is_verified, true);
    const profile = await me(owner.token);
    assert.deepEqual(profile.json().user.company_ids, [id]);
  });

  it('crawl: ownership plus a queued crawl of the verified site, whose job is returned', async () => {
    const { token } = await linkFor('ops@crawl-me.io', { purpose: 'crawl', website_url: 'crawl-me.io' });
    const res = await verify(token, 'crawl');
    assert.equal(res.statusCode, 200, res.body);
    const job = res.json().crawl_job;
    assert.ok(job, res.body);
    assert.equal(job.status, 'queued');
    assert.equal(job.job.company_id, res.json().company_id);
    assert.equal(job.job.url, 'https://crawl-me.io/');
    assert.equal(await t.app.services.ownership.owns(res.json().user.id, res.json().company_id), true);
  });

  it('rate-limits link requests per address and per client', async () => {
    const email = uniqueEmail('limits.example.org');
    for (let i = 0; i < 5; i++) assert.equal((await request({ email }, '10.9.9.1')).statusCode, 200);
    // Counted per (address, client): the same client is stopped, the real person elsewhere is not.
    assert.equal((await request({ email }, '10.9.9.2')).statusCode, 200);
    const limited = await request({ email }, '10.9.9.1');
    assert.equal(limited.statusCode, 429);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal(typeof limited.json().detail, 'string');
    // per client: many addresses from one IP
    let last = 200;
    for (let i = 0; i < 31 && last === 200; i++) last = (await request({ email: uniqueEmail('many.example.org') }, '10.9.9.3')).statusCode;
    assert.equal(last, 429);
  });

  it('validates the request body (422 shape)', async () => {
    const res = await request({ email: 'not-an-email', purpose: 'login' });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().detail[0].loc, ['body', 'email']);
    const purpose = await request({ email: uniqueEmail(), purpose: 'steal' });
    assert.equal(purpose.statusCode, 422);
    assert.deepEqual(purpose.json().detail[0].loc, ['body', 'purpose']);
    const disposable = await request({ email: 'x@mailinator.com' });
    assert.equal(disposable.statusCode, 422);
    // POST /api/auth/login is the same flow
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: uniqueEmail() } });
    assert.equal(login.statusCode, 200);
    assert.equal(login.json().purpose, 'login');
  });

  it('requires a valid bearer token: missing, malformed, forged and revoked tokens are 401', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Token abc' } })).statusCode, 401);
    assert.equal((await me('not.a.jwt')).statusCode, 401);
    const { token } = await signInOwner(t, uniqueEmail());
    const [h, p] = token.split('.');
    assert.equal((await me(`${h}.${p}.${'x'.repeat(43)}`)).statusCode, 401, 'forged signature');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const escalated = Buffer.from(JSON.stringify({ ...claims, kind: 'admin' })).toString('base64url');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/admin/me', headers: bearer(`${h}.${escalated}.${token.split('.')[2]}`) })).statusCode, 401);
  });

  it('sign-out and account removal revoke tokens', async () => {
    const email = uniqueEmail();
    const a = await as.owner(email);
    const b = await as.owner(email);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: a.headers });
    assert.equal(out.statusCode, 200);
    assert.equal((await me(a.token)).statusCode, 401, 'signed-out token is refused');
    assert.equal((await me(b.token)).statusCode, 200, 'another session stays');

    const owner = await as.owner('leaver@leaving-co.com', 'leaving-co.com');
    const del = await t.app.inject({ method: 'DELETE', url: '/api/auth/me', headers: owner.headers });
    assert.equal(del.statusCode, 200);
    assert.equal((await me(owner.token)).statusCode, 401);
    assert.equal(await t.app.services.ownership.owns(owner.userId, owner.companyId!), false);
    const back = await signInOwner(t, 'leaver@leaving-co.com');
    assert.notEqual(back.userId, owner.userId, 'signing up again is a new account');
  });

  it('cleans up expired magic tokens', async () => {
    const email = uniqueEmail();
    await t.app.services.auth.createSignInToken({ email, purpose: 'login' });
    await t.app.services.auth.expireMagicTokensOf(email);
    const owner = await as.owner(email);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/auth/cleanup-tokens', headers: owner.headers });
    assert.equal(res.statusCode, 200);
    assert.ok(res.json().deleted >= 1);
    assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/auth/cleanup-tokens' })).statusCode, 401);
  });
});
