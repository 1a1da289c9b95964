import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { buildApp } from '../../app.js';
import { testConfig, type Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import type { App } from '../../platform/http.js';
import { actors, closeTestEmbeddings, companyFixture, createTestDb, seedCompanies, testEmbeddings, useTestApp, type Agent, type Owner } from '../../../test/helpers/index.js';
import { portRefusal } from './webhooks.delivery.js';

const BASE = '/api/v1/agent';

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A local receiver on 127.0.0.1: records every request and answers each path with its scripted statuses (then 200). */
async function startReceiver() {
  const received: Received[] = [];
  const scripts = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = scripts.get(path)?.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    script: (path: string, statuses: number[]) => scripts.set(path, [...statuses]),
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    at: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Bounded wait for something the job runner does (generous: CI machines are loaded). */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function webhookConfig(over: Partial<Config['webhooks']> = {}, runJobs = true): Config {
  const base = testConfig();
  return testConfig({ runJobs, webhooks: { ...base.webhooks, allowPrivate: true, retryScheduleSeconds: [1, 1], ...over } });
}

describe('webhooks: signed outbound events for agents', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let app: App;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let agentA: Agent;
  let agentB: Agent;
  let owner: Owner;
  let companyId: string;

  const createEndpoint = async (agent: Agent, payload: Record<string, unknown>) => {
    const res = await app.inject({ method: 'POST', url: `${BASE}/webhooks`, headers: agent.headers, payload });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { endpoint: { id: string; enabled: boolean }; secret: string };
  };
  const propose = async (agent: Agent) => {
    const res = await app.inject({
      method: 'POST', url: `${BASE}/proposals`, headers: agent.headers,
      payload: { company_id: companyId, customer_email: 'ann@example.org', customer_name: 'Ann', description: 'A quote for a booking website' },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  };
  const respond = async (proposalId: string, action: string, message?: string) => {
    const res = await app.inject({ method: 'POST', url: `/api/proposals/${proposalId}/respond`, headers: owner.headers, payload: { action, ...(message ? { message } : {}) } });
    assert.equal(res.statusCode, 200, res.body);
  };
  const deliveries = async (agent: Agent, endpointId: string) => {
    const res = await app.inject({ method: 'GET', url: `${BASE}/webhooks/${endpointId}/deliveries`, headers: agent.headers });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().deliveries as {
      id: string;
      status: string;
      attempts: number;
      event_type: string;
      event_id: string;
      response_status: number | null;
      response_ms: number | null;
      next_attempt_at: string | null;
    }[];
  };
  const events = (path: string) => receiver.at(path).map((r) => JSON.parse(r.body) as { id: string; type: string; timestamp: string; data: Record<string, unknown> });

  // Not useTestApp: a test restarts the app on the same store, so the store outlives each app built here.
  before(async () => {
    receiver = await startReceiver();
    ({ db, drop } = await createTestDb());
    // The first app does not work jobs: a delivery recorded there stays pending until the restart test.
    app = await buildApp(webhookConfig({}, false), { db, embeddings: testEmbeddings() });
    await app.ready();
    [companyId] = (await seedCompanies(app, [companyFixture({ name: 'Hooked Clinic', website_url: 'https://hooked.example.com' })])) as [string];
    const as = actors({ app });
    owner = await as.owner('owner@hooked.example.com', 'https://hooked.example.com');
    agentA = await as.agent('Hook agent A', 'a@hook-agents.example.com');
    agentB = await as.agent('Hook agent B', 'b@hook-agents.example.com');
  });
  after(async () => {
    await app?.close();
    await drop?.();
    await receiver?.close();
    await closeTestEmbeddings();
  });

  it('survives a restart: a delivery recorded before the process stopped is sent by the next one', async () => {
    const { endpoint, secret } = await createEndpoint(agentA, { url: receiver.url('/restart'), event_types: ['proposal.responded'] });
    const proposalId = await propose(agentA);
    await respond(proposalId, 'respond', 'Which clinics?');
    const [pending] = await deliveries(agentA, endpoint.id);
    assert.equal(pending?.status, 'pending');
    assert.equal(receiver.at('/restart').length, 0);

    await app.close();
    app = await buildApp(webhookConfig(), { db, embeddings: testEmbeddings() });
    await app.ready();

    const [hit] = await waitFor('the delivery after the restart', () => receiver.at('/restart').length > 0 && receiver.at('/restart'));
    const event = new Webhook(secret).verify(hit!.body, hit!.headers) as { type: string; data: { proposal_id: string; url: string } };
    assert.equal(event.type, 'proposal.responded');
    assert.equal(event.data.proposal_id, proposalId);
    await waitFor('the delivery marked delivered', async () => (await deliveries(agentA, endpoint.id))[0]?.status === 'delivered');
  });

  it("delivers a company's answer as proposal.responded (+ proposal.message), signed and verifiable with standardwebhooks", async () => {
    const { endpoint, secret } = await createEndpoint(agentA, { url: receiver.url('/a'), description: 'main' });
    const proposalId = await propose(agentA);
    await respond(proposalId, 'respond', 'Which clinics? What budget?');
    await waitFor('two events', () => receiver.at('/a').length >= 2);
    const wh = new Webhook(secret);
    const types = receiver.at('/a').map((r) => (wh.verify(r.body, r.headers) as { type: string }).type).sort();
    assert.deepEqual(types, ['proposal.message', 'proposal.responded']);
    const responded = events('/a').find((e) => e.type === 'proposal.responded')!;
    assert.match(responded.id, /^msg_/);
    assert.equal(receiver.at('/a').find((r) => r.body.includes('"proposal.responded"'))!.headers['webhook-id'], responded.id);
    assert.deepEqual(responded.data, {
      proposal_id: proposalId, company_id: companyId, status: 'responded', url: `${testConfig().baseUrl}${BASE}/proposals/${proposalId}`,
      // The request's structured fields (issue 37): this proposal carried none.
      budget: null, needed_by: null, location: null, details: null,
    });
    // The url fetches the full object with the agent's key.
    const full = await app.inject({ method: 'GET', url: new URL(String(responded.data.url)).pathname, headers: agentA.headers });
    assert.equal(full.json().status, 'responded');
    await waitFor('the log says delivered', async () => (await deliveries(agentA, endpoint.id)).every((d) => d.status === 'delivered' && d.response_status === 200 && d.attempts === 1 && d.response_ms !== null));

    // Approve, reject after a reply, soft delete and restore: each its own event.
    await app.inject({ method: 'POST', url: `${BASE}/proposals/${proposalId}/reply`, headers: agentA.headers, payload: { message: 'Three clinics.' } });
    await respond(proposalId, 'approve');
    for (const [method, url] of [['DELETE', `/api/proposals/${proposalId}`], ['POST', `/api/proposals/${proposalId}/restore`]] as const) {
      const res = await app.inject({ method, url, headers: owner.headers });
      assert.equal(res.statusCode, 200, res.body);
    }
    await waitFor('approved, deleted and restored', () => ['proposal.approved', 'proposal.deleted', 'proposal.restored'].every((t) => events('/a').some((e) => e.type === t)));
    assert.equal(events('/a').filter((e) => e.type === 'proposal.message').length, 1, 'an approval without a note adds no message event');
  });

  it('signs with a current timestamp that the signature covers: an old or altered timestamp is refused (replay protection)', async () => {
    const { secret } = await createEndpoint(agentA, { url: receiver.url('/replay'), event_types: ['proposal.approved'] });
    await respond(await propose(agentA), 'approve');
    const [hit] = await waitFor('the event', () => receiver.at('/replay').length > 0 && receiver.at('/replay'));
    const wh = new Webhook(secret);
    const sent = Number(hit!.headers['webhook-timestamp']);
    assert.ok(Math.abs(sent - Date.now() / 1000) < 300, 'the timestamp is the time of the attempt');
    wh.verify(hit!.body, hit!.headers);
    // A replay with a fresh timestamp but the old signature fails: the timestamp is signed.
    assert.throws(() => wh.verify(hit!.body, { ...hit!.headers, 'webhook-timestamp': String(sent + 1) }), /signature/i);
    // A correctly signed but old message (a captured delivery replayed later) is too old.
    const old = new Date(Date.now() - 10 * 60_000);
    const replayed = { ...hit!.headers, 'webhook-timestamp': String(Math.floor(old.getTime() / 1000)), 'webhook-signature': wh.sign(hit!.headers['webhook-id']!, old, hit!.body) };
    assert.throws(() => wh.verify(hit!.body, replayed), /too old/i);
    assert.throws(() => wh.verify(`${hit!.body} `, hit!.headers), /signature/i);
  });

  it('retries after a 500 on the schedule and then delivers (same webhook-id)', async () => {
    receiver.script('/flaky', [500, 503]);
    const { endpoint, secret } = await createEndpoint(agentA, { url: receiver.url('/flaky'), event_types: ['proposal.rejected'] });
    await respond(await propose(agentA), 'reject', 'Not this time');
    await waitFor('three attempts', () => receiver.at('/flaky').length >= 3);
    const hits = receiver.at('/flaky');
    assert.equal(new Set(hits.map((h) => h.headers['webhook-id'])).size, 1);
    for (const h of hits) new Webhook(secret).verify(h.body, h.headers);
    const [d] = await waitFor('delivered after retries', async () => {
      const list = await deliveries(agentA, endpoint.id);
      return list[0]?.status === 'delivered' && list;
    });
    assert.equal(d!.attempts, 3);
    assert.equal(d!.response_status, 200);
    const ep = (await app.inject({ method: 'GET', url: `${BASE}/webhooks/${endpoint.id}`, headers: agentA.headers })).json();
    assert.equal(ep.enabled, true);
    assert.equal(ep.failing_since, null);
    // The operator sees the outcomes.
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(metrics, /webhook_attempts_total\{outcome="retry"\} [1-9]/);
    assert.match(metrics, /webhook_attempts_total\{outcome="delivered"\} [1-9]/);
  });

  it('does not retry after a 410: the endpoint is disabled and its owner told', async () => {
    receiver.script('/gone', [410]);
    const { endpoint } = await createEndpoint(agentA, { url: receiver.url('/gone'), event_types: ['proposal.approved'] });
    await respond(await propose(agentA), 'approve');
    const [d] = await waitFor('the failed delivery', async () => {
      const list = await deliveries(agentA, endpoint.id);
      return list[0]?.status === 'failed' && list;
    });
    assert.equal(d!.attempts, 1);
    assert.equal(d!.response_status, 410);
    const ep = (await app.inject({ method: 'GET', url: `${BASE}/webhooks/${endpoint.id}`, headers: agentA.headers })).json();
    assert.equal(ep.enabled, false);
    assert.equal(ep.disabled_reason, 'gone');
    const mails = await app.services.mail.recent({ to: 'a@hook-agents.example.com' });
    assert.ok(mails.some((m) => m.subject.includes('Webhook endpoint disabled') && m.text_body.includes(receiver.url('/gone'))));
    // Disabled: new events are not recorded for it, and redeliver/test are refused until it is enabled again.
    await respond(await propose(agentA), 'approve');
    assert.equal(receiver.at('/gone').length, 1);
    const test = await app.inject({ method: 'POST', url: `${BASE}/webhooks/${endpoint.id}/test`, headers: agentA.headers });
    assert.equal(test.statusCode, 409);
    const enabled = await app.inject({ method: 'PATCH', url: `${BASE}/webhooks/${endpoint.id}`, headers: agentA.headers, payload: { enabled: true } });
    assert.equal(enabled.json().enabled, true);
    const again = await app.inject({ method: 'POST', url: `${BASE}/webhooks/${endpoint.id}/deliveries/${d!.id}/redeliver`, headers: agentA.headers });
    assert.equal(again.statusCode, 202, again.body);
    assert.equal(again.json().event_id, d!.event_id);
    await waitFor('the redelivery', () => receiver.at('/gone').length === 2);
    assert.equal(receiver.at('/gone')[1]!.headers['webhook-id'], d!.event_id);
  });

  it('disables an endpoint after three deliveries in a row exhausted their retries, and tells its owner', async () => {
    receiver.script('/down', Array.from({ length: 30 }, () => 500));
    const { endpoint } = await createEndpoint(agentA, { url: receiver.url('/down'), event_types: ['proposal.approved'] });
    for (let i = 0; i < 3; i++) await respond(await propose(agentA), 'approve');
    const ep = await waitFor('the endpoint disabled for failing', async () => {
      const got = (await app.inject({ method: 'GET', url: `${BASE}/webhooks/${endpoint.id}`, headers: agentA.headers })).json();
      return got.enabled === false && got;
    });
    assert.equal(ep.disabled_reason, 'failing');
    assert.ok(ep.failing_since);
    const log = await deliveries(agentA, endpoint.id);
    assert.equal(log.length, 3);
    for (const d of log) {
      assert.equal(d.status, 'failed');
      assert.equal(d.attempts, 3, 'one attempt and two retries on the test schedule');
      assert.equal(d.response_status, 500);
    }
    assert.equal(receiver.at('/down').length, 9);
    const mails = await app.services.mail.recent({ to: 'a@hook-agents.example.com' });
    assert.ok(mails.some((m) => m.subject.includes('Webhook endpoint disabled') && m.text_body.includes(receiver.url('/down')) && m.text_body.includes('kept failing')));
  });

  it('rotates the secret: during the grace period both secrets verify, and the new one is shown once', async () => {
    const { endpoint, secret: oldSecret } = await createEndpoint(agentA, { url: receiver.url('/rotate') });
    const res = await app.inject({ method: 'POST', url: `${BASE}/webhooks/${endpoint.id}/rotate-secret`, headers: agentA.headers });
    assert.equal(res.statusCode, 200, res.body);
    const newSecret = res.json().secret as string;
    assert.match(newSecret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.notEqual(newSecret, oldSecret);
    assert.ok(res.json().endpoint.previous_secret_expires_at);
    const test = await app.inject({ method: 'POST', url: `${BASE}/webhooks/${endpoint.id}/test`, headers: agentA.headers });
    assert.equal(test.statusCode, 202, test.body);
    const [hit] = await waitFor('the test event', () => receiver.at('/rotate').length > 0 && receiver.at('/rotate'));
    assert.equal(hit!.headers['webhook-signature']!.split(' ').length, 2);
    assert.equal((new Webhook(oldSecret).verify(hit!.body, hit!.headers) as { type: string }).type, 'webhook.test');
    assert.equal((new Webhook(newSecret).verify(hit!.body, hit!.headers) as { type: string }).type, 'webhook.test');
    // Secrets are never returned again, nor stored in clear.
    for (const url of [`${BASE}/webhooks/${endpoint.id}`, `${BASE}/webhooks`]) {
      const body = (await app.inject({ method: 'GET', url, headers: agentA.headers })).body;
      assert.ok(!body.includes('whsec_') && !body.includes(newSecret.slice(6)));
    }
    const stored = JSON.stringify(await db.query('SELECT * FROM webhook_endpoints WHERE id = $1', [endpoint.id]));
    assert.ok(!stored.includes(newSecret.slice(6)) && !stored.includes(oldSecret.slice(6)));
  });

  it("keeps agents apart: another agent's events never reach my endpoint, and my endpoints are 404 to it", async () => {
    const { endpoint } = await createEndpoint(agentB, { url: receiver.url('/b') });
    await respond(await propose(agentA), 'approve');
    const probe = await createEndpoint(agentA, { url: receiver.url('/a-probe'), event_types: ['proposal.approved'] });
    await respond(await propose(agentA), 'approve');
    await waitFor("agent A's later event", () => receiver.at('/a-probe').length > 0);
    assert.equal(receiver.at('/b').length, 0);
    assert.deepEqual(await deliveries(agentB, endpoint.id), []);
    for (const [method, url, payload] of [
      ['GET', `${BASE}/webhooks/${probe.endpoint.id}`, undefined],
      ['PATCH', `${BASE}/webhooks/${probe.endpoint.id}`, { enabled: false }],
      ['DELETE', `${BASE}/webhooks/${probe.endpoint.id}`, undefined],
      ['POST', `${BASE}/webhooks/${probe.endpoint.id}/rotate-secret`, undefined],
      ['GET', `${BASE}/webhooks/${probe.endpoint.id}/deliveries`, undefined],
      ['POST', `${BASE}/webhooks/${probe.endpoint.id}/test`, undefined],
    ] as const) {
      const res = await app.inject({ method, url, headers: agentB.headers, ...(payload ? { payload } : {}) });
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    const [d] = await deliveries(agentA, probe.endpoint.id);
    const redeliver = await app.inject({ method: 'POST', url: `${BASE}/webhooks/${endpoint.id}/deliveries/${d!.id}/redeliver`, headers: agentB.headers });
    assert.equal(redeliver.statusCode, 404);
    const listed = (await app.inject({ method: 'GET', url: `${BASE}/webhooks`, headers: agentB.headers })).json();
    assert.deepEqual(listed.endpoints.map((e: { id: string }) => e.id), [endpoint.id]);
  });

  it('sends agent.deactivated / agent.reactivated and company.unverified', async () => {
    const agentC = await actors({ app }).agent('Hook agent C', 'c@hook-agents.example.com');
    const { secret } = await createEndpoint(agentC, { url: receiver.url('/c'), event_types: ['agent.deactivated', 'agent.reactivated', 'company.unverified'] });
    await propose(agentC);
    const admin = (await actors({ app }).admin()).headers;
    const off = await app.inject({ method: 'POST', url: `/api/tools/admin/companies/${companyId}/unverify`, headers: admin });
    assert.equal(off.statusCode, 200, off.body);
    for (const action of ['deactivate', 'reactivate']) {
      const res = await app.inject({ method: 'POST', url: `/api/tools/admin/agents/${agentC.id}/${action}`, headers: admin });
      assert.equal(res.statusCode, 200, res.body);
    }
    await waitFor('three events', () => receiver.at('/c').length >= 3);
    const got = receiver.at('/c').map((r) => new Webhook(secret).verify(r.body, r.headers) as { type: string; data: Record<string, unknown> });
    assert.deepEqual(got.map((e) => e.type).sort(), ['agent.deactivated', 'agent.reactivated', 'company.unverified']);
    assert.equal(got.find((e) => e.type === 'company.unverified')!.data.company_id, companyId);
    assert.equal(got.find((e) => e.type === 'agent.deactivated')!.data.url, `${testConfig().baseUrl}${BASE}/me`);
  });

  it('answers 401 without a key, and 422 for bad input', async () => {
    for (const [method, url] of [['GET', `${BASE}/webhooks`], ['POST', `${BASE}/webhooks`]] as const) {
      const res = await app.inject({ method, url, payload: method === 'POST' ? { url: 'nope' } : undefined });
      assert.equal(res.statusCode, 401);
    }
    const cases: Record<string, unknown>[] = [
      { url: 'ftp://example.com/hook' },
      { url: 'not a url at all' },
      { url: 'https://user:pw@example.com/hook' },
      { url: 'https://example.com/hook', event_types: ['proposal.nope'] },
      { url: 'https://example.com/hook', event_types: [] },
      { url: 'https://example.com/hook', extra: true },
    ];
    for (const payload of cases) {
      const res = await app.inject({ method: 'POST', url: `${BASE}/webhooks`, headers: agentA.headers, payload });
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`);
    }
    const bounds = await app.inject({ method: 'GET', url: `${BASE}/webhooks/${crypto.randomUUID()}/deliveries?limit=101`, headers: agentA.headers });
    assert.equal(bounds.statusCode, 422);
  });
});

describe('webhooks: endpoint address rules (production-like settings)', () => {
  const t = useTestApp({ webhooks: { ...testConfig().webhooks, allowPrivate: false, requireHttps: true } });
  let agent: Agent;
  before(async () => {
    agent = await actors(t).agent('Strict agent', 'strict@hook-agents.example.com');
  });

  it('refuses private, loopback and link-local addresses and plain http with a 422 that says why', async () => {
    for (const url of ['https://127.0.0.1/hook', 'https://10.1.2.3/hook', 'https://169.254.169.254/latest', 'https://[::1]/hook', 'https://localhost/hook', 'https://[::ffff:192.168.0.1]/x']) {
      const res = await t.app.inject({ method: 'POST', url: `${BASE}/webhooks`, headers: agent.headers, payload: { url } });
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`);
      assert.match(res.json().detail[0].msg, /public address/);
    }
    const http = await t.app.inject({ method: 'POST', url: `${BASE}/webhooks`, headers: agent.headers, payload: { url: 'http://93.184.216.34/hook' } });
    assert.equal(http.statusCode, 422);
    assert.match(http.json().detail[0].msg, /https/);
    const ok = await t.app.inject({ method: 'POST', url: `${BASE}/webhooks`, headers: agent.headers, payload: { url: 'https://93.184.216.34/hook' } });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.match(ok.json().secret, /^whsec_/);
  });

  it('refuses ports outside the allowed ones on public hosts, on create and on update (issue 35.5: no port probing through the delivery log)', async () => {
    for (const url of ['https://93.184.216.34:22/hook', 'https://93.184.216.34:6379/', 'https://93.184.216.34:8443/hook']) {
      const res = await t.app.inject({ method: 'POST', url: `${BASE}/webhooks`, headers: agent.headers, payload: { url } });
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`);
      assert.match(res.json().detail[0].msg, /port \d+ is not allowed: use 80 or 443/);
    }
    const created = await t.app.inject({ method: 'POST', url: `${BASE}/webhooks`, headers: agent.headers, payload: { url: 'https://93.184.216.34:443/other' } });
    assert.equal(created.statusCode, 201, created.body);
    const moved = await t.app.inject({ method: 'PATCH', url: `${BASE}/webhooks/${created.json().id}`, headers: agent.headers, payload: { url: 'https://93.184.216.34:25/other' } });
    assert.equal(moved.statusCode, 422, moved.body);
  });

  it('the sender checks the port again at delivery time (an endpoint stored before the rule)', () => {
    const addr = [{ address: '93.184.216.34', family: 4 as const }];
    assert.match(String(portRefusal(new URL('https://93.184.216.34:22/'), [80, 443], false, addr)), /port 22 is not allowed/);
    assert.equal(portRefusal(new URL('https://93.184.216.34/'), [80, 443], false, addr), null);
    assert.equal(portRefusal(new URL('http://127.0.0.1:3000/'), [80, 443], true, [{ address: '127.0.0.1', family: 4 as const }]), null, 'a local receiver in development');
    assert.match(String(portRefusal(new URL('http://93.184.216.34:3000/'), [80, 443], true, addr)), /not allowed/, 'allowing private addresses never opens public ports');
  });
});
