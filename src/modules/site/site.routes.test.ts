import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import * as cheerio from 'cheerio';
// parse5 is cheerio's HTML parser (installed with it): its parse errors are the spec's markup errors.
import { parse as parseHtml } from 'parse5';
import { actors, companyFixture, seedCompanies, useTestApp } from '../../../test/helpers/index.js';
import { SITE_CSS_HREF } from './site.assets.js';
import type { ScansService } from '../scans/index.js';
import { createSiteRepo } from './site.repo.js';
import { SITEMAP_SIZE } from './site.listed.js';

const BASE = 'https://dir.example';
const HOSTILE = '<script>alert("x")</script> & Co';
const HTML = { accept: 'text/html,application/xhtml+xml' };

function jsonLd(body: string): Record<string, unknown>[] {
  const $ = cheerio.load(body);
  return $('script[type="application/ld+json"]').toArray().map((el) => JSON.parse($(el).text()) as Record<string, unknown>);
}
const meta = ($: cheerio.CheerioAPI, property: string) => $(`meta[property="${property}"]`).attr('content');

describe('public website', () => {
  const t = useTestApp({ baseUrl: BASE });
  let acme = '';
  const acmeInput = companyFixture({ name: 'Acme Plumbing', city: 'Berlin', address: 'Hauptstrasse 1, 10115 Berlin', category: 'Construction & Home Services', description: 'Emergency plumbers for leaking pipes.', services: ['Pipe repair', 'Boiler service'], phone: '+49 30 1234', contact_email: 'info@acme.example', social_links: { linkedin: 'https://linkedin.com/company/acme' } });
  let remote = '';
  let hostile = '';

  it('seeds', async () => {
    [acme, remote, hostile] = (await seedCompanies(t.app, [
      acmeInput,
      companyFixture({ name: 'Remote Soft', city: '', address: '', country: 'Germany', description: 'Payroll software for small companies.' }),
      companyFixture({ name: 'Hostile', address: '', description: 'we fix things' }),
    ])) as [string, string, string];
    assert.ok(acme && remote && hostile);
    // The services already strip markup from names; the site must be safe whatever is stored.
    await t.db.query(
      `UPDATE companies SET name = $2, city = $3, description = $4, keywords = $5, services = $5 WHERE id = $1`,
      [hostile, HOSTILE, '</title><script>alert(2)</script>', '<img src=x onerror=alert(1)> we fix "things"', ['<b>bold</b>']],
    );
  });

  const slugOf = async (id: string) => (await t.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [id]))[0]!.slug;

  it('gives every company a stable unique slug from name and city', async () => {
    assert.equal(await slugOf(acme), 'acme-plumbing-berlin');
    const [twin] = await seedCompanies(t.app, [companyFixture({ name: 'Acme Plumbing', city: 'Berlin' })]);
    assert.equal(await slugOf(twin!), 'acme-plumbing-berlin-2');
    // A re-import of the same company keeps its slug.
    await t.app.services.companies.upsertMany([{ ...acmeInput, description: 'Emergency plumbers for leaking pipes and drains.' }]);
    assert.equal(await slugOf(acme), 'acme-plumbing-berlin');
  });

  it('home page: search form, the 25 categories with counts, canonical and OpenGraph', async () => {
    const r = await t.app.inject({ url: '/', headers: HTML });
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /text\/html/);
    const $ = cheerio.load(r.body);
    assert.equal($('link[rel=canonical]').attr('href'), `${BASE}/`);
    assert.equal(meta($, 'og:url'), `${BASE}/`);
    for (const p of ['og:title', 'og:type', 'og:image', 'og:description', 'og:site_name']) assert.ok(meta($, p), p);
    assert.equal($('meta[name="twitter:card"]').attr('content'), 'summary');
    assert.equal($('form[action="/search"] input[name=q]').length, 1);
    assert.equal($('a[href^="/categories/"]').length, 25);
    assert.match($('a[href="/categories/construction-and-home-services"]').text(), /Construction & Home Services\s*1/);
    assert.equal($('main').length, 1);
    assert.equal($('h1').length, 1);
    assert.equal($(`link[rel=stylesheet][href="${SITE_CSS_HREF}"]`).length, 1);
    assert.equal($('script:not([type="application/ld+json"])').length, 0, 'no script on public pages');
    assert.match(String(r.headers['content-security-policy']), /style-src 'self'/);
    assert.ok(r.body.length < 50_000);
  });

  it('company page: profile, JSON-LD LocalBusiness with an address, breadcrumbs, alternates, Link header', async () => {
    const r = await t.app.inject({ url: '/companies/acme-plumbing-berlin' });
    assert.equal(r.statusCode, 200);
    const $ = cheerio.load(r.body);
    const url = `${BASE}/companies/acme-plumbing-berlin`;
    assert.equal($('link[rel=canonical]').attr('href'), url);
    assert.equal(meta($, 'og:url'), url);
    assert.equal(meta($, 'og:type'), 'profile');
    assert.equal($('h1').first().text().replace(/\s+/g, ' ').trim(), 'Acme Plumbing Verified');
    assert.match($('main').text(), /Pipe repair/);
    const [org, crumbs] = jsonLd(r.body) as [Record<string, unknown>, Record<string, unknown>];
    assert.equal(org['@type'], 'LocalBusiness');
    assert.equal(org.name, 'Acme Plumbing');
    assert.match(String(org.url), /^https:\/\/fixture-/);
    assert.equal((org.address as Record<string, string>).streetAddress, 'Hauptstrasse 1, 10115 Berlin');
    assert.equal(org.aggregateRating, undefined);
    assert.ok(!/"(aggregateRating|review|ratingValue)"/.test(r.body), 'never a rating');
    assert.equal(crumbs['@type'], 'BreadcrumbList');
    const items = crumbs.itemListElement as { name: string; item: string }[];
    assert.deepEqual(items.map((i) => i.name), ['AgentPages', 'Construction & Home Services', 'Acme Plumbing']);
    assert.equal(items[2]!.item, url);
    const record = `${BASE}/api/v1/agent/companies/${acme}`;
    assert.equal($(`link[rel=alternate][type="application/json"]`).attr('href'), record);
    assert.equal($(`link[rel=alternate][type="text/markdown"]`).attr('href'), `${BASE}/agentpages.md`);
    assert.match(String(r.headers.link), new RegExp(`<${record}>; rel="alternate"; type="application/json"`));
    assert.match(String(r.headers.link), /agentpages\.md>; rel="alternate"; type="text\/markdown"/);
    assert.match(r.body, new RegExp(`/mcp/company/${acme}/SKILL.md`));
    // People read link words, not raw API addresses (issue 38); the MCP address is there to copy, folded away.
    const page = cheerio.load(r.body);
    assert.equal(page(`a[href="${record}"]`).text(), 'The directory record');
    assert.ok(!page('main a').toArray().some((a) => /^https?:\/\//.test(page(a).text().trim())), 'no link shows a raw URL as its text');
    assert.equal(r.headers['cache-control'], 'public, max-age=300');
    assert.ok(r.body.length < 50_000);
    // The JSON record it points to is public.
    assert.equal((await t.app.inject({ url: `/api/v1/agent/companies/${acme}` })).statusCode, 200);
  });

  it('company without a street address is an Organization', async () => {
    const r = await t.app.inject({ url: `/companies/${await slugOf(remote)}` });
    assert.equal(r.statusCode, 200);
    const [org] = jsonLd(r.body);
    assert.equal(org!['@type'], 'Organization');
    assert.equal(org!.name, 'Remote Soft');
    assert.equal(org!.address, undefined);
  });

  it('an unclaimed listing offers to claim it, straight to a sign-in for its domain; a claimed one does not', async () => {
    const domainOf = async (id: string) => new URL((await t.db.query<{ website_url: string }>('SELECT website_url FROM companies WHERE id = $1', [id]))[0]!.website_url).hostname;
    const unclaimed = await t.app.inject({ url: `/companies/${await slugOf(remote)}` });
    assert.ok(unclaimed.body.includes(`<a class="button" href="/app/sign-in?claim=${await domainOf(remote)}">Claim this business</a>`));
    const [owned] = await seedCompanies(t.app, [companyFixture({ name: 'Owned Listing', website_url: 'https://owned-listing.example.com' })]);
    await actors(t).owner('boss@owned-listing.example.com', 'https://owned-listing.example.com');
    const claimed = await t.app.inject({ url: `/companies/${await slugOf(owned!)}` });
    assert.equal(claimed.statusCode, 200);
    assert.ok(!claimed.body.includes('Claim this business'));
  });

  it('shows the latest scan grade once a scan completed', async () => {
    const [graded] = await seedCompanies(t.app, [companyFixture({ name: 'Graded Co', city: 'Bonn' })]);
    const scans = t.app.services.scans as { latestSummary: ScansService['latestSummary'] };
    const original = scans.latestSummary;
    scans.latestSummary = async (id) => (id === graded ? { score: 81, grade: 'B', scanned_at: '2026-11-01T10:00:00.000Z' } : undefined);
    try {
      // The site reads through the same scans service object.
      const r = await t.app.inject({ url: '/companies/graded-co-bonn' });
      assert.equal(r.statusCode, 200);
      assert.match(cheerio.load(r.body)('main').text(), /Latest scan: B 81\/100, on 2026-11-01/);
      // Compared as values, not substrings: ids and coordinates may contain the digits 81.
      const values: unknown[] = [];
      const walk = (v: unknown): void => {
        if (v && typeof v === 'object') Object.values(v).forEach(walk);
        else values.push(v);
      };
      walk(jsonLd(r.body));
      assert.ok(!values.some((v) => v === 81 || v === '81' || (typeof v === 'string' && /\b81\/100\b|\bB 81\b/.test(v))), 'the grade is never structured data');
      assert.ok(!/ratingValue|aggregateRating|"review"/.test(JSON.stringify(jsonLd(r.body))));
    } finally {
      scans.latestSummary = original;
    }
  });

  it('ETag: a repeated request with If-None-Match is a 304 without a body', async () => {
    const first = await t.app.inject({ url: '/companies/acme-plumbing-berlin' });
    const etag = String(first.headers.etag);
    assert.match(etag, /^".+"$/);
    const again = await t.app.inject({ url: '/companies/acme-plumbing-berlin', headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });

  it('an old slug answers 301 to the current one; an unknown slug is a real 404 page', async () => {
    await t.db.query(`UPDATE companies SET name = 'Acme Pipes & Drains', updated_at = now() WHERE id = $1`, [acme]);
    assert.equal(await slugOf(acme), 'acme-pipes-and-drains-berlin');
    const r = await t.app.inject({ url: '/companies/acme-plumbing-berlin' });
    assert.equal(r.statusCode, 301);
    assert.equal(r.headers.location, '/companies/acme-pipes-and-drains-berlin');
    assert.equal((await t.app.inject({ url: '/companies/acme-pipes-and-drains-berlin' })).statusCode, 200);
    const upper = await t.app.inject({ url: '/companies/Acme-Plumbing-Berlin' });
    assert.equal(upper.statusCode, 301);
    assert.equal(upper.headers.location, '/companies/acme-pipes-and-drains-berlin');
    const missing = await t.app.inject({ url: '/companies/no-such-company', headers: HTML });
    assert.equal(missing.statusCode, 404);
    assert.match(String(missing.headers['content-type']), /text\/html/);
    assert.match(missing.body, /<h1>Page not found<\/h1>/);
    assert.match(missing.body, /noindex/);
  });

  it('HTML 404 for people on unknown paths; JSON 404 for the API, MCP and machines', async () => {
    const page = await t.app.inject({ url: '/no/such/page?x=<b>', headers: HTML });
    assert.equal(page.statusCode, 404);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.ok(!page.body.includes('<b>'));
    const machine = await t.app.inject({ url: '/no/such/page', headers: { accept: 'application/json' } });
    assert.equal(machine.statusCode, 404);
    assert.equal(machine.json().code, 'not_found');
    for (const url of ['/api/nope', '/mcp/nope', '/.well-known/nope']) {
      const r = await t.app.inject({ url, headers: HTML });
      assert.equal(r.statusCode, 404, url);
      assert.match(String(r.headers['content-type']), /application\/json/, url);
    }
    assert.equal((await t.app.inject({ url: '/categories/no-such-category', headers: HTML })).statusCode, 404);
    assert.equal((await t.app.inject({ url: '/categories/technology?page=400', headers: HTML })).statusCode, 404);
  });

  it('search page: hybrid results, filters, noindex,follow, canonical without empty parameters', async () => {
    const r = await t.app.inject({ url: '/search?q=plumber+pipes&category=&city=Berlin&country=' });
    assert.equal(r.statusCode, 200);
    const $ = cheerio.load(r.body);
    assert.equal($('meta[name=robots]').attr('content'), 'noindex,follow');
    assert.equal($('link[rel=canonical]').attr('href'), `${BASE}/search?q=plumber+pipes&city=Berlin`);
    assert.match($('main').text(), /Acme Pipes & Drains/);
    assert.equal($('input#q').attr('value'), 'plumber pipes');
    assert.equal($('label[for=q]').length, 1);
    const api = await t.app.inject({ url: '/api/v1/agent/companies?q=plumber+pipes&city=Berlin&limit=20' });
    const ids = (api.json() as { companies: { id: string }[] }).companies.map((c) => c.id);
    assert.deepEqual($('main ul.cards li.card').length, ids.length, 'same search as the agent API');
    assert.equal($('link[rel=alternate][type="application/json"]').attr('href'), `${BASE}/api/v1/agent/companies?q=plumber+pipes&city=Berlin&limit=20`);
    const filtered = await t.app.inject({ url: '/search?category=Technology' });
    assert.equal(cheerio.load(filtered.body)('select#category option[selected]').attr('value'), 'Technology');
    assert.equal((await t.app.inject({ url: '/search?page=0' })).statusCode, 400);
    assert.equal((await t.app.inject({ url: `/search?q=${'x'.repeat(2001)}` })).statusCode, 400);
  });

  it('category page: paginated, its own canonical per page, breadcrumbs', async () => {
    await seedCompanies(t.app, Array.from({ length: 21 }, (_, i) => companyFixture({ name: `Tech Filler ${i}`, category: 'Technology' })));
    const one = await t.app.inject({ url: '/categories/technology' });
    assert.equal(one.statusCode, 200);
    let $ = cheerio.load(one.body);
    assert.equal($('link[rel=canonical]').attr('href'), `${BASE}/categories/technology`);
    assert.equal($('ul.cards > li').length, 20);
    assert.equal($('a[rel=next]').attr('href'), '/categories/technology?page=2');
    assert.equal((jsonLd(one.body)[0] as Record<string, unknown>)['@type'], 'BreadcrumbList');
    const two = await t.app.inject({ url: '/categories/technology?page=2' });
    assert.equal(two.statusCode, 200);
    $ = cheerio.load(two.body);
    assert.equal($('link[rel=canonical]').attr('href'), `${BASE}/categories/technology?page=2`);
    assert.equal($('a[rel=prev]').attr('href'), '/categories/technology');
    assert.equal(meta($, 'og:url'), `${BASE}/categories/technology?page=2`);
  });

  it('hostile profile text renders as text everywhere', async () => {
    const slug = await slugOf(hostile);
    const pages = ['/', `/companies/${slug}`, '/search?q=things', '/categories/technology', '/search?q=%3Cscript%3Ealert(1)%3C/script%3E'];
    for (const url of pages) {
      const r = await t.app.inject({ url });
      assert.equal(r.statusCode, 200, url);
      assert.ok(!r.body.includes('<script>alert'), `${url}: raw script`);
      assert.ok(!r.body.includes('<img src=x'), `${url}: raw img`);
      assert.ok(!r.body.includes('</title><script>'), `${url}: raw title break`);
      assert.ok(!r.body.includes('<b>bold'), `${url}: raw b`);
    }
    const r = await t.app.inject({ url: `/companies/${slug}` });
    const $ = cheerio.load(r.body);
    assert.equal($('h1').first().text().replace(/\s*Verified$/, '').trim(), HOSTILE);
    assert.match(r.body, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; Co/);
    const [org] = jsonLd(r.body);
    assert.equal(org!.name, HOSTILE, 'JSON-LD parses back to the same text');
    assert.match(r.body, /\\u003cscript>alert/);
    const sitemap = await t.app.inject({ url: '/sitemaps/companies-1.xml' });
    assert.ok(!sitemap.body.includes('<script'));
  });

  it('robots.txt names the sitemap; the sitemap index and company sitemaps are valid and within limits', async () => {
    const robots = await t.app.inject({ url: '/robots.txt' });
    assert.equal(robots.statusCode, 200);
    assert.match(robots.body, new RegExp(`^Sitemap: ${BASE}/sitemap.xml$`, 'm'));
    assert.match(robots.body, /^Disallow: \/app\/$/m);
    assert.ok(!/Disallow: \/search/.test(robots.body));
    const index = await t.app.inject({ url: '/sitemap.xml' });
    assert.equal(index.statusCode, 200);
    assert.match(String(index.headers['content-type']), /application\/xml/);
    assert.match(index.body, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const $i = cheerio.load(index.body, { xml: true });
    const locs = $i('sitemap > loc').toArray().map((e) => $i(e).text());
    assert.deepEqual(locs, [`${BASE}/sitemaps/categories.xml`, `${BASE}/sitemaps/companies-1.xml`]);
    assert.equal($i('sitemap > lastmod').length, 2);
    const companies = await t.app.inject({ url: '/sitemaps/companies-1.xml' });
    assert.equal(companies.statusCode, 200);
    const $c = cheerio.load(companies.body, { xml: true });
    const live = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies WHERE deleted_at IS NULL'))[0]!.n;
    assert.equal($c('urlset > url').length, live);
    assert.ok(live <= SITEMAP_SIZE && SITEMAP_SIZE === 50_000);
    for (const el of $c('url').toArray()) {
      assert.match($c(el).find('loc').text(), new RegExp(`^${BASE}/companies/[a-z0-9-]+$`));
      assert.ok(!Number.isNaN(Date.parse($c(el).find('lastmod').text())));
    }
    assert.ok(!/&(?!(amp|lt|gt|quot|#39);)/.test(companies.body), 'only XML entities');
    const cats = await t.app.inject({ url: '/sitemaps/categories.xml' });
    assert.equal(cheerio.load(cats.body, { xml: true })('url').length, 29);
    assert.equal((await t.app.inject({ url: '/sitemaps/companies-2.xml' })).statusCode, 404);
  });

  it('static pages, the stylesheet and the styled sign-in page', async () => {
    for (const url of ['/for-owners', '/for-agent-developers', '/categories']) {
      const r = await t.app.inject({ url });
      assert.equal(r.statusCode, 200, url);
      assert.equal(cheerio.load(r.body)('link[rel=canonical]').attr('href'), `${BASE}${url}`);
    }
    const css = await t.app.inject({ url: SITE_CSS_HREF });
    assert.equal(css.statusCode, 200);
    assert.match(String(css.headers['content-type']), /text\/css/);
    assert.match(String(css.headers['cache-control']), /immutable/);
    assert.equal((await t.app.inject({ url: SITE_CSS_HREF, headers: { 'if-none-match': String(css.headers.etag) } })).statusCode, 304);
    const confirm = await t.app.inject({ url: '/api/auth/confirm?token=abc' });
    assert.equal(confirm.statusCode, 200);
    assert.ok(confirm.body.includes(SITE_CSS_HREF), 'the sign-in page uses the site stylesheet');
    assert.match(confirm.body, /<meta name="referrer" content="no-referrer">/);
  });

  it('companies created by a crawl get a slug too; sitemaps split into chunks in id order', async () => {
    const { row } = await t.app.services.companies.saveCrawled(companyFixture({ name: 'Crawled Bakery', city: 'Hamburg' }));
    assert.equal(await slugOf(row.id), 'crawled-bakery-hamburg');
    const repo = createSiteRepo(t.db);
    const live = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies WHERE deleted_at IS NULL'))[0]!.n;
    const chunks = await repo.sitemapChunks(4);
    assert.equal(chunks.length, Math.ceil(live / 4));
    assert.deepEqual(chunks.map((c) => c.chunk), chunks.map((_, i) => i + 1));
    const all = (await Promise.all(chunks.map((c) => repo.sitemapEntries(c.chunk, 4)))).flat();
    assert.equal(all.length, live);
    assert.equal(new Set(all.map((e) => e.slug)).size, live, 'every company once');
  });

  it('embeds the chat widget only when its owner enabled it for this site', async () => {
    const [plain, elsewhere, here] = (await seedCompanies(t.app, ['Plain', 'Elsewhere', 'Here'].map((name) => companyFixture({ name: `Widget ${name}`, city: 'Kiel' })))) as [string, string, string];
    await t.app.services.widget.update(elsewhere, { enabled: true, allowed_origins: ['https://elsewhere.example'] });
    const cfg = await t.app.services.widget.update(here, { enabled: true, allowed_origins: ['https://here.example', BASE] });
    assert.ok(plain);
    assert.ok(!(await t.app.inject({ url: '/companies/widget-plain-kiel' })).body.includes('/widget.js'), 'no widget');
    assert.ok(!(await t.app.inject({ url: '/companies/widget-elsewhere-kiel' })).body.includes('/widget.js'), 'not allowed on the directory');
    const r = await t.app.inject({ url: '/companies/widget-here-kiel' });
    assert.match(r.body, new RegExp(`<script src="/widget.js" data-widget-id="${cfg.widget_public_id}" async></script>`));
  });

  it('a deleted company is a 404 and leaves the sitemap', async () => {
    const [gone] = (await seedCompanies(t.app, [companyFixture({ name: 'Gone Soon', city: 'Ulm' })])) as [string];
    assert.equal((await t.app.inject({ url: '/companies/gone-soon-ulm' })).statusCode, 200);
    await t.db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [gone]);
    assert.equal((await t.app.inject({ url: '/companies/gone-soon-ulm', headers: HTML })).statusCode, 404);
    assert.ok(!(await t.app.inject({ url: '/sitemaps/companies-1.xml' })).body.includes('gone-soon-ulm'));
  });

  it('every page type stays under 50 KB, a company page with the longest profile the directory stores included', async () => {
    const words = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
    const [longest] = await seedCompanies(t.app, [companyFixture({
      name: `Longest Profile ${'Company '.repeat(23)}`.slice(0, 200), description: words(700, 'description').slice(0, 5000),
      keywords: Array.from({ length: 30 }, (_, i) => words(12, `kw${i}x`).slice(0, 120)), services: Array.from({ length: 50 }, (_, i) => words(12, `svc${i}x`).slice(0, 120)),
      languages: ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'da'], address: words(40, 'Street').slice(0, 300), industry: words(30, 'industry').slice(0, 200),
    })]);
    for (const url of ['/', `/companies/${await slugOf(longest!)}`, '/search?q=software', '/categories', '/categories/technology', '/search', '/for-owners', '/for-agent-developers']) {
      const r = await t.app.inject({ url });
      assert.equal(r.statusCode, 200, url);
      assert.ok(Buffer.byteLength(r.body) < 50_000, `${url}: ${r.body.length}`);
    }
  });

  it('markup: no HTML parse error, unique ids, landmarks and one h1 on every page type', async () => {
    const pages = ['/', '/search?q=plumber', '/categories', '/categories/technology', `/companies/${await slugOf(hostile)}`, `/companies/${await slugOf(acme)}`, '/for-owners', '/for-agent-developers', '/nope', '/api/auth/confirm?token=abc'];
    for (const url of pages) {
      const r = await t.app.inject({ url, headers: HTML });
      const errors: string[] = [];
      parseHtml(r.body, { onParseError: (e) => errors.push(`${e.code} at ${e.startLine}:${e.startCol}`) });
      assert.deepEqual(errors, [], url);
      const $ = cheerio.load(r.body);
      const ids = $('[id]').toArray().map((el) => $(el).attr('id'));
      assert.equal(new Set(ids).size, ids.length, `${url}: duplicate id`);
      assert.equal($('h1').length, 1, `${url}: one h1`);
      assert.equal($('main').length, 1, url);
      assert.equal($('header').length, 1, url);
      assert.equal($('footer').length, 1, url);
      assert.equal($('html').attr('lang'), 'en', url);
      for (const input of $('input:not([type=hidden]), select').toArray()) assert.equal($(`label[for="${$(input).attr('id')}"]`).length, 1, `${url}: label`);
    }
  });

  it('pages are hidden from the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    for (const p of ['/', '/search', '/companies/{slug}', '/sitemap.xml', '/robots.txt']) assert.equal(doc.paths[p], undefined, p);
  });
});

describe('public search page: the relevance verdicts in plain sentences (issue 37)', () => {
  const t = useTestApp({ baseUrl: BASE });
  const dental = { category: 'Healthcare', industry: 'Dental practice', description: 'Dentist: check-ups, fillings, implants and emergency dental care.', keywords: ['dentist', 'dental care'] };
  before(async () => {
    await seedCompanies(t.app, [
      companyFixture({ name: 'Bayou Pest Control', category: 'Construction & Home Services', industry: 'Pest control', description: 'Pest control for homes and restaurants in Houston: cockroaches, rodents, termites and bed bugs, with discreet commercial kitchen treatments.', country: 'United States', city: 'Houston', address: '100 Main St, Houston, TX', service_type: 'local', keywords: ['pest control', 'cockroach extermination', 'restaurant pest control'] }),
      companyFixture({ name: 'Golden Dumpling House', category: 'Food & Beverage', industry: 'Restaurant', description: 'A family restaurant in Melbourne serving handmade dumplings and noodles, with takeaway and catering.', country: 'Australia', city: 'Melbourne', address: '5 Little Bourke St, Melbourne', service_type: 'local', keywords: ['dumplings', 'restaurant', 'catering'] }),
      companyFixture({ name: 'Steuerkanzlei Isar', category: 'Finance', industry: 'Tax advisory', description: 'Tax advisers in Munich for freelancers and small companies: annual accounts, VAT returns and payroll.', country: 'Germany', city: 'Munich', address: 'Leopoldstrasse 1, Munich', service_type: 'local', keywords: ['tax adviser', 'Steuerberater', 'VAT'] }),
      companyFixture({ name: 'Nordlicht VFX', category: 'Media & Entertainment', industry: 'Visual effects', description: 'Visual effects and 3D animation studio in Munich for films and commercials.', country: 'Germany', city: 'Munich', address: 'Bavariafilmplatz 7, Munich', service_type: 'hybrid', keywords: ['vfx', 'animation'] }),
      companyFixture({ ...dental, name: 'Shibuya Dental Clinic', city: 'Tokyo', country: 'Japan', address: '1-2-3 Shibuya, Tokyo', service_type: 'local' }),
      companyFixture({ name: 'Ledgerly', city: 'Berlin', category: 'Finance', industry: 'Accounting software', description: 'Bookkeeping and payroll software for small companies.', service_type: 'remote' }),
      companyFixture({ name: 'Zeitwerk HR', city: 'Hamburg', category: 'Technology', industry: 'HR software', description: 'HR and time tracking for small teams: leave planning, shift rotas and monthly salary exports for your accountant.', service_type: 'remote' }),
      companyFixture({ name: 'Spree Plumbing', city: 'Berlin', category: 'Construction & Home Services', industry: 'Plumbing', description: 'Emergency plumbers for burst pipes and boilers.', keywords: ['plumber'], service_type: 'local' }),
    ]);
  });

  interface Hit { name: string; relevance: string | null; distance_km?: number | null }
  const enc = encodeURIComponent;
  const api = async (query: string) => (await t.app.inject({ url: `/api/v1/agent/companies?${query}&limit=20` })).json() as { companies: Hit[]; total_found: number };
  const names = (hits: Hit[], verdict: string) => hits.filter((h) => h.relevance === verdict).map((h) => h.name);
  async function page(query: string) {
    const r = await t.app.inject({ url: `/search?${query}`, headers: HTML });
    assert.equal(r.statusCode, 200, `${query}: ${r.body.slice(0, 300)}`);
    return cheerio.load(r.body);
  }
  const cardsIn = ($: cheerio.CheerioAPI, section: string) => $(`section[aria-labelledby="${section}-h"] li.card h3 a`).toArray().map((el) => $(el).text());
  const summary = ($: cheerio.CheerioAPI) => $('main .summary p').toArray().map((el) => $(el).text()).join(' ').replace(/\s+/g, ' ').trim();
  /** The numbers the sentences state: clear matches (the nearest one counts) and possibly related profiles. */
  function stated($: cheerio.CheerioAPI) {
    const text = summary($);
    const clear = [...text.matchAll(/(\d+) (?:more )?clear match/g)].reduce((n, m) => n + Number(m[1]), 0) + (/The nearest:/.test(text) ? 1 : 0);
    return { clear, related: Number(/(\d+) profiles? shares? some words/.exec(text)?.[1] ?? 0) };
  }

  it('strong results are listed as clear matches, partial ones under their own heading, the verdict written on each card', async () => {
    const q = 'payroll software';
    const { companies } = await api(`q=${enc(q)}`);
    const [strong, partial] = [names(companies, 'strong'), names(companies, 'partial')];
    assert.ok(strong.length > 0 && partial.length > 0, `the fixtures give both verdicts: ${JSON.stringify(companies)}`);
    const $ = await page(`q=${enc(q)}`);
    assert.equal($('#matches-h').text(), 'Clear matches');
    assert.equal($('#related-h').text(), 'Possibly related (not a clear match)');
    assert.match($('section[aria-labelledby="related-h"] p.note').text(), /nothing in them shows clearly that they do what you asked/);
    assert.deepEqual(cardsIn($, 'matches'), strong);
    assert.deepEqual(cardsIn($, 'related'), partial);
    for (const el of $('section[aria-labelledby="matches-h"] li.card').toArray()) assert.equal($(el).find('.verdict .label').text(), 'Clear match');
    for (const el of $('section[aria-labelledby="related-h"] li.card').toArray()) {
      assert.equal($(el).find('.verdict .label').text(), 'Possibly related');
      assert.doesNotMatch($(el).text(), /match/i, 'a partial result is never called a match');
    }
    assert.match(summary($), new RegExp(`^${strong.length} clear match(es)? for “payroll software”\\.`));
    // Headings never skip a level: h1, the verdict sections (h2), their companies (h3).
    const levels = $('main').find('h1, h2, h3').toArray().map((el) => Number(el.tagName.slice(1)));
    assert.equal(levels[0], 1);
    levels.forEach((l, i) => assert.ok(i === 0 || l <= levels[i - 1]! + 1, `heading h${l} after h${levels[i - 1]}`));
    assert.equal($('script:not([type="application/ld+json"])').length, 0, 'no script');
  });

  it('a need nobody serves: says plainly that nothing fits, with a next step, and calls nothing a match', async () => {
    const q = 'hot air balloon ride at sunrise';
    const { companies } = await api(`q=${enc(q)}`);
    assert.ok(companies.every((c) => c.relevance !== 'strong'));
    const $ = await page(`q=${enc(q)}`);
    assert.match(summary($), /^Nothing in the directory clearly fits “hot air balloon ride at sunrise”\. No profile in the directory uses most of these words\. Try other words or a broader request, or browse the categories\./);
    assert.equal($('main .summary a[href="/categories"]').text(), 'browse the categories');
    assert.equal($('#matches-h').length + $('#elsewhere-h').length, 0);
    assert.doesNotMatch($('main ul.cards').text(), /clear match/i);
    assert.deepEqual(cardsIn($, 'related'), names(companies, 'partial'));
    // With filters: they are named, and the next step offers the search without them and the category's page.
    const filtered = await page(`q=${enc(q)}&category=Finance&city=Berlin`);
    assert.match(summary(filtered), /^Nothing in the directory clearly fits “hot air balloon ride at sunrise” \(category Finance, city Berlin\)\./);
    assert.equal(filtered('main .summary a').filter((_, el) => filtered(el).text() === 'search without the filters').attr('href'), `/search?q=${q.replace(/ /g, '+')}`);
    assert.equal(filtered('main .summary a[href="/categories/finance"]').length, 1);
  });

  it('a place named in the query: says there is none there and names the nearest clear match with its distance', async () => {
    const { companies } = await api(`q=${enc('dentist in Munich')}`);
    const tokyo = companies.find((c) => c.name === 'Shibuya Dental Clinic');
    assert.equal(tokyo?.relevance, 'strong');
    const km = Math.round(tokyo!.distance_km!).toLocaleString('en-US');
    assert.match(km, /^\d,\d{3}$/, 'thousands separated');
    const $ = await page(`q=${enc('dentist in Munich')}`);
    assert.match(summary($), new RegExp(`^No dentist in Munich\\. The nearest: Shibuya Dental Clinic \\(Tokyo, ${km} km\\)\\.`));
    assert.equal($('main .summary a').first().attr('href'), '/companies/shibuya-dental-clinic-tokyo');
    assert.equal($('#matches-h').length, 0, 'nothing is a match in Munich');
    assert.equal($('#elsewhere-h').text(), 'Clear matches elsewhere, nearest first');
    assert.deepEqual(cardsIn($, 'elsewhere'), ['Shibuya Dental Clinic']);
    assert.match($('section[aria-labelledby="elsewhere-h"] .verdict').text(), new RegExp(`Clear match ${km} km from Munich`));
    assert.ok(!$('main').text().includes('Steuerkanzlei Isar'), 'a tax adviser in Munich is no dentist');
    // A sentence is quoted rather than put after "No".
    const sentence = await page(`q=${enc('I need a dentist in Munich')}`);
    assert.match(summary(sentence), /^Nothing in or near Munich clearly fits “I need a dentist”\. The nearest: Shibuya Dental Clinic/);
    // A clear match in the place is named as one.
    const berlin = await api(`q=${enc('plumber in Berlin')}`);
    assert.equal(berlin.companies[0]?.name, 'Spree Plumbing');
    assert.equal(berlin.companies[0]?.relevance, 'strong');
    const here = await page(`q=${enc('plumber in Berlin')}`);
    assert.match(summary(here), /^1 clear match for “plumber” in or serving Berlin\./);
    assert.equal(here('#matches-h').text(), 'Clear matches in or serving Berlin');
    assert.deepEqual(cardsIn(here, 'matches'), ['Spree Plumbing']);
  });

  it('an unknown category or country is a sentence on the page with the value it most likely meant, never an error page', async () => {
    const $ = await page('q=solar&category=Energy');
    assert.match(summary($), /^We don't know the category “Energy”\. Did you mean Energy & Utilities\? Or search without this filter\.$/);
    const fix = $('main .summary a').filter((_, el) => $(el).text() === 'Energy & Utilities').attr('href');
    assert.equal(fix, '/search?q=solar&category=Energy+%26+Utilities');
    assert.equal($('main ul.cards').length, 0);
    const fixed = await page(fix!.slice('/search?'.length));
    assert.doesNotMatch(summary(fixed), /We don't know/);
    assert.equal(fixed('select#category option[selected]').attr('value'), 'Energy & Utilities');
    // Both unknown: both named; each link keeps the other's fix out (it would fail again).
    const both = await page('q=solar&category=Energy&country=Germny');
    assert.match(summary(both), /We don't know the category “Energy”\. Did you mean Energy & Utilities\? We don't know the country “Germny”\. Did you mean Germany\? Or search without these filters\./);
    assert.equal(both('main .summary a').filter((_, el) => both(el).text() === 'Germany').attr('href'), '/search?q=solar&country=Germany');
    const nowhere = await page('country=Atlantis');
    assert.match(summary(nowhere), /^We don't know the country “Atlantis”\. Give its English name \(Germany\) or its code \(DE\)\./);
    assert.equal(nowhere('input#country').attr('value'), 'Atlantis', 'the form keeps what was typed');
    const hostile = await t.app.inject({ url: `/search?category=${enc('<b>x</b>')}` });
    assert.equal(hostile.statusCode, 200);
    assert.ok(!hostile.body.includes('<b>x'), 'the value is escaped');
  });

  it('the count agrees with the list: each number stated is the number of cards shown, weak results never counted', async () => {
    for (const q of ['payroll software', 'kitchen', 'dentist in Munich', 'plumber in Berlin', 'hot air balloon ride at sunrise', 'cockroaches in my restaurant kitchen in Houston']) {
      const body = await api(`q=${enc(q)}`);
      const $ = await page(`q=${enc(q)}`);
      const { clear, related } = stated($);
      assert.equal(clear, cardsIn($, 'matches').length + cardsIn($, 'elsewhere').length, `${q}: clear matches`);
      assert.equal(related, cardsIn($, 'related').length, `${q}: possibly related`);
      assert.equal($('main ul.cards li.card').length, body.total_found, `${q}: cards and the search's total`);
      assert.equal(clear, names(body.companies, 'strong').length, q);
      assert.equal(related, names(body.companies, 'partial').length, q);
      const withWeak = await api(`q=${enc(q)}&include_weak=true`);
      if (withWeak.total_found > body.total_found) assert.ok(!summary($).includes(`${withWeak.total_found} `), `${q}: weak results are not counted`);
    }
    // Browsing without words counts the companies the filters keep.
    const browse = await page('country=Germany');
    const total = (await api('country=Germany')).total_found;
    assert.equal(browse('main p[role=status]').text(), `${total} companies with these filters (country Germany).`);
    assert.equal(browse('main ul.cards li.card').length, total);
  });

  it('pages through clear matches first, then possibly related ones, the counts covering every page', async () => {
    await seedCompanies(t.app, Array.from({ length: 22 }, (_, i) => companyFixture({ name: `Kitchen Fitter ${i + 1}`, city: 'Leeds', country: 'United Kingdom', category: 'Construction & Home Services', industry: 'Kitchen fitting', description: 'Kitchen fitting and kitchen renovation: worktops, cabinets and appliances installed.', keywords: ['kitchen fitter', 'kitchen renovation'], service_type: 'local' })));
    const q = `q=${enc('kitchen fitter')}`;
    const all = (await t.app.inject({ url: `/api/v1/agent/companies?${q}&limit=20` })).json() as { total_found: number };
    assert.ok(all.total_found > 20, `more than a page: ${all.total_found}`);
    const one = await page(q);
    const two = await page(`${q}&page=2`);
    const { clear, related } = stated(one);
    assert.deepEqual(stated(two), { clear, related }, 'the same sentences on every page');
    assert.equal(clear + related, all.total_found);
    assert.match(summary(one), new RegExp(`Showing 1–20 of ${all.total_found}\\.`));
    assert.match(summary(two), new RegExp(`Showing 21–${all.total_found} of ${all.total_found}\\.`));
    const shown = [one, two].map(($) => ({ clear: cardsIn($, 'matches').length + cardsIn($, 'elsewhere').length, related: cardsIn($, 'related').length }));
    assert.deepEqual({ clear: shown[0]!.clear + shown[1]!.clear, related: shown[0]!.related + shown[1]!.related }, { clear, related });
    // Clear matches come before possibly related ones across pages.
    if (shown[1]!.clear > 0) assert.equal(shown[0]!.related, 0);
    assert.equal(one('a[rel=next]').attr('href'), '/search?q=kitchen+fitter&page=2');
    assert.equal(two('a[rel=next]').length, 0);
    const past = await page(`${q}&page=5`);
    assert.match(summary(past), /This page is past the end of the results: back to the first page\./);
  });
});
