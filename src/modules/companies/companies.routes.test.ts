import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { companyFixture, seedCompanies, useTestApp } from '../../../test/helpers/index.js';

describe('agent company lookup', () => {
  const t = useTestApp();
  let id: string;

  before(async () => {
    [id] = await seedCompanies(t.app, [
      companyFixture({
        name: 'Acme <b>Plumbing</b>',
        website_url: 'https://www.acme-plumbing.com/',
        category: 'construction & home services',
        description: '<p>We fix <strong>leaks</strong> fast.</p> **24/7** service. [Call us](https://x.test)',
        country: 'DE',
        keywords: ['plumbing', 'leaks'],
        services: ['Leak repair', 'Boiler service'],
        contact_email: 'info@acme-plumbing.com',
        phone: '+49 30 1234567',
        languages: ['de', 'en'],
        founded_year: 1999,
      }),
    ]) as [string];
  });

  it('returns the full profile as plain text', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${id}` });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.id, id);
    assert.equal(body.name, 'Acme Plumbing');
    assert.equal(body.description, 'We fix leaks fast.\n24/7 service. Call us');
    assert.equal(body.category, 'Construction & Home Services');
    const { latitude, longitude, ...place } = body.location;
    assert.deepEqual(place, { country: 'Germany', country_code: 'DE', city: 'Berlin', address: 'Hauptstrasse 1, 10115 Berlin' });
    assert.ok(Math.abs(latitude - 52.52) < 0.05 && Math.abs(longitude - 13.41) < 0.05, `Berlin's coordinates: ${latitude},${longitude}`);
    assert.equal(body.domain, 'acme-plumbing.com');
    assert.deepEqual(body.contact, { email: 'info@acme-plumbing.com', phone: '+49 30 1234567', phone_e164: '+49301234567' });
    assert.deepEqual(body.locations, [], 'no other locations unless a crawl found them');
    assert.deepEqual(body.services, ['Leak repair', 'Boiler service']);
    assert.equal(body.founded_year, 1999);
    assert.equal(body.accepts_proposals, true);
    assert.match(body.profile_url, new RegExp(`/api/v1/agent/companies/${id}$`));
    for (const v of Object.values(body)) if (typeof v === 'string') assert.doesNotMatch(v, /<[a-z/]/i);
  });

  it('serves a changed profile at once, however the change was written', async () => {
    const url = `/api/v1/agent/companies/${id}`;
    const before = (await t.app.inject({ method: 'GET', url })).json();
    await t.db.query('UPDATE companies SET phone = $2 WHERE id = $1', [id, '+49 30 7654321']);
    const after = (await t.app.inject({ method: 'GET', url })).json();
    assert.notEqual(before.contact.phone, after.contact.phone);
    assert.equal(after.contact.phone, '+49 30 7654321');
    const byUrl = (await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies/by-url/acme-plumbing.com' })).json();
    assert.equal(byUrl.contact.phone, '+49 30 7654321');
    await t.db.query('UPDATE companies SET phone = $2 WHERE id = $1', [id, '+49 30 1234567']);
    assert.equal((await t.app.inject({ method: 'GET', url })).json().contact.phone, '+49 30 1234567');
    await t.db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [id]);
    assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 404);
    await t.db.query('UPDATE companies SET deleted_at = NULL WHERE id = $1', [id]);
  });

  it('answers 422 for a malformed id and 404 for an unknown one', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies/not-a-uuid' });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['path', 'company_id']);
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies/00000000-0000-4000-8000-000000000000' });
    assert.equal(missing.statusCode, 404);
    assert.equal(typeof missing.json().detail, 'string');
  });

  for (const form of ['acme-plumbing.com', 'ACME-Plumbing.com', 'www.acme-plumbing.com', 'https://www.acme-plumbing.com/', 'http://acme-plumbing.com/about/team', 'https%3A%2F%2Fwww.acme-plumbing.com%2F']) {
    it(`finds by website given as ${form}`, async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/by-url/${form}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().id, id);
    });
  }

  it('404s an unknown website and 422s a non-domain', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies/by-url/nobody-here.org' })).statusCode, 404);
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies/by-url/notadomain' });
    assert.equal(bad.statusCode, 422);
  });

  it('lists the 25 categories', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/agent/categories' });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.total, 25);
    assert.equal(body.categories.length, 25);
    for (const c of ['Technology', 'E-commerce', 'Marketplace', 'Logistics & Transportation', 'Finance']) assert.ok(body.categories.includes(c));
  });

  it('404s unknown routes with a detail', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/agent/nothing' });
    assert.equal(res.statusCode, 404);
    assert.match(res.json().detail, /Not found/);
  });
});
