import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import type { App } from './http.js';
import { closeTestEmbeddings, createTestDb, registerAgent, testEmbeddings } from '../../test/helpers/index.js';
import { createSharedLimits } from './shared-limits.js';

// A real redis-server when the machine has one; the in-memory store is covered by the agents tests.
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

describe('agent rate limits shared through Redis', { skip: !hasRedis && 'redis-server not installed' }, () => {
  let redis: ChildProcess;
  const port = 20000 + Math.floor(Math.random() * 30000);
  const apps: App[] = [];
  let drop: () => Promise<void>;

  before(async () => {
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    probe.on('error', () => {}); // refused until the server is up
    for (let i = 0; i < 100; i++) {
      try {
        await probe.connect().catch(() => {});
        if ((await probe.ping()) === 'PONG') break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    probe.disconnect();
    const store = await createTestDb();
    drop = store.drop;
    // Two instances on one database and one Redis, as behind a load balancer.
    const config = testConfig({ redisUrl: `redis://127.0.0.1:${port}`, rateLimit: { agentPerMinute: 4, ipPerMinute: 100 } });
    for (let i = 0; i < 2; i++) {
      const app = await buildApp(config, { db: store.db, embeddings: testEmbeddings() });
      await app.ready();
      apps.push(app);
    }
  });
  after(async () => {
    for (const app of apps) await app.close();
    await drop?.();
    redis?.kill();
    await closeTestEmbeddings();
  });

  it('counts one key across both instances', async () => {
    const { key } = await registerAgent(apps[0]!, 'Shared', 'shared@example.com');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await apps[i % 2]!.inject({ method: 'GET', url: '/api/v1/agent/me', headers: { 'x-api-key': key } });
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        assert.ok(Number(res.headers['retry-after']) > 0);
        assert.equal(typeof res.json().detail, 'string');
      }
    }
    assert.deepEqual(codes, [200, 200, 200, 200, 429, 429]);
  });

  it('shares the abuse brakes of promo checks, checkouts and SVG logos across instances (issue 35.6)', async () => {
    // A fixed clock: the window cannot roll over mid-test.
    const at = () => 1_700_000_000_000;
    const one = createSharedLimits(`redis://127.0.0.1:${port}`, apps[0]!.log, at);
    const two = createSharedLimits(`redis://127.0.0.1:${port}`, apps[0]!.log, at);
    try {
      const [a, b] = [one.limiter('test.brake', { limit: 3, windowMs: 60_000 }), two.limiter('test.brake', { limit: 3, windowMs: 60_000 })];
      const seen = [];
      for (let i = 0; i < 5; i++) seen.push((await (i % 2 ? b : a).hit('client-1')).ok);
      assert.deepEqual(seen, [true, true, true, false, false]);
      assert.equal((await a.hit('client-2')).ok, true, 'per key');
      assert.ok(apps.every((app) => app.services.limits.shared), 'the app wires REDIS_URL into its limits');
      // Promo validation through both instances counts in one place: 20 per minute per client.
      const codes: number[] = [];
      for (let i = 0; i < 22; i++) codes.push((await apps[i % 2]!.inject({ method: 'POST', url: '/api/payments/promo/validate', payload: { code: 'NOPE', plan: 'pro' } })).statusCode);
      assert.ok(codes.filter((c) => c === 429).length >= 1, `one instance alone would allow 22: ${codes.join(',')}`);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe('shared limits without Redis', () => {
  it('count in this process', async () => {
    const limits = createSharedLimits(undefined, { warn() {} } as never, () => 1_700_000_000_000);
    const l = limits.limiter('x', { limit: 2, windowMs: 1000 });
    assert.deepEqual([(await l.hit('k')).ok, (await l.hit('k')).ok, (await l.hit('k')).ok], [true, true, false]);
    assert.equal(limits.shared, false);
    await limits.close();
  });
});
