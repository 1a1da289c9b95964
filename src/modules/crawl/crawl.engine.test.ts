import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { extractPage } from '../../lib/extract.js';
import { closeTestEmbeddings, testEmbeddings } from '../../../test/helpers/index.js';
import { startFakeLlm, type FakeLlm } from '../../../test/fakes/llm.js';
import { createLlm } from '../../platform/llm.js';
import { testConfig } from '../../config.js';
import { createAnalyser, type AnalysedProfile } from './crawl.analyse.js';
import { assembleMaterial } from './crawl.material.js';
import { createEngine, HostPacer, parseSitemap, type CrawlOutcome } from './crawl.engine.js';
import { createFetcher, FetchError, type Fetcher } from './crawl.fetcher.js';
import { FIXTURE_SITES, fixtureResolver, startFixtureFarm, type FixtureFarm } from '../../../test/fixtures/crawl/farm.js';

const UA = 'agentpages-bot/2.0 (+http://localhost/agentpages.md)';
const FIELDS = ['category', 'city', 'country', 'service_type', 'email', 'phone'] as const;

function fieldsOf(p: AnalysedProfile) {
  return { category: p.category, city: p.city, country: p.country, service_type: p.service_type, email: p.contact_email, phone: p.phone };
}

describe('crawl engine on the fixture farm', () => {
  let farm: FixtureFarm;
  let fetcher: Fetcher;
  const outcomes = new Map<string, CrawlOutcome>();
  const profiles = new Map<string, AnalysedProfile>();

  before(async () => {
    farm = await startFixtureFarm();
    fetcher = createFetcher({ userAgent: UA, allowPrivate: true, allowedPorts: [farm.port], timeoutMs: 15000, resolver: fixtureResolver });
    const engine = createEngine({ fetcher, userAgent: UA, pacer: new HostPacer(2) });
    const analyser = createAnalyser({ embeddings: testEmbeddings() });
    await Promise.all(
      FIXTURE_SITES.map(async (site) => {
        const o = await engine.crawl(farm.url(site.host), { maxPages: 10, maxDepth: 2, delayMs: 20, adaptiveRetry: true });
        outcomes.set(site.host, o);
        if (!o.fatal) profiles.set(site.host, await analyser.analyse(assembleMaterial(o.pages, o.origin)));
      }),
    );
  });
  after(async () => {
    await fetcher.close();
    await farm.close();
    await closeTestEmbeddings();
  });

  it('extracts category, city, country, service type, email and phone with high field accuracy', () => {
    let right = 0;
    let total = 0;
    const misses: string[] = [];
    for (const site of FIXTURE_SITES) {
      if (!site.expected) continue;
      const got = profiles.get(site.host);
      assert.ok(got, `${site.host} produced no profile: ${outcomes.get(site.host)?.fatal?.message}`);
      const g = fieldsOf(got);
      for (const f of FIELDS) {
        total++;
        if (g[f] === site.expected[f]) right++;
        else misses.push(`${site.host} ${f}: expected ${site.expected[f]}, got ${g[f]} (failures: ${outcomes.get(site.host)!.failures.filter((x) => x.kind !== 'http').map((x) => `${x.kind} ${x.url}`).join(', ')})`);
      }
    }
    const accuracy = right / total;
    console.log(`# crawl field accuracy: ${right}/${total} = ${(accuracy * 100).toFixed(1)}%${misses.length ? `\n#   ${misses.join('\n#   ')}` : ''}`);
    assert.ok(accuracy >= 0.85, `field accuracy ${accuracy} below 0.85:\n${misses.join('\n')}`);
  });

  it('sends its own user agent and never fetches what robots.txt disallows', () => {
    const legal = farm.requests.filter((r) => r.host === 'smith-legal.test');
    assert.ok(legal.length > 0);
    assert.ok(farm.requests.every((r) => r.userAgent === UA));
    assert.ok(!legal.some((r) => r.path.startsWith('/private') || r.path.startsWith('/clients')), legal.map((r) => r.path).join(' '));
    assert.ok(outcomes.get('smith-legal.test')!.skippedByRobots.some((u) => u.includes('/private/staff')));
    // and a disallowed address never leaks into the profile
    assert.notEqual(profiles.get('smith-legal.test')!.contact_email, 'partners-only@smith-legal.test');
  });

  it('refuses a site whose robots.txt disallows everything', () => {
    const o = outcomes.get('no-bots.test')!;
    assert.equal(o.fatal?.kind, 'robots');
    assert.ok(!farm.requests.some((r) => r.host === 'no-bots.test' && r.path !== '/robots.txt'));
  });

  it('honours Crawl-delay between requests to one host', () => {
    const times = farm.requests.filter((r) => r.host === 'talentbridge.test' && r.path !== '/robots.txt').map((r) => r.at);
    assert.ok(times.length >= 2);
    // a lower bound only: the pacer guarantees it, a slow machine cannot break it
    for (let i = 1; i < times.length; i++) assert.ok(times[i]! - times[i - 1]! >= 900, `gap ${times[i]! - times[i - 1]!} ms`);
  });

  it('follows redirects across www and paths, records the final origin', () => {
    const o = outcomes.get('old-freight.test')!;
    assert.equal(o.fatal, undefined);
    assert.match(o.origin, /^http:\/\/www\.old-freight\.test:/);
    assert.ok(o.pages.some((p) => p.url.endsWith('/home')));
  });

  it('caps oversized bodies, times out slow pages and survives broken ones', () => {
    assert.ok(outcomes.get('bigpage-dental.test')!.failures.some((f) => f.kind === 'too_large' && f.url.endsWith('/gallery')));
    assert.ok(outcomes.get('greenleaf-solar.test')!.failures.some((f) => f.kind === 'timeout' && f.url.endsWith('/projects')));
    const bakery = outcomes.get('broken-bakery.test')!;
    assert.ok(bakery.failures.some((f) => f.kind === 'http' && f.url.endsWith('/about')));
    assert.equal(profiles.get('broken-bakery.test')!.name, 'Boulangerie Dupont');
  });

  it('adaptive retry reads the sitemap when the home page is a JavaScript shell, and says so', () => {
    const o = outcomes.get('spa-shell.test')!;
    assert.deepEqual(o.strategiesTried.slice(0, 2), ['standard', 'sitemap_only']);
    assert.ok(o.pages.some((p) => p.url.endsWith('/es/serena')));
  });

  it('keeps languages and social links, and outputs plain text only', () => {
    assert.deepEqual(profiles.get('trattoria-luigi.test')!.languages.sort(), ['en', 'it']);
    assert.equal(profiles.get('acme-plumbing.test')!.social_links.facebook, 'https://www.facebook.com/acmeplumbing');
    assert.equal(profiles.get('acme-plumbing.test')!.founded_year, 1998);
    for (const p of profiles.values()) for (const v of [p.name, p.description, p.city, p.address]) assert.doesNotMatch(v, /<[a-z/]/i);
  });

  it('refuses a redirect loop after 5 hops', async () => {
    await assert.rejects(fetcher.fetch(farm.url('old-freight.test', '/loop'), 'page'), (e: unknown) => e instanceof FetchError && e.kind === 'redirects');
  });

  it('keeps at most 2 requests in flight per host', async () => {
    const pacer = new HostPacer(2);
    let inFlight = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        pacer.run('h', 0, async () => {
          inFlight++;
          peak = Math.max(peak, inFlight);
          await new Promise((r) => setTimeout(r, 5));
          inFlight--;
        }),
      ),
    );
    assert.equal(peak, 2);
  });
});

