/**
 * `npm run backup -- [FILE]`: writes the embedded store (PGlite in DATA_DIR) to a gzipped tar file
 * (default backups/agentpages-<time>.tar.gz). Stop the service first. On PostgreSQL use pg_dump.
 */
import { ConfigError, loadConfig } from '../../src/config.js';
import { backupPglite } from '../../src/platform/backup.js';

try {
  const config = loadConfig();
  if (config.databaseUrl) throw new Error('DATABASE_URL is set: back up PostgreSQL with pg_dump -Fc "$DATABASE_URL" > agentpages.dump');
  const file = process.argv[2] ?? `backups/agentpages-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
  const { bytes } = await backupPglite(config.dataDir, file);
  console.log(`backup written: ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB)`);
} catch (err) {
  console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err instanceof Error ? err.message : err);
  process.exit(1);
}
