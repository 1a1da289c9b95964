import pg from 'pg';
import type { Db } from './db.js';

/**
 * A generation number that moves on every committed change to companies (NOTIFY from the
 * write triggers). On PGlite the notification is delivered before the writing query returns and
 * every write goes through this process's one instance, so caches keyed by the generation are
 * exact (`exact`). On PostgreSQL other instances write too and notifications arrive on another
 * connection a little later, so callers must not cache there (`exact` false).
 */
export interface CacheGeneration {
  readonly exact: boolean;
  generation(): number;
  close(): Promise<void>;
}

export const COMPANIES_CHANNEL = 'companies_changed';
/**
 * Writes that change what is read beside a company but not the company itself: proposals and their
 * messages, owners, invitation opt-outs (reachability), reviews that go with a cascade (ratings): 0039's statement triggers.
 */
export const COMPANY_FACTS_CHANNEL = 'company_facts_changed';

/**
 * A generation that moves on a notification of any of the channels (default: companies). On PostgreSQL it is
 * `exact: false` unless `listenOnPostgres`: then a connection of its own LISTENs, and the generation is usable
 * (`exact`) while that connection is up. A write by another instance then reaches this one's caches a few
 * milliseconds after its commit: only for data that may be that much older (what a public lookup reads beside
 * a profile, which a read replica may serve seconds old anyway), never for what a writer must read back.
 */
export async function createCacheGeneration(
  db: Db,
  channels: string[] = [COMPANIES_CHANNEL],
  options: { listenOnPostgres?: boolean; log?: { warn(obj: object, msg: string): void } } = {},
): Promise<CacheGeneration> {
  if (db.kind === 'postgres' && db.pool && options.listenOnPostgres) return listenOnPostgres(db.pool, channels, options.log);
  if (db.kind !== 'pglite' || !db.pglite) {
    return { exact: false, generation: () => 0, close: async () => {} };
  }
  const pglite = db.pglite;
  let generation = 0;
  const unlisten = await Promise.all(channels.map((channel) => pglite.listen(channel, () => {
    generation++;
  })));
  return {
    exact: true,
    generation: () => generation,
    close: async () => {
      await Promise.all(unlisten.map((u) => u().catch(() => {})));
    },
  };
}

/** The PostgreSQL side of createCacheGeneration: usable while its listening connection is up; reconnects with backoff. */
async function listenOnPostgres(pool: pg.Pool, channels: string[], log?: { warn(obj: object, msg: string): void }): Promise<CacheGeneration> {
  let generation = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoffMs = 500;
  const given = new WeakSet<pg.Client>();
  // Once per connection: its error and its end both report the loss.
  const lost = (c: pg.Client, err: unknown) => {
    if (given.has(c)) return;
    given.add(c);
    // Whatever was missed while down is unknown: every entry read before is stale from now on.
    generation++;
    listening = false;
    c.removeAllListeners();
    c.on('error', () => {});
    void c.end().catch(() => {});
    if (client === c) client = undefined;
    if (closed) return;
    log?.warn({ err }, 'cache notifications lost: caching off until the listening connection is back');
    retry = setTimeout(() => void connect(), backoffMs).unref();
    backoffMs = Math.min(backoffMs * 2, 30_000);
  };
  async function connect(): Promise<void> {
    const c = new pg.Client(pool.options);
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c, new Error('connection ended')));
    try {
      await c.connect();
      c.on('notification', () => { generation++; });
      for (const channel of channels) await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (closed) {
        given.add(c);
        await c.end().catch(() => {});
        return;
      }
      client = c;
      generation++;
      listening = true;
      backoffMs = 500;
    } catch (err) {
      lost(c, err);
    }
  }
  await connect();
  return {
    get exact() {
      return listening;
    },
    generation: () => generation,
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      listening = false;
      const c = client;
      client = undefined;
      if (c) {
        given.add(c);
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}

/**
 * A batch read by id kept in memory while the generation holds (and at most `ttlMs`, for values that also
 * depend on the time, like a share of proposals older than three days). Only while the generation is exact
 * (PGlite, or PostgreSQL while listening); otherwise every call reads. An entry read under a generation that moved meanwhile is not kept.
 */
export function cachedById<V>(
  generation: CacheGeneration,
  load: (ids: string[]) => Promise<Map<string, V>>,
  { ttlMs, max = 20_000 }: { ttlMs: number; max?: number },
): (ids: string[]) => Promise<Map<string, V>> {
  const entries = new Map<string, { generation: number; at: number; value: V | undefined }>();
  return async (ids) => {
    // Checked per call: on PostgreSQL the generation is usable only while its notifications arrive.
    if (!generation.exact) return load(ids);
    const now = Date.now();
    const current = generation.generation();
    const out = new Map<string, V>();
    const missing: string[] = [];
    for (const id of ids) {
      const hit = entries.get(id);
      if (hit && hit.generation === current && now - hit.at < ttlMs) {
        if (hit.value !== undefined) out.set(id, hit.value);
      } else missing.push(id);
    }
    if (missing.length === 0) return out;
    const loaded = await load(missing);
    const keep = generation.generation() === current;
    if (keep && entries.size + missing.length > max) entries.clear();
    for (const id of missing) {
      const value = loaded.get(id);
      if (value !== undefined) out.set(id, value);
      if (keep) entries.set(id, { generation: current, at: now, value });
    }
    return out;
  };
}
