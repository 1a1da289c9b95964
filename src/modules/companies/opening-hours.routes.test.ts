import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { bearer, companyFixture, seedCompanies, signInOwner, until, useTestApp } from '../../../test/helpers/index.js';

const weekdays = { monday: [['09:00', '17:00']], tuesday: [['09:00', '17:00']], wednesday: [['09:00', '17:00']], thursday: [['09:00', '17:00']], friday: [['09:00', '17:00']] };

describe('opening hours (issue 39): owners set them, agents read open_now and filter by open_now / open_at', () => {
  const t = useTestApp();
  let berlin: string;
  let newYork: string;
  let other: string;
  let token: string;

  before(async () => {
    [berlin, newYork, other] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Spree Bakery', website_url: 'https://spree-bakery.example', category: 'Food & Beverage', description: 'Bread and cakes baked every morning.', keywords: ['bakery', 'bread'], city: 'Berlin', country: 'Germany', service_type: 'local' }),
      companyFixture({ name: 'Hudson Bakery', website_url: 'https://hudson-bakery.example', category: 'Food & Beverage', description: 'Bagels and bread baked every morning.', keywords: ['bakery', 'bagels'], city: 'New York', country: 'United States', service_type: 'local', opening_hours: weekdays }),
      companyFixture({ name: 'Unknown Hours Bakery', website_url: 'https://unknown-hours.example', category: 'Food & Beverage', description: 'Bread.', keywords: ['bakery'], city: 'Berlin', country: 'Germany' }),
    ])) as [string, string, string];
    token = (await signInOwner(t, 'owner@spree-bakery.example', 'https://spree-bakery.example')).token;
  });

  const put = (id: string, body: unknown, auth = token) => t.app.inject({ method: 'PUT', url: `/api/tools/${id}`, headers: bearer(auth), payload: body as object });
  const search = async (qs: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?${qs}` })).json();

  it('derives the time zone from the city', async () => {
    const rows = await t.db.query<{ id: string; timezone: string | null }>('SELECT id::text, timezone FROM companies WHERE id = ANY($1::uuid[])', [[berlin, newYork]]);
    assert.deepEqual(Object.fromEntries(rows.map((r) => [r.id, r.timezone])), { [berlin]: 'Europe/Berlin', [newYork]: 'America/New_York' });
  });

  it('an owner sets the hours with exceptions; the agent API says open_now and next_change_at in the company\'s zone', async () => {
    const res = await put(berlin, { opening_hours: { ...weekdays, saturday: [['08:00', '13:00']], exceptions: [{ date: '2026-12-25', closed: true, note: 'Christmas' }] } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().opening_hours.saturday, [['08:00', '13:00']]);
    assert.equal(res.json().timezone, 'Europe/Berlin');
    const profile = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${berlin}` })).json();
    assert.deepEqual(profile.opening_hours.exceptions, [{ date: '2026-12-25', closed: true, note: 'Christmas' }]);
    assert.equal(profile.timezone, 'Europe/Berlin');
    assert.equal(typeof profile.open_now, 'boolean');
    assert.match(profile.next_change_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:00\+0[12]:00$/, 'the company\'s own offset');
    const none = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${other}` })).json();
    assert.equal(none.opening_hours, null);
    assert.equal(none.open_now, null);
  });

  it('a change of hours reaches the change feed', async () => {
    const feed = async (since = '') => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/changes?limit=500${since ? `&since=${since}` : ''}` })).json();
    let page = await feed();
    while (page.has_more) page = await feed(page.next_cursor);
    const cursor = page.next_cursor;
    assert.equal((await put(berlin, { opening_hours: { ...weekdays, sunday: [['10:00', '12:00']], exceptions: [{ date: '2026-12-25', closed: true }] } })).statusCode, 200);
    // A change becomes visible once every older transaction of the PostgreSQL cluster has ended
    // (other test files share the server), so it may arrive a moment later: wait on it, bounded.
    await until(() => feed(cursor), (after) => after.changes.some((c: { id: string }) => c.id === berlin), 'the change of hours in the feed');
  });

  it('refuses a bad schedule with a 422 naming where it is, and changes nothing', async () => {
    const before = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${berlin}` })).json().opening_hours;
    for (const [body, loc] of [
      [{ opening_hours: { monday: [['9am', '5pm']] } }, ['body', 'opening_hours', 'monday', 0]],
      [{ opening_hours: { funday: [] } }, ['body', 'opening_hours', 'funday']],
      [{ opening_hours: { exceptions: [{ date: 'Christmas' }] } }, ['body', 'opening_hours', 'exceptions', 0, 'date']],
    ] as const) {
      const res = await put(berlin, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.deepEqual(res.json().detail[0].loc, loc);
    }
    assert.deepEqual((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${berlin}` })).json().opening_hours, before);
  });

  it('another owner cannot set this company\'s hours', async () => {
    const stranger = await signInOwner(t, 'owner@hudson-bakery.example', 'https://hudson-bakery.example');
    const res = await put(berlin, { opening_hours: null }, stranger.token);
    assert.equal(res.statusCode, 404, 'another owner\'s company is not found, as everywhere in the dashboard');
    assert.notEqual((await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${berlin}` })).json().opening_hours, null);
  });

  it('open_at filters by each company\'s own zone; a holiday exception closes it', async () => {
    // Friday 2026-11-27 10:00 UTC: 11:00 in Berlin (open), 05:00 in New York (closed).
    let body = await search(`q=bakery&open_at=${encodeURIComponent('2026-11-27T10:00:00Z')}`);
    assert.deepEqual(body.companies.map((c: { id: string }) => c.id), [berlin]);
    assert.equal(body.total_found, 1);
    // 16:00 UTC: 17:00 in Berlin (just closed), 11:00 in New York (open).
    body = await search(`q=bakery&open_at=${encodeURIComponent('2026-11-27T16:00:00Z')}`);
    assert.deepEqual(body.companies.map((c: { id: string }) => c.id), [newYork]);
    // Christmas Day is a Friday: the Berlin bakery is closed by its exception.
    body = await search(`q=bakery&open_at=${encodeURIComponent('2026-12-25T10:00:00+01:00')}`);
    assert.deepEqual(body.companies, []);
    // Browsing without q pages over the same rule.
    body = await search(`category=${encodeURIComponent('Food & Beverage')}&open_at=${encodeURIComponent('2026-11-27T16:00:00Z')}`);
    assert.deepEqual(body.companies.map((c: { id: string }) => c.id), [newYork]);
    assert.equal(body.total_found, 1);
    // open_now answers (companies without hours never count as open).
    body = await search('q=bakery&open_now=true');
    assert.ok(!body.companies.some((c: { id: string }) => c.id === other));
  });

  it('the public company page shows the week and whether it is open, and its JSON-LD carries openingHoursSpecification', async () => {
    const slug = (await t.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [berlin]))[0]!.slug;
    const res = await t.app.inject({ method: 'GET', url: `/companies/${slug}` });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<h3 id="hours-h">Opening hours<\/h3>/);
    assert.match(res.body, /<tr><th scope="row">Monday<\/th><td>09:00–17:00<\/td><\/tr>/);
    assert.match(res.body, /<tr><th scope="row">Sunday<\/th><td>10:00–12:00<\/td><\/tr>/);
    assert.match(res.body, /(Open|Closed) now · (closes|opens)/);
    const ld = [...res.body.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));
    const org = ld.find((x) => x['@id']?.endsWith('#org'));
    assert.ok(org.openingHoursSpecification.some((h: { dayOfWeek?: string; opens: string; closes: string }) => h.dayOfWeek === 'https://schema.org/Monday' && h.opens === '09:00' && h.closes === '17:00'));
    assert.ok(org.openingHoursSpecification.some((h: { validFrom?: string }) => h.validFrom === '2026-12-25'));
  });

  it('a malformed open_at is a 422', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?q=bakery&open_at=tomorrow' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().detail[0].loc[1], 'open_at');
  });
});
