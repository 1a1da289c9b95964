import assert from 'node:assert/strict';
import { crawlProblem } from './crawl.views.js';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../app.js';
import { testConfig, type Config } from '../../config.js';
import { bearer, closeTestEmbeddings, createTestDb, seedCompanies, signInAdmin, signInOwner, testEmbeddings, type TestContext } from '../../../test/helpers/index.js';
import { until } from '../../../test/helpers/timing.js';
import { FIXTURE_SITES, fixtureResolver, startFixtureFarm, type FixtureFarm, type FixtureSite } from '../../../test/fixtures/crawl/farm.js';
import { EVAL_SITES } from '../../../test/eval/crawl/sites/index.js';

/** An evaluation site with several branch offices (issue 19), served by the fixture farm. */
const BRANCHES_HOST = 'hayden-outdoors.test';
const BRANCHES: FixtureSite = {
  host: BRANCHES_HOST,
  description: 'land brokerage with a head office and two branch offices, each with its own number',
  expected: null,
  routes: {
    '/robots.txt': `User-agent: *\nAllow: /\nSitemap: http://${BRANCHES_HOST}PORT/sitemap.xml\n`,
    '/sitemap.xml': `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${BRANCHES_HOST}PORT/</loc></url><url><loc>http://${BRANCHES_HOST}PORT/offices</loc></url></urlset>`,
    ...EVAL_SITES.find((site) => site.url.includes('haydenoutdoors'))!.pages,
  },
};

async function crawlApp(farm: FixtureFarm, overrides: Partial<Config> = {}, env: Record<string, string> = {}): Promise<TestContext> {
  const { db, drop } = await createTestDb();
  const base = testConfig({}, env);
  const config = testConfig({ crawl: { ...base.crawl, allowPrivate: true, allowedPorts: [farm.port], delayMs: 5, timeoutMs: 15000, maxPages: 8 }, ...overrides }, env);
  const app = await buildApp(config, { db, embeddings: testEmbeddings(), crawlResolver: fixtureResolver });
  await app.ready();
  return { app, db, config, close: async () => { await app.close(); await drop(); } };
}

