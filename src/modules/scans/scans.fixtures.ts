import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The scan fixture farm: local sites from "nothing" to "fully agent-ready" plus the traps real
 * scanners fall into (an SPA answering 200 HTML for every path, a CDN that blocks AI user
 * agents, robots.txt where * allows but GPTBot has its own group, JSON-LD injected by script,
 * broken llms.txt links). One server routes by Host; names under .test resolve to 127.0.0.1
 * through the crawl module's fixtureResolver. `PORT` in bodies becomes ":<port>".
 */
export interface Answer {
  status?: number;
  type?: string;
  headers?: Record<string, string>;
  body: string;
}
type Route = string | Answer | ((req: http.IncomingMessage) => Answer);

export interface ScanFixture {
  host: string;
  description: string;
  /** Listing text that decides which agent interfaces apply. */
  listing: { description: string; services?: string[]; service_type?: 'remote' | 'local' | 'nationwide' | 'hybrid' };
  band: [number, number];
  expect: Record<string, string>;
  routes: Record<string, Route>;
  /** Answers every request before the routes (SPA catch-all, CDN rules). */
  before?: (req: http.IncomingMessage, path: string) => Answer | undefined;
}

const words = (n: number, topic: string) => Array.from({ length: n }, (_, i) => `${topic}${i % 7 === 0 ? '.' : ''}`).join(' ');
const about = 'We help small and medium businesses plan, build and run reliable software. Our team of engineers designs web applications, integrates payment and booking systems, and keeps them running with monitoring and support. Customers across Europe trust us with their online shops, internal tools and customer portals. We publish our prices openly, answer within one working day and work in English and German. Ask us for a free first consultation about your project.';

function html(o: { title?: string; desc?: string; lang?: string; head?: string; body: string }): string {
  return `<!doctype html><html${o.lang === '' ? '' : ` lang="${o.lang ?? 'en'}"`}><head><meta charset="utf-8">${o.title ? `<title>${o.title}</title>` : ''}${o.desc ? `<meta name="description" content="${o.desc}">` : ''}${o.head ?? ''}</head><body>${o.body}</body></html>`;
}
const ld = (o: unknown) => `<script type="application/ld+json">${JSON.stringify(o)}</script>`;
const og = (t: string, d: string) => `<meta property="og:title" content="${t}"><meta property="og:description" content="${d}"><meta property="og:image" content="http://HOSTPORT/logo.png">`;
const basicBody = (name: string) => `<header><a href="/">Home</a> <a href="/contact">Contact</a></header><main><h1>${name}</h1><p>${about}</p><p>Call <a href="tel:+49301234567">+49 30 1234567</a> or write to <a href="mailto:hello@example.test">hello@example.test</a>.</p></main>`;
const sitemap = (paths: string[], lastmod: boolean) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>http://HOSTPORT${p}</loc>${lastmod ? '<lastmod>2026-11-01</lastmod>' : ''}</url>`).join('')}</urlset>`;
const page = (title: string) => html({ title, body: `<h1>${title}</h1><p>${about}</p>` });

const AI_UA = /GPTBot|ClaudeBot|Claude-User|Claude-SearchBot|OAI-SearchBot|ChatGPT-User|PerplexityBot|CCBot|Google-Extended/i;

const readyLlms = `# Ready Software

> Ready Software builds and runs web applications, booking systems and APIs for small businesses in Europe.

We work remotely for customers across Europe, in English and German.

## Pages

- [About](http://HOSTPORT/about): who we are
- [Services](http://HOSTPORT/services): what we build
- [Contact](http://HOSTPORT/contact): how to reach us

## Docs & API

- [OpenAPI](http://HOSTPORT/.well-known/openapi.json): our public booking API
`;

