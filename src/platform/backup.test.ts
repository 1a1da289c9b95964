import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { backupPglite, restorePglite } from './backup.js';
import { migrate, openDb } from './db.js';

// Issue 20: the embedded store survives a backup and a restore.
describe('embedded store backup and restore', () => {
  it('round-trips the data and keeps the replaced store aside', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agp-backup-'));
    try {
      let db = await openDb({ pgliteDir: dataDir });
      await migrate(db);
      await db.query(`INSERT INTO agents (name, owner_email, api_key_hash, email_confirmed_at) VALUES ('Kept', 'kept@example.org', 'h1', now())`);
      await db.close();
      const file = path.join(dataDir, 'backups', 'one.tar.gz');
      const { bytes } = await backupPglite(dataDir, file);
      assert.ok(bytes > 1000);

      db = await openDb({ pgliteDir: dataDir });
      await db.query(`DELETE FROM agents`);
      await db.close();

      const { keptAside } = await restorePglite(dataDir, file);
      assert.ok(keptAside && fs.existsSync(keptAside));
      db = await openDb({ pgliteDir: dataDir });
      const rows = await db.query<{ name: string }>('SELECT name FROM agents');
      await db.close();
      assert.deepEqual(rows.map((r) => r.name), ['Kept']);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
