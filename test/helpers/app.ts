import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import { buildApp, type AppDeps } from '../../src/app.js';
import { testConfig, type Config } from '../../src/config.js';
import { listMigrations, migrate, migrationsDir, openDb, type Db } from '../../src/platform/db.js';
import { createEmbeddingProvider, type EmbeddingProvider } from '../../src/platform/embeddings/embeddings.js';
import type { App } from '../../src/platform/http.js';
import { fixtureResolver } from '../fixtures/crawl/farm.js';

/**
 * Test wiring. TEST_STORE=postgres (set by scripts/ci/run-tests.mjs when TEST_DATABASE_URL is set)
 * gives each test file a fresh PostgreSQL database; otherwise an in-memory PGlite.
 * The test runner is the one place besides config.ts that reads the environment.
 */
const store = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'pglite';
const testDatabaseUrl = process.env.TEST_DATABASE_URL;

let sharedEmbeddings: EmbeddingProvider | undefined;
/** One embedding model per test process (loading it is the slow part). */
export function testEmbeddings(): EmbeddingProvider {
  sharedEmbeddings ??= createEmbeddingProvider(testConfig().embeddings);
  return sharedEmbeddings;
}

/** A fresh, empty PostgreSQL database under TEST_DATABASE_URL (for tests that start the server as a process). */
export async function createTestDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!testDatabaseUrl) throw new Error('TEST_STORE=postgres needs TEST_DATABASE_URL');
  const name = `agp_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: testDatabaseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function createTestDb(): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (store === 'postgres') {
    const database = await createTestDatabaseUrl();
    const db = await openDb({ databaseUrl: database.url, poolSize: 5 });
    await migrate(db);
    return {
      db,
      drop: async () => {
        await db.close();
        await database.drop();
      },
    };
  }
  const db = await openDb({ pgliteFrom: await migratedPglite() });
  await migrate(db);
  return { db, drop: () => db.close() };
}

/**
 * A migrated, empty PGlite data folder, made once per version of the migrations and PGlite, kept in
 * the system's temporary folder and read once per test process: a PGlite started from it is ready in about half a second, where an
 * empty one runs initdb and every migration (about 3 s per test file).
 */
let migratedTemplate: Promise<Blob> | undefined;
function migratedPglite(): Promise<Blob> {
  migratedTemplate ??= loadMigratedPglite();
  return migratedTemplate;
}

async function loadMigratedPglite(): Promise<Blob> {
  const hash = createHash('sha256');
  for (const pkg of ['@electric-sql/pglite', '@electric-sql/pglite-pgvector']) hash.update(fs.readFileSync(new URL(`../../node_modules/${pkg}/package.json`, import.meta.url)));
  for (const file of listMigrations()) hash.update(file).update(fs.readFileSync(path.join(migrationsDir, file)));
  const file = path.join(os.tmpdir(), `agentpages-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
  if (!fs.existsSync(file)) {
    const db = await openDb({});
    await migrate(db);
    const dump = await db.pglite!.dumpDataDir('none');
    await db.close();
    // Written aside, then renamed: a test process running alongside reads a whole file or none.
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  }
  return new Blob([fs.readFileSync(file)]);
}

export interface TestContext {
  app: App;
  db: Db;
  config: Config;
  close: () => Promise<void>;
}

/** A whole app on a fresh store, called with app.inject (no port). */
export async function buildTestApp(overrides: Partial<Config> = {}, env: Record<string, string> = {}, deps: Omit<AppDeps, 'db' | 'embeddings'> = {}): Promise<TestContext> {
  const { db, drop } = await createTestDb();
  const config = testConfig(overrides, env);
  const app = await buildApp(config, { ...deps, db, embeddings: testEmbeddings() });
  await app.ready();
  return {
    app,
    db,
    config,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/**
 * One fresh app for the enclosing describe block: built before its tests, closed after them (with the
 * shared embedding workers, so the test process can exit). Use the returned context inside tests only.
 * Overrides and env may be functions, read when the app is built: for the address of a fake server
 * started by a `before` registered earlier.
 */
export function useTestApp(
  overrides: Partial<Config> | (() => Partial<Config>) = {},
  env: Record<string, string> | (() => Record<string, string>) = {},
  deps: Omit<AppDeps, 'db' | 'embeddings'> = {},
): TestContext {
  const ctx = {} as TestContext;
  before(async () => {
    Object.assign(ctx, await buildTestApp(typeof overrides === 'function' ? overrides() : overrides, typeof env === 'function' ? env() : env, deps));
  });
  after(async () => {
    await ctx.close();
    await closeTestEmbeddings();
  });
  return ctx;
}

/** Closes the shared embedding workers so the test process can exit. */
export async function closeTestEmbeddings(): Promise<void> {
  await sharedEmbeddings?.close();
  sharedEmbeddings = undefined;
}

/**
 * An app whose crawler (and so scanner) may reach a fixture farm (test/fixtures) on 127.0.0.1, with no
 * politeness delay: names under .test resolve through the farm's resolver.
 */
export async function farmTestApp(farm: { port: number }, overrides: Partial<Config> = {}): Promise<TestContext> {
  const { db, drop } = await createTestDb();
  const base = testConfig();
  const config = testConfig({ crawl: { ...base.crawl, allowPrivate: true, allowedPorts: [farm.port], delayMs: 0, timeoutMs: 2000 }, ...overrides });
  const app = await buildApp(config, { db, embeddings: testEmbeddings(), crawlResolver: fixtureResolver });
  await app.ready();
  return { app, db, config, close: async () => { await app.close(); await drop(); } };
}
