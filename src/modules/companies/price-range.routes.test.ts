import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { convert, EUR_RATES, priceLine } from '../../lib/price-range.js';
import { bearer, companyFixture, seedCompanies, signInOwner, useTestApp } from '../../../test/helpers/index.js';

describe('prices (issue 39): owners set a price range, agents filter with max_price in their own currency', () => {
  const t = useTestApp();
  let euro: string;
  let pound: string;
  let none: string;
  let token: string;

  before(async () => {
    [euro, pound, none] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Kiez Cleaning', website_url: 'https://kiez-cleaning.example', category: 'Construction & Home Services', description: 'Home cleaning in Berlin.', keywords: ['cleaning'], service_type: 'local' }),
      companyFixture({ name: 'Thames Cleaning', website_url: 'https://thames-cleaning.example', category: 'Construction & Home Services', description: 'Home cleaning in London.', keywords: ['cleaning'], city: 'London', country: 'United Kingdom', price_range: { from: 40, to: 60, currency: 'GBP', unit: 'hour' } }),
      companyFixture({ name: 'Quiet Cleaning', website_url: 'https://quiet-cleaning.example', category: 'Construction & Home Services', description: 'Home cleaning.', keywords: ['cleaning'] }),
    ])) as [string, string, string];
    token = (await signInOwner(t, 'owner@kiez-cleaning.example', 'https://kiez-cleaning.example')).token;
  });

  const put = (body: unknown) => t.app.inject({ method: 'PUT', url: `/api/tools/${euro}`, headers: bearer(token), payload: body as object });
  const ids = async (qs: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?${qs}` })).json().companies.map((c: { id: string }) => c.id).sort();

  it('converts by the stored reference rates', () => {
    assert.equal(convert(100, 'EUR', 'EUR'), 100);
    assert.ok(Math.abs(convert(EUR_RATES.USD!, 'USD', 'EUR')! - 1) < 1e-9);
    assert.equal(convert(1, 'EUR', 'XXX'), undefined);
    assert.equal(priceLine({ from: 50, to: 120, currency: 'EUR', unit: 'hour' }), '€50–€120 per hour');
    assert.equal(priceLine({ from: 80, currency: 'USD', unit: 'job' }), 'from $80 per job');
  });

  it('an owner sets a price range; agents read it; a bad one is a 422 naming the key and changes nothing', async () => {
    for (const [body, key] of [
      [{ price_range: { from: 50, to: 20, currency: 'EUR', unit: 'hour' } }, 'to'],
      [{ price_range: { from: 50, currency: 'EURO', unit: 'hour' } }, 'currency'],
      [{ price_range: { from: 50, currency: 'EUR', unit: 'fortnight' } }, 'unit'],
      [{ price_range: { from: -1, currency: 'EUR', unit: 'hour' } }, 'from'],
    ] as const) {
      const res = await put(body);
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.deepEqual(res.json().detail[0].loc, ['body', 'price_range', key]);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${euro}` })).json().price_range, null);
    const res = await put({ price_range: { from: 30, to: 45.5, currency: 'eur', unit: 'hour' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().price_range, { from: 30, to: 45.5, currency: 'EUR', unit: 'hour' });
    const profile = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${euro}` })).json();
    assert.deepEqual(profile.price_range, { from: 30, to: 45.5, currency: 'EUR', unit: 'hour' });
  });

  it('max_price compares the lowest price in the currency asked; companies without prices are left out', async () => {
    // 30 EUR and 40 GBP (about 47 EUR): a ceiling of 35 EUR keeps the first only, 50 EUR both.
    assert.deepEqual(await ids('q=cleaning&max_price=35&currency=EUR'), [euro]);
    assert.deepEqual(await ids('q=cleaning&max_price=50'), [euro, pound].sort(), 'EUR by default');
    // In dollars: 30 EUR ≈ 32 USD, 40 GBP ≈ 51 USD.
    assert.deepEqual(await ids('q=cleaning&max_price=40&currency=usd'), [euro]);
    assert.deepEqual(await ids('max_price=60&currency=USD'), [euro, pound].sort(), 'browsing without q filters alike');
    assert.ok(!(await ids('q=cleaning&max_price=1000')).includes(none));
  });

  it('refuses an unknown currency, and a currency without max_price', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?q=cleaning&max_price=10&currency=XYZ' });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().detail[0].loc, ['query', 'currency']);
    res = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?q=cleaning&currency=EUR' });
    assert.equal(res.statusCode, 422);
  });

  it('the public page shows the prices and its JSON-LD carries priceRange', async () => {
    const slug = (await t.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [euro]))[0]!.slug;
    const res = await t.app.inject({ method: 'GET', url: `/companies/${slug}` });
    assert.match(res.body, /<dt>Prices<\/dt><dd>€30–€45\.50 per hour<\/dd>/);
    assert.match(res.body, /"priceRange":"€30–€45\.50 per hour"/);
  });

  describe('service_prices: a price per service', () => {
    const haircut = { service: 'Haircut', from: 35, currency: 'EUR', unit: 'person' };
    const profileOf = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${id}` })).json();

    it('a bad list is a 422 in the FastAPI shape naming the entry and key, and changes nothing', async () => {
      const before = (await t.db.query<{ service_prices: unknown; updated_at: Date }>('SELECT service_prices, updated_at FROM companies WHERE id = $1', [euro]))[0]!;
      const many = Array.from({ length: 31 }, (_, i) => ({ ...haircut, service: `Service ${i}` }));
      for (const [body, loc] of [
        [{ service_prices: [{ ...haircut, from: 50, to: 20 }] }, ['body', 'service_prices', 0, 'to']],
        [{ service_prices: [haircut, { ...haircut, currency: 'EURO' }] }, ['body', 'service_prices', 1, 'currency']],
        [{ service_prices: [{ ...haircut, currency: 'XYZ' }] }, ['body', 'service_prices', 0, 'currency']],
        [{ service_prices: [{ ...haircut, unit: 'fortnight' }] }, ['body', 'service_prices', 0, 'unit']],
        [{ service_prices: [{ ...haircut, from: -1 }] }, ['body', 'service_prices', 0, 'from']],
        [{ service_prices: [{ ...haircut, from: 2e9 }] }, ['body', 'service_prices', 0, 'from']],
        [{ service_prices: [{ ...haircut, service: '' }] }, ['body', 'service_prices', 0, 'service']],
        [{ service_prices: [{ ...haircut, service: '<b></b>' }] }, ['body', 'service_prices', 0, 'service']],
        [{ service_prices: [{ ...haircut, service: 'x'.repeat(121) }] }, ['body', 'service_prices', 0, 'service']],
        [{ service_prices: [haircut, { ...haircut, service: ' HAIRCUT ', from: 40 }] }, ['body', 'service_prices', 1, 'service']],
        [{ service_prices: [{ ...haircut, price: 35 }] }, ['body', 'service_prices', 0, 'price']],
        [{ service_prices: [{ ...haircut, to: 'a lot' }] }, ['body', 'service_prices', 0, 'to']],
        [{ service_prices: many }, ['body', 'service_prices']],
        [{ service_prices: { Haircut: 35 } }, ['body', 'service_prices']],
      ] as const) {
        const res = await put(body);
        assert.equal(res.statusCode, 422, JSON.stringify(body).slice(0, 200));
        assert.deepEqual(Object.keys(res.json()), ['detail']);
        assert.deepEqual(res.json().detail[0].loc, loc, JSON.stringify(res.json().detail));
      }
      const dup = await put({ service_prices: [haircut, { ...haircut, service: 'haircut' }] });
      assert.match(dup.json().detail[0].msg, /listed twice \(also at 0\)/);
      const after = (await t.db.query<{ service_prices: unknown; updated_at: Date }>('SELECT service_prices, updated_at FROM companies WHERE id = $1', [euro]))[0]!;
      assert.deepEqual(after, before, 'nothing was written');
      assert.deepEqual((await profileOf(euro)).service_prices, []);
    });

    it('an owner sets the list (plain text, currency upper case, order kept); agents read it; the dashboard shows it', async () => {
      const res = await put({ service_prices: [
        { service: '  <b>Deep clean</b> ', from: 120, to: 180.5, currency: 'eur', unit: 'job' },
        { service: 'Window cleaning', from: 25, to: null, currency: 'EUR', unit: 'hour' },
      ] });
      assert.equal(res.statusCode, 200, res.body);
      const expected = [
        { service: 'Deep clean', from: 120, to: 180.5, currency: 'EUR', unit: 'job' },
        { service: 'Window cleaning', from: 25, currency: 'EUR', unit: 'hour' },
      ];
      assert.deepEqual(res.json().service_prices, expected);
      assert.ok(res.json().editable_fields.includes('service_prices'));
      const profile = await profileOf(euro);
      assert.deepEqual(profile.service_prices, expected);
      assert.equal(profile.freshness.prices.source, 'owner');
      assert.deepEqual(profile.price_range, { from: 30, to: 45.5, currency: 'EUR', unit: 'hour' }, 'the range is kept');
      assert.deepEqual((await profileOf(none)).service_prices, [], 'a company without service prices has an empty list');
      const history = (await t.app.inject({ method: 'GET', url: `/api/tools/${euro}/history`, headers: bearer(token) })).json();
      assert.deepEqual(history.edits[0].changes.service_prices.after, expected);
    });

    it('the public page lists them under Prices, and its JSON-LD carries an OfferCatalog of Offers', async () => {
      const slug = (await t.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [euro]))[0]!.slug;
      const page = (await t.app.inject({ method: 'GET', url: `/companies/${slug}` })).body;
      assert.match(page, /<dt>Prices<\/dt><dd>€30–€45\.50 per hour<ul class="service-prices"><li>Deep clean: €120–€180\.50 per job<\/li><li>Window cleaning: from €25 per hour<\/li><\/ul><\/dd>/);
      const ld = [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
      const org = ld.flat().find((x: { hasOfferCatalog?: unknown }) => x.hasOfferCatalog);
      assert.ok(org, 'an organisation with a catalogue');
      assert.equal(org.hasOfferCatalog['@type'], 'OfferCatalog');
      assert.deepEqual(org.hasOfferCatalog.itemListElement, [
        { '@type': 'Offer', itemOffered: { '@type': 'Service', name: 'Deep clean' }, priceSpecification: { '@type': 'UnitPriceSpecification', price: 120, minPrice: 120, maxPrice: 180.5, priceCurrency: 'EUR', unitText: 'job' } },
        { '@type': 'Offer', itemOffered: { '@type': 'Service', name: 'Window cleaning' }, priceSpecification: { '@type': 'UnitPriceSpecification', price: 25, minPrice: 25, priceCurrency: 'EUR', unitText: 'hour' } },
      ]);
    });

    it('another owner cannot set them, and a call without a credential is 401', async () => {
      const stranger = await signInOwner(t, 'owner@quiet-cleaning.example', 'https://quiet-cleaning.example');
      let res = await t.app.inject({ method: 'PUT', url: `/api/tools/${euro}`, headers: bearer(stranger.token), payload: { service_prices: [] } });
      assert.equal(res.statusCode, 404, 'another owner\'s company is not found, as everywhere in the dashboard');
      res = await t.app.inject({ method: 'PUT', url: `/api/tools/${euro}`, payload: { service_prices: [] } });
      assert.equal(res.statusCode, 401);
      assert.equal((await profileOf(euro)).service_prices.length, 2);
    });

    it('a crawl keeps prices the owner set, and fills them where the owner set none', async () => {
      const crawled = (website_url: string, name: string) => ({ name, website_url, category: 'Construction & Home Services', description: 'Home cleaning.' });
      await t.app.services.companies.saveCrawled({ ...crawled('https://kiez-cleaning.example', 'Kiez Cleaning'), service_prices: [{ service: 'Oven clean', from: 60, currency: 'EUR', unit: 'job' }] });
      const kept = await profileOf(euro);
      assert.equal(kept.service_prices.length, 2, 'set by hand, kept');
      assert.equal(kept.service_prices[0].service, 'Deep clean');
      assert.deepEqual(kept.price_range, { from: 30, to: 45.5, currency: 'EUR', unit: 'hour' }, 'a crawl that found no price range keeps the owner\'s');
      await t.app.services.companies.saveCrawled({ ...crawled('https://quiet-cleaning.example', 'Quiet Cleaning'), service_prices: [{ service: 'Oven clean', from: 60, currency: 'EUR', unit: 'job' }] });
      const filled = await profileOf(none);
      assert.deepEqual(filled.service_prices, [{ service: 'Oven clean', from: 60, currency: 'EUR', unit: 'job' }]);
      assert.equal(filled.freshness.prices.source, 'crawl');
      await t.app.services.companies.saveCrawled(crawled('https://quiet-cleaning.example', 'Quiet Cleaning'));
      assert.equal((await profileOf(none)).service_prices.length, 1, 'a crawl that finds none blanks nothing');
    });

    it('an owner clears them with [] or null', async () => {
      let res = await put({ service_prices: [] });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().service_prices, []);
      assert.equal(res.json().price_range.from, 30, 'the range is another field');
      await put({ service_prices: [haircut] });
      res = await put({ service_prices: null });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual((await profileOf(euro)).service_prices, []);
    });
  });
});
