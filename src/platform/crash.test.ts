import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { testConfig } from '../config.js';
import { createServices } from '../services.js';
import { bearer, closeTestEmbeddings, createTestDatabaseUrl, companyFixture, testEmbeddings } from '../../test/helpers/index.js';
import { startSmtpSink } from '../../test/fakes/smtp.js';
import { patience, until } from '../../test/helpers/timing.js';
import { freePort } from '../lib/free-port.js';
import { openDb } from './db.js';

/**
 * Crash safety (issue 20): the real server process is killed with SIGKILL while agents create
 * proposals (with idempotency keys) and reply, and the owner answers; after a restart on the same
 * store, every acknowledged write is there exactly once, retrying every key creates nothing twice,
 * and the queued notification mails still go out. On PGlite (a data folder) and on PostgreSQL.
 * Nothing here depends on the machine's speed: every wait ends on what it waits for (a health
 * answer, acknowledged writes, a webhook, a mail), bounded only against a hang (test/helpers/timing.ts).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKERS = 4;
const PAYMENT_WEBHOOK_SECRET = 'whsec_crashtest_0123456789abcdef';
/** The kill comes no sooner than this into the writes (and only once enough of them were acknowledged). */
const KILL_AFTER_MS = 1500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Whether a child process has ended (a signal leaves exitCode null). */
const ended = (proc: ChildProcess) => proc.exitCode !== null || proc.signalCode !== null;

