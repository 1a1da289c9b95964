import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { classifyAddress, resolveSafe, type Resolver } from '../../lib/ssrf.js';
import { createEngine } from './crawl.engine.js';
import { createFetcher, FetchError, type Fetcher } from './crawl.fetcher.js';

/**
 * SSRF: with CRAWL_ALLOW_PRIVATE off, private, loopback, link-local (metadata), CGNAT,
 * unspecified, ULA and IPv6-mapped addresses are refused however they are written, names that
 * resolve to them are refused, a redirect to them is refused, and the socket only ever dials
 * the address that was checked.
 */
const PUBLIC = '93.184.216.34';

describe('address classification', () => {
  for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:7f00:1::', '198.18.0.1',
    // IPv4-compatible IPv6 (issue 11 finding 7)
    '::7f00:1', '::a9fe:a9fe', '::10.0.0.1']) {
    it(`refuses ${a}`, () => assert.equal(classifyAddress(a).ok, false));
  }
  for (const a of [PUBLIC, '8.8.8.8', '2606:4700:4700::1111']) {
    it(`allows ${a}`, () => assert.equal(classifyAddress(a).ok, true));
  }
  it('allowPrivate admits loopback but never unspecified or multicast', () => {
    assert.equal(classifyAddress('127.0.0.1', true).ok, true);
    assert.equal(classifyAddress('0.0.0.0', true).ok, false);
    assert.equal(classifyAddress('224.0.0.1', true).ok, false);
  });
  it('refuses a name when any of its addresses is private', async () => {
    const split: Resolver = async () => [{ address: PUBLIC, family: 4 }, { address: '10.0.0.1', family: 4 }];
    await assert.rejects(resolveSafe('mixed.example', split, false), /refused address/);
  });
});

