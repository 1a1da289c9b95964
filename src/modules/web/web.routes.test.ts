import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerErrorHandling } from '../../platform/error-handler.js';
import { useTestApp } from '../../../test/helpers/index.js';
import { webRoutes } from './web.routes.js';

/** Serving the dashboard build: caching, the SPA fallback, /api untouched, no path traversal. */
describe('dashboard serving (fixture build)', () => {
  let app: FastifyInstance;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
    mkdirSync(join(dir, 'dist/assets'), { recursive: true });
    writeFileSync(join(dir, 'dist/index.html'), '<!doctype html><title>dash</title><script type="module" src="/app/assets/index-abc123.js"></script>');
    writeFileSync(join(dir, 'dist/assets/index-abc123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'dist/assets/index-abc123.css'), 'body{}');
    writeFileSync(join(dir, 'secret.txt'), 'TOP-SECRET-CONTENT');
    app = Fastify();
    registerErrorHandling(app as never);
    await app.register(webRoutes, { distDir: join(dir, 'dist') });
    await app.ready();
  });
  after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hashed assets are cached for good with their type', async () => {
    const js = await app.inject('/app/assets/index-abc123.js');
    assert.equal(js.statusCode, 200);
    assert.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(String(js.headers['content-type']), /text\/javascript/);
    assert.match(String((await app.inject('/app/assets/index-abc123.css')).headers['content-type']), /text\/css/);
  });

  it('every /app and /admin page is index.html, never cached', async () => {
    for (const url of ['/app', '/app/', '/app/proposals?status=pending', '/app/companies/x/profile', '/admin', '/admin/agents']) {
      const r = await app.inject(url);
      assert.equal(r.statusCode, 200, url);
      assert.equal(r.headers['cache-control'], 'no-store', url);
      assert.match(String(r.headers['content-type']), /text\/html/);
      assert.match(r.body, /<title>dash<\/title>/);
    }
  });

  it('an unknown asset is a 404, not the SPA', async () => {
    const r = await app.inject('/app/assets/missing-123.js');
    assert.equal(r.statusCode, 404);
    assert.ok(!r.body.includes('<title>dash'));
  });

  it('refuses path traversal out of the assets folder', async () => {
    for (const url of ['/app/assets/../index.html', '/app/assets/..%2F..%2Fsecret.txt', '/app/assets/%2e%2e/%2e%2e/secret.txt', '/app/assets/..%5c..%5csecret.txt', '/app/assets/%00']) {
      const r = await app.inject(url);
      // Either refused, or (a client that resolves "..") just the SPA page: never a file outside assets/.
      if (r.statusCode === 200) assert.equal(r.headers['cache-control'], 'no-store', url);
      else assert.equal(r.statusCode, 404, url);
      assert.ok(!r.body.includes('TOP-SECRET-CONTENT'), url);
    }
  });

  it('does not answer under /api or elsewhere', async () => {
    assert.equal((await app.inject('/api/app')).statusCode, 404);
    assert.equal((await app.inject('/application')).statusCode, 404);
  });
});

describe('dashboard serving without a build', () => {
  it('says how to build it (503, not cached) and serves no assets', async () => {
    const app = Fastify();
    registerErrorHandling(app as never);
    await app.register(webRoutes, { distDir: join(tmpdir(), 'no-such-web-dist') });
    const r = await app.inject('/admin/companies');
    assert.equal(r.statusCode, 503);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.match(r.body, /npm run build --prefix web/);
    assert.equal((await app.inject('/app/assets/index.js')).statusCode, 404);
    await app.close();
  });
});

describe('dashboard serving inside the service', () => {
  const t = useTestApp();

  it('serves the real build (or says how to build it) with an HTML CSP, and /api stays JSON', async () => {
    const r = await t.app.inject('/app/proposals');
    assert.ok(r.statusCode === 200 || r.statusCode === 503, String(r.statusCode));
    assert.equal(r.headers['cache-control'], 'no-store');
    if (r.statusCode === 200) {
      assert.match(String(r.headers['content-security-policy']), /script-src 'self'/);
      assert.match(r.body, /\/app\/assets\/index-[\w-]+\.js/);
    }
    const api = await t.app.inject('/api/no-such-endpoint');
    assert.equal(api.statusCode, 404);
    assert.match(String(api.headers['content-type']), /application\/json/);
  });
});
