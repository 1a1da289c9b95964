import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { redactUrl } from '../../platform/logging.js';
import { actors, companyFixture, seedCompanies, until, useTestApp, type Agent, type Owner } from '../../../test/helpers/index.js';

/** Reviews from real proposals only (issue 39): the rules, on the route table, on both stores. */
describe('reviews from the customers of approved proposals', () => {
  const t = useTestApp();
  let company: string;
  let other: string;
  let agent: Agent;
  let stranger: Agent;
  let owner: Owner;
  let otherOwner: Owner;
  let admin: { headers: Record<string, string> };

  before(async () => {
    [company, other] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Lakeside Roofing', website_url: 'https://lakeside-roofing.example', description: 'Roof repairs and new roofs.', keywords: ['roofing'], is_verified: true }),
      companyFixture({ name: 'Hilltop Roofing', website_url: 'https://hilltop-roofing.example', description: 'Roof repairs.', keywords: ['roofing'], is_verified: true }),
    ])) as [string, string];
    const as = actors(t);
    agent = await as.agent('Home Helper');
    stranger = await as.agent('Someone Else');
    owner = await as.owner('owner@lakeside-roofing.example', 'https://lakeside-roofing.example');
    otherOwner = await as.owner('owner@hilltop-roofing.example', 'https://hilltop-roofing.example');
    admin = await as.admin();
  });

  const propose = async (customer_email: string, customer_name = 'Jane Doe', to = company) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/agent/proposals', headers: agent.headers, payload: { company_id: to, customer_email, customer_name, description: 'Fix the roof after the storm.' } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  };
  const approve = async (id: string, who: Owner = owner) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/proposals/${id}/respond`, headers: who.headers, payload: { action: 'approve', message: 'We can start Monday.' } });
    assert.equal(res.statusCode, 200, res.body);
  };
  const submit = (id: string, body: object, headers = agent.headers) => t.app.inject({ method: 'POST', url: `/api/v1/agent/proposals/${id}/review`, headers, payload: body });
  const linkIn = async (address: string, subject: RegExp) => {
    const mail = (await t.app.services.mail.recent({ to: address })).find((m) => subject.test(m.subject));
    const token = mail && /\/reviews\/([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1];
    return token;
  };
  const list = async (id = company) => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/reviews?company_id=${id}` })).json();

  let published: string;

  it('no review before the company approved; after approval the customer is mailed a link and publishes by it', async () => {
    const id = await propose('jane@customers.example', 'Jane Doe');
    const early = await submit(id, { rating: 5, text: 'Great work.' });
    assert.equal(early.statusCode, 409);
    assert.match(early.json().detail, /once the company approved/);
    assert.equal(await linkIn('jane@customers.example', /How was the work/), undefined, 'no invitation before approval');
    await approve(id);
    const token = await linkIn('jane@customers.example', /How was the work of Lakeside Roofing/);
    assert.ok(token, 'the customer got the link');
    assert.equal(redactUrl(`/reviews/${token}`), '/reviews/[REDACTED]', 'the link is a secret: never logged');
    const form = await t.app.inject({ method: 'GET', url: `/reviews/${token}` });
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /How was the work of Lakeside Roofing\?/);
    assert.equal(form.headers['cache-control'], 'no-store');
    // A form post without words is explained on the page; nothing is published.
    const empty = await t.app.inject({ method: 'POST', url: `/reviews/${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'rating=4&text=' });
    assert.equal(empty.statusCode, 422);
    assert.match(empty.body, /a few words about the work/);
    assert.equal((await list()).rating.count, 0);
    const ok = await t.app.inject({ method: 'POST', url: `/reviews/${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'rating=4&text=Quick%20and%20tidy%2C%20fair%20price.' });
    assert.equal(ok.statusCode, 200);
    assert.match(ok.body, /is published/);
    const body = await list();
    assert.equal(body.reviews.length, 1);
    assert.deepEqual({ rating: body.reviews[0].rating, text: body.reviews[0].text, author: body.reviews[0].author, written_by: body.reviews[0].written_by }, { rating: 4, text: 'Quick and tidy, fair price.', author: 'Jane D.', written_by: 'customer' });
    assert.deepEqual(body.rating, { average: 4, count: 1, distribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 0 } });
    published = body.reviews[0].id;
    // One review per proposal: the link and the agent are both refused now.
    const again = await t.app.inject({ method: 'POST', url: `/reviews/${token}`, payload: { rating: 1, text: 'Changed my mind' } });
    assert.equal(again.statusCode, 409);
    assert.equal((await submit(id, { rating: 1, text: 'Changed' })).statusCode, 409);
  });

  it('the agent submits for its customer: held until the customer confirms by the new link', async () => {
    const id = await propose('max@customers.example', 'Max Power');
    await approve(id);
    const res = await submit(id, { rating: 5, text: 'Max says: the roof is dry again and they cleaned up.' });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.json().status, 'held');
    assert.equal((await list()).rating.count, 1, 'not published before the customer confirms');
    const token = await linkIn('max@customers.example', /Confirm your review of Lakeside Roofing/);
    assert.ok(token);
    const page = await t.app.inject({ method: 'GET', url: `/reviews/${token}` });
    assert.match(page.body, /Your assistant wrote this review for you/);
    assert.match(page.body, /the roof is dry again/);
    const ok = await t.app.inject({ method: 'POST', url: `/reviews/${token}`, payload: { rating: 5, text: 'Max says: the roof is dry again and they cleaned up.' } });
    assert.equal(ok.statusCode, 200, ok.body);
    const body = await list();
    assert.equal(body.rating.count, 2);
    assert.equal(body.rating.average, 4.5);
    assert.equal(body.reviews.find((r: { author: string }) => r.author === 'Max P.').written_by, 'agent');
    // Another agent's proposal is not found; bad input is a 422.
    assert.equal((await submit(id, { rating: 5, text: 'x' }, stranger.headers)).statusCode, 404);
    assert.equal((await submit(id, { rating: 6, text: 'x' })).statusCode, 422);
  });

  it('the company\'s own people never review it: no invitation, and the agent is refused', async () => {
    const id = await propose('staff@lakeside-roofing.example', 'Sam Staff');
    await approve(id);
    assert.equal(await linkIn('staff@lakeside-roofing.example', /How was the work/), undefined);
    const res = await submit(id, { rating: 5, text: 'Best roofers ever.' });
    assert.equal(res.statusCode, 403);
    const viaOwner = await propose('owner@lakeside-roofing.example', 'Olivia Owner');
    await approve(viaOwner);
    assert.equal((await submit(viaOwner, { rating: 5, text: 'We are great.' })).statusCode, 403);
  });

  it('the owner answers once, publicly; another owner cannot', async () => {
    const url = `/api/tools/${company}/reviews/${published}/reply`;
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/tools/${company}/reviews/${published}/reply`, headers: otherOwner.headers, payload: { text: 'Hi' } })).statusCode, 404);
    const res = await t.app.inject({ method: 'POST', url, headers: owner.headers, payload: { text: 'Thank you, Jane!' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().reply.text, 'Thank you, Jane!');
    assert.equal((await t.app.inject({ method: 'POST', url, headers: owner.headers, payload: { text: 'Again' } })).statusCode, 409);
    const shown = (await list()).reviews.find((r: { id: string }) => r.id === published);
    assert.equal(shown.reply.text, 'Thank you, Jane!');
    const mine = (await t.app.inject({ method: 'GET', url: `/api/tools/${company}/reviews`, headers: owner.headers })).json();
    assert.equal(mine.reviews.length, 2);
    // The owner reads the same rating as agents and the public page, not one worked out from a page of the list.
    assert.deepEqual(mine.rating, (await list()).rating);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/tools/${company}/reviews`, headers: otherOwner.headers })).statusCode, 404);
  });

  it('owners and agents report; an administrator hides (the rating follows) and restores', async () => {
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/v1/agent/reviews/${published}/report`, headers: stranger.headers, payload: { reason: 'fake' } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/tools/${company}/reviews/${published}/report`, headers: owner.headers, payload: { reason: 'wrong_company', note: 'Not our customer' } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/tools/${other}/reviews/${published}/report`, headers: otherOwner.headers, payload: { reason: 'fake' } })).statusCode, 404, 'another company\'s review');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/tools/admin/reviews/reported', headers: owner.headers })).statusCode, 403);
    const queue = (await t.app.inject({ method: 'GET', url: '/api/tools/admin/reviews/reported', headers: admin.headers })).json();
    assert.equal(queue.reviews.length, 1);
    assert.deepEqual(queue.reviews[0].reports.map((r: { reporter: string }) => r.reporter).sort(), ['agent', 'owner']);
    const hidden = await t.app.inject({ method: 'POST', url: `/api/tools/admin/reviews/${published}/moderate`, headers: admin.headers, payload: { decision: 'hide' } });
    assert.equal(hidden.json().status, 'hidden');
    assert.equal((await list()).rating.count, 1, 'a hidden review leaves the rating');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/tools/admin/reviews/reported', headers: admin.headers })).json().reviews.length, 0, 'its reports are resolved');
    await t.app.inject({ method: 'POST', url: `/api/tools/admin/reviews/${published}/moderate`, headers: admin.headers, payload: { decision: 'restore' } });
    assert.equal((await list()).rating.count, 2);
  });

  it('profiles carry the rating; search filters by min_rating and sorts by rating', async () => {
    const profile = (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${company}` })).json();
    assert.deepEqual(profile.rating, { average: 4.5, count: 2, distribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 1 } });
    const ids = async (qs: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies?${qs}` })).json().companies.map((c: { id: string }) => c.id);
    assert.deepEqual(await ids('q=roofing&min_rating=4'), [company]);
    assert.deepEqual(await ids('q=roofing&min_rating=4.6'), []);
    assert.equal((await ids('q=roofing&sort=rating'))[0], company);
    assert.deepEqual((await ids('sort=rating')).slice(0, 1), [company]);
    const found = (await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies?q=roofing' })).json().companies.find((c: { id: string }) => c.id === company);
    assert.deepEqual(found.rating, { average: 4.5, count: 2 });
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/agent/reviews?company_id=00000000-0000-4000-8000-000000000000' })).statusCode, 404);
  });

  it('the company page shows the rating and the reviews, with AggregateRating and Review in its JSON-LD', async () => {
    const slug = (await t.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [company]))[0]!.slug;
    const res = await t.app.inject({ method: 'GET', url: `/companies/${slug}` });
    assert.match(res.body, /4\.5 out of 5<\/strong> from 2 reviews/);
    assert.match(res.body, /Quick and tidy, fair price\./);
    assert.match(res.body, /Thank you, Jane!/);
    const ld = [...res.body.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));
    const org = ld.find((x) => x['@id']?.endsWith('#org'));
    assert.deepEqual(org.aggregateRating, { '@type': 'AggregateRating', ratingValue: 4.5, reviewCount: 2, bestRating: 5, worstRating: 1 });
    assert.equal(org.review.length, 2);
    assert.equal(org.review[0]['@type'], 'Review');
  });

  it('a review hidden or restored is a change of its company in the change feed, whose profile carries the rating', async () => {
    const feed = async (since = '') => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/changes?limit=500${since ? `&since=${since}` : ''}` })).json();
    let page = await feed();
    while (page.has_more) page = await feed(page.next_cursor);
    const cursor = page.next_cursor;
    const before = (await list()).rating.count;
    const hidden = await t.app.inject({ method: 'POST', url: `/api/tools/admin/reviews/${published}/moderate`, headers: admin.headers, payload: { decision: 'hide' } });
    assert.equal(hidden.statusCode, 200, hidden.body);
    // A change shows once every older transaction of the PostgreSQL cluster has ended: wait on it, bounded.
    const after = await until(() => feed(cursor), (p) => p.changes.some((c: { id: string }) => c.id === company), 'the hidden review in the change feed');
    const change = after.changes.find((c: { id: string }) => c.id === company);
    assert.equal(change.company.rating.count, before - 1);
    // The company page (kept in memory until a company changes) follows at once, though it was read just before.
    const slug = (await t.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [company]))[0]!.slug;
    const html = (await t.app.inject({ method: 'GET', url: `/companies/${slug}` })).body;
    assert.match(html, new RegExp(`from ${before - 1} review`));
    await t.app.inject({ method: 'POST', url: `/api/tools/admin/reviews/${published}/moderate`, headers: admin.headers, payload: { decision: 'restore' } });
    const restored = await until(() => feed(after.next_cursor), (p) => p.changes.some((c: { id: string }) => c.id === company), 'the restored review in the change feed');
    assert.equal(restored.changes.find((c: { id: string }) => c.id === company).company.rating.count, before);
  });
});
