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
});
