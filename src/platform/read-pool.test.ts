import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReadPool, isReplicaFailure, lagFrom, lsnBytes } from './read-pool.js';
import type { Queryable } from './db.js';

/** The read pool's rules without a replica (the real standby: replica.test.ts). */
describe('read pool', () => {
  it('reads WAL positions as byte counts', () => {
    assert.equal(lsnBytes('0/3000000'), 0x3000000n);
    assert.equal(lsnBytes('1/0'), 1n << 32n);
    assert.ok(lsnBytes('16/B374D848') > lsnBytes('16/B374D847'));
  });

  it('measures lag as the age of the oldest primary position the replica has not replayed', () => {
    const samples = [{ at: 1000, lsn: 10n }, { at: 2000, lsn: 20n }, { at: 3000, lsn: 30n }];
    assert.equal(lagFrom(samples, 30n, 3500), 0, 'caught up with the last sample');
    assert.equal(lagFrom(samples, 35n, 3500), 0, 'ahead of the last sample');
    assert.equal(lagFrom(samples, 25n, 3500), 500);
    assert.equal(lagFrom(samples, 12n, 3500), 1500);
    assert.equal(lagFrom(samples, 5n, 3500), 2500, 'behind every sample kept: at least as old as the oldest');
  });

  it('sends to the primary what a replica failed for its connection or a recovery conflict, and nothing else', () => {
    for (const code of ['08006', '08001', '57P01', '57P03', '40001', 'ECONNREFUSED', 'ECONNRESET']) assert.ok(isReplicaFailure(Object.assign(new Error('x'), { code })), code);
    assert.ok(isReplicaFailure(new Error('Connection terminated unexpectedly')));
    assert.ok(isReplicaFailure(new Error('timeout exceeded when trying to connect')));
    for (const code of ['42P01', '22P02', '23505', '25006']) assert.equal(isReplicaFailure(Object.assign(new Error('x'), { code })), false, code);
  });

  it('is the primary when no replica is configured: every statement and pinned block reads it', async () => {
    const seen: string[] = [];
    const primary: Queryable & { transaction: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> } = {
      query: async <T>(sql: string) => {
        seen.push(sql);
        return [] as T[];
      },
      transaction: (fn) => fn(primary),
    };
    const pool = createReadPool({ primary, replicaUrls: [], maxLagMs: 1000, log: { warn: () => {}, info: () => {} } });
    pool.start();
    await pool.query('SELECT 1');
    await pool.pinned(async () => false, () => pool.transaction((tx) => tx.query('SELECT 2')));
    assert.deepEqual(seen, ['SELECT 1', 'SELECT 2']);
    assert.deepEqual(pool.status(), []);
    await pool.close();
  });
});
