import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Resolver } from '../../lib/ssrf.js';

/**
 * A fixture farm for crawler tests and the crawl benchmark: one local HTTP server that serves
 * a dozen small company sites, routed by the Host header (names under .test resolve to
 * 127.0.0.1 through `fixtureResolver`). Sites differ in structure on purpose: JSON-LD-rich,
 * plain HTML, multi-language, robots-disallowed sections, redirects, a slow page, an oversized
 * page, broken pages, a JavaScript shell. Each carries the profile a good crawl should find.
 */
export interface ExpectedProfile {
  category: string;
  city: string;
  country: string;
  service_type: 'remote' | 'local' | 'nationwide' | 'hybrid';
  email: string | null;
  phone: string | null;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FixtureSite {
  host: string;
  description: string;
  expected: ExpectedProfile | null;
  /** Path → body (HTML) or handler. */
  routes: Record<string, string | Handler>;
}

const nav = `<header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/services">Services</a> <a href="/contact">Contact</a> <a href="/blog">Blog</a></nav></header>`;
const cookie = `<div class="cookie-banner" id="cookie-consent"><p>We use cookies to improve your experience. By using this site you accept our cookie policy and the processing of data.</p><button>Accept</button></div>`;

function page(title: string, body: string, o: { lang?: string; head?: string; footer?: string } = {}): string {
  return `<!doctype html><html lang="${o.lang ?? 'en'}"><head><meta charset="utf-8"><title>${title}</title>${o.head ?? ''}</head>
<body>${cookie}${nav}<main>${body}</main><footer>${o.footer ?? '<p>© 2026. All rights reserved.</p>'} <a href="/privacy">Privacy</a> <a href="https://www.linkedin.com/company/example">LinkedIn</a></footer></body></html>`;
}

const ld = (o: unknown) => `<script type="application/ld+json">${JSON.stringify(o)}</script>`;
const robotsAll = 'User-agent: *\nAllow: /\n';
const sitemap = (host: string, paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>http://${host}PORT${p}</loc></url>`).join('')}</urlset>`;

export const FIXTURE_SITES: FixtureSite[] = [
  {
    host: 'acme-plumbing.test',
    description: 'JSON-LD-rich local business (Plumber) with ContactPoint and sameAs',
    expected: { category: 'Construction & Home Services', city: 'Berlin', country: 'Germany', service_type: 'local', email: 'info@acme-plumbing.test', phone: '+49 30 1234567' },
    routes: {
      '/robots.txt': `${robotsAll}Sitemap: http://acme-plumbing.testPORT/sitemap.xml\n`,
      '/sitemap.xml': sitemap('acme-plumbing.test', ['/', '/about', '/services', '/contact']),
      '/': page('Acme Plumbing | Emergency plumber in Berlin', `<h1>Acme Plumbing</h1><p>Fast, honest plumbing repairs for homes and businesses across Berlin, 24 hours a day.</p><p>Leaking pipe or blocked drain? Our certified plumbers arrive within the hour.</p>`, {
        head: `<meta name="description" content="Emergency plumber in Berlin: leaks, drains, boilers and bathroom installations.">${ld({
          '@context': 'https://schema.org', '@type': 'Plumber', name: 'Acme Plumbing GmbH', url: 'http://acme-plumbing.test/',
          description: 'Emergency plumbing, drain cleaning and boiler service in Berlin.',
          telephone: '+49 30 1234567', email: 'info@acme-plumbing.test',
          address: { '@type': 'PostalAddress', streetAddress: 'Hauptstrasse 12', addressLocality: 'Berlin', postalCode: '10115', addressCountry: 'DE' },
          contactPoint: { '@type': 'ContactPoint', telephone: '+49 30 1234567', contactType: 'customer service' },
          sameAs: ['https://www.facebook.com/acmeplumbing', 'https://www.instagram.com/acmeplumbing'],
          foundingDate: '1998',
        })}`,
      }),
      '/about': page('About us - Acme Plumbing', `<h1>About us</h1><p>Family-run since 1998, Acme Plumbing serves households in Berlin with a team of twelve master plumbers.</p>`),
      '/services': page('Services - Acme Plumbing', `<h1>Our services</h1><ul><li>Leak repair</li><li>Drain cleaning</li><li>Boiler service</li><li>Bathroom installation</li></ul>`),
      '/contact': page('Contact - Acme Plumbing', `<h1>Contact</h1><p>Call us any time on <a href="tel:+49301234567">+49 30 1234567</a> or write to <a href="mailto:info@acme-plumbing.test">info@acme-plumbing.test</a>.</p><address>Hauptstrasse 12, 10115 Berlin, Germany</address>`),
    },
  },
  {
    host: 'brightpixel.test',
    description: 'plain HTML software studio, no structured data, address in the footer',
    expected: { category: 'Technology', city: 'Amsterdam', country: 'Netherlands', service_type: 'remote', email: 'hello@brightpixel.test', phone: '+31 20 123 4567' },
    routes: {
      '/robots.txt': robotsAll,
      '/': page('BrightPixel — custom software development', `<h1>We build software that works</h1><p>BrightPixel is a software development studio building web applications, mobile apps and cloud platforms for startups.</p><p>We work remotely with clients around the world, from idea to launch and beyond.</p><a href="/services">What we do</a>`, {
        head: `<meta name="description" content="BrightPixel builds custom web applications, mobile apps and cloud software for startups and scale-ups.">`,
        footer: `<p>BrightPixel B.V., Keizersgracht 123, 1015 CJ Amsterdam, Netherlands · hello@brightpixel.test · +31 20 123 4567</p>`,
      }),
      '/services': page('Services — BrightPixel', `<h1>Services</h1><ul><li>Web application development</li><li>Mobile apps</li><li>Cloud architecture</li><li>API design</li></ul>`),
      '/blog': page('Blog', `<h1>Blog</h1><p>Notes on TypeScript, PostgreSQL and shipping software to production safely.</p>`),
    },
  },
  {
    host: 'trattoria-luigi.test',
    description: 'multi-language restaurant (Italian home page, English alternate), JSON-LD Restaurant',
    expected: { category: 'Food & Beverage', city: 'Rome', country: 'Italy', service_type: 'local', email: 'prenotazioni@trattoria-luigi.test', phone: '+39 06 6789 1234' },
    routes: {
      '/robots.txt': robotsAll,
      '/': page('Trattoria Luigi – Cucina romana dal 1965', `<h1>Trattoria Luigi</h1><p>Cucina romana tradizionale nel cuore di Trastevere: carbonara, cacio e pepe e carciofi alla giudia.</p><p>Prenota un tavolo: siamo aperti tutti i giorni a pranzo e cena.</p><a href="/en/">English</a>`, {
        lang: 'it',
        head: `<link rel="alternate" hreflang="en" href="/en/"><meta property="og:site_name" content="Trattoria Luigi">${ld({
          '@context': 'https://schema.org', '@type': 'Restaurant', name: 'Trattoria Luigi', servesCuisine: 'Roman',
          telephone: '+39 06 6789 1234', email: 'prenotazioni@trattoria-luigi.test',
          address: { '@type': 'PostalAddress', streetAddress: 'Via della Lungaretta 22', addressLocality: 'Rome', postalCode: '00153', addressCountry: 'IT' },
        })}`,
      }),
      '/en/': page('Trattoria Luigi – Roman cooking since 1965', `<h1>Trattoria Luigi</h1><p>Traditional Roman cooking in the heart of Trastevere. Book a table for lunch or dinner, open every day.</p>`, { lang: 'en' }),
    },
  },
  {
    host: 'smith-legal.test',
    description: 'law firm with a robots-disallowed section and microdata address',
    expected: { category: 'Legal', city: 'London', country: 'United Kingdom', service_type: 'local', email: 'enquiries@smith-legal.test', phone: '+44 20 7946 0123' },
    routes: {
      '/robots.txt': 'User-agent: *\nDisallow: /private/\nDisallow: /clients\n',
      '/': page('Smith & Partners Solicitors', `<h1>Smith &amp; Partners Solicitors</h1><p>Employment law, family law and property conveyancing for individuals and small businesses. Visit our office in London for a free first consultation.</p><a href="/private/staff">Staff area</a> <a href="/clients">Client portal</a> <a href="/contact">Contact</a>`, {
        head: `<meta name="description" content="Solicitors in London: employment, family and property law.">`,
      }),
      '/private/staff': page('Staff', `<p>Internal: write to partners-only@smith-legal.test</p>`),
      '/clients': page('Clients', `<p>Client portal. Call +44 20 0000 0000.</p>`),
      '/contact': page('Contact us', `<h1>Contact us</h1><div itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="streetAddress">12 Fleet Street</span>, <span itemprop="addressLocality">London</span> <span itemprop="postalCode">EC4Y 1AA</span>, <span itemprop="addressCountry">United Kingdom</span></div><p>Telephone: +44 20 7946 0123. Email: enquiries@smith-legal.test</p>`),
    },
  },
  {
    host: 'old-freight.test',
    description: 'redirect chain: apex → www → https-less canonical path; US address',
    expected: { category: 'Logistics & Transportation', city: 'Chicago', country: 'United States', service_type: 'nationwide', email: 'dispatch@old-freight.test', phone: '+1 312 555 0147' },
    routes: {
      '/robots.txt': robotsAll,
      '/': (req, res) => {
        if ((req.headers.host ?? '').startsWith('www.')) {
          res.writeHead(302, { location: '/home' }).end();
          return;
        }
        res.writeHead(301, { location: `http://www.${req.headers.host}/` }).end();
      },
      '/home': page('Old Freight Lines - Trucking and freight shipping', `<h1>Old Freight Lines</h1><p>Full truckload and less-than-truckload freight shipping nationwide, coast to coast, with our own fleet of 200 trucks.</p><p>Warehousing and cross-docking in Chicago.</p>`, {
        footer: `<p>Old Freight Lines Inc., 400 W Lake St, Chicago, IL 60606 · dispatch@old-freight.test · +1 312 555 0147</p>`,
      }),
      '/loop': (_req, res) => {
        res.writeHead(302, { location: '/loop' }).end();
      },
    },
  },
  {
    host: 'greenleaf-solar.test',
    description: 'one slow page (times out) among good ones',
    expected: { category: 'Energy & Utilities', city: 'Munich', country: 'Germany', service_type: 'local', email: 'kontakt@greenleaf-solar.test', phone: '+49 89 2345678' },
    routes: {
      '/robots.txt': robotsAll,
      '/': page('Greenleaf Solar – solar panels and heat pumps', `<h1>Greenleaf Solar</h1><p>We plan and install solar panels, battery storage and heat pumps for homes, serving the Munich area since 2010.</p><a href="/projects">Projects</a> <a href="/contact">Contact</a>`),
      '/projects': (_req, res) => {
        const t = setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>late</p>'), 60_000);
        res.on('close', () => clearTimeout(t));
      },
      '/contact': page('Contact', `<h1>Contact</h1><address>Greenleaf Solar GmbH, Sonnenstrasse 8, 80331 Munich, Germany</address><p>kontakt@greenleaf-solar.test · +49 89 2345678</p>`),
    },
  },
  {
    host: 'bigpage-dental.test',
    description: 'dental clinic with an oversized gallery page (over the 2 MB cap)',
    expected: { category: 'Healthcare', city: 'Vienna', country: 'Austria', service_type: 'local', email: 'praxis@bigpage-dental.test', phone: '+43 1 5123456' },
    routes: {
      '/robots.txt': robotsAll,
      '/': page('Dental Clinic Dr. Huber, Vienna', `<h1>Dental Clinic Dr. Huber</h1><p>Check-ups, dental hygiene, implants and gentle treatment for anxious patients in Vienna's first district.</p><a href="/gallery">Gallery</a> <a href="/contact">Contact</a>`, {
        head: ld({ '@context': 'https://schema.org', '@type': 'Dentist', name: 'Zahnarztpraxis Dr. Huber', telephone: '+43 1 5123456', email: 'praxis@bigpage-dental.test', address: { '@type': 'PostalAddress', streetAddress: 'Graben 10', addressLocality: 'Vienna', postalCode: '1010', addressCountry: 'Austria' } }),
      }),
      '/gallery': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = `<p>${'x'.repeat(64 * 1024)}</p>`;
        let sent = 0;
        const write = () => {
          while (sent < 3 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', write);
              return;
            }
          }
          res.end();
        };
        res.on('error', () => {});
        write();
      },
      '/contact': page('Contact', `<h1>Contact</h1><p>Graben 10, 1010 Vienna. Phone +43 1 5123456.</p>`),
    },
  },
  {
    host: 'broken-bakery.test',
    description: 'broken pages: a 500, a 404, malformed HTML and malformed JSON-LD',
    expected: { category: 'Food & Beverage', city: 'Lyon', country: 'France', service_type: 'local', email: 'bonjour@broken-bakery.test', phone: '+33 4 72 00 12 34' },
    routes: {
      '/robots.txt': robotsAll,
      '/': `<html lang="fr"><head><title>Boulangerie Dupont – Lyon</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Bakery","name":"Boulangerie Dupont","telephone":"+33 4 72 00 12 34","email":"bonjour@broken-bakery.test","address":{"@type":"PostalAddress","addressLocality":"Lyon","postalCode":"69001","addressCountry":"FR",},}</script></head><body><div><h1>Boulangerie Dupont<p>Pain au levain, croissants and pastries baked every morning in Lyon. Open Tuesday to Sunday, visit our shop in the Presqu'île.<a href="/about">À propos</a><a href="/menu">Menu</a><table><tr><td>unclosed`,
      '/about': (_req, res) => {
        res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>');
      },
    },
  },
  {
    host: 'spa-shell.test',
    description: 'JavaScript-only home page; content only on sitemap pages (adaptive retry)',
    expected: { category: 'Beauty & Wellness', city: 'Barcelona', country: 'Spain', service_type: 'local', email: 'hola@spa-shell.test', phone: '+34 931 234 567' },
    routes: {
      '/robots.txt': `${robotsAll}Sitemap: http://spa-shell.testPORT/sitemap.xml\n`,
      '/sitemap.xml': sitemap('spa-shell.test', ['/', '/es/serena', '/es/donde']),
      '/': `<!doctype html><html lang="es"><head><title>Loading…</title><script src="/app.js"></script></head><body><div id="root"></div></body></html>`,
      '/es/serena': page('Serena Spa – massage and beauty in Barcelona', `<h1>Serena Spa</h1><p>Massages, facials, manicure and a relaxing sauna in the Gothic Quarter of Barcelona. Book your visit at our salon.</p>`, { lang: 'es' }),
      '/es/donde': page('Contacto', `<h1>Contacto</h1><address>Carrer de Ferran 15, 08002 Barcelona, Spain</address><p>hola@spa-shell.test · +34 931 234 567</p>`, { lang: 'es' }),
    },
  },
  {
    host: 'cozy-socks.test',
    description: 'online shop: OpenGraph and meta only, ships worldwide, no address',
    expected: { category: 'E-commerce', city: '', country: '', service_type: 'remote', email: 'support@cozy-socks.test', phone: null },
    routes: {
      '/robots.txt': robotsAll,
      '/': page('Cozy Socks – warm wool socks online', `<h1>Warm wool socks, delivered</h1><p>Shop merino wool socks in 40 colours. Add to cart, check out in seconds, free shipping worldwide on orders over 50 euros.</p><a href="/shop">Shop now</a> <a href="/faq">FAQ</a>`, {
        head: `<meta property="og:site_name" content="Cozy Socks"><meta property="og:description" content="Online store for merino wool socks with worldwide shipping."><meta name="keywords" content="socks, wool socks, merino, online shop">`,
      }),
      '/faq': page('FAQ', `<h1>Questions</h1><p>Where is my order? Write to support@cozy-socks.test with your order number and we answer within a day.</p>`),
      '/shop': page('Shop', `<h1>Shop</h1><ul><li>Merino crew socks</li><li>Hiking socks</li><li>Gift box</li></ul>`),
    },
  },
  {
    host: 'talentbridge.test',
    description: 'recruitment agency with robots Crawl-delay and JSON-LD EmploymentAgency, hybrid work',
    expected: { category: 'Human Resources & Staffing', city: 'Dublin', country: 'Ireland', service_type: 'hybrid', email: 'jobs@talentbridge.test', phone: '+353 1 555 0199' },
    routes: {
      '/robots.txt': 'User-agent: *\nCrawl-delay: 1\nAllow: /\n',
      '/': page('TalentBridge Recruitment', `<h1>TalentBridge</h1><p>Recruitment and staffing for technology and finance roles. We place candidates in on-site and remote positions with employers across Europe.</p><p>Visit our office in Dublin or meet us online.</p>`, {
        head: ld({ '@context': 'https://schema.org', '@type': 'EmploymentAgency', name: 'TalentBridge Recruitment Ltd', email: 'jobs@talentbridge.test', telephone: '+353 1 555 0199', address: { '@type': 'PostalAddress', streetAddress: '5 Harcourt Street', addressLocality: 'Dublin', addressCountry: 'IE' } }),
      }),
    },
  },
  {
    host: 'numbers-accounting.test',
    description: 'German-language plain HTML tax advisers, address on the Impressum page',
    expected: { category: 'Finance', city: 'Hamburg', country: 'Germany', service_type: 'nationwide', email: 'info@numbers-accounting.test', phone: '+49 40 1234567' },
    routes: {
      '/robots.txt': robotsAll,
      '/': page('Numbers Steuerberatung – Buchhaltung und Steuern', `<h1>Steuerberatung und Buchhaltung</h1><p>Wir übernehmen Buchhaltung, Lohnabrechnung, Jahresabschluss und Steuererklärungen für kleine und mittlere Unternehmen. Wir betreuen Mandanten bundesweit.</p><a href="/impressum">Impressum</a>`, {
        lang: 'de',
        head: `<meta name="description" content="Steuerberater für Buchhaltung, Lohnabrechnung und Steuererklärungen (accounting, payroll and tax returns).">`,
      }),
      '/impressum': page('Impressum', `<h1>Impressum</h1><p>Numbers Steuerberatung GmbH<br>Hauptstraße 5<br>20095 Hamburg<br>Deutschland</p><p>Telefon: +49 40 1234567<br>E-Mail: info@numbers-accounting.test</p>`, { lang: 'de' }),
    },
  },
  {
    host: 'no-bots.test',
    description: 'robots.txt disallows everything: the crawl must refuse',
    expected: null,
    routes: {
      '/robots.txt': 'User-agent: *\nDisallow: /\n',
      '/': page('No bots', '<p>Nothing for crawlers here.</p>'),
    },
  },
];

