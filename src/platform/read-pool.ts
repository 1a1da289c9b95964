import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { poolQueryable, type Db, type Queryable } from './db.js';
import { replicaLagSeconds, replicaReads, replicaUp } from './outcomes.js';

/**
 * Read replicas (DATABASE_READ_URL): hot standbys of the primary that public reads go to. Only what is handed this pool
 * reads through it (searches, public lookups, the change feed, the search index); writes, transactions that write,
 * sign-in, sessions and API keys, and owners' own pages use the primary `Db` as before.
 *
 * Lag: every `intervalMs` the primary's WAL position is sampled and each replica's replayed position read. A replica's
 * lag is how long ago the primary first held WAL the replica has not replayed (0 when it has replayed the last sample);
 * one further behind than `maxLagMs`, or unreachable, or not in recovery, is not read from until a later check finds it
 * well. A statement a replica fails with a connection or recovery-conflict error runs again on the primary.
 *
 * Answers that need data at least as new as something read on the primary use `pinned` with a freshness check run on
 * the replica (search: the corpus version), so they never depend on the bound at all.
 */
export interface ReadPool extends Queryable {
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Replicas configured (0: every read goes to the primary). */
  readonly replicaCount: number;
  /**
   * Runs `fn` with every statement made through this pool in its async context on one server: the first usable
   * replica (round robin) for which `fresh`, run there, holds; else the primary. A nested call keeps the outer server.
   */
  pinned<T>(fresh: (() => Promise<boolean>) | undefined, fn: () => Promise<T>): Promise<T>;
  status(): ReplicaStatus[];
  /** Starts the lag checks (the replicas are not read from before the first one). */
  start(): void;
  close(): Promise<void>;
}

export interface ReplicaStatus {
  /** `replica-1`, … in DATABASE_READ_URL's order (never the URL: it may carry a password). */
  name: string;
  state: 'starting' | 'up' | 'lagging' | 'down';
  lagMs: number | null;
  /** WAL bytes between the primary's last sample and the replica's replayed position. */
  bytesBehind: number | null;
  detail?: string;
}

export interface ReadPoolOptions {
  primary: Pick<Db, 'query' | 'transaction'>;
  replicaUrls: string[];
  maxLagMs: number;
  intervalMs?: number;
  poolSize?: number;
  log: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
}

interface Server {
  name: string;
  db: Pick<Db, 'query' | 'transaction'>;
}

interface Replica extends Server {
  pool: pg.Pool;
  status: ReplicaStatus;
}

