import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults for the embedded service', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8000);
    assert.equal(c.serviceName, 'agentpages');
    assert.equal(c.baseUrl, 'http://localhost:8000');
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.seedDemo, true);
    assert.equal(c.llm.baseUrl, undefined);
    assert.equal(c.crawl.allowPrivate, false);
    assert.equal(c.trustProxy, false);
  });

  it('parses what is set', () => {
    const c = loadConfig({ PORT: '9000', BASE_URL: 'https://dir.example.com/', SEED_DEMO: 'false', DATABASE_URL: 'postgres://u@h/db', LOG_LEVEL: 'warn' });
    assert.equal(c.port, 9000);
    assert.equal(c.baseUrl, 'https://dir.example.com');
    assert.equal(c.seedDemo, false);
    assert.equal(c.databaseUrl, 'postgres://u@h/db');
    assert.equal(c.logLevel, 'warn');
  });

  it('reads DATABASE_READ_URL as one replica or several, with the lag bound (issue 41)', () => {
    const primary = 'postgres://u@primary/db';
    assert.deepEqual(loadConfig({ DATABASE_URL: primary }).databaseReadUrls, []);
    assert.equal(loadConfig({ DATABASE_URL: primary }).databaseReadMaxLagMs, 5000);
    assert.deepEqual(loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://u@r1/db' }).databaseReadUrls, ['postgres://u@r1/db']);
    const c = loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://u@r1/db, postgresql://u:secret@r2:5433/db', DATABASE_READ_MAX_LAG_MS: '250' });
    assert.deepEqual(c.databaseReadUrls, ['postgres://u@r1/db', 'postgresql://u:secret@r2:5433/db']);
    assert.equal(c.databaseReadMaxLagMs, 250);
    const refused = (env: Record<string, string>, message: RegExp) =>
      assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && message.test(e.message) && !e.message.includes('secret'));
    refused({ DATABASE_READ_URL: 'postgres://u@r1/db' }, /DATABASE_READ_URL needs DATABASE_URL/);
    refused({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://u@r1/db,,postgres://u@r2/db' }, /DATABASE_READ_URL entry 2 of 3 is empty/);
    refused({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://u:secret@r1/db,mysql://u:secret@r2/db' }, /DATABASE_READ_URL entry 2 of 2 must use postgres: or postgresql:/);
    refused({ DATABASE_URL: primary, DATABASE_READ_URL: 'replica one' }, /DATABASE_READ_URL is not a URL/);
    refused({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://u@r1/db,postgres://u@r1/db' }, /names the same URL twice/);
    refused({ DATABASE_URL: primary, DATABASE_READ_URL: primary }, /lists DATABASE_URL itself/);
    refused({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://u@r1/db', DATABASE_READ_MAX_LAG_MS: '50' }, /DATABASE_READ_MAX_LAG_MS must be between 100/);
  });

  it('bounds the heap growth at 30 % on both stores unless HEAP_GROWING_PERCENT says (issue 41)', () => {
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://db.example/agentpages' }).heapGrowingPercent, 30);
    assert.equal(loadConfig({}).heapGrowingPercent, 30);
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://db.example/agentpages', HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent, 0);
    assert.equal(loadConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent, 0);
    assert.throws(() => loadConfig({ HEAP_GROWING_PERCENT: '-5' }), ConfigError);
  });

  for (const [name, value, message] of [
    ['HEAP_GROWING_PERCENT', 'some', /HEAP_GROWING_PERCENT must be an integer/],
    ['HEAP_GROWING_PERCENT', '-5', /HEAP_GROWING_PERCENT must be between/],
    ['PORT', 'eighty', /PORT must be an integer/],
    ['PORT', '70000', /PORT must be between/],
    ['BASE_URL', 'not a url', /BASE_URL must be a URL/],
    ['BASE_URL', 'ftp://x.example', /BASE_URL must use/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must use/],
    ['SEED_DEMO', 'maybe', /SEED_DEMO must be true or false/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
    ['SERVICE_NAME', 'Agent Pages', /SERVICE_NAME must be a lowercase slug/],
    ['JWT_SECRET', 'short', /JWT_SECRET must be at least 32/],
    ['EMBEDDINGS_PROVIDER', 'openai', /EMBEDDINGS_BASE_URL is required/],
    ['PAYMENTS_PROVIDER', 'stripe', /PAYMENTS_PROVIDER=stripe needs STRIPE_SECRET_KEY/],
    ['PAYMENTS_PROVIDER', 'paypal', /PAYMENTS_PROVIDER must be one of stripe, local, off/],
  ] as const) {
    it(`refuses ${name}=${value}`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (e: unknown) => e instanceof ConfigError && message.test(e.message));
    });
  }

  describe('payments provider (issue 35: the local test provider never sells in production)', () => {
    it('defaults to the local test provider outside production, to off in production without a Stripe key, to Stripe with one', () => {
      assert.deepEqual([loadConfig({}).payments.provider, loadConfig({}).payments.testMode], ['local', true]);
      assert.deepEqual([loadConfig({ NODE_ENV: 'production' }).payments.provider, loadConfig({ NODE_ENV: 'production' }).payments.testMode], ['off', false]);
      const live = loadConfig({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_abcdefgh1234', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh1234' });
      assert.deepEqual([live.payments.provider, live.payments.testMode], ['stripe', false]);
      assert.equal(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abcdefgh1234', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh1234' }).payments.testMode, true);
      assert.equal(loadConfig({ PAYMENTS_PROVIDER: 'off' }).payments.provider, 'off');
    });
    it('refuses the local provider under production, naming what to set instead', () => {
      assert.throws(() => loadConfig({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'local' }), (e: unknown) => e instanceof ConfigError && /never runs under NODE_ENV=production: set STRIPE_SECRET_KEY/.test(e.message));
      assert.throws(() => loadConfig({ PAYMENTS_PROVIDER: 'local', STRIPE_SECRET_KEY: 'sk_test_abcdefgh1234', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh1234' }), ConfigError);
    });
  });
});
