import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cachedById, COMPANY_FACTS_CHANNEL, createCacheGeneration, type CacheGeneration } from './cache-generation.js';

function generation(exact: boolean): CacheGeneration & { move(): void } {
  let n = 0;
  return { exact, generation: () => n, move: () => { n++; }, close: async () => {} };
}

/** The facts cache's rules (the generation's notifications on a real store: proposals.reachability.test.ts). */
describe('cachedById', () => {
  it('reads once per generation and again after a write moved it', async () => {
    const gen = generation(true);
    const reads: string[][] = [];
    const read = cachedById(gen, async (ids) => { reads.push(ids); return new Map(ids.map((id) => [id, `v${reads.length}:${id}`])); }, { ttlMs: 60_000 });
    assert.deepEqual([...(await read(['a', 'b']))], [['a', 'v1:a'], ['b', 'v1:b']]);
    assert.deepEqual([...(await read(['b', 'c']))], [['b', 'v1:b'], ['c', 'v2:c']]);
    assert.deepEqual(reads, [['a', 'b'], ['c']]);
    gen.move();
    assert.equal((await read(['a'])).get('a'), 'v3:a');
  });

  it('remembers that an id has no value, and keeps nothing read while the generation moved', async () => {
    const gen = generation(true);
    let loads = 0;
    const read = cachedById(gen, async () => { loads++; gen.move(); return new Map<string, string>(); }, { ttlMs: 60_000 });
    await read(['x']);
    await read(['x']);
    assert.equal(loads, 2, 'a read under a moving generation is not kept');
    const quiet = generation(true);
    let quietLoads = 0;
    const none = cachedById(quiet, async () => { quietLoads++; return new Map<string, string>(); }, { ttlMs: 60_000 });
    await none(['x']);
    assert.equal((await none(['x'])).size, 0);
    assert.equal(quietLoads, 1);
  });

  it('reads every time when the generation is not exact (PostgreSQL) or the entry is older than its time to live', async () => {
    let loads = 0;
    const load = async (ids: string[]) => { loads++; return new Map(ids.map((id) => [id, 1])); };
    const uncached = cachedById(generation(false), load, { ttlMs: 60_000 });
    await uncached(['a']);
    await uncached(['a']);
    assert.equal(loads, 2);
    const expiring = cachedById(generation(true), load, { ttlMs: 0 });
    await expiring(['a']);
    await expiring(['a']);
    assert.equal(loads, 4);
  });
});

/** The listening generation on a real PostgreSQL (TEST_STORE=postgres): moves on another connection's write, stops caching while its connection is down. */
describe('cache generation on PostgreSQL (listening)', { skip: process.env.TEST_STORE !== 'postgres' && 'PostgreSQL pass only' }, () => {
  const until = async (what: string, ok: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('moves when another connection writes, and is not usable while its connection is down', async () => {
    const { createTestDb } = await import('../../test/helpers/app.js');
    const { db, drop } = await createTestDb();
    const gen = await createCacheGeneration(db, [COMPANY_FACTS_CHANNEL], { listenOnPostgres: true });
    try {
      assert.equal(gen.exact, true);
      let loads = 0;
      const read = cachedById(gen, async (ids) => { loads++; return new Map(ids.map((id) => [id, loads])); }, { ttlMs: 60_000 });
      await read(['a']);
      await read(['a']);
      assert.equal(loads, 1, 'kept while nothing is written');
      const before = gen.generation();
      // A write through the pool (another connection, as another instance would): the statement trigger of 0039.
      await db.query(`INSERT INTO invitation_optouts (email) VALUES ('optout@example.org')`);
      await until('the notification', () => gen.generation() > before);
      assert.equal((await read(['a'])).get('a'), 2, 'read again after the write');
      // The listening connection goes away: nothing is cached until it is back, and what was read before is stale.
      await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid() AND datname = current_database()`);
      await until('the loss noticed', () => !gen.exact);
      await read(['a']);
      await read(['a']);
      assert.equal(loads, 4, 'every call reads while not listening');
      await until('listening again', () => gen.exact);
      await read(['a']);
      await read(['a']);
      assert.equal(loads, 5);
    } finally {
      await gen.close();
      await drop();
    }
  });
});
