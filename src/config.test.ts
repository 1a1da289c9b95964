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

  for (const [name, value, message] of [
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
  ] as const) {
    it(`refuses ${name}=${value}`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (e: unknown) => e instanceof ConfigError && message.test(e.message));
    });
  }
});
