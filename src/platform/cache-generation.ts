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

export async function createCacheGeneration(db: Db): Promise<CacheGeneration> {
  if (db.kind !== 'pglite' || !db.pglite) {
    return { exact: false, generation: () => 0, close: async () => {} };
  }
  let generation = 0;
  const unlisten = await db.pglite.listen(COMPANIES_CHANNEL, () => {
    generation++;
  });
  return {
    exact: true,
    generation: () => generation,
    close: async () => {
      await unlisten().catch(() => {});
    },
  };
}
