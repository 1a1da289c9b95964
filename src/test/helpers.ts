import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import pg from 'pg';
import { buildApp, type AppDeps } from '../app.js';
import { testConfig, type Config } from '../config.js';
import { migrate, openDb, type Db } from '../platform/db.js';
import { createEmbeddingProvider, type EmbeddingProvider } from '../platform/embeddings/embeddings.js';
import type { App } from '../platform/http.js';
import type { CompanyInput } from '../modules/companies/companies.schemas.js';

/**
 * Test wiring. TEST_STORE=postgres (set by scripts/run-tests.mjs when TEST_DATABASE_URL is set)
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
  const db = await openDb({});
  await migrate(db);
  return { db, drop: () => db.close() };
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

let counter = 0;
/** A valid company input with unique website; override what the test cares about. */
export function companyFixture(overrides: Partial<CompanyInput> = {}): CompanyInput {
  counter++;
  return {
    name: `Fixture Company ${counter}`,
    website_url: `https://fixture-${counter}-${randomBytes(3).toString('hex')}.example.com`,
    category: 'Technology',
    industry: 'Software development',
    description: 'We build custom web applications for small businesses.',
    country: 'Germany',
    city: 'Berlin',
    address: 'Hauptstrasse 1, 10115 Berlin',
    service_type: 'remote',
    is_verified: true,
    keywords: ['web apps', 'software'],
    ...overrides,
  };
}

export async function seedCompanies(app: App, inputs: CompanyInput[]): Promise<string[]> {
  const result = await app.services.companies.upsertMany(inputs);
  return result.ids;
}

/**
 * Signs an owner in through the real magic-link token flow (service level: no mail, no rate
 * limits). With websiteUrl the purpose is verify: the user becomes an owner of the company at
 * that website (created when missing); the email's domain must match it (owner@acme.com for
 * https://acme.com).
 */
export async function signInOwner(t: TestContext, email: string, websiteUrl?: string): Promise<{ token: string; userId: string; companyId?: string }> {
  const auth = t.app.services.auth;
  const purpose = websiteUrl ? 'verify' : 'login';
  const { token } = await auth.createSignInToken({ email, purpose, website_url: websiteUrl });
  const r = await auth.verifyUserToken(token, purpose);
  return { token: r.access_token, userId: r.user.id, ...(r.company_id ? { companyId: r.company_id } : {}) };
}

/** The Authorization header for a bearer token (owners and administrators). */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const TEST_ADMIN_EMAIL = 'admin@agentpages.test';
export const TEST_ADMIN_PASSWORD = 'correct horse battery staple';

/** An administrator bearer token (the admin is created on first use). */
export async function signInAdmin(t: TestContext): Promise<string> {
  const auth = t.app.services.auth;
  await auth.ensureAdmin(TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
  return (await auth.adminLogin({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD })).access_token;
}
