import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { bearer, companyFixture, seedCompanies, signInOwner, useTestApp } from '../../../test/helpers/index.js';

/** Issue 38: owners name the places they serve beyond their city; agents and the public page read them; a crawl keeps them. */
describe('service areas', () => {
  const t = useTestApp();
  let id: string, other: string, token: string, otherToken: string;

  before(async () => {
    [id, other] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Havel Gardens', website_url: 'https://havel-gardens.example', city: 'Potsdam', country: 'Germany', category: 'Construction & Home Services', description: 'Garden care.' }),
      companyFixture({ name: 'Elbe Gardens', website_url: 'https://elbe-gardens.example', city: 'Hamburg', country: 'Germany' }),
    ])) as [string, string];
    token = (await signInOwner(t, 'owner@havel-gardens.example', 'https://havel-gardens.example')).token;
    otherToken = (await signInOwner(t, 'owner@elbe-gardens.example', 'https://elbe-gardens.example')).token;
  });

  const put = (companyId: string, body: object, who = token) => t.app.inject({ method: 'PUT', url: `/api/tools/${companyId}`, headers: bearer(who), payload: body });
  const profile = async (companyId: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${companyId}` })).json();

  it('starts empty, is set by the owner (cleaned, each once), read by agents with its freshness, and shown on the page', async () => {
    assert.deepEqual((await profile(id)).service_areas, []);
    const res = await put(id, { service_areas: ['Berlin', ' Brandenburg ', 'berlin', 'Werder (Havel)'] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().service_areas, ['Berlin', 'Brandenburg', 'Werder (Havel)']);
    const p = await profile(id);
    assert.deepEqual(p.service_areas, ['Berlin', 'Brandenburg', 'Werder (Havel)']);
    assert.equal(p.freshness.location.source, 'owner');
    const slug = (await t.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [id]))[0]!.slug;
    assert.match((await t.app.inject({ method: 'GET', url: `/companies/${slug}` })).body, /<dt>Also serves<\/dt><dd>Berlin, Brandenburg, Werder \(Havel\)<\/dd>/);
  });

  it('refuses bad input with a 422 that changes nothing, and another owner or no credential', async () => {
    const tooMany = await put(id, { service_areas: Array.from({ length: 21 }, (_, i) => `Town ${i}`) });
    assert.equal(tooMany.statusCode, 422);
    assert.deepEqual(tooMany.json().detail[0].loc, ['body', 'service_areas']);
    assert.equal((await put(id, { service_areas: ['x'.repeat(101)] })).statusCode, 422);
    assert.equal((await put(id, { service_areas: [''] })).statusCode, 422);
    assert.equal((await put(id, { service_areas: ['Hamburg'] }, otherToken)).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, payload: { service_areas: ['Hamburg'] } })).statusCode, 401);
    assert.deepEqual((await profile(id)).service_areas, ['Berlin', 'Brandenburg', 'Werder (Havel)']);
    assert.deepEqual((await profile(other)).service_areas, []);
  });

  it('is kept by a re-crawl, which never reads it from the website', async () => {
    await t.app.services.companies.saveCrawled({ ...companyFixture({ name: 'Havel Gardens', website_url: 'https://havel-gardens.example', city: 'Potsdam', country: 'Germany', description: 'Garden care and tree work.' }) });
    assert.deepEqual((await profile(id)).service_areas, ['Berlin', 'Brandenburg', 'Werder (Havel)']);
    const cleared = await put(id, { service_areas: [] });
    assert.deepEqual(cleared.json().service_areas, []);
  });
});
