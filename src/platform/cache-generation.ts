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

/** A generation that moves on a notification of any of the channels (default: companies). */
export async function createCacheGeneration(db: Db, channels: string[] = [COMPANIES_CHANNEL]): Promise<CacheGeneration> {
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

/**
 * A batch read by id kept in memory while the generation holds (and at most `ttlMs`, for values that also
 * depend on the time, like a share of proposals older than three days). Only when the generation is exact
 * (PGlite); otherwise every call reads. An entry read under a generation that moved meanwhile is not kept.
 */
export function cachedById<V>(
  generation: CacheGeneration,
  load: (ids: string[]) => Promise<Map<string, V>>,
  { ttlMs, max = 20_000 }: { ttlMs: number; max?: number },
): (ids: string[]) => Promise<Map<string, V>> {
  if (!generation.exact) return load;
  const entries = new Map<string, { generation: number; at: number; value: V | undefined }>();
  return async (ids) => {
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
