import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, closeTestEmbeddings, farmTestApp, signInAdmin, signInOwner, type TestContext } from '../../../test/helpers/index.js';
import { startFixtureFarm, type FixtureFarm, type FixtureSite } from '../../../test/fixtures/crawl/farm.js';

const HOST = 'two-towns-joinery.test';

/**
 * A joiner with two workshops and nothing saying which is the main one: the crawl reads Leeds (the first) but
 * below the city's publish threshold, so the town and the address wait for the owner instead of being published.
 */
function home(phone: string): string {
  const ld = { '@context': 'https://schema.org', '@type': 'HomeAndConstructionBusiness', name: 'Two Towns Joinery', telephone: phone, email: `hello@${HOST}` };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Two Towns Joinery | Kitchens and staircases</title>
<script type="application/ld+json">${JSON.stringify(ld)}</script></head><body><main><h1>Two Towns Joinery</h1>
<p>Fitted kitchens, staircases and sash windows made in our own workshops since 1998.</p><p>Call us on ${phone} to book a survey.</p></main>
<footer><p>Visit a workshop:</p><p>12 Park Row<br>Leeds<br>LS1 5HD</p><p>3 Stonegate<br>York<br>YO1 8AS</p></footer></body></html>`;
}

describe('held crawl fields (issue 40): values below their publish threshold wait for the owner', () => {
  let farm: FixtureFarm;
  let t: TestContext;
  let owner: string;
  let stranger: string;
  let id: string;
  const site: FixtureSite = { host: HOST, description: 'two workshops, no main one', expected: null, routes: { '/robots.txt': 'User-agent: *\nAllow: /\n', '/': home('+44 113 496 0123') } };
  const held = async (token = owner) => t.app.inject({ method: 'GET', url: `/api/tools/${id}/held-fields`, headers: bearer(token) });
  const heldOf = async (field: string) => ((await held()).json().held as { id: string; field: string; value: string }[]).find((h) => h.field === field);
  const profile = async () => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${id}` })).json();
  const found = async (q: string) => ((await t.app.inject({ method: 'GET', url: `/api/tools?q=${q}` })).json() as { id: string }[]).some((c) => c.id === id);
  const recrawl = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/crawl', headers: bearer(owner), payload: { url: farm.url(HOST) } });
    assert.equal(res.statusCode, 200, res.body);
  };

  before(async () => {
    farm = await startFixtureFarm([site]);
    t = await farmTestApp(farm, { crawl: { ...(await import('../../config.js')).testConfig().crawl, allowPrivate: true, allowedPorts: [farm.port], delayMs: 0, timeoutMs: 5000, maxPages: 4 } });
    owner = (await signInOwner(t, `owner@${HOST}`)).token;
    stranger = (await signInOwner(t, 'owner@elsewhere.test')).token;
    const crawled = await t.app.inject({ method: 'POST', url: '/api/crawl', headers: bearer(owner), payload: { url: farm.url(HOST) } });
    assert.equal(crawled.statusCode, 200, crawled.body);
    id = crawled.json().profile.id;
  });
  after(async () => {
    await t.close();
    await farm.close();
    await closeTestEmbeddings();
  });

  it('a low-confidence town and address are held, not published; sure values are published', async () => {
    const p = await profile();
    assert.equal(p.location.city, '');
    assert.equal(p.location.address ?? '', '');
    assert.equal(p.name, 'Two Towns Joinery');
    assert.equal(p.contact.phone, '+44 113 496 0123');
    const body = (await held()).json();
    assert.deepEqual(body.held.map((h: { field: string }) => h.field).sort(), ['address', 'city']);
    const city = body.held.find((h: { field: string }) => h.field === 'city');
    assert.equal(city.value, 'Leeds');
    assert.ok(city.confidence < 0.85, `confidence ${city.confidence} is below the city's threshold`);
    assert.equal(city.method, 'address-shape');
    assert.match(city.source_url, new RegExp(HOST));
    assert.equal(await found('Leeds'), false, 'a held town is not searchable');
  });

  it("administrators see every company's held values in one queue, oldest first; owners and strangers do not", async () => {
    const admin = await signInAdmin(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/crawl/admin/held?limit=10', headers: bearer(admin) });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    const mine = body.held.filter((h: { company_id: string }) => h.company_id === id);
    assert.deepEqual(mine.map((h: { field: string }) => h.field).sort(), ['address', 'city']);
    assert.equal(mine[0].company_name, 'Two Towns Joinery');
    assert.equal(body.total, body.held.length);
    assert.equal(body.has_more, false);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/crawl/admin/held' })).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/crawl/admin/held', headers: bearer(owner) })).statusCode, 403);
    const bad = await t.app.inject({ method: 'GET', url: '/api/crawl/admin/held?limit=0', headers: bearer(admin) });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['query', 'limit']);
  });

  it('refuses callers without a credential, other owners and bad input, and changes nothing', async () => {
    const city = (await heldOf('city'))!;
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/tools/${id}/held-fields` })).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/tools/${id}/held-fields/${city.id}/accept` })).statusCode, 401);
    assert.equal((await held(stranger)).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/tools/${id}/held-fields/${city.id}/accept`, headers: bearer(stranger) })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/tools/${id}/held-fields/${city.id}/dismiss`, headers: bearer(stranger) })).statusCode, 404);
    const bad = await t.app.inject({ method: 'POST', url: `/api/tools/${id}/held-fields/not-a-uuid/accept`, headers: bearer(owner) });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['path', 'held_id']);
    const unknown = await t.app.inject({ method: 'POST', url: `/api/tools/${id}/held-fields/00000000-0000-4000-8000-000000000000/accept`, headers: bearer(owner) });
    assert.equal(unknown.statusCode, 404);
    assert.equal((await held()).json().held.length, 2, 'nothing was taken');
    assert.equal((await profile()).location.city, '');
  });

  it('accept writes the value through the owner\'s edit: published, searchable, kept by a re-crawl', async () => {
    const city = (await heldOf('city'))!;
    const res = await t.app.inject({ method: 'POST', url: `/api/tools/${id}/held-fields/${city.id}/accept`, headers: bearer(owner) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().accepted.value, 'Leeds');
    assert.equal(res.json().company.city, 'Leeds');
    assert.deepEqual(res.json().held.map((h: { field: string }) => h.field), ['address']);
    assert.equal((await profile()).location.city, 'Leeds');
    assert.equal(await found('Leeds'), true, 'searchable once used');
    const again = await t.app.inject({ method: 'POST', url: `/api/tools/${id}/held-fields/${city.id}/accept`, headers: bearer(owner) });
    assert.equal(again.statusCode, 404, 'a value is used once');
    // the town is now the owner's: a re-crawl neither overwrites it nor holds it again
    await recrawl();
    assert.equal((await profile()).location.city, 'Leeds');
    assert.equal(await heldOf('city'), undefined);
  });

  it('dismiss removes a value and a re-crawl does not offer it again', async () => {
    const address = (await heldOf('address'))!;
    const res = await t.app.inject({ method: 'POST', url: `/api/tools/${id}/held-fields/${address.id}/dismiss`, headers: bearer(owner) });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().held, []);
    assert.equal((await profile()).location.address ?? '', '');
    await recrawl();
    assert.deepEqual((await held()).json().held, []);
    assert.equal((await profile()).location.address ?? '', '');
  });

  it('an administrator reads and decides any company\'s held values', async () => {
    const admin = await signInAdmin(t);
    const res = await held(admin);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().held, []);
  });

  it('a re-crawl does not overwrite a phone the owner set', async () => {
    const put = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, headers: bearer(owner), payload: { phone: '+44 113 496 0999' } });
    assert.equal(put.statusCode, 200, put.body);
    site.routes['/'] = home('+44 113 496 0456');
    await recrawl();
    assert.equal((await profile()).contact.phone, '+44 113 496 0999');
  });
});
