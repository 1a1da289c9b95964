import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';

/**
 * Backup and restore of the embedded store (PGlite in DATA_DIR/pglite) as one gzipped tar file.
 * Only one process may open a PGlite folder: stop the service first. PostgreSQL deployments use
 * pg_dump / pg_restore instead (README, "Operations").
 */
const storeDir = (dataDir: string) => path.join(dataDir, 'pglite');
const extensions = { vector, pg_trgm };

export async function backupPglite(dataDir: string, file: string): Promise<{ bytes: number }> {
  const dir = storeDir(dataDir);
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`no embedded store in ${dir}`);
  const db = await PGlite.create(dir, { extensions });
  try {
    const dump = await db.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    // Written aside and renamed: a crash never leaves half a backup under the final name.
    fs.writeFileSync(`${file}.partial`, bytes);
    fs.renameSync(`${file}.partial`, file);
    return { bytes: bytes.length };
  } finally {
    await db.close();
  }
}

/** Restores into DATA_DIR/pglite. An existing store is kept aside (pglite.before-restore-<time>), never deleted. */
export async function restorePglite(dataDir: string, file: string): Promise<{ keptAside: string | undefined }> {
  const dir = storeDir(dataDir);
  const archive = fs.readFileSync(file);
  let keptAside: string | undefined;
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    keptAside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(dir, keptAside);
  }
  fs.mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir, { extensions, loadDataDir: new Blob([archive]) });
  try {
    await db.query('SELECT 1');
  } finally {
    await db.close();
  }
  return { keptAside };
}
