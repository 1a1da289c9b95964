import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { projectPath } from './paths.js';

/**
 * One data layer on two drivers: PGlite (embedded, with pgvector) when DATABASE_URL is unset,
 * node-postgres when it is set. Repositories only see `Queryable`: the same SQL runs on both.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Multi-statement SQL (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /** The PGlite instance when embedded, shared with the job queue (one process per data folder). */
  readonly pglite: PGlite | undefined;
  /** The node-postgres pool when on PostgreSQL. */
  readonly pool: pg.Pool | undefined;
}

// Bigints (count(*)) come back as numbers on both drivers; money-like values are not stored as int8.
pg.types.setTypeParser(20, (v) => Number(v));

export interface DbOptions {
  databaseUrl?: string | undefined;
  /** Folder for PGlite; undefined = in memory (tests). */
  pgliteDir?: string | undefined;
  /** An in-memory PGlite starts from this data folder (a tarball from PGlite's `dumpDataDir`) instead of an empty one: tests start from a migrated copy. */
  pgliteFrom?: Blob | undefined;
  poolSize?: number;
}

export async function openDb(options: DbOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.pgliteDir, options.pgliteFrom);
}

/** PGlite's shared_buffers (see openPglite). */
export const PGLITE_SHARED_BUFFERS = '32MB';

async function openPglite(dir: string | undefined, from: Blob | undefined): Promise<Db> {
  if (dir) fs.mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(dir ? path.join(dir, 'pglite') : undefined, {
    extensions: { vector, pg_trgm },
    ...(from && !dir ? { loadDataDir: from } : {}),
    // PGlite's buffer pool lives in the process's WebAssembly memory, which never shrinks: 32 MB
    // instead of PostgreSQL's 128 MB keeps about 100 MB off the server's resident memory at 100k
    // companies (README, search speed); pages beyond it come from the OS page cache.
    postgresqlconf: [`shared_buffers = ${PGLITE_SHARED_BUFFERS}`],
  });
  const toRows = <T>(r: { rows: unknown[] }) => r.rows as T[];
  return {
    kind: 'pglite',
    pglite,
    pool: undefined,
    query: async <T>(sql: string, params?: unknown[]) => toRows<T>(await pglite.query(sql, params)),
    transaction: (fn) =>
      pglite.transaction(async (tx) =>
        fn({ query: async <T>(sql: string, params?: unknown[]) => toRows<T>(await tx.query(sql, params)) }),
      ),
    exec: async (sql) => {
      await pglite.exec(sql);
    },
    close: () => pglite.close(),
  };
}

async function openPostgres(url: string, max: number): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max });
  // A dropped idle connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  await pool.query('SELECT 1');
  return {
    kind: 'postgres',
    pglite: undefined,
    pool,
    ...poolQueryable(pool),
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}

/** Statements and transactions on a node-postgres pool (the primary's, or a read replica's in read-pool.ts). */
export function poolQueryable(pool: pg.Pool): Pick<Db, 'query' | 'transaction'> {
  return {
    query: async <T>(sql: string, params?: unknown[]) => (await pool.query(sql, params as unknown[])).rows as T[],
    transaction: async (fn) => {
      const client = await pool.connect();
      // A connection that cannot even roll back is dropped, not handed to the next caller (a replica that went away).
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await fn({ query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params as unknown[])).rows as T[] });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw err;
      } finally {
        client.release(broken);
      }
    },
  };
}

export const migrationsDir = projectPath('migrations');

export function listMigrations(): string[] {
  return fs
    .readdirSync(migrationsDir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
}

/**
 * Forward-only SQL migrations from /migrations, applied in name order, each in its own
 * transaction, recorded in schema_migrations. An advisory lock keeps two instances from
 * migrating at once on PostgreSQL.
 */
export async function migrate(db: Db): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied: string[] = [];
  const run = async () => {
    const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    for (const file of listMigrations()) {
      if (done.has(file)) continue;
      const sql = fs.readFileSync(path.join(migrationsDir, file), 'utf8');
      // The file and its record commit together or not at all.
      await db.exec(`BEGIN;\n${sql}\n;INSERT INTO schema_migrations(name) VALUES ('${file}');\nCOMMIT;`);
      applied.push(file);
    }
  };
  if (db.kind === 'postgres') {
    const client = await db.pool!.connect();
    try {
      await client.query('SELECT pg_advisory_lock(724001)');
      await run();
    } finally {
      await client.query('SELECT pg_advisory_unlock(724001)').catch(() => {});
      client.release();
    }
  } else {
    await run();
  }
  return applied;
}

export async function pendingMigrations(db: Db): Promise<string[]> {
  const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
  return listMigrations().filter((f) => !done.has(f));
}
