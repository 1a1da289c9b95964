/**
 * `npm run restore -- FILE`: replaces the embedded store (PGlite in DATA_DIR) with a backup; the
 * current store is kept aside, never deleted. Stop the service first. On PostgreSQL use pg_restore.
 */
import { ConfigError, loadConfig } from '../../src/config.js';
import { restorePglite } from '../../src/platform/backup.js';

try {
  const config = loadConfig();
  if (config.databaseUrl) throw new Error('DATABASE_URL is set: restore PostgreSQL with pg_restore --clean -d "$DATABASE_URL" agentpages.dump');
  const file = process.argv[2];
  if (!file) throw new Error('usage: npm run restore -- FILE');
  const { keptAside } = await restorePglite(config.dataDir, file);
  console.log(`restored from ${file}${keptAside ? `; the previous store is kept in ${keptAside}` : ''}`);
} catch (err) {
  console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err instanceof Error ? err.message : err);
  process.exit(1);
}