describe('crawl API', () => {
  let farm: FixtureFarm;
  let t: TestContext;
  let admin: string;
  let owner: { token: string; userId: string };

  before(async () => {
    farm = await startFixtureFarm([...FIXTURE_SITES, BRANCHES]);
    t = await crawlApp(farm);
    admin = await signInAdmin(t);
    owner = await signInOwner(t, 'owner@acme-plumbing.test');
  });
  after(async () => {
    await t.close();
    await farm.close();
    await closeTestEmbeddings();
  });

  it('401s without a token and 403s an owner on admin routes', async () => {
    for (const [method, url] of [['POST', '/api/crawl'], ['POST', '/api/crawl/start'], ['GET', '/api/crawl/my-latest'], ['POST', '/api/crawl/admin'], ['GET', '/api/crawl/admin/stats'], ['GET', '/api/crawl/admin/recent'], ['GET', '/api/crawl/admin/recent/1']] as const) {
      const res = await t.app.inject({ method, url, payload: method === 'POST' ? { url: 'acme-plumbing.test' } : undefined });
      assert.equal(res.statusCode, 401, `${method} ${url}`);
    }
    const bad = await t.app.inject({ method: 'GET', url: '/api/crawl/my-latest', headers: bearer('not-a-token') });
    assert.equal(bad.statusCode, 401);
    for (const url of ['/api/crawl/admin/stats', '/api/crawl/admin/recent', '/api/crawl/admin/recent/1']) {
      assert.equal((await t.app.inject({ method: 'GET', url, headers: bearer(owner.token) })).statusCode, 403, url);
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/crawl/admin', headers: bearer(owner.token), payload: { url: 'acme-plumbing.test' } });
    assert.equal(res.statusCode, 403);
  });

  it('422s bad bodies and out-of-bounds parameters in the FastAPI shape', async () => {
    const cases: [string, string, unknown, (string | number)[]][] = [
      ['POST', '/api/crawl', {}, ['body', 'url']],
      ['POST', '/api/crawl', { url: '' }, ['body', 'url']],
      ['POST', '/api/crawl', { url: 'x.test', options: { max_pages: 0 } }, ['body', 'options', 'max_pages']],
      ['POST', '/api/crawl', { url: 'x.test', options: { max_pages: 101 } }, ['body', 'options', 'max_pages']],
      ['POST', '/api/crawl', { url: 'x.test', options: { max_depth: 11 } }, ['body', 'options', 'max_depth']],
      ['POST', '/api/crawl', { url: 'not a url at all' }, ['body', 'url']],
      ['POST', '/api/crawl', { url: 'ftp://acme-plumbing.test/' }, ['body', 'url']],
      ['POST', '/api/crawl?track_job=maybe', { url: 'x.test' }, ['query', 'track_job']],
      ['GET', '/api/crawl/admin/stats?hours=0', undefined, ['query', 'hours']],
      ['GET', '/api/crawl/admin/stats?hours=169', undefined, ['query', 'hours']],
      ['GET', '/api/crawl/admin/recent?limit=0', undefined, ['query', 'limit']],
      ['GET', '/api/crawl/admin/recent?limit=501', undefined, ['query', 'limit']],
      ['GET', '/api/crawl/admin/recent?offset=-1', undefined, ['query', 'offset']],
      ['GET', '/api/crawl/admin/recent?status=exploded', undefined, ['query', 'status']],
      ['GET', '/api/crawl/admin/recent/abc', undefined, ['path', 'job_id']],
      ['GET', '/api/crawl/abc', undefined, ['path', 'job_id']],
    ];
    for (const [method, url, payload, loc] of cases) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: bearer(admin), ...(payload !== undefined ? { payload: payload as object } : {}) });
      assert.equal(res.statusCode, 422, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`);
      assert.deepEqual(res.json().detail[0].loc.slice(0, loc.length), loc, `${url}: ${res.body}`);
    }
    const ok = await t.app.inject({ method: 'GET', url: '/api/crawl/admin/recent?limit=500&offset=0', headers: bearer(admin) });
    assert.equal(ok.statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/crawl/admin/stats?hours=168', headers: bearer(admin) })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/crawl/admin/stats?hours=1', headers: bearer(admin) })).statusCode, 200);
  });

  let acmeJobId: number;
  let acmeId: string;

  it('an owner crawls the site their email domain proves: profile saved, job tracked, ownership recorded', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/crawl', headers: bearer(owner.token), payload: { url: farm.url('acme-plumbing.test'), options: { max_pages: 5 } } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.outcome, 'created');
    assert.equal(body.analyser, 'rules');
    assert.equal(body.profile.name, 'Acme Plumbing GmbH');
    assert.equal(body.profile.category, 'Construction & Home Services');
    const { latitude, longitude, ...place } = body.profile.location;
    assert.deepEqual(place, { country: 'Germany', country_code: 'DE', city: 'Berlin', address: 'Hauptstrasse 12, 10115 Berlin, Germany' });
    assert.ok(Math.abs(latitude - 52.52) < 0.05 && Math.abs(longitude - 13.41) < 0.05, 'the crawl sets the city coordinates');
    assert.equal(body.profile.service_type, 'local');
    assert.deepEqual(body.profile.contact, { email: 'info@acme-plumbing.test', phone: '+49 30 1234567', phone_e164: '+49301234567' });
    assert.deepEqual(body.profile.locations, [], 'one address: no other locations');
    const weekday = [['08:00', '17:00']];
    assert.deepEqual(body.profile.opening_hours, { monday: weekday, tuesday: weekday, wednesday: weekday, thursday: weekday, friday: weekday, saturday: [['09:00', '12:00']] }, 'the hours written on the contact page');
    assert.equal(body.profile.timezone, 'Europe/Berlin');
    assert.deepEqual(body.profile.price_range, { from: 89, to: 180, currency: 'EUR', unit: 'hour' }, 'the prices written on the contact page');
    assert.deepEqual(body.profile.service_prices, [{ service: 'Drain cleaning', from: 95, currency: 'EUR', unit: 'job' }], 'the one service priced on its own line; two prices in a sentence name none');
    assert.equal(body.profile.is_verified, false);
    assert.ok(body.pages_fetched >= 2 && body.pages_fetched <= 5);
    assert.equal(body.job.status, 'succeeded');
    assert.equal(body.job.company_id, body.profile.id);
    acmeJobId = body.job.id;
    acmeId = body.profile.id;
    assert.equal(await t.app.services.ownership.owns(owner.userId, acmeId), true);

    // searchable at once through the agent API
    const found = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies/by-url/acme-plumbing.test' });
    assert.equal(found.statusCode, 200);
    assert.equal(found.json().id, acmeId);

    const status = await t.app.inject({ method: 'GET', url: `/api/crawl/${acmeJobId}` });
    assert.equal(status.statusCode, 200);
    assert.equal(status.json().status, 'succeeded');
    assert.equal(status.json().stage, 'done');
    assert.equal(status.json().user_id, undefined, 'the public status carries no user');
    // Anonymous callers (job ids are sequential) see state and progress only (issue 11 finding 9).
    for (const field of ['url', 'domain', 'company_id', 'error', 'changed_fields']) assert.equal(status.json()[field], undefined, field);
    const stranger = await signInOwner(t, 'someone@elsewhere.example.org');
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/crawl/${acmeJobId}`, headers: bearer(stranger.token) })).json().url, undefined);
    const mine = await t.app.inject({ method: 'GET', url: `/api/crawl/${acmeJobId}`, headers: bearer(owner.token) });
    assert.equal(mine.json().company_id, acmeId);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/crawl/${acmeJobId}`, headers: bearer(admin) })).json().domain, 'acme-plumbing.test');

    const latest = await t.app.inject({ method: 'GET', url: '/api/crawl/my-latest', headers: bearer(owner.token) });
    assert.equal(latest.statusCode, 200);
    assert.equal(latest.json().job.id, acmeJobId);
    assert.equal(latest.json().company.id, acmeId);
  });

  it("refuses an owner crawling someone else's site (403) and 404s unknown jobs", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/crawl', headers: bearer(owner.token), payload: { url: farm.url('brightpixel.test') } });
    assert.equal(res.statusCode, 403);
    const start = await t.app.inject({ method: 'POST', url: '/api/crawl/start', headers: bearer(owner.token), payload: { url: farm.url('brightpixel.test') } });
    assert.equal(start.statusCode, 403);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/crawl/999999' })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/crawl/admin/recent/999999', headers: bearer(admin) })).statusCode, 404);
    const other = await signInOwner(t, 'someone@brightpixel.test');
    const latest = await t.app.inject({ method: 'GET', url: '/api/crawl/my-latest', headers: bearer(other.token) });
    assert.deepEqual(latest.json(), { job: null, company: null });
  });

  it('a re-crawl keeps fields the owner edited by hand and verification, and records what changed', async () => {
    await t.db.query(`UPDATE companies SET city = 'Potsdam', description = 'Hand-written by the owner.', phone = NULL, is_verified = true, owner_edited_fields = '{city,description}' WHERE id = $1`, [acmeId]);
    const res = await t.app.inject({ method: 'POST', url: '/api/crawl/admin', headers: bearer(admin), payload: { url: `http://acme-plumbing.test:${farm.port}` } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.profile.id, acmeId, 'matched by domain');
    assert.equal(body.outcome, 'updated');
    assert.equal(body.profile.location.city, 'Potsdam');
    assert.equal(body.profile.description, 'Hand-written by the owner.');
    assert.equal(body.profile.is_verified, true);
    assert.equal(body.profile.contact.phone, '+49 30 1234567', 'a field not edited by hand is refreshed');
    assert.deepEqual(body.kept_owner_edits.sort(), ['city', 'description']);
    assert.deepEqual(body.changes.map((c: { field: string }) => c.field), ['phone']);
    // Freshness (issue 39): what the crawl read is confirmed by it now; the owner's fields keep their own stamp.
    assert.equal(body.profile.freshness.contact.source, 'crawl');
    assert.ok(Date.now() - Date.parse(body.profile.freshness.contact.last_confirmed_at) < 60_000);
    assert.equal(body.profile.freshness.hours.source, 'crawl');
    assert.equal(body.profile.freshness.prices.source, 'crawl');
    assert.equal(body.profile.freshness.photos, null, 'no photos: nothing to confirm');
    assert.deepEqual(body.job.changed_fields, ['phone']);

    const detail = await t.app.inject({ method: 'GET', url: `/api/crawl/admin/recent/${body.job.id}`, headers: bearer(admin) });
    assert.equal(detail.statusCode, 200);
    const d = detail.json();
    assert.equal(d.requested_by, 'admin');
    const save = d.events.find((e: { stage: string; message: string }) => e.stage === 'save' && e.message.startsWith('company'));
    assert.deepEqual(save.data.changed, ['phone']);
    assert.deepEqual(save.data.kept_owner_edits.sort(), ['city', 'description']);
    assert.ok(d.events.some((e: { stage: string }) => e.stage === 'fetch'));
    // where each field came from is kept with the job (issue 19)
    assert.equal(d.result.provenance.name.method, 'jsonld');
    assert.equal(d.result.provenance.phone.value, '+49301234567');
    assert.match(d.result.provenance.phone.url, /acme-plumbing\.test/);
    assert.ok(d.result.provenance.city.confidence >= 0.5);
  });

  it('track_job=false crawls without a job; adaptive_retry reports the strategies tried', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/crawl/admin', headers: bearer(admin), payload: { url: farm.url('spa-shell.test') } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().strategies_tried.slice(0, 2), ['standard', 'sitemap_only']);
    const plain = await t.app.inject({ method: 'POST', url: '/api/crawl?track_job=false', headers: bearer(admin), payload: { url: farm.url('cozy-socks.test') } });
    assert.equal(plain.statusCode, 200, plain.body);
    assert.equal(plain.json().job, null);
    assert.equal(plain.json().profile.category, 'E-commerce');
  });

  it('refused addresses are 422 at body.url; unreadable sites are 400 with a failed job', async () => {
    const port = await t.app.inject({ method: 'POST', url: '/api/crawl/admin', headers: bearer(admin), payload: { url: 'http://acme-plumbing.test:22/' } });
    assert.equal(port.statusCode, 422, port.body);
    assert.deepEqual(port.json().detail[0].loc, ['body', 'url']);
    const robots = await t.app.inject({ method: 'POST', url: '/api/crawl/admin', headers: bearer(admin), payload: { url: farm.url('no-bots.test') } });
    assert.equal(robots.statusCode, 400, robots.body);
    assert.match(robots.json().detail, /robots\.txt/);
    const recent = await t.app.inject({ method: 'GET', url: '/api/crawl/admin/recent?status=failed', headers: bearer(admin) });
    const failed = recent.json().jobs.find((j: { domain: string }) => j.domain === 'no-bots.test');
    assert.equal(failed.status, 'failed');
    const detail = (await t.app.inject({ method: 'GET', url: `/api/crawl/admin/recent/${failed.id}`, headers: bearer(admin) })).json();
    assert.equal(detail.error_kind, 'robots');
    assert.match(detail.raw_error, /robots\.txt/);
    // People read why and what to do, never the resolver's or socket's own words (issue 38).
    assert.match(detail.job.problem, /^no-bots\.test's robots\.txt asks crawlers not to read the site/);
    for (const kind of ['network', 'timeout', 'http', 'redirects', 'too_large', 'unsafe', 'robots', 'empty', 'internal', null]) {
      const sentence = crawlProblem(kind, 'acme.example');
      assert.match(sentence, /acme\.example/);
      assert.match(sentence, /\.$/);
      assert.doesNotMatch(sentence, /ENOTFOUND|ECONN|HTTP \d|_/);
    }
  });

  it('admin stats count by status with success rate, median duration and top errors; recent pages', async () => {
    const s = (await t.app.inject({ method: 'GET', url: '/api/crawl/admin/stats?hours=24', headers: bearer(admin) })).json();
    assert.equal(s.hours, 24);
    assert.ok(s.by_status.succeeded >= 3);
    assert.ok(s.by_status.failed >= 1);
    assert.equal(s.total, s.by_status.queued + s.by_status.running + s.by_status.succeeded + s.by_status.failed);
    assert.ok(s.success_rate > 0 && s.success_rate < 1);
    assert.equal(typeof s.median_duration_ms, 'number');
    assert.ok(s.top_errors.some((e: { kind: string; count: number }) => e.kind === 'robots' && e.count >= 1));
    const page1 = (await t.app.inject({ method: 'GET', url: '/api/crawl/admin/recent?limit=1', headers: bearer(admin) })).json();
    assert.equal(page1.jobs.length, 1);
    assert.equal(page1.has_more, true);
    const page2 = (await t.app.inject({ method: 'GET', url: '/api/crawl/admin/recent?limit=1&offset=1', headers: bearer(admin) })).json();
    assert.ok(page2.jobs[0].id < page1.jobs[0].id, 'newest first');
  });

  it('start queues a job; the job handler is idempotent and resumes an interrupted run', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/crawl/start', headers: bearer(owner.token), payload: { url: farm.url('acme-plumbing.test') } });
    assert.equal(res.statusCode, 200, res.body);
    const { job_id, status } = res.json();
    assert.equal(status, 'queued');
    const again = await t.app.inject({ method: 'POST', url: '/api/crawl/start', headers: bearer(owner.token), payload: { url: farm.url('acme-plumbing.test') } });
    assert.equal(again.statusCode, 409, 'one crawl of a site at a time');

    assert.equal(await t.app.services.crawl.runJob(job_id), 'succeeded');
    assert.equal(await t.app.services.crawl.runJob(job_id), 'skipped', 'a finished job does nothing');
    // A crash mid-run leaves the row running; the retried job runs it again (not a duplicate row).
    await t.db.query(`UPDATE crawl_jobs SET status = 'running', stage = 'fetch' WHERE id = $1`, [job_id]);
    assert.equal(await t.app.services.crawl.runJob(job_id), 'succeeded');
    const job = (await t.app.inject({ method: 'GET', url: `/api/crawl/${job_id}`, headers: bearer(owner.token) })).json();
    assert.equal(job.status, 'succeeded');
    assert.equal(job.attempts, 2);
    const rows = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM companies WHERE domain = 'acme-plumbing.test'`);
    assert.equal(rows[0]!.n, 1);
  });

  it('the crawl magic-link purpose makes the user an owner and queues a crawl of the site', async () => {
    const a = t.app.services.auth;
    // An imported stub profile exists; the link makes the user its owner and the crawl fills it in.
    const [stubId] = await seedCompanies(t.app, [{ name: 'Brightpixel', website_url: 'brightpixel.test', category: 'Professional Services', description: 'Imported stub.', is_verified: false }]);
    const { token } = await a.createSignInToken({ email: 'boss@brightpixel.test', purpose: 'crawl', website_url: farm.url('brightpixel.test') });
    const r = await a.verifyUserToken(token, 'crawl');
    const started = r.crawl_job as { job_id: number; status: string };
    assert.ok(started?.job_id, JSON.stringify(r));
    assert.equal(started.status, 'queued');
    assert.equal(await t.app.services.crawl.runJob(started.job_id), 'succeeded');
    const job = (await t.app.inject({ method: 'GET', url: `/api/crawl/${started.job_id}`, headers: bearer(r.access_token) })).json();
    assert.equal(r.company_id, stubId);
    assert.equal(job.company_id, r.company_id, 'the crawl filled in the company the link names');
    const profile = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${r.company_id}` })).json();
    assert.equal(profile.category, 'Technology');
    // "Keizersgracht 123, 1015 CJ Amsterdam": a Dutch postcode (letters included) before a town the gazetteer knows, so the
    // town is published; nothing is left for the owner to confirm (held-fields.routes.test.ts covers held values).
    assert.equal(profile.location.city, 'Amsterdam');
    const held = (await t.app.inject({ method: 'GET', url: `/api/tools/${r.company_id}/held-fields`, headers: bearer(r.access_token) })).json();
    assert.ok(!held.held.some((h: { field: string }) => h.field === 'city'), JSON.stringify(held));
    assert.equal(profile.name, 'BrightPixel');
  });

  it('a site with branches: the phone in E.164, the main address and the other locations; the owner sees where each field came from', async () => {
    const branchOwner = await signInOwner(t, `owner@${BRANCHES_HOST}`);
    const res = await t.app.inject({ method: 'POST', url: '/api/crawl', headers: bearer(branchOwner.token), payload: { url: farm.url(BRANCHES_HOST) } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    const id: string = body.profile.id;
    assert.equal(body.profile.contact.phone, '+1 970 300 9500');
    assert.equal(body.profile.contact.phone_e164, '+19703009500');
    assert.equal(body.profile.location.city, 'Brush');
    assert.equal(body.profile.location.address, '501 Main Street, Brush, CO 80723');
    const branches = [
      { address: '1125 Lincoln Ave, Steamboat Springs, CO 80487', city: 'Steamboat Springs', country: 'United States', phone: '+1 970 879 5544' },
      { address: '2210 2nd Ave, Kearney, NE 68847', city: 'Kearney', country: 'United States', phone: '+1 308 455 1226' },
    ];
    assert.deepEqual(body.profile.locations, branches, 'every address beyond the main one, with its own number');
    const agentView = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${id}` })).json();
    assert.equal(agentView.contact.phone_e164, '+19703009500');
    assert.deepEqual(agentView.locations, branches);
    const owned = await t.app.inject({ method: 'GET', url: `/api/tools/${id}/edit-data`, headers: bearer(branchOwner.token) });
    assert.equal(owned.json().phone_e164, '+19703009500');

    // where each field came from: the owner and administrators; another owner's company is 404
    const url = `/api/crawl/company/${id}/provenance`;
    const prov = await t.app.inject({ method: 'GET', url, headers: bearer(branchOwner.token) });
    assert.equal(prov.statusCode, 200, prov.body);
    const p = prov.json();
    assert.equal(p.job_id, body.job.id);
    assert.equal(p.analyser, 'rules');
    assert.deepEqual(Object.keys(p.fields).sort(), ['address', 'city', 'country', 'name', 'phone']);
    assert.equal(p.fields.phone.value, '+19703009500');
    assert.match(p.fields.phone.url, /hayden-outdoors\.test/);
    assert.ok(p.fields.phone.method && p.fields.phone.confidence >= 0.5 && p.fields.phone.confidence <= 1);
    assert.equal(p.fields.city.value, 'Brush');
    assert.equal(p.fields.address.method, 'address-shape');
    assert.equal(p.fields.name.value, body.profile.name);
    assert.equal((await t.app.inject({ method: 'GET', url, headers: bearer(admin) })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url, headers: bearer(owner.token) })).statusCode, 404, "another owner's company");
    assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 401);
    const bad = await t.app.inject({ method: 'GET', url: '/api/crawl/company/not-a-uuid/provenance', headers: bearer(admin) });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['path', 'tool_id']);
    // a company never crawled has no provenance yet
    const [stub] = await seedCompanies(t.app, [{ name: 'Never Crawled', website_url: 'never-crawled.test', category: 'Technology', phone: '020 7946 0000', country: 'GB' }]);
    const none = await t.app.inject({ method: 'GET', url: `/api/crawl/company/${stub}/provenance`, headers: bearer(admin) });
    assert.deepEqual(none.json(), { job_id: null, crawled_at: null, analyser: null, fields: {} });
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${stub}` })).json().contact.phone_e164, '+442079460000', 'an imported phone is parsed for its country');

    // the owner changes the phone: its E.164 form follows; a re-crawl keeps the hand-written number and the branches
    const edit = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, headers: bearer(branchOwner.token), payload: { phone: '(970) 879-5544' } });
    assert.equal(edit.statusCode, 200, edit.body);
    assert.equal(edit.json().phone, '(970) 879-5544');
    assert.equal(edit.json().phone_e164, '+19708795544');
    const cleared = await t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, headers: bearer(branchOwner.token), payload: { phone: '12345' } });
    assert.equal(cleared.json().phone_e164, null, 'a number that does not parse has no E.164 form');
    await t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, headers: bearer(branchOwner.token), payload: { phone: '(970) 879-5544' } });
    const again = await t.app.inject({ method: 'POST', url: '/api/crawl', headers: bearer(branchOwner.token), payload: { url: farm.url(BRANCHES_HOST) } });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json().kept_owner_edits, ['phone']);
    assert.equal(again.json().profile.contact.phone, '(970) 879-5544');
    assert.equal(again.json().profile.contact.phone_e164, '+19708795544');
    assert.deepEqual(again.json().profile.locations, branches);
    assert.equal((await t.app.inject({ method: 'GET', url, headers: bearer(branchOwner.token) })).json().job_id, again.json().job.id, 'the latest crawl answers');
  });
});

describe('crawl jobs on pg-boss', () => {
  let farm: FixtureFarm;
  let t: TestContext;
  before(async () => {
    farm = await startFixtureFarm();
    t = await crawlApp(farm, { runJobs: true });
  });
  after(async () => {
    await t.close();
    await farm.close();
    await closeTestEmbeddings();
  });

  it('a started crawl is run by the queue worker', async () => {
    const admin = await signInAdmin(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/crawl/start', headers: bearer(admin), payload: { url: farm.url('trattoria-luigi.test') } });
    assert.equal(res.statusCode, 200, res.body);
    const id = res.json().job_id;
    // Until the job has run, however long that takes on a busy machine (the bound is for a hang).
    const job = await until(
      async () => (await t.app.inject({ method: 'GET', url: `/api/crawl/${id}`, headers: bearer(admin) })).json() as { status: string; company_id: string | null },
      (j) => j.status !== 'queued' && j.status !== 'running',
      'the crawl job to finish',
      5 * 60_000,
    );
    assert.equal(job.status, 'succeeded');
    assert.ok(job.company_id);
  });
});
