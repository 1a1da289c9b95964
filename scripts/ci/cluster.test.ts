import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { testConfig } from '../../src/config.js';
import { createServices } from '../../src/services.js';
import { bearer, closeTestEmbeddings, companyFixture, createTestDatabaseUrl, testEmbeddings } from '../../test/helpers/index.js';
import { startSmtpSink } from '../../test/fakes/smtp.js';
import { freePort } from '../../src/lib/free-port.js';

/**
 * `npm run test:cluster` (issue 20): two API instances and one worker on one PostgreSQL and one Redis,
 * as an operator deploys them. Instance A serves HTTP only; instance B serves HTTP and works jobs too, so
 * two job runners compete. Checks: rate limits shared through Redis, every job run once (mails, webhook
 * deliveries), MCP stateless across instances, caches invalidated across instances, and graceful shutdown
 * that drains in-flight requests and the running job. Needs TEST_DATABASE_URL; REDIS_URL defaults to the
 * local Redis.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { email: 'admin@cluster.example.com', password: 'cluster admin password 42' };
const AGENT_LIMIT = 12;

interface Proc {
  name: string;
  child: ChildProcess;
  base: string;
  stderr: () => string;
}

/** A local webhook receiver: records each request when it arrives; `/slow` answers after 2 s. */
async function startReceiver() {
  const hits: { path: string; id: string; at: number }[] = [];
  const server = http.createServer((req, res) => {
    const id = String(req.headers['webhook-id'] ?? '');
    hits.push({ path: req.url ?? '/', id, at: Date.now() });
    req.resume();
    req.on('end', () => {
      const send = () => res.writeHead(204).end();
      if (req.url === '/slow') setTimeout(send, 2000);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { hits, url: (p: string) => `http://127.0.0.1:${port}${p}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function waitFor<T>(what: string, probe: () => Promise<T | false | undefined> | T | false | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('cluster: two API instances and a worker on one PostgreSQL and one Redis', { skip: !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set' }, () => {
  let database: { url: string; drop: () => Promise<void> };
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let dataDir: string;
  let companyId: string;
  const procs: Proc[] = [];
  let a: Proc;
  let b: Proc;
  let worker: Proc;

  function envFor(port: number | undefined, runJobs: boolean): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      ...(port ? { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` } : {}),
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      REDIS_URL,
      SMTP_URL: smtp.url,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      RUN_JOBS: String(runJobs),
      EMAIL_CHECK_MX: 'false',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: 'cluster-test-jwt-secret-shared-by-every-instance',
      WEBHOOKS_SECRET_KEY: 'cluster-test-webhook-key-shared-by-every-instance',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_AGENT_PER_MINUTE: String(AGENT_LIMIT),
      RATE_LIMIT_IP_PER_MINUTE: '100000',
      SHUTDOWN_DRAIN_MS: '1500',
    };
  }

  async function start(name: string, script: string, runJobs: boolean, listen: boolean): Promise<Proc> {
    const port = listen ? await freePort() : undefined;
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, env: envFor(port, runJobs), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-4000);
    });
    const proc: Proc = { name, child, base: port ? `http://127.0.0.1:${port}` : '', stderr: () => stderr };
    procs.push(proc);
    if (listen) {
      await waitFor(`${name} to answer /api/health`, async () => {
        if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${stderr}`);
        return fetch(`${proc.base}/api/health`).then((r) => r.ok, () => false);
      });
    }
    return proc;
  }

  async function stop(proc: Proc, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (proc.child.exitCode !== null) return proc.child.exitCode;
    const exited = new Promise<number | null>((resolve) => proc.child.once('exit', (code) => resolve(code)));
    proc.child.kill(signal);
    return exited;
  }

  const call = async (proc: Proc, method: string, url: string, headers: Record<string, string> = {}, body?: unknown) => {
    const res = await fetch(`${proc.base}${url}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // SSE or text: kept as is
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };

  before(async () => {
    database = await createTestDatabaseUrl();
    smtp = await startSmtpSink();
    receiver = await startReceiver();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agp-cluster-'));
    // The directory holds one unverified company, written (and migrated) before any instance starts.
    const config = testConfig({}, { DATA_DIR: dataDir, DATABASE_URL: database.url });
    const core = await createServices({ ...config, runJobs: false }, Fastify({ logger: false }).log, { embeddings: testEmbeddings() });
    try {
      companyId = (await core.services.companies.upsertMany([companyFixture({ name: 'Cluster Boiler Works', website_url: 'https://cluster-boiler.example.com', is_verified: false })])).ids[0]!;
    } finally {
      await core.close();
    }
    // A first (it creates the administrator), then B and the worker side by side.
    a = await start('api-a', 'src/server.ts', false, true);
    [b, worker] = await Promise.all([start('api-b', 'src/server.ts', true, true), start('worker', 'src/worker.ts', true, false)]);
  });

  after(async () => {
    await Promise.all(procs.map((p) => stop(p, 'SIGKILL')));
    await receiver?.close();
    await smtp?.close();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    await closeTestEmbeddings();
  });

  let agentKey: string;

  it('shares rate limits through Redis: one key gets its per-minute allowance once across both instances', async () => {
    const reg = await call(a, 'POST', '/api/v1/agent/register', {}, { name: 'Cluster agent', owner_email: 'owner@cluster-agents.example.com' });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    agentKey = String((reg.body as { api_key: string }).api_key);
    const statuses: number[] = [];
    // The registration counted against the IP bucket; these all count against the key's bucket.
    for (let i = 0; i < AGENT_LIMIT + 4; i++) statuses.push((await call(i % 2 ? b : a, 'GET', '/api/v1/agent/me', { 'x-api-key': agentKey })).status);
    assert.equal(statuses.filter((s) => s === 200).length, AGENT_LIMIT, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 4);
  });

  it('runs every job once with two job runners: one confirmation mail per registration, one delivery per webhook event', async () => {
    const second = await call(b, 'POST', '/api/v1/agent/register', {}, { name: 'Second cluster agent', owner_email: 'owner2@cluster-agents.example.com' });
    assert.equal(second.status, 201);
    const key = String((second.body as { api_key: string }).api_key);
    const created = await call(b, 'POST', '/api/v1/agent/webhooks', { 'x-api-key': key }, { url: receiver.url('/once') });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const endpointId = (created.body as { endpoint: { id: string } }).endpoint.id;
    const sent = 10;
    for (let i = 0; i < sent; i++) {
      const res = await call(i % 2 ? a : b, 'POST', `/api/v1/agent/webhooks/${endpointId}/test`, { 'x-api-key': key });
      assert.equal(res.status, 202, JSON.stringify(res.body));
    }
    await waitFor('every test event delivered', () => receiver.hits.filter((h) => h.path === '/once').length >= sent);
    await waitFor('both confirmation mails', () => ['owner@cluster-agents.example.com', 'owner2@cluster-agents.example.com'].every((to) => smtp.messages.some((m) => m.to.includes(to))));
    // Long enough for a duplicate run to show up.
    await new Promise((r) => setTimeout(r, 3000));
    const ids = receiver.hits.filter((h) => h.path === '/once').map((h) => h.id);
    assert.equal(ids.length, sent, 'no delivery twice');
    assert.equal(new Set(ids).size, sent);
    for (const to of ['owner@cluster-agents.example.com', 'owner2@cluster-agents.example.com']) {
      assert.equal(smtp.messages.filter((m) => m.to.includes(to)).length, 1, `one mail to ${to}`);
    }
    const log = await call(a, 'GET', `/api/v1/agent/webhooks/${endpointId}/deliveries?limit=50`, { 'x-api-key': key });
    const deliveries = (log.body as { deliveries: { status: string; attempts: number }[] }).deliveries;
    assert.equal(deliveries.length, sent);
    assert.ok(deliveries.every((d) => d.status === 'delivered' && d.attempts === 1));
  });

  it('serves MCP statelessly: a client initialised on one instance goes on on the other', async () => {
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const rpc = async (proc: Proc, body: object, extra: Record<string, string> = {}) => {
      const res = await fetch(`${proc.base}/mcp`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
      const text = await res.text();
      const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
      return { status: res.status, body: json ? (JSON.parse(json) as { result?: Record<string, unknown>; error?: unknown }) : undefined };
    };
    const init = await rpc(a, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cluster', version: '1' } } });
    assert.equal(init.status, 200);
    const version = String(init.body!.result!.protocolVersion);
    const note = await fetch(`${b.base}/mcp`, { method: 'POST', headers: { ...headers, 'mcp-protocol-version': version }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    assert.equal(note.status, 202);
    const list = await rpc(b, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': version });
    assert.equal(list.status, 200);
    assert.ok((list.body!.result!.tools as { name: string }[]).some((t) => t.name === 'search_companies'));
    const call1 = await rpc(a, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_company', arguments: { company_id: companyId } } }, { 'mcp-protocol-version': version });
    assert.equal((call1.body!.result!.structuredContent as { name: string }).name, 'Cluster Boiler Works');
  });

  it('invalidates caches across instances: a change made through B is what A answers next', async () => {
    const search = async () => (await call(a, 'GET', '/api/v1/agent/companies?q=Cluster+Boiler+Works&limit=5')).body as { companies: { id: string; is_verified: boolean }[] };
    const before = await search();
    assert.equal(before.companies.find((c) => c.id === companyId)?.is_verified, false);
    await search(); // now in A's answer cache
    const login = await call(b, 'POST', '/api/admin/login', {}, ADMIN);
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const admin = bearer(String((login.body as { access_token: string }).access_token));
    assert.equal((await call(b, 'POST', `/api/tools/admin/companies/${companyId}/verify`, admin)).status, 200);
    assert.equal((await search()).companies.find((c) => c.id === companyId)?.is_verified, true);
    assert.equal(((await call(a, 'GET', `/api/v1/agent/companies/${companyId}`)).body as { is_verified: boolean }).is_verified, true);
    // The token signed by B is accepted by A (one JWT_SECRET), and the session is shared.
    assert.equal((await call(a, 'GET', '/api/tools/admin/companies?limit=1', admin)).status, 200);
  });

  it('shuts down gracefully: the running job finishes before the worker exits, and in-flight requests are answered', async () => {
    // Only the worker works jobs from here on.
    assert.equal(await stop(b), 0, b.stderr());
    const reg = await call(a, 'POST', '/api/v1/agent/register', {}, { name: 'Shutdown agent', owner_email: 'owner3@cluster-agents.example.com' });
    const key = String((reg.body as { api_key: string }).api_key);
    const created = await call(a, 'POST', '/api/v1/agent/webhooks', { 'x-api-key': key }, { url: receiver.url('/slow') });
    const endpointId = (created.body as { endpoint: { id: string } }).endpoint.id;
    assert.equal((await call(a, 'POST', `/api/v1/agent/webhooks/${endpointId}/test`, { 'x-api-key': key })).status, 202);
    await waitFor('the slow delivery to start', () => receiver.hits.some((h) => h.path === '/slow'));
    assert.equal(await stop(worker), 0, worker.stderr());
    const log = await call(a, 'GET', `/api/v1/agent/webhooks/${endpointId}/deliveries`, { 'x-api-key': key });
    const [delivery] = (log.body as { deliveries: { status: string; response_status: number }[] }).deliveries;
    assert.deepEqual([delivery?.status, delivery?.response_status], ['delivered', 204], 'the job in flight was finished and recorded');

    // SIGTERM: readiness turns 503 at once while requests keep being served for SHUTDOWN_DRAIN_MS, so a load
    // balancer moves traffic away; requests in flight are answered; then the listener closes and the process exits 0.
    let done = 0;
    const inflight = Array.from({ length: 20 }, (_, i) =>
      call(a, 'GET', `/api/v1/agent/companies?q=${encodeURIComponent(`emergency boiler repair number ${i} at ${Date.now()}`)}`).finally(() => done++),
    );
    await new Promise((r) => setTimeout(r, 100));
    const pendingAtSignal = 20 - done;
    const exited = stop(a);
    await waitFor('readiness to report the drain', async () => (await call(a, 'GET', '/api/health/deep')).status === 503);
    const ready = (await call(a, 'GET', '/api/health/deep')).body as { checks: { shutdown: { ok: boolean } } };
    assert.equal(ready.checks.shutdown.ok, false);
    assert.equal((await call(a, 'GET', `/api/v1/agent/companies/${companyId}`)).status, 200, 'still serving while draining');
    const answers = await Promise.all(inflight);
    assert.ok(pendingAtSignal > 0, 'some requests were still running when SIGTERM arrived');
    assert.deepEqual(answers.map((r) => r.status), answers.map(() => 200));
    assert.equal(await exited, 0, a.stderr());
    await assert.rejects(fetch(`${a.base}/api/health`));
  });
});