/** PostgreSQL's 'X/Y' WAL position as a number of bytes. */
export function lsnBytes(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/**
 * Whether a failed statement on a replica may run again on the primary: the connection failed or closed (class 08,
 * shutdown 57P0x, a pool timeout, a socket error), or the standby cancelled it for a conflict with recovery (40001).
 */
export function isReplicaFailure(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (/^08|^57P0[1-3]$|^40001$/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message);
}

/** How long ago the primary first held WAL past `replay` (0: none), from its samples, oldest first. */
export function lagFrom(samples: { at: number; lsn: bigint }[], replay: bigint, now: number): number {
  const first = samples.find((s) => s.lsn > replay);
  return first ? Math.max(0, now - first.at) : 0;
}

export function createReadPool(options: ReadPoolOptions): ReadPool {
  const { primary: primaryDb, maxLagMs, log } = options;
  const intervalMs = options.intervalMs ?? Math.min(1000, Math.max(100, Math.floor(maxLagMs / 4)));
  const primary: Server = { name: 'primary', db: primaryDb };
  const replicas: Replica[] = options.replicaUrls.map((url, i) => {
    // Short connect timeout: a replica that went away must not hold a request longer than this before the primary answers.
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: 2000 });
    pool.on('error', () => {});
    return { name: `replica-${i + 1}`, pool, db: poolQueryable(pool), status: { name: `replica-${i + 1}`, state: 'starting', lagMs: null, bytesBehind: null } };
  });
  const pinnedTo = new AsyncLocalStorage<{ server: Server }>();
  let next = 0;
  // The primary's WAL position over the last while, oldest first: a replica's lag is read off it.
  const samples: { at: number; lsn: bigint }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | undefined;
  let closed = false;
  // The primary's pg_control_system() identifier: a replica must be a copy of this cluster.
  let system = '';

  const usable = (): Replica[] => {
    const up = replicas.filter((r) => r.status.state === 'up');
    if (up.length === 0) return [];
    const start = next++ % up.length;
    return [...up.slice(start), ...up.slice(0, start)];
  };

  function markDown(replica: Replica, err: unknown): void {
    if (replica.status.state !== 'down') log.warn({ replica: replica.name, code: (err as { code?: string })?.code }, 'read replica failed: reads go to the primary until it is back');
    replica.status = { ...replica.status, state: 'down', detail: 'unreachable' };
    replicaUp.set({ replica: replica.name }, 0);
  }

  /** Runs `use` on `server`, and on the primary when a replica fails (`onFallback` lets a pinned session move too). */
  async function onServer<T>(server: Server, use: (db: Server['db']) => Promise<T>, onFallback?: () => void): Promise<T> {
    if (server === primary) return use(primary.db);
    try {
      return await use(server.db);
    } catch (err) {
      if (!isReplicaFailure(err)) throw err;
      if ((err as { code?: string }).code !== '40001') markDown(server as Replica, err);
      replicaReads.inc({ target: 'primary', reason: 'replica_failed' });
      onFallback?.();
      return use(primary.db);
    }
  }

  function route<T>(use: (db: Server['db']) => Promise<T>): Promise<T> {
    const pin = pinnedTo.getStore();
    if (pin) return onServer(pin.server, use, () => (pin.server = primary));
    const [replica] = usable();
    if (replicas.length > 0) replicaReads.inc(replica ? { target: 'replica', reason: 'within_bound' } : { target: 'primary', reason: 'no_replica' });
    return onServer(replica ?? primary, use);
  }

  async function check(): Promise<void> {
    const now = Date.now();
    try {
      const [row] = await primaryDb.query<{ lsn: string; system: string }>('SELECT pg_current_wal_lsn()::text AS lsn, (SELECT system_identifier::text FROM pg_control_system()) AS system');
      if (!row) return;
      samples.push({ at: now, lsn: lsnBytes(row.lsn) });
      system = row.system;
    } catch {
      // The primary's own failures show in its health check; the replicas' lag is measured again next time.
      return;
    }
    // Keep what shows a lag beyond the bound, and always the newest sample.
    while (samples.length > 1 && samples[1]!.at < now - 2 * maxLagMs - intervalMs) samples.shift();
    await Promise.all(replicas.map(async (replica) => {
      try {
        const [r] = await replica.db.query<{ recovery: boolean; replay: string | null; paused: boolean | null; system: string }>(
          `SELECT pg_is_in_recovery() AS recovery, pg_last_wal_replay_lsn()::text AS replay,
                  CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() END AS paused,
                  (SELECT system_identifier::text FROM pg_control_system()) AS system`,
        );
        // A promoted standby, or a server that is no copy of this primary at all, would answer with other data.
        const wrong = !r?.recovery || !r.replay ? 'not a standby (not in recovery)' : r.system !== system ? 'a standby of another primary (system identifier differs)' : undefined;
        if (wrong || !r?.replay) {
          const detail = `${wrong}: not read from`;
          if (replica.status.detail !== detail) log.warn({ replica: replica.name, problem: wrong }, 'read replica not read from');
          replica.status = { name: replica.name, state: 'down', lagMs: null, bytesBehind: null, detail };
          replicaUp.set({ replica: replica.name }, 0);
          return;
        }
        const replay = lsnBytes(r.replay);
        const newest = samples[samples.length - 1]!;
        const lagMs = lagFrom(samples, replay, Date.now());
        const state = lagMs > maxLagMs ? 'lagging' : 'up';
        if (state !== replica.status.state && replica.status.state !== 'starting') log.info({ replica: replica.name, state, lagMs }, 'read replica state changed');
        replica.status = {
          name: replica.name, state, lagMs,
          bytesBehind: newest.lsn > replay ? Number(newest.lsn - replay) : 0,
          ...(r.paused ? { detail: 'replay paused' } : {}),
        };
        replicaUp.set({ replica: replica.name }, state === 'up' ? 1 : 0);
        replicaLagSeconds.set({ replica: replica.name }, lagMs / 1000);
      } catch (err) {
        markDown(replica, err);
      }
    }));
  }

  const tick = () => {
    if (closed || checking) return;
    checking = check().finally(() => {
      checking = undefined;
    });
  };

  return {
    replicaCount: replicas.length,
    query: <T>(sql: string, params?: unknown[]) => route((db) => db.query<T>(sql, params)),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => route((db) => db.transaction(fn)),

    async pinned<T>(fresh: (() => Promise<boolean>) | undefined, fn: () => Promise<T>): Promise<T> {
      if (pinnedTo.getStore()) return fn();
      let tried = false;
      for (const replica of usable()) {
        const store = { server: replica as Server };
        const ok = await pinnedTo.run(store, async () => (fresh ? fresh() : true)).catch((err: unknown) => {
          if (!isReplicaFailure(err)) throw err;
          markDown(replica, err);
          return false;
        });
        if (ok && store.server === replica) {
          replicaReads.inc({ target: 'replica', reason: fresh ? 'fresh' : 'within_bound' });
          return pinnedTo.run(store, fn);
        }
        tried = true;
      }
      if (replicas.length > 0) replicaReads.inc({ target: 'primary', reason: tried ? 'behind' : 'no_replica' });
      return pinnedTo.run({ server: primary }, fn);
    },

    status: () => replicas.map((r) => ({ ...r.status })),

    start(): void {
      if (replicas.length === 0 || timer) return;
      tick();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },

    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      await checking;
      await Promise.all(replicas.map((r) => r.pool.end().catch(() => {})));
    },
  };
}