describe('fetcher refuses internal targets (allowPrivate off)', () => {
  let server: http.Server;
  let port: number;
  let fetcher: Fetcher;
  const hits: string[] = [];
  // Names: evil.test → 127.0.0.1, meta.test → 169.254.169.254, public.test → a public address
  // (dialled on 127.0.0.1 through remapAddress, so a local server stands in for it).
  const resolver: Resolver = async (host) => {
    if (host === 'public.test') return [{ address: PUBLIC, family: 4 }];
    if (host === 'evil.test' || host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
    if (host === 'meta.test') return [{ address: '169.254.169.254', family: 4 }];
    if (host === 'v6.test') return [{ address: '::ffff:10.0.0.1', family: 6 }];
    throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };

  before(async () => {
    server = http.createServer((req, res) => {
      hits.push(`${req.headers.host}${req.url}`);
      const to: Record<string, string> = {
        '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
        '/to-evil': 'http://evil.test/',
        '/to-loopback-decimal': 'http://2130706433/',
        '/to-mapped': 'http://[::ffff:10.0.0.1]/',
        '/to-meta-name': 'http://meta.test/',
      };
      const target = to[req.url ?? ''];
      if (target) res.writeHead(302, { location: target }).end();
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>public</h1><p>A public page with enough words to read.</p><a href="/to-metadata">about</a> <a href="/to-evil">contact</a>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    fetcher = createFetcher({
      userAgent: 'test-bot/1.0',
      allowPrivate: false,
      allowedPorts: [80, 443, port],
      timeoutMs: 2000,
      resolver,
      remapAddress: (a) => (a.address === PUBLIC ? { address: '127.0.0.1', family: 4 } : a),
    });
  });
  after(async () => {
    await fetcher.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const refused = async (url: string, kind: string) => {
    await assert.rejects(fetcher.fetch(url, 'page'), (err: unknown) => {
      assert.ok(err instanceof FetchError, String(err));
      assert.equal(err.kind, kind, `${url}: ${err.message}`);
      return true;
    });
  };

  for (const url of [
    'http://2130706433/', // decimal
    'http://017700000001/', // octal
    'http://0x7f000001/', // hex
    'http://0x7f.0.0.1/', // mixed hex
    'http://0177.0.0.01/', // dotted octal
    'http://127.1/', // short form
    'http://[::ffff:127.0.0.1]/', // IPv6-mapped
    'http://[::ffff:7f00:1]/',
    'http://[::1]/',
    'http://[fd00::1]/', // ULA
    'http://[fe80::1]/',
    'http://localhost./',
    'http://localhost/',
    'http://app.localhost/',
    'http://0.0.0.0/',
    'http://0/',
    'http://169.254.169.254/latest/meta-data/', // cloud metadata
    'http://[::ffff:169.254.169.254]/',
    'http://[64:ff9b::a9fe:a9fe]/', // NAT64 form of the metadata address
    'http://100.64.0.1/', // CGNAT
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.0.1/',
    'http://evil.test/', // a name resolving to 127.0.0.1
    'http://meta.test/',
    'http://v6.test/',
  ]) {
    it(`refuses ${url}`, () => refused(url, 'unsafe'));
  }

  for (const path of ['/to-metadata', '/to-evil', '/to-loopback-decimal', '/to-mapped', '/to-meta-name']) {
    it(`refuses a redirect hop ${path}`, async () => {
      await refused(`http://public.test:${port}${path}`, 'unsafe');
    });
  }

  it('fetches the public stand-in itself (the checks are not simply refusing everything)', async () => {
    const r = await fetcher.fetch(`http://public.test:${port}/`, 'page');
    assert.equal(r.status, 200);
    assert.match(r.body, /public/);
  });

  it('refuses ports outside the allowed list and non-http schemes', async () => {
    await refused('http://public.test:22/', 'port');
    await refused('file:///etc/passwd', 'bad_url');
    await refused('ftp://public.test/', 'bad_url');
    await refused('http://user:pw@public.test/', 'bad_url');
  });

  it('never dials a rebinding answer: the address used is the one checked at connect time', async () => {
    let calls = 0;
    // First answer public (passes the early check), every later answer loopback.
    const rebinding: Resolver = async () => (calls++ === 0 ? [{ address: PUBLIC, family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    const f = createFetcher({ userAgent: 't', allowPrivate: false, allowedPorts: [port], timeoutMs: 2000, resolver: rebinding, remapAddress: (a) => (a.address === PUBLIC ? { address: '127.0.0.1', family: 4 } : a) });
    const before = hits.length;
    try {
      await assert.rejects(f.fetch(`http://rebind.test:${port}/`, 'page'), (err: unknown) => err instanceof FetchError && err.kind === 'unsafe');
    } finally {
      await f.close();
    }
    assert.equal(hits.length, before, 'no request reached the server');
  });

  it('a crawl whose inner page redirects inside refuses that page only; a refused start refuses the crawl', async () => {
    const engine = createEngine({ fetcher, userAgent: 'test-bot/1.0' });
    const o = await engine.crawl(`http://public.test:${port}/`, { maxPages: 5, maxDepth: 1, delayMs: 0, adaptiveRetry: false });
    assert.equal(o.fatal, undefined);
    await assert.rejects(engine.crawl('http://169.254.169.254/', { maxPages: 5, maxDepth: 1, delayMs: 0, adaptiveRetry: false }), (e: unknown) => e instanceof FetchError && e.kind === 'unsafe');
    await assert.rejects(engine.crawl(`http://public.test:${port}/to-metadata`, { maxPages: 5, maxDepth: 1, delayMs: 0, adaptiveRetry: false }), (e: unknown) => e instanceof FetchError && e.kind === 'unsafe');
    assert.ok(o.failures.some((f) => f.kind === 'unsafe' && f.url.endsWith('/to-metadata')), JSON.stringify(o.failures));
    assert.ok(o.failures.some((f) => f.kind === 'unsafe' && f.url.endsWith('/to-evil')));
  });

  it('no refused target ever reached the local server', () => {
    assert.ok(hits.every((h) => h.startsWith('public.test')), hits.join(', '));
  });
});
