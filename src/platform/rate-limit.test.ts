import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import type { App } from './http.js';
import { closeTestEmbeddings, createTestDb, testEmbeddings } from '../test/helpers.js';
import { registerAgent } from '../modules/agents/agents.test-helpers.js';

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
});