/** Names under .test resolve to 127.0.0.1 (and so does anything under .internal-test, for SSRF cases). */
export const fixtureResolver: Resolver = async (hostname) => {
  if (/\.test$/.test(hostname)) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

export interface FixtureFarm {
  port: number;
  url: (host: string, path?: string) => string;
  requests: { host: string; path: string; userAgent: string; at: number }[];
  close: () => Promise<void>;
}

/**
 * Starts the farm. `extraHosts` clones site templates under more names (the benchmark's many
 * hosts): "copy-7.acme-plumbing.test" serves acme-plumbing.test's routes.
 */
export async function startFixtureFarm(sites: FixtureSite[] = FIXTURE_SITES): Promise<FixtureFarm> {
  const byHost = new Map(sites.map((s) => [s.host, s]));
  const farm: FixtureFarm = { port: 0, url: () => '', requests: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const base = host.replace(/^www\./, '').replace(/^copy-\d+\./, '');
    const path = (req.url ?? '/').split('?')[0]!;
    if (farm.requests.length < 100_000) farm.requests.push({ host, path, userAgent: String(req.headers['user-agent'] ?? ''), at: Date.now() });
    const site = byHost.get(base);
    const route = site?.routes[path];
    if (!site || route === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    if (typeof route === 'function') {
      route(req, res);
      return;
    }
    const body = route.replaceAll('PORT', `:${farm.port}`).replaceAll(`//${base}:`, `//${host}:`);
    const type = path.endsWith('.txt') ? 'text/plain' : path.endsWith('.xml') ? 'application/xml' : 'text/html; charset=utf-8';
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  server.keepAliveTimeout = 2000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  farm.port = (server.address() as AddressInfo).port;
  farm.url = (host, path = '/') => `http://${host}:${farm.port}${path}`;
  farm.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return farm;
}
