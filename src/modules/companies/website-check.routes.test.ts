import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { bearer, closeTestEmbeddings, farmTestApp, signInOwner, type TestContext } from '../../../test/helpers/index.js';
import { startFixtureFarm, type FixtureFarm, type FixtureSite } from '../../../test/fixtures/crawl/farm.js';

const HOST = 'kiln-bakery.test';

/** A bakery's site: its details in JSON-LD, a photo of the shop in the page and a "picture" that is not one. */
function home(phone: string): string {
  const ld = {
    '@context': 'https://schema.org', '@type': 'Bakery', name: 'Kiln Bakery', telephone: phone, email: `hello@${HOST}`,
    address: { '@type': 'PostalAddress', streetAddress: '4 Mill Lane', addressLocality: 'Leeds', postalCode: 'LS1 4AB', addressCountry: 'GB' },
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kiln Bakery | Sourdough bakery in Leeds</title>
<script type="application/ld+json">${JSON.stringify(ld)}</script></head><body><header><img src="/img/logo.png" alt="Kiln Bakery logo"></header>
<main><h1>Kiln Bakery</h1><p>Sourdough bread, pastries and celebration cakes baked every morning in our Leeds shop since 2011.</p>
<figure><img src="/img/shop.jpg" width="1200" height="800"><figcaption>Our shop on Mill Lane</figcaption></figure>
<img src="/img/broken.jpg" width="900" alt="Fresh loaves"><p>Call us on ${phone}.</p></main><footer><p>4 Mill Lane, Leeds LS1 4AB</p></footer></body></html>`;
}

describe('monthly website check (issue 39): the site is read again, and what differs waits for the owner', () => {
  let farm: FixtureFarm;
  let t: TestContext;
  let owner: string;
  let stranger: string;
  let id: string;
  const site: FixtureSite = {
    host: HOST,
    description: 'bakery with a shop photo',
    expected: null,
    routes: {
      '/robots.txt': 'User-agent: *\nAllow: /\n',
      '/': home('+44 113 496 0000'),
    },
  };
  const check = async (token = owner) => t.app.inject({ method: 'GET', url: `/api/tools/${id}/website-check`, headers: bearer(token) });
  const profile = async () => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${id}` })).json();
  /** Runs the hourly pass and the crawl job it queued, as the worker would. */
  const runDueCheck = async () => {
    assert.equal(await t.app.services.crawl.queueDueChecks(), 1);
    assert.equal(await t.app.services.crawl.queueDueChecks(), 0, 'a taken check moves a month on');
    const [job] = await t.db.query<{ id: number }>("SELECT id FROM crawl_jobs WHERE requested_by = 'system' ORDER BY id DESC LIMIT 1");
    assert.equal(await t.app.services.crawl.runJob(job!.id), 'succeeded');
  };

  before(async () => {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#c8843a' } }).jpeg().toBuffer();
    site.routes['/img/shop.jpg'] = (_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
    site.routes['/img/broken.jpg'] = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>moved</p>');
    farm = await startFixtureFarm([site]);
    t = await farmTestApp(farm, { crawl: { ...(await import('../../config.js')).testConfig().crawl, allowPrivate: true, allowedPorts: [farm.port], delayMs: 0, timeoutMs: 5000, maxPages: 4 } });
    owner = (await signInOwner(t, `owner@${HOST}`)).token;
    stranger = (await signInOwner(t, 'owner@elsewhere.test')).token;
    // The owner's own crawl creates the company, makes them its owner and offers the site's pictures.
    const crawled = await t.app.inject({ method: 'POST', url: '/api/crawl', headers: bearer(owner), payload: { url: farm.url(HOST) } });
    assert.equal(crawled.statusCode, 200, crawled.body);
    id = crawled.json().profile.id;
  });
  after(async () => {
    await t.close();
    await farm.close();
    await closeTestEmbeddings();
  });

  it('refuses callers without a credential, other owners and bad input', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/tools/${id}/website-check` })).statusCode, 401);
    assert.equal((await check(stranger)).statusCode, 404);
    const put = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}/website-check`, headers: bearer(stranger), payload: { monthly: true } });
    assert.equal(put.statusCode, 404);
    const bad = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}/website-check`, headers: bearer(owner), payload: { monthly: 'sometimes' } });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['body', 'monthly']);
    assert.equal((await check()).json().monthly, false, 'nothing changed');
  });

  it('an owner\'s crawl offers the pictures of the site, never the logo, and publishes none', async () => {
    const body = (await check()).json();
    assert.equal(body.monthly, false);
    assert.deepEqual(body.suggestion.changes, {});
    assert.deepEqual(body.suggestion.photos, [
      { url: farm.url(HOST, '/img/shop.jpg'), caption: 'Our shop on Mill Lane' },
      { url: farm.url(HOST, '/img/broken.jpg'), caption: 'Fresh loaves' },
    ]);
    assert.deepEqual((await profile()).photos, []);
  });

  it('a crawl keeps the price range the owner set when the site states none', async () => {
    const set = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, headers: bearer(owner), payload: { price_range: { from: 3, to: 40, currency: 'GBP', unit: 'item' } } });
    assert.equal(set.statusCode, 200, set.body);
    const again = await t.app.inject({ method: 'POST', url: '/api/crawl', headers: bearer(owner), payload: { url: farm.url(HOST) } });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual((await profile()).price_range, { from: 3, to: 40, currency: 'GBP', unit: 'item' });
  });

  it('the monthly check writes nothing: the new phone on the site waits for the owner, who takes it with a picture', async () => {
    const on = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}/website-check`, headers: bearer(owner), payload: { monthly: true } });
    assert.equal(on.statusCode, 200, on.body);
    assert.equal(on.json().monthly, true);
    assert.ok(Date.parse(on.json().next_check_at) <= Date.now() + 1000, 'the first check is due at once');
    site.routes['/'] = home('+44 113 496 0999');
    await runDueCheck();

    assert.equal((await profile()).contact.phone, '+44 113 496 0000', 'the profile is unchanged');
    const mails = (await t.app.services.mail.recent({ to: `owner@${HOST}` })).filter((m) => /website check found something to decide/.test(m.subject));
    assert.equal(mails.length, 1, 'the owner hears of it');
    assert.match(mails[0]!.text_body, /1 detail that your profile states differently and 2 pictures/);
    assert.match(mails[0]!.text_body, new RegExp(`/app/companies/${id}/profile`));
    const found = (await check()).json();
    assert.ok(found.last_check_at);
    assert.deepEqual(found.suggestion.changes.phone, { current: '+44 113 496 0000', proposed: '+44 113 496 0999' });
    const sid = found.suggestion.id;
    const accept = (payload: Record<string, unknown>, token = owner) => t.app.inject({ method: 'POST', url: `/api/tools/${id}/website-check/suggestions/${sid}/accept`, headers: bearer(token), payload });

    assert.equal((await accept({ fields: ['phone'] }, stranger)).statusCode, 404);
    const wrong = await accept({ fields: ['phone', 'founded_year'] });
    assert.equal(wrong.statusCode, 422);
    assert.deepEqual(wrong.json().detail[0].loc, ['body', 'fields', 1]);
    const foreign = await accept({ photos: ['https://elsewhere.example/cat.jpg'] });
    assert.equal(foreign.statusCode, 422, 'only pictures the check found');
    assert.equal((await check()).json().suggestion.id, sid, 'a refused choice leaves the suggestion open');

    const res = await accept({ fields: ['phone'], photos: [farm.url(HOST, '/img/shop.jpg'), farm.url(HOST, '/img/broken.jpg')] });
    assert.equal(res.statusCode, 200, res.body);
    const out = res.json();
    assert.deepEqual(out.applied_fields, ['phone']);
    assert.deepEqual(out.photos_added, [farm.url(HOST, '/img/shop.jpg')]);
    assert.equal(out.problems.length, 1);
    assert.match(out.problems[0], /not a JPEG, PNG or WebP picture/);
    assert.equal(out.check.suggestion, null);

    const after = await profile();
    assert.equal(after.contact.phone, '+44 113 496 0999');
    assert.equal(after.photos.length, 1);
    assert.equal(after.photos[0].caption, 'Our shop on Mill Lane');
    assert.equal(after.photos[0].width, 1200);
    const history = (await t.app.inject({ method: 'GET', url: `/api/tools/${id}/history`, headers: bearer(owner) })).json();
    assert.ok(history.edits.some((e: { changes: Record<string, unknown> }) => 'phone' in e.changes), 'the accepted value is the owner\'s edit, in the history');
    assert.equal((await accept({ fields: ['phone'] })).statusCode, 404, 'decided once');
  });

  it('the next check proposes nothing already decided; dismissing and turning it off work', async () => {
    await t.db.query('UPDATE website_checks SET next_run_at = now() WHERE company_id = $1', [id]);
    await runDueCheck();
    assert.equal((await check()).json().suggestion, null, 'the site now says what the profile says, and its pictures were decided on');

    site.routes['/'] = home('+44 113 496 0111');
    await t.db.query('UPDATE website_checks SET next_run_at = now() WHERE company_id = $1', [id]);
    await runDueCheck();
    const sid = (await check()).json().suggestion.id;
    const dismissed = await t.app.inject({ method: 'POST', url: `/api/tools/${id}/website-check/suggestions/${sid}/dismiss`, headers: bearer(owner) });
    assert.equal(dismissed.statusCode, 200, dismissed.body);
    assert.equal(dismissed.json().suggestion, null);
    assert.equal((await profile()).contact.phone, '+44 113 496 0999');

    // A phone the owner set by hand differs from the site's: the check proposes it, and an owner's crawl (which keeps
    // the owner's value) leaves that proposal standing.
    assert.equal((await t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, headers: bearer(owner), payload: { phone: '+44 113 496 0555' } })).statusCode, 200);
    await t.db.query('UPDATE website_checks SET next_run_at = now() WHERE company_id = $1', [id]);
    await runDueCheck();
    assert.deepEqual((await check()).json().suggestion.changes.phone, { current: '+44 113 496 0555', proposed: '+44 113 496 0111' });
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/crawl', headers: bearer(owner), payload: { url: farm.url(HOST) } })).statusCode, 200);
    assert.deepEqual((await check()).json().suggestion.changes.phone, { current: '+44 113 496 0555', proposed: '+44 113 496 0111' });

    const off = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}/website-check`, headers: bearer(owner), payload: { monthly: false } });
    assert.equal(off.json().monthly, false);
    assert.equal(await t.app.services.crawl.queueDueChecks(), 0);
  });
});