/** Records the proposal ids of the webhook events it receives (and every webhook-id, for duplicates). */
async function startWebhookReceiver() {
  const events: { webhookId: string; type: string; proposalId: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      try {
        const e = JSON.parse(body) as { type: string; data: { proposal_id: string } };
        events.push({ webhookId: String(req.headers['webhook-id']), type: e.type, proposalId: e.data.proposal_id });
      } catch {
        // not an event
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { events, url: `http://127.0.0.1:${port}/hooks`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('crash safety: SIGKILL during writes, then restart', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let dataDir: string;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let env: NodeJS.ProcessEnv;
  let base: string;
  let child: ChildProcess | undefined;
  let companyId: string;
  const ownerEmail = 'owner@crash-safe.example.com';

  async function startServer(): Promise<void> {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: ROOT, env, stdio: ['ignore', process.env.CRASH_LOG_FILE ? fs.openSync(process.env.CRASH_LOG_FILE, 'a') : 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr?.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-4000);
    });
    child = proc;
    // Started is when /api/health answers, however long that takes; the bound is for a server that hangs.
    const bound = patience(5 * 60_000);
    const deadline = Date.now() + bound;
    for (;;) {
      if (ended(proc)) throw new Error(`server exited (${proc.exitCode ?? proc.signalCode}): ${stderr}`);
      const ok = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`server did not answer /api/health within ${Math.round(bound / 1000)} s: ${stderr}`);
      await sleep(200);
    }
  }

  async function kill(): Promise<void> {
    const proc = child;
    // A process killed by a signal keeps exitCode null (signalCode says how it ended): it will not exit again.
    if (!proc || ended(proc)) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  }

  const call = async (method: string, url: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  before(async () => {
    smtp = await startSmtpSink();
    hooks = await startWebhookReceiver();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agp-crash-'));
    if (process.env.TEST_STORE === 'postgres') database = await createTestDatabaseUrl();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      BASE_URL: base,
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      SMTP_URL: smtp.url,
      SEED_DEMO: 'false',
      LOG_LEVEL: process.env.CRASH_LOG_LEVEL ?? 'error',
      RUN_JOBS: 'true',
      EMAIL_CHECK_MX: 'false',
      RATE_LIMIT_AGENT_PER_MINUTE: '100000',
      RATE_LIMIT_IP_PER_MINUTE: '100000',
      // The restarted process must open the signing secrets the first one stored.
      WEBHOOKS_SECRET_KEY: 'crash-test-webhook-key-that-survives-a-restart',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_RETRY_SCHEDULE: '1,2,5',
      STRIPE_WEBHOOK_SECRET: PAYMENT_WEBHOOK_SECRET,
    };
    // The verified company the agents write to, stored before the server first opens the store.
    const config = testConfig({}, { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) });
    const core = await createServices({ ...config, runJobs: false }, Fastify({ logger: false }).log, { embeddings: testEmbeddings() });
    try {
      const { ids } = await core.services.companies.upsertMany([companyFixture({ name: 'Crash Safe Plumbing', website_url: 'https://crash-safe.example.com', is_verified: true })]);
      companyId = ids[0]!;
    } finally {
      await core.close();
    }
    await startServer();
  });
  after(async () => {
    await kill();
    await smtp.close();
    await hooks.close();
    await database?.drop();
    if (process.env.CRASH_KEEP) console.log('kept', dataDir); else fs.rmSync(dataDir, { recursive: true, force: true });
    await closeTestEmbeddings();
  });

  it('keeps every acknowledged proposal, response and reply exactly once, and still sends the queued mail', async () => {
    // An owner (magic link through the SMTP sink) and an agent.
    assert.equal((await call('POST', '/api/auth/magic-link', {}, { email: ownerEmail, purpose: 'verify', website_url: 'https://crash-safe.example.com' })).status, 200);
    const link = await smtp.waitFor((m) => m.to.includes(ownerEmail) && /token=/.test(m.text), patience(5 * 60_000));
    const token = /token=([A-Za-z0-9_-]+)/.exec(link.text)![1]!;
    const signedIn = await call('GET', `/api/auth/verify-magic?token=${token}&purpose=verify`, {});
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.equal(signedIn.body.company_id, companyId);
    const owner = bearer(signedIn.body.access_token);
    const registered = await call('POST', '/api/v1/agent/register', {}, { name: 'Crash test agent', owner_email: 'agent-owner@crash-agents.example.com' });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const agent = { 'x-api-key': registered.body.api_key as string };
    const endpoint = await call('POST', '/api/v1/agent/webhooks', agent, { url: hooks.url, event_types: ['proposal.responded'] });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));

    // Concurrent writes until the kill: each acknowledged one is recorded.
    const attempted: { key: string; body: Record<string, unknown> }[] = [];
    const created = new Map<string, string>(); // idempotency key → proposal id (acknowledged)
    const responses: { id: string; text: string }[] = [];
    const replies: { id: string; text: string }[] = [];
    let stop = false;
    const creator = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const key = `crash-${w}-${i}-${randomUUID()}`;
        const body = { company_id: companyId, customer_email: `customer${w}.${i}@example.org`, customer_name: `Customer ${w}.${i}`, description: `Leaking pipe number ${w}.${i}` };
        attempted.push({ key, body });
        const res = await call('POST', '/api/v1/agent/proposals', { ...agent, 'idempotency-key': key }, body).catch(() => undefined);
        if (res?.status === 201) created.set(key, res.body.id);
        else if (res) assert.fail(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
      }
    };
    const answerer = async () => {
      while (!stop) {
        const pending = [...created.values()].filter((id) => !responses.some((r) => r.id === id)).slice(0, 3);
        if (!pending.length) await sleep(20);
        for (const id of pending) {
          const text = `Owner answer to ${id}`;
          const res = await call('POST', `/api/proposals/${id}/respond`, owner, { action: 'respond', message: text }).catch(() => undefined);
          if (res?.status === 200) {
            responses.push({ id, text });
            const replyText = `Agent reply to ${id}`;
            const reply = await call('POST', `/api/v1/agent/proposals/${id}/reply`, agent, { message: replyText }).catch(() => undefined);
            if (reply?.status === 200 || reply?.status === 201) replies.push({ id, text: replyText });
          }
        }
      }
    };
    // Payment webhooks (the provider's events about invoices this store does not know: processed as no-ops).
    const paymentEvents: string[] = []; // acknowledged event ids
    const paymentEvent = (id: string) => {
      const raw = JSON.stringify({ id, type: 'invoice.paid', created: Math.floor(Date.now() / 1000), data: { object: { id: `in_${id}`, object: 'invoice' } } });
      const t = Math.floor(Date.now() / 1000);
      const signature = `t=${t},v1=${createHmac('sha256', PAYMENT_WEBHOOK_SECRET).update(`${t}.${raw}`).digest('hex')}`;
      return fetch(`${base}/api/payments/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: raw });
    };
    const payer = async () => {
      for (let i = 0; !stop; i++) {
        const id = `evt_crash_${i}_${randomUUID().slice(0, 8)}`;
        const res = await paymentEvent(id).catch(() => undefined);
        if (res?.status === 200) paymentEvents.push(id);
        else if (res) assert.fail(`payment webhook answered ${res.status}: ${await res.text()}`);
      }
    };
    const load = Promise.all([...Array.from({ length: WORKERS }, (_, w) => creator(w)), answerer(), payer()]);
    let loadFailed = false;
    load.catch(() => (loadFailed = true));
    try {
      // The kill comes once the writes the checks below rely on were acknowledged, with writes of every
      // kind in flight, however long that takes on a busy machine (a fixed delay fits fewer writes there).
      // It stops waiting early if a writer failed or the server died; the assertions below say what was seen.
      await Promise.all([
        sleep(KILL_AFTER_MS),
        until(
          () => ({ proposals: created.size, responses: responses.length, paymentEvents: paymentEvents.length }),
          (n) => loadFailed || ended(child!) || (n.proposals >= 5 && n.responses >= 1 && n.paymentEvents >= 1),
          'acknowledged writes before the kill',
          5 * 60_000,
          20,
        ),
      ]);
    } finally {
      await kill();
      stop = true;
      await load;
    }
    assert.ok(created.size >= 5, `only ${created.size} proposals were acknowledged before the kill`);
    assert.ok(responses.length >= 1, 'no owner response was acknowledged before the kill');

    assert.ok(paymentEvents.length >= 1, 'no payment webhook was acknowledged before the kill');
    console.log(`crash: killed after ${created.size} acknowledged proposals (${attempted.length} attempted), ${responses.length} responses, ${replies.length} replies, ${paymentEvents.length} payment events`);
    await startServer();

    // Every acknowledged proposal is there; retrying every key (acknowledged or cut off) returns one proposal per key.
    const idByKey = new Map<string, string>();
    for (const { key, body } of attempted) {
      const res = await call('POST', '/api/v1/agent/proposals', { ...agent, 'idempotency-key': key }, body);
      assert.ok(res.status === 201 || res.status === 200, `retry of ${key}: ${res.status} ${JSON.stringify(res.body)}`);
      idByKey.set(key, res.body.id);
      const acknowledged = created.get(key);
      if (acknowledged) assert.equal(res.body.id, acknowledged, `key ${key} now names another proposal`);
    }
    const listed: string[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await call('GET', `/api/v1/agent/proposals?limit=100&offset=${offset}`, agent);
      assert.equal(page.status, 200);
      listed.push(...page.body.proposals.map((p: { id: string }) => p.id));
      if (!page.body.has_more) break;
    }
    assert.equal(new Set(listed).size, listed.length, 'a proposal is listed twice');
    assert.deepEqual(new Set(listed), new Set(idByKey.values()), 'proposals without a key, or keys with two proposals');
    assert.equal(listed.length, attempted.length);

    // Acknowledged responses and replies: present once each.
    for (const { id, text } of [...responses, ...replies]) {
      const detail = await call('GET', `/api/v1/agent/proposals/${id}`, agent);
      assert.equal(detail.status, 200);
      const hits = detail.body.messages.filter((m: { text: string }) => m.text === text).length;
      assert.equal(hits, 1, `"${text}" appears ${hits} times`);
    }

    // Every acknowledged owner response reaches the agent's webhook (deliveries recorded with the response survive
    // the kill, whether they were queued, running or not yet queued), and no event is delivered twice.
    const hookDeadline = Date.now() + patience(5 * 60_000);
    for (;;) {
      const missing = responses.filter((r) => !hooks.events.some((e) => e.type === 'proposal.responded' && e.proposalId === r.id));
      if (!missing.length) break;
      if (Date.now() > hookDeadline) assert.fail(`no proposal.responded webhook for ${missing.length} of ${responses.length} acknowledged responses`);
      await sleep(250);
    }
    // Time for a duplicate delivery to arrive, if there were one: a shorter wait makes the check weaker, never wrong.
    await sleep(1500);
    // At least once: a delivery whose attempt was cut off by the kill may arrive twice, always with the same webhook-id.
    assert.equal(new Set(hooks.events.map((e) => e.proposalId)).size, new Set(hooks.events.map((e) => e.webhookId)).size, 'one webhook-id per event');

    // The notification of every acknowledged proposal reaches the owner (queued mail survives the kill).
    // A mail job that was running when the process died is retried once its heartbeat is missed (platform/jobs.ts).
    const deadline = Date.now() + patience(5 * 60_000);
    const customers = [...created.keys()].map((key) => attempted.find((a) => a.key === key)!.body.customer_email as string);
    for (;;) {
      const missing = customers.filter((email) => !smtp.messages.some((m) => m.to.includes(ownerEmail) && m.text.includes(`<${email}>`)));
      if (!missing.length) break;
      if (Date.now() > deadline) {
        const near = smtp.messages.filter((m) => missing.some((e) => m.text.includes(e.split('@')[0]!))).map((m) => m.text.slice(-600));
        assert.fail(`no notification for ${missing.length} acknowledged proposals: ${missing.slice(0, 5).join(', ')}; ${smtp.messages.length} mails; near: ${JSON.stringify(near).slice(0, 1500)}`);
      }
      await sleep(250);
    }

    // Every acknowledged payment event was stored once (a redelivery is a duplicate) and is processed once
    // the restarted process has queued what was pending; read from the store after the server stops.
    for (const id of paymentEvents.slice(-20)) {
      const again = await paymentEvent(id);
      assert.deepEqual(await again.json(), { received: true, duplicate: true }, `payment event ${id} was not stored`);
    }
    // Wait until the job runner has nothing left for payment events (its queue statistics, refreshed by the
    // supervision pass every few seconds, read twice in a row), then stop the server and read the store once.
    const paymentBound = patience(5 * 60_000);
    const paymentDeadline = Date.now() + paymentBound;
    for (let idle = 0; idle < 2;) {
      const metrics = await (await fetch(`${base}/metrics`)).text();
      const waiting = [...metrics.matchAll(/^job_queue_jobs\{queue="payments\.event",state="\w+"\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
      idle = waiting === 0 ? idle + 1 : 0;
      if (Date.now() > paymentDeadline) assert.fail(`payment event jobs still waiting after ${Math.round(paymentBound / 1000)} s: ${waiting}`);
      await sleep(6000);
    }
    await kill();
    const config = testConfig({}, { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) });
    const store = await openDb({ databaseUrl: config.databaseUrl, pgliteDir: config.dataDir });
    try {
      const rows = await store.query<{ event_id: string; status: string }>(`SELECT event_id, status FROM payment_events WHERE event_id LIKE 'evt_crash_%'`);
      const statuses = new Map(rows.map((r) => [r.event_id, r.status]));
      const open = paymentEvents.filter((id) => statuses.get(id) !== 'done');
      assert.deepEqual(open.map((id) => `${id}=${statuses.get(id) ?? 'missing'}`), [], `of ${paymentEvents.length} acknowledged payment events`);
    } finally {
      await store.close();
    }
  });
});