/** A fully agent-ready site; the CDN trap serves the same content but blocks AI user agents. */
function readyRoutes(name: string): Record<string, Route> {
  const org = {
    '@context': 'https://schema.org', '@type': 'Organization', name, url: 'http://HOSTPORT/', logo: 'http://HOSTPORT/logo.png',
    description: 'Web applications, booking systems and APIs for small businesses.', email: 'hello@ready.test', telephone: '+49 30 1234567',
    contactPoint: { '@type': 'ContactPoint', telephone: '+49 30 1234567', contactType: 'customer service' },
    sameAs: ['https://www.linkedin.com/company/ready'], dateModified: '2026-11-01',
  };
  const home = html({ title: `${name} | Web applications for small businesses`, desc: 'Web applications, booking systems and APIs for small businesses in Europe.', head: `${og(name, 'Web applications for small businesses')}<link rel="canonical" href="http://HOSTPORT/">${ld(org)}`, body: basicBody(name) });
  return {
    '/': (req) => /text\/markdown/.test(String(req.headers.accept)) ? { type: 'text/markdown; charset=utf-8', body: `# ${name}\n\n${about}\n` } : {
      body: home,
      headers: { link: '</llms.txt>; rel="describedby"; type="text/plain", </.well-known/api-catalog>; rel="api-catalog", </.well-known/openapi.json>; rel="service-desc"', 'last-modified': 'Sun, 01 Nov 2026 10:00:00 GMT' },
    },
    '/robots.txt': `User-agent: OAI-SearchBot\nUser-agent: ChatGPT-User\nUser-agent: Claude-SearchBot\nUser-agent: PerplexityBot\nDisallow: /admin/\nAllow: /\n\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /admin/\nAllow: /\n\nUser-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=yes\nDisallow: /admin/\n\nSitemap: http://HOSTPORT/sitemap.xml\n`,
    '/sitemap.xml': sitemap(['/', '/about', '/services', '/contact'], true),
    '/llms.txt': readyLlms,
    '/llms-full.txt': `# ${name}\n\n${about}\n\n${words(200, 'software')}\n`,
    '/about': page('About'), '/services': page('Services'), '/contact': page('Contact'),
    '/.well-known/openapi.json': { type: 'application/json', body: JSON.stringify({ openapi: '3.1.0', info: { title: 'Bookings', version: '1.0' }, paths: { '/bookings': { get: { responses: { 200: { description: 'ok' } } } } } }) },
    '/.well-known/api-catalog': { type: 'application/linkset+json', body: JSON.stringify({ linkset: [{ anchor: 'http://HOSTPORT/', 'service-desc': [{ href: 'http://HOSTPORT/.well-known/openapi.json' }] }] }) },
    '/.well-known/mcp/server-card.json': { type: 'application/json', body: JSON.stringify({ name: 'ready-bookings', version: '1.0.0', remotes: [{ type: 'streamable-http', url: 'http://HOSTPORT/mcp' }] }) },
    '/.well-known/agent-card.json': { type: 'application/json', body: JSON.stringify({ name: 'Ready booking agent', description: 'Books appointments', version: '1.0.0', supportedInterfaces: [{ url: 'http://HOSTPORT/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: { streaming: false }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [{ id: 'book', name: 'Book', description: 'Books an appointment', tags: ['booking'] }] }) },
  };
}

const plainListing = { description: 'We help small businesses with their websites.', service_type: 'remote' as const };
const basicRoutes = (name: string, robots = 'User-agent: *\nAllow: /\nSitemap: http://HOSTPORT/sitemap.xml\n'): Record<string, Route> => ({
  '/': html({ title: name, desc: `${name}: software for small businesses`, head: og(name, 'Software for small businesses'), body: basicBody(name) }),
  '/robots.txt': robots,
  '/sitemap.xml': sitemap(['/', '/contact'], false),
  '/contact': page('Contact'),
});

export const SCAN_FIXTURES: ScanFixture[] = [
  {
    host: 'nothing.test', description: 'nothing: a bare page, no robots, no metadata', listing: plainListing, band: [0, 39],
    expect: { A01: 'pass', A03: 'warn', A04: 'pass', D01: 'fail', D03: 'fail', D04: 'na', U01: 'fail', U02: 'fail', U06: 'fail', X01: 'na', X03: 'na', X04: 'na' },
    routes: { '/': '<html><body><p>Welcome</p></body></html>' },
  },
  {
    host: 'basic.test', description: 'a typical small-business site: robots, sitemap, metadata, no agent files', listing: plainListing, band: [45, 69],
    expect: { A03: 'pass', A04: 'pass', A05: 'warn', D01: 'pass', D02: 'warn', D03: 'fail', U01: 'pass', U02: 'fail', U06: 'pass', U07: 'pass', U09: 'pass', X01: 'na' },
    routes: basicRoutes('Basic Web Studio'),
  },
  {
    host: 'ready.test', description: 'fully agent-ready (only HTTPS is missing: the farm is plain HTTP)', band: [85, 100],
    listing: { description: 'Web applications and a public booking API with an MCP server and an AI agent.', services: ['Web applications', 'Booking API'], service_type: 'remote' },
    expect: { A02: 'fail', A03: 'pass', A04: 'pass', A05: 'pass', A06: 'pass', A09: 'pass', D01: 'pass', D02: 'pass', D03: 'pass', D04: 'pass', D05: 'pass', D07: 'pass', D08: 'pass', D09: 'pass', U01: 'pass', U02: 'pass', U03: 'pass', U06: 'pass', U08: 'pass', U09: 'pass', U10: 'pass', X01: 'pass', X02: 'pass', X03: 'pass', X04: 'pass', X05: 'na' },
    routes: readyRoutes('Ready Software'),
  },
  {
    host: 'spa.test', description: 'trap: a single-page app answering 200 HTML for every path (robots.txt, llms.txt, openapi.json included)', listing: plainListing, band: [0, 39],
    expect: { A03: 'fail', D01: 'fail', D03: 'fail', D07: 'warn', U01: 'fail', U02: 'fail', X01: 'na', X03: 'na' },
    routes: {},
    before: () => ({ body: '<!doctype html><html lang="en"><head><title>Shop</title><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>' }),
  },
  {
    host: 'cdn-block.test', description: 'trap: a CDN answers 403 with a challenge to AI user agents (the content is otherwise agent-ready)', band: [59, 59],
    listing: { description: 'Web applications and a public booking API with an MCP server and an AI agent.', service_type: 'remote' },
    expect: { A04: 'pass', A09: 'fail', D03: 'pass', U01: 'pass' },
    routes: readyRoutes('Blocked Software'),
    before: (req) => (AI_UA.test(String(req.headers['user-agent'])) ? { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '<html><body>Just a moment...</body></html>' } : undefined),
  },
  {
    host: 'gptbot-group.test', description: 'trap: robots.txt where * allows but GPTBot has its own group that disallows everything', listing: plainListing, band: [45, 69],
    expect: { A03: 'pass', A04: 'warn', A05: 'pass', A07: 'fail' },
    routes: basicRoutes('GPT Group Studio', 'User-agent: *\nAllow: /\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: http://HOSTPORT/sitemap.xml\n'),
  },
  {
    host: 'search-blocked.test', description: 'robots.txt blocks every crawler (so every AI search agent): capped at 39', listing: plainListing, band: [0, 39],
    expect: { A04: 'fail', A07: 'fail', A05: 'warn' },
    routes: basicRoutes('Hidden Studio', 'User-agent: *\nDisallow: /\n'),
  },
  {
    host: 'jsonld-script.test', description: 'trap: JSON-LD only injected by a script (none in the raw HTML)', listing: plainListing, band: [40, 69],
    expect: { U01: 'pass', U02: 'fail', U03: 'fail' },
    routes: {
      ...basicRoutes('Script Data Studio'),
      '/': html({ title: 'Script Data Studio', desc: 'Software for small businesses', body: `${basicBody('Script Data Studio')}<script>var s=document.createElement('script');s.type='application/ld+json';s.text=JSON.stringify({"@context":"https://schema.org","@type":"Organization","name":"Script Data Studio"});document.head.appendChild(s);</script>` }),
    },
  },
  {
    host: 'broken-llms.test', description: 'trap: llms.txt whose links mostly 404', listing: plainListing, band: [45, 75],
    expect: { D03: 'pass', D04: 'pass', D05: 'fail' },
    routes: {
      ...basicRoutes('Broken Links Studio'),
      '/llms.txt': '# Broken Links Studio\n\n> Software for small businesses.\n\n## Pages\n\n- [Contact](http://HOSTPORT/contact)\n- [Pricing](http://HOSTPORT/pricing)\n- [Docs](http://HOSTPORT/docs)\n- [Blog](http://HOSTPORT/blog)\n- [Team](http://HOSTPORT/team)\n- [Elsewhere](https://example.org/about)\n',
    },
  },
  {
    host: 'legacy-agent.test', description: 'an old-style agent.json (top-level url) and an llms.txt without an H1', band: [45, 75],
    listing: { description: 'Appointment booking with an AI agent for clinics.', service_type: 'remote' },
    expect: { D03: 'pass', D04: 'fail', X04: 'warn', X03: 'na' },
    routes: {
      ...basicRoutes('Legacy Agents', 'User-agent: *\nDisallow: /private/\nSitemap: http://HOSTPORT/sitemap.xml\n'),
      '/llms.txt': 'Legacy Agents\n\nWe book appointments. See [contact](http://HOSTPORT/contact).\n',
      '/.well-known/agent.json': { type: 'application/json', body: JSON.stringify({ name: 'Legacy booking agent', description: 'Books clinic appointments', url: 'http://HOSTPORT/agent', version: '0.9', capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [{ id: 'book', name: 'Book', description: 'Books a clinic appointment', tags: ['booking'] }] }) },
    },
  },
  {
    host: 'robots-500.test', description: 'robots.txt answers 503: RFC 9309 crawlers treat the whole site as disallowed (capped at 39)', listing: plainListing, band: [0, 39],
    expect: { A03: 'fail', A04: 'fail', D01: 'pass', U01: 'pass' },
    routes: { ...basicRoutes('Flaky Robots'), '/robots.txt': { status: 503, type: 'text/plain', body: 'Service unavailable' } },
  },
  {
    host: 'moved.test', description: 'redirects to another domain: the scan refuses to leave the listed domain', listing: plainListing, band: [0, 0], expect: {},
    routes: { '/': { status: 301, headers: { location: 'http://elsewhere.test:PORT/' }, body: '' } },
  },
  {
    host: 'blocked.test', description: 'refuses every client: the scan fails as blocked', listing: plainListing, band: [0, 0], expect: {},
    routes: {}, before: () => ({ status: 403, body: 'Forbidden' }),
  },
];

export interface ScanFarm {
  port: number;
  url: (host: string, path?: string) => string;
  requests: { host: string; path: string; userAgent: string }[];
  close: () => Promise<void>;
}

export async function startScanFarm(sites: ScanFixture[] = SCAN_FIXTURES): Promise<ScanFarm> {
  const byHost = new Map(sites.map((s) => [s.host, s]));
  const farm: ScanFarm = { port: 0, url: () => '', requests: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = (req.url ?? '/').split('?')[0]!;
    farm.requests.push({ host, path, userAgent: String(req.headers['user-agent'] ?? '') });
    const site = byHost.get(host);
    const route = site?.routes[path];
    const early = site?.before?.(req, path);
    const answer: Answer | undefined = early ?? (typeof route === 'function' ? route(req) : typeof route === 'string' ? { body: route } : route);
    if (!answer) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    const type = answer.type ?? (path.endsWith('.txt') && !early ? 'text/plain; charset=utf-8' : path.endsWith('.xml') && !early ? 'application/xml' : 'text/html; charset=utf-8');
    const headers = Object.fromEntries(Object.entries(answer.headers ?? {}).map(([k, v]) => [k, v.replaceAll('PORT', String(farm.port))]));
    res.writeHead(answer.status ?? 200, { 'content-type': type, ...headers }).end(answer.body.replaceAll('HOSTPORT', `${host}:${farm.port}`));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  farm.port = (server.address() as AddressInfo).port;
  farm.url = (host, path = '/') => `http://${host}:${farm.port}${path}`;
  farm.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return farm;
}

/** An app whose crawler (and so scanner) may reach the farm on 127.0.0.1 with no politeness delay. */
export async function scanTestApp(farm: ScanFarm, overrides: Partial<import('../../config.js').Config> = {}): Promise<import('../../test/helpers.js').TestContext> {
  const { buildApp } = await import('../../app.js');
  const { testConfig } = await import('../../config.js');
  const { createTestDb, testEmbeddings } = await import('../../test/helpers.js');
  const { fixtureResolver } = await import('../crawl/crawl.fixtures.js');
  const { db, drop } = await createTestDb();
  const base = testConfig();
  const config = testConfig({ crawl: { ...base.crawl, allowPrivate: true, allowedPorts: [farm.port], delayMs: 0, timeoutMs: 2000 }, ...overrides });
  const app = await buildApp(config, { db, embeddings: testEmbeddings(), crawlResolver: fixtureResolver });
  await app.ready();
  return { app, db, config, close: async () => { await app.close(); await drop(); } };
}
