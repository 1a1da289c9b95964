import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import type { App } from './http.js';
import { bearer, closeTestEmbeddings, companyFixture, pgServerPrograms, registerAgent, startPgPair, testEmbeddings, until, type PgPair } from '../../test/helpers/index.js';

/**
 * Read replicas (issue 41, platform/read-pool.ts) on a real hot standby: a scratch primary and a `pg_basebackup -R`
 * standby of it (test/helpers/pg-standby.ts), two API instances and a worker (each its own services, pools and
 * search index) reading through DATABASE_READ_URL. Writes on A are what B's search, lookup and change feed answer, a
 * webhook fires once; a standby whose replay is paused is not used for what needs newer data, and one that stops
 * breaks no request. PostgreSQL only (the embedded store has no replicas): it runs in the postgres pass of the suite.
 */
const programs = pgServerPrograms();
const skip =
  process.env.TEST_STORE !== 'postgres' || !process.env.TEST_DATABASE_URL
    ? 'read replicas need PostgreSQL: runs with TEST_STORE=postgres and TEST_DATABASE_URL set'
    : 'missing' in programs
      ? programs.missing
      : false;

const MAX_LAG_MS = 1500;
const ADMIN = { email: 'admin@replica.example.com', password: 'replica admin password 42' };

async function startReceiver() {
  const hits: { type: string; id: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ type: (JSON.parse(body) as { type: string }).type, id: String(req.headers['webhook-id'] ?? '') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { hits, url: `http://127.0.0.1:${port}/hook`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('read replicas: two API instances and a worker on a primary and its hot standby', { skip }, () => {
  let pair: PgPair | undefined;
  let dataDir: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const apps: App[] = [];
  let a: App;
  let b: App;
  let companyId: string;
  let agentKey: string;
  let admin: Record<string, string>;

  const build = async (runJobs: boolean): Promise<App> => {
    const config = testConfig({}, {
      DATABASE_URL: pair!.primaryUrl, DATABASE_READ_URL: pair!.standbyUrl, DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
      DATA_DIR: dataDir, RUN_JOBS: String(runJobs), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: 'replica-test-jwt-secret-shared-by-every-instance', WEBHOOKS_SECRET_KEY: 'replica-test-webhook-key-shared-by-every-instance',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    });
    const app = await buildApp(config, { embeddings: testEmbeddings() });
    apps.push(app);
    await app.ready();
    return app;
  };
  const get = async (app: App, url: string, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'GET', url, headers });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json();
  };
  const searched = async (app: App, q = 'Replica Boiler Works') => {
    const page = await get(app, `/api/v1/agent/companies?q=${encodeURIComponent(q)}&limit=5`);
    return (page.companies as { id: string; is_verified: boolean }[]).find((c) => c.id === companyId)?.is_verified;
  };
  const lookedUp = async (app: App) => (await get(app, `/api/v1/agent/companies/${companyId}`)).is_verified as boolean;
  const feed = async (app: App, since: string) => {
    const page = await get(app, `/api/v1/agent/companies/changes?since=${since}`);
    const changes = page.changes as { id: string; company: { is_verified: boolean } | null }[];
    return { cursor: page.next_cursor as string, verified: changes.filter((c) => c.id === companyId).map((c) => c.company?.is_verified) };
  };
  const replicaState = (app: App) => app.services.reads.status()[0]!;
  const setVerified = async (verified: boolean) => {
    const res = await a.inject({ method: 'POST', url: `/api/tools/admin/companies/${companyId}/${verified ? 'verify' : 'unverify'}`, headers: admin });
    assert.equal(res.statusCode, 200, res.body);
  };

  before(async () => {
    pair = await startPgPair((programs as { bin: string }).bin);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agp-replica-data-'));
    receiver = await startReceiver();
    // A first (it migrates and creates the administrator), then B and the worker side by side.
    a = await build(false);
    [b] = await Promise.all([build(false), build(true)]);
    companyId = (await a.services.companies.upsertMany([companyFixture({ name: 'Replica Boiler Works', website_url: 'https://replica-boiler.example.com', is_verified: true })])).ids[0]!;
    const login = await a.inject({ method: 'POST', url: '/api/admin/login', payload: ADMIN });
    admin = bearer(String(login.json().access_token));
    await until(() => [replicaState(a).state, replicaState(b).state], (s) => s.every((x) => x === 'up'), 'both instances to read from the standby', 30_000);
  });

  after(async () => {
    await Promise.allSettled(apps.map((app) => app.close()));
    pair?.destroy();
    await receiver?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    await closeTestEmbeddings();
  });

  it('answers B\'s search, lookup and change feed with what A wrote, and the worker fires the webhook once', async () => {
    const agent = await registerAgent(b, 'Replica agent', 'owner@replica-agents.example.com');
    agentKey = agent.key;
    const hook = await b.inject({ method: 'POST', url: '/api/v1/agent/webhooks', headers: { 'x-api-key': agentKey }, payload: { url: receiver.url, event_types: ['company.unverified'] } });
    assert.equal(hook.statusCode, 201, hook.body);
    const proposal = await a.inject({
      method: 'POST', url: '/api/v1/agent/proposals', headers: { 'x-api-key': agentKey },
      payload: { company_id: companyId, customer_name: 'Lee', customer_email: 'lee@example.org', description: 'A quote for a boiler service, please.' },
    });
    assert.equal(proposal.statusCode, 201, proposal.body);
    const start = await feed(b, '');
    assert.deepEqual(start.verified, [true]);
    const routed = () => metric(b, 'db_read_routes_total{target="replica",reason="within_bound"}');
    const pinned = () => metric(b, 'db_read_routes_total{target="replica",reason="fresh"}');
    const [before, pinnedBefore] = [await routed(), await pinned()];

    await setVerified(false);
    const [{ version }] = await b.services.db.query<{ version: number }>('SELECT version::float8 AS version FROM search_corpus_stats') as [{ version: number }];
    // Search reads the corpus version on the primary: B answers A's write at once, from whichever server has it.
    assert.equal(await searched(b), false);
    // B's search index caught up with it (from the standby or the primary: never older than the version read).
    assert.ok(b.services.search.vectorIndexStatus()!.syncedVersion >= version);
    // Lookups and the feed read a replica within the lag bound: the write shows as soon as the standby replays it.
    await until(() => lookedUp(b), (v) => v === false, 'B\'s lookup to show the write');
    await until(() => feed(b, start.cursor), (f) => f.verified.includes(false), 'B\'s change feed to list the write');
    await until(() => receiver.hits, (h) => h.some((x) => x.type === 'company.unverified'), 'the company.unverified webhook');
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(receiver.hits.filter((h) => h.type === 'company.unverified').length, 1, 'one delivery');
    // (Counters are per process: the three instances here share them.)
    assert.ok((await pinned()) > pinnedBefore, 'a search ran on the standby, which had replayed its version');
    assert.ok((await routed()) > before, 'lookups and the feed read the standby');
  });

  it('does not answer from a standby whose replay is paused once what is asked for is newer', async (t) => {
    await pair!.standby('SELECT pg_wal_replay_pause()');
    const cursor = (await feed(b, '')).cursor;
    const behind = await metric(b, 'db_read_routes_total{target="primary",reason="behind"}');
    const wrote = Date.now();
    await setVerified(true);
    // The search needs the version just written: the paused standby has not replayed it, so the primary answers.
    assert.equal(await searched(b, 'Replica Boiler'), true);
    assert.ok((await metric(b, 'db_read_routes_total{target="primary",reason="behind"}')) > behind);
    // A lookup within the bound may still read the standby (stale by less than DATABASE_READ_MAX_LAG_MS) ...
    const early = await lookedUp(b);
    if (Date.now() - wrote < MAX_LAG_MS / 2) assert.equal(early, false, 'a lookup within the bound read the paused standby');
    else t.diagnostic(`the stale read was not checked: ${Date.now() - wrote} ms after the write`);
    // ... and no longer once the standby is measured further behind than the bound.
    await until(() => replicaState(b), (s) => s.state === 'lagging', 'B to measure the paused standby as lagging', 30_000);
    assert.equal(await lookedUp(b), true);
    assert.deepEqual((await feed(b, cursor)).verified, [true]);
    const health = await get(b, '/api/health/deep');
    assert.match(health.checks.read_replicas.detail, /replica-1 lagging, lag \d+ ms \(replay paused\)/);
    assert.match(await metricsText(b), /db_replica_up\{replica="replica-1"\} 0/);

    await pair!.standby('SELECT pg_wal_replay_resume()');
    await until(() => replicaState(b), (s) => s.state === 'up', 'the standby to catch up again', 30_000);
    assert.equal(await lookedUp(b), true);
  });

  it('keeps answering when the standby goes away', async () => {
    pair!.stopStandby();
    // Before the next check notices: statements the standby fails run again on the primary.
    await setVerified(false);
    assert.equal(await searched(b, 'Replica Boiler Works company'), false);
    assert.equal(await lookedUp(b), false);
    assert.deepEqual((await get(b, `/api/v1/agent/companies/by-url/replica-boiler.example.com`)).is_verified, false);
    await until(() => replicaState(b), (s) => s.state === 'down', 'B to mark the standby down', 30_000);
    await setVerified(true);
    assert.equal(await searched(b, 'boiler works'), true);
    assert.equal(await lookedUp(b), true);
    assert.match((await get(b, '/api/health/deep')).checks.read_replicas.detail, /replica-1 down/);
  });
});

async function metricsText(app: App): Promise<string> {
  return (await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body;
}

/** The sum of a counter's series whose text starts with `prefix`. */
async function metric(app: App, prefix: string): Promise<number> {
  return (await metricsText(app)).split('\n').filter((l) => l.startsWith(prefix)).reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}