describe('extraction', () => {
  it('drops navigation, footer, scripts and cookie banners from the readable text', () => {
    const p = extractPage(
      `<html lang="de"><body><div class="cookie-consent"><p>We use cookies for everything here, accept them all please.</p></div><nav>Menu Home About</nav><main><h1>Title</h1><p>Real content about the company and what it does.</p><script>var x = "<b>";</script></main><footer>Footer links</footer></body></html>`,
      'https://a.example/',
    );
    assert.equal(p.lang, 'de');
    assert.match(p.text, /Real content/);
    assert.doesNotMatch(p.text, /cookies|Menu Home|Footer links|var x/);
  });

  it('reads JSON-LD in @graph with ContactPoint and sameAs, and sitemap indexes', () => {
    const p = extractPage(
      `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"x"},{"@type":"Organization","name":"Graph Co","contactPoint":[{"@type":"ContactPoint","email":"sales@graph.example","telephone":"+1 415 555 0100"}],"sameAs":["https://github.com/graphco"],"address":{"@type":"PostalAddress","addressLocality":"San Francisco","addressCountry":"US"}}]}</script>`,
      'https://graph.example/',
    );
    assert.equal(p.orgs[0]!.name, 'Graph Co');
    assert.equal(p.orgs[0]!.email, 'sales@graph.example');
    assert.equal(p.orgs[0]!.telephone, '+1 415 555 0100');
    assert.equal(p.orgs[0]!.address?.city, 'San Francisco');
    assert.equal(p.social.github, 'https://github.com/graphco');
    assert.deepEqual(parseSitemap('<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex>'), { pages: [], sitemaps: ['https://a.example/s1.xml'] });
  });
});

