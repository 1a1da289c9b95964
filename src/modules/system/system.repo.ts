import type { Db } from '../../platform/db.js';
import { pendingMigrations } from '../../platform/db.js';

/** The store as the health checks see it. */
export function createSystemRepo(db: Db) {
  return {
    kind: db.kind,
    /** One round trip: throws when the store cannot answer. */
    async ping(): Promise<void> {
      await db.query('SELECT 1');
    },
    pendingMigrations: () => pendingMigrations(db),
  };
}
