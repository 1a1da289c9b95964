import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../app.js';
import { testConfig } from '../../config.js';
import type { App } from '../../platform/http.js';
import { closeTestEmbeddings, createTestDb, registerAgent, testEmbeddings, useTestApp } from '../../../test/helpers/index.js';
import type { MailDnsResolver } from '../../platform/mail-dns.js';

const BASE = '/api/v1/agent';

describe('agent registration and keys', () => {
  const t = useTestApp();

  it('registers with the exact spec 2.3 envelope and 201', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: 'Travel <b>Bot</b>', owner_email: 'Owner@Example.com' } });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['agent', 'api_key', 'message', 'usage']);
    assert.deepEqual(Object.keys(body.agent).sort(), ['id', 'is_active', 'name', 'owner_email']);
    assert.equal(body.agent.name, 'Travel Bot');
    assert.equal(body.agent.owner_email, 'owner@example.com');
    assert.equal(body.agent.is_active, true);
    assert.match(body.api_key, /^agp_live_[0-9A-Za-z]{38}$/);
    assert.equal(body.usage.header, `X-API-Key: ${body.api_key}`);
    assert.deepEqual(body.usage.mcp_config, {
      mcpServers: { agentpages: { url: `${t.config.baseUrl}/mcp`, headers: { 'X-API-Key': body.api_key } } },
    });
    // only the hash is stored
    const rows = await t.db.query<{ api_key_hash: string }>('SELECT api_key_hash FROM agents WHERE id = $1', [body.agent.id]);
    assert.match(rows[0]!.api_key_hash, /^[0-9a-f]{64}$/);
    assert.notEqual(rows[0]!.api_key_hash, body.api_key);
  });

  it('refuses a second agent for the same email, case-insensitively (409)', async () => {
    await registerAgent(t.app, 'First', 'dup@example.org');
    for (const email of ['dup@example.org', 'DUP@Example.ORG']) {
      const res = await t.app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: 'Second', owner_email: email } });
      assert.equal(res.statusCode, 409);
      assert.match(res.json().detail, /already exists/);
    }
  });

  it('refuses disposable inboxes (422 on owner_email)', async () => {
    for (const email of ['x@mailinator.com', 'y@10minutemail.com']) {
      const res = await t.app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: 'Throwaway', owner_email: email } });
      assert.equal(res.statusCode, 422, email);
      assert.deepEqual(res.json().detail[0].loc, ['body', 'owner_email']);
      assert.match(res.json().detail[0].msg, /Disposable/);
    }
  });

  it('validates the body (422 FastAPI shape)', async () => {
    const cases: [unknown, (string | number)[]][] = [
      [{ owner_email: 'a@b.com' }, ['body', 'name']],
      [{ name: 'x' }, ['body', 'owner_email']],
      [{ name: 'x', owner_email: 'not-an-email' }, ['body', 'owner_email']],
      [{ name: '', owner_email: 'a@b.com' }, ['body', 'name']],
      [{ name: 'x'.repeat(101), owner_email: 'a@b.com' }, ['body', 'name']],
      [{ name: '<b></b>', owner_email: 'a@b.com' }, ['body', 'name']],
      [{ name: 'x', owner_email: 'a@b.com', extra: 1 }, ['body', 'extra']],
    ];
    for (const [payload, loc] of cases) {
      const res = await t.app.inject({ method: 'POST', url: `${BASE}/register`, payload: payload as object });
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
      assert.deepEqual(res.json().detail[0].loc, loc, JSON.stringify(payload));
    }
  });

  it('GET /me with the key; 401 says missing, malformed or unknown', async () => {
    const { id, key } = await registerAgent(t.app, 'Me Bot', 'me@example.net');
    const ok = await t.app.inject({ method: 'GET', url: `${BASE}/me`, headers: { 'x-api-key': key } });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.json().id, id);
    assert.equal(ok.json().owner_email, 'me@example.net');
    assert.ok(ok.json().created_at && ok.json().key_created_at);

    const missing = await t.app.inject({ method: 'GET', url: `${BASE}/me` });
    assert.equal(missing.statusCode, 401);
    assert.match(missing.json().detail, /Missing API key/);
    const malformed = await t.app.inject({ method: 'GET', url: `${BASE}/me`, headers: { 'x-api-key': `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}` } });
    assert.equal(malformed.statusCode, 401);
    assert.match(malformed.json().detail, /Malformed/);
    const { generateApiKey } = await import('../../lib/api-key.js');
    const unknown = await t.app.inject({ method: 'GET', url: `${BASE}/me`, headers: { 'x-api-key': generateApiKey('agp') } });
    assert.equal(unknown.statusCode, 401);
    assert.match(unknown.json().detail, /unknown or was rotated/);
  });

  it('PUT /me changes only supplied fields and keeps one agent per email', async () => {
    const a = await registerAgent(t.app, 'Alpha', 'alpha@example.com');
    await registerAgent(t.app, 'Beta', 'beta@example.com');
    const h = { 'x-api-key': a.key };
    let res = await t.app.inject({ method: 'PUT', url: `${BASE}/me`, headers: h, payload: { name: 'Alpha 2' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().name, 'Alpha 2');
    assert.equal(res.json().owner_email, 'alpha@example.com');
    res = await t.app.inject({ method: 'PUT', url: `${BASE}/me`, headers: h, payload: { name: null, owner_email: 'Alpha.New@Example.com' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().name, 'Alpha 2');
    assert.equal(res.json().owner_email, 'alpha.new@example.com');
    res = await t.app.inject({ method: 'PUT', url: `${BASE}/me`, headers: h, payload: {} });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().owner_email, 'alpha.new@example.com');
    res = await t.app.inject({ method: 'PUT', url: `${BASE}/me`, headers: h, payload: { owner_email: 'BETA@example.com' } });
    assert.equal(res.statusCode, 409);
    res = await t.app.inject({ method: 'PUT', url: `${BASE}/me`, headers: h, payload: { owner_email: 'z@mailinator.com' } });
    assert.equal(res.statusCode, 422);
    res = await t.app.inject({ method: 'PUT', url: `${BASE}/me`, headers: h, payload: { name: '<b> </b>' } });
    assert.equal(res.statusCode, 422);
    res = await t.app.inject({ method: 'PUT', url: `${BASE}/me`, payload: { name: 'x' } });
    assert.equal(res.statusCode, 401);
  });

  it('rotate-key: the new key works, the old one fails at once', async () => {
    const a = await registerAgent(t.app, 'Rotator', 'rotate@example.com');
    const res = await t.app.inject({ method: 'POST', url: `${BASE}/rotate-key`, headers: { 'x-api-key': a.key } });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.notEqual(body.api_key, a.key);
    assert.equal(body.usage.mcp_config.mcpServers.agentpages.headers['X-API-Key'], body.api_key);
    const old = await t.app.inject({ method: 'GET', url: `${BASE}/me`, headers: { 'x-api-key': a.key } });
    assert.equal(old.statusCode, 401);
    assert.match(old.json().detail, /rotated/);
    const fresh = await t.app.inject({ method: 'GET', url: `${BASE}/me`, headers: { 'x-api-key': body.api_key } });
    assert.equal(fresh.statusCode, 200);
    assert.equal((await t.app.inject({ method: 'POST', url: `${BASE}/rotate-key` })).statusCode, 401);
  });

  it('DELETE /me deactivates: every key call is 401 afterwards, the email stays taken', async () => {
    const a = await registerAgent(t.app, 'Leaver', 'leaver@example.com');
    const res = await t.app.inject({ method: 'DELETE', url: `${BASE}/me`, headers: { 'x-api-key': a.key } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().agent.is_active, false);
    for (const [method, url] of [['GET', '/me'], ['DELETE', '/me'], ['POST', '/rotate-key'], ['GET', '/proposals']] as const) {
      const r = await t.app.inject({ method, url: `${BASE}${url}`, headers: { 'x-api-key': a.key } });
      assert.equal(r.statusCode, 401, url);
      assert.match(r.json().detail, /deactivated/);
    }
    const again = await t.app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: 'Back', owner_email: 'leaver@example.com' } });
    assert.equal(again.statusCode, 409);
  });

  it('sends rate-limit headers on agent API calls only', async () => {
    const a = await registerAgent(t.app, 'Headers', 'headers@example.com');
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/me`, headers: { 'x-api-key': a.key } });
    assert.equal(res.headers['ratelimit-policy'], `"per-key";q=${t.config.rateLimit.agentPerMinute};w=60`);
    assert.match(String(res.headers.ratelimit), /^"per-key";r=\d+;t=\d+$/);
    const anon = await t.app.inject({ method: 'GET', url: `${BASE}/categories` });
    assert.equal(anon.headers['ratelimit-policy'], `"per-ip";q=${t.config.rateLimit.ipPerMinute};w=60`);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    assert.equal(health.headers['ratelimit-policy'], undefined);
  });
});

describe('agent API rate limits and the MX check', () => {
  let app: App;
  let drop: () => Promise<void>;
  const dnsCalls: string[] = [];
  const fakeDns: MailDnsResolver = {
    async resolveMx(d) {
      dnsCalls.push(d);
      if (d === 'mail-ok.test') return [{ exchange: 'mx.mail-ok.test', priority: 10 }];
      if (d === 'null-mx.test') return [{ exchange: '', priority: 0 }];
      throw Object.assign(new Error('no'), { code: 'ENODATA' });
    },
    async resolve4(d) {
      if (d === 'a-only.test') return ['192.0.2.1'];
      throw Object.assign(new Error('no'), { code: d === 'flaky.test' ? 'ETIMEOUT' : 'ENOTFOUND' });
    },
    async resolve6() {
      throw Object.assign(new Error('no'), { code: 'ENODATA' });
    },
  };

  before(async () => {
    const store = await createTestDb();
    drop = store.drop;
    const config = testConfig({ emailCheckMx: true, rateLimit: { agentPerMinute: 3, ipPerMinute: 5 } });
    app = await buildApp(config, { db: store.db, embeddings: testEmbeddings(), mailDns: fakeDns });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await drop();
    await closeTestEmbeddings();
  });

  it('requires an MX or address record when EMAIL_CHECK_MX is on (fails open on DNS errors)', async () => {
    const ok = ['a@mail-ok.test', 'b@a-only.test', 'c@flaky.test'];
    const bad = ['d@nowhere.test', 'e@null-mx.test'];
    for (const [i, email] of [...ok, ...bad].entries()) {
      const res = await app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: `MX ${i}`, owner_email: email }, remoteAddress: `10.0.0.${i + 1}` });
      assert.equal(res.statusCode, ok.includes(email) ? 201 : 422, `${email}: ${res.body}`);
      if (res.statusCode === 422) assert.match(res.json().detail[0].msg, /does not accept mail/);
    }
    assert.ok(dnsCalls.includes('mail-ok.test'));
  });

  it('limits per key and per IP with RateLimit headers and Retry-After on 429', async () => {
    const res0 = await app.inject({ method: 'POST', url: `${BASE}/register`, payload: { name: 'Limited', owner_email: 'limit@mail-ok.test' }, remoteAddress: '10.1.0.1' });
    const key = res0.json().api_key as string;
    const codes: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await app.inject({ method: 'GET', url: `${BASE}/me`, headers: { 'x-api-key': key }, remoteAddress: `10.1.1.${i + 1}` });
      codes.push(last.statusCode);
    }
    assert.deepEqual(codes, [200, 200, 200, 429]);
    assert.equal(last!.json().detail.startsWith('Too many requests'), true);
    assert.ok(Number(last!.headers['retry-after']) > 0);
    assert.equal(last!.headers['ratelimit-policy'], '"per-key";q=3;w=60');
    assert.match(String(last!.headers.ratelimit), /^"per-key";r=0;t=\d+$/);

    // Without a key: the IP bucket (5 per minute), independent of the key's bucket.
    const ipCodes: number[] = [];
    for (let i = 0; i < 6; i++) {
      ipCodes.push((await app.inject({ method: 'GET', url: `${BASE}/categories`, remoteAddress: '10.2.0.1' })).statusCode);
    }
    assert.deepEqual(ipCodes, [200, 200, 200, 200, 200, 429]);
    // Random malformed keys do not escape the IP bucket.
    const spray = await app.inject({ method: 'GET', url: `${BASE}/categories`, headers: { 'x-api-key': 'agp_live_garbage' }, remoteAddress: '10.2.0.1' });
    assert.equal(spray.statusCode, 429);
    // Another IP is unaffected.
    assert.equal((await app.inject({ method: 'GET', url: `${BASE}/categories`, remoteAddress: '10.2.0.2' })).statusCode, 200);
  });
});