describe('analysis with a language model', () => {
  let fake: FakeLlm;
  before(async () => {
    fake = await startFakeLlm();
  });
  after(async () => {
    await fake.close();
    await closeTestEmbeddings();
  });

  const page = extractPage(
    `<html lang="en"><head><title>Nordic Bikes</title><meta name="description" content="Bicycle repair shop in Oslo."></head><body><main><p>We repair and service bicycles in our workshop at Storgata 1, 0155 Oslo, Norway. Call +47 22 12 34 56 or mail shop@nordicbikes.example.</p></main></body></html>`,
    'https://nordicbikes.example/',
  );

  it('uses the validated model output but drops facts the site does not state', async () => {
    fake.respond = () =>
      JSON.stringify({
        name: 'Nordic Bikes', description: 'Bicycle repair workshop in Oslo.', category: 'Automotive', industry: 'Bicycle repair',
        services: ['Bicycle repair', 'Servicing'], keywords: ['bikes'], country: 'Norway', city: 'Bergen', address: 'Storgata 1, 0155 Oslo',
        service_type: 'local', contact_email: 'ceo@invented.example', phone: '+47 22 12 34 56',
      });
    const llm = createLlm({ ...testConfig().llm, baseUrl: fake.baseUrl });
    const analyser = createAnalyser({ embeddings: testEmbeddings(), llm });
    const p = await analyser.analyse(assembleMaterial([page], 'https://nordicbikes.example/'));
    assert.equal(p.analyser, 'llm');
    assert.equal(p.industry, 'Bicycle repair');
    assert.equal(p.category, 'Automotive');
    assert.equal(p.city, 'Oslo', 'Bergen is not on the site: the rules value stands');
    assert.equal(p.contact_email, 'shop@nordicbikes.example', 'an invented email is dropped');
    assert.equal(p.phone, '+47 22 12 34 56');
    assert.equal(p.country, 'Norway');
    const req = fake.requests.at(-1)!;
    assert.equal(req.response_format?.type, 'json_schema');
  });

  it('falls back to the deterministic analyser when the model answers off-schema', async () => {
    fake.respond = () => '{"name": 42}';
    const llm = createLlm({ ...testConfig().llm, baseUrl: fake.baseUrl, maxRetries: 0 });
    const p = await createAnalyser({ embeddings: testEmbeddings(), llm }).analyse(assembleMaterial([page], 'https://nordicbikes.example/'));
    assert.equal(p.analyser, 'rules');
    assert.equal(p.city, 'Oslo');
    assert.equal(p.contact_email, 'shop@nordicbikes.example');
  });
});
