/**
 * `npm run db:migrate`: applies pending migrations to the configured store (DATABASE_URL, or
 * PGlite in DATA_DIR) and exits. The service also migrates at start; this is for deploys that
 * migrate as a separate step.
 */
import { ConfigError, loadConfig } from '../../src/config.js';
import { migrate, openDb, pendingMigrations } from '../../src/platform/db.js';

try {
  const config = loadConfig();
  const db = await openDb({ databaseUrl: config.databaseUrl, pgliteDir: config.dataDir });
  try {
    const applied = await migrate(db);
    const pending = await pendingMigrations(db);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'nothing to apply: the schema is up to date');
    if (pending.length) throw new Error(`still pending: ${pending.join(', ')}`);
  } finally {
    await db.close();
  }
} catch (err) {
  console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err instanceof Error ? err.message : err);
  process.exit(1);
}
