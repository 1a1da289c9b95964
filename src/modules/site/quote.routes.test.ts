import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { actors, companyFixture, seedCompanies, useTestApp, type Owner } from '../../../test/helpers/index.js';

/**
 * Issue 38: a person asks a company for a quote from its page (a form that works without script, or JSON).
 * The request lands in the owner's inbox like a proposal, the owner's answer is mailed to the person, and
 * the spam brakes hold. Runs on both stores.
 */
describe('ask for a quote on a company page', () => {
  const t = useTestApp();
  const as = actors(t);
  let company: string, unverified: string, slug: string, owner: Owner, stranger: Owner;
  before(async () => {
    [company, unverified] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Quote Roofing', website_url: 'https://quote-roofing.example.com', contact_email: 'office@quote-roofing.example.com' }),
      companyFixture({ name: 'Unconfirmed Plumbing', website_url: 'https://unconfirmed-plumbing.example.com', is_verified: false }),
    ])) as [string, string];
    owner = await as.owner('boss@quote-roofing.example.com', 'https://quote-roofing.example.com');
    stranger = await as.owner('someone@elsewhere.example.org');
    slug = await slugOf(company);
  });

  async function slugOf(id: string): Promise<string> {
    return (await t.db.query<{ slug: string }>('SELECT slug FROM companies WHERE id = $1', [id]))[0]!.slug;
  }
  const form = (s: string, fields: Record<string, string>, ip = '203.0.113.7') =>
    t.app.inject({ method: 'POST', url: `/companies/${s}/quote`, remoteAddress: ip, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
  const json = (s: string, payload: Record<string, unknown>, ip = '203.0.113.8') => t.app.inject({ method: 'POST', url: `/companies/${s}/quote`, remoteAddress: ip, payload });
  const countRequests = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM proposals p JOIN agents a ON a.id = p.agent_id WHERE a.kind <> 'api'`))[0]!.n;
  const inbox = async (who: Owner) => (await t.app.inject({ method: 'GET', url: '/api/proposals', headers: who.headers })).json().proposals as Array<Record<string, unknown>>;

  it('offers "Ask for a quote" on the page of a verified company, and a form that needs no script', async () => {
    const page = await t.app.inject({ method: 'GET', url: `/companies/${slug}` });
    assert.match(page.body, new RegExp(`href="/companies/${slug}/quote">Ask for a quote`));
    const quote = await t.app.inject({ method: 'GET', url: `/companies/${slug}/quote` });
    assert.equal(quote.statusCode, 200);
    assert.match(quote.body, /<h1>Ask Quote Roofing for a quote<\/h1>/);
    assert.match(quote.body, /<form class="quote" method="post" action="\/companies\/[^"]+\/quote"/);
    assert.match(quote.body, /noindex/);
    const other = await slugOf(unverified);
    assert.doesNotMatch((await t.app.inject({ method: 'GET', url: `/companies/${other}` })).body, /Ask for a quote<\/a>/);
    assert.match((await t.app.inject({ method: 'GET', url: `/companies/${other}/quote` })).body, /has not confirmed its listing yet/);
    assert.equal((await t.app.inject({ method: 'GET', url: '/companies/no-such-company/quote' })).statusCode, 404);
  });

  it('puts the request in the owner inbox, mails the owner, and mails the answer to the person with the company to reply to', async () => {
    const res = await form(slug, { name: 'Robin Park', email: 'Robin@Example.org', phone: '+44 20 7946 0958', message: 'Our flat roof leaks after the storm; can you come this week?', website: '' });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /Request sent/);
    assert.match(res.body, /Quote Roofing\. It will answer you by email at robin@example\.org/);
    const [p] = await inbox(owner);
    assert.ok(p);
    assert.equal(p.origin, 'quote_form');
    assert.equal(p.customer_email, 'robin@example.org');
    assert.deepEqual(p.details, { phone: '+44 20 7946 0958' });
    assert.equal(p.delivery, 'dashboard');
    const [toOwner] = await t.app.services.mail.recent({ to: 'boss@quote-roofing.example.com' });
    assert.match(toOwner!.subject, /New request for Quote Roofing from Robin Park/);
    assert.match(toOwner!.text_body, /asked Quote Roofing for a quote on its page/);
    assert.doesNotMatch(toOwner!.text_body, /The agent|AI assistant/);
    // The stranger's inbox does not hold it, and the stranger cannot answer it.
    assert.equal((await inbox(stranger)).length, 0);
    const foreign = await t.app.inject({ method: 'POST', url: `/api/proposals/${String(p.id)}/respond`, headers: stranger.headers, payload: { action: 'respond', message: 'Hi' } });
    assert.equal(foreign.statusCode, 404);
    // The owner answers: the person gets it by mail, with the company's address to reply to.
    const answered = await t.app.inject({ method: 'POST', url: `/api/proposals/${String(p.id)}/respond`, headers: owner.headers, payload: { action: 'respond', message: 'We can come on Thursday at 9.' } });
    assert.equal(answered.statusCode, 200, answered.body);
    const [toPerson] = await t.app.services.mail.recent({ to: 'robin@example.org' });
    assert.equal(toPerson!.subject, 'Quote Roofing answered your request');
    assert.match(toPerson!.text_body, /We can come on Thursday at 9\./);
    assert.equal(toPerson!.reply_to, 'office@quote-roofing.example.com');
    // There is no agent to report or block.
    const report = await t.app.inject({ method: 'POST', url: `/api/proposals/${String(p.id)}/report`, headers: owner.headers, payload: { reason: 'spam' } });
    assert.equal(report.statusCode, 409);
    assert.match(report.json().detail, /came from a person, not an agent/);
  });

  it('keeps the built-in sender out of the agents list and away from the agent API', async () => {
    const admin = await as.admin();
    const agents = (await t.app.inject({ method: 'GET', url: '/api/tools/admin/agents?limit=100', headers: admin.headers })).json();
    const list = (agents.agents ?? agents.items ?? []) as Array<{ name: string }>;
    assert.ok(!list.some((a) => /Quote request/.test(a.name)));
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/agent/proposals', headers: { 'x-api-key': 'builtin:quote_form' } })).statusCode, 401);
  });

  it('refuses a second open request from the same address, and says so on the form', async () => {
    const first = await form(slug, { name: 'Kim Lee', email: 'kim@example.org', message: 'Please quote for new gutters on a terraced house.' });
    assert.equal(first.statusCode, 200);
    const before = await countRequests();
    const res = await form(slug, { name: 'Kim Lee', email: 'KIM@example.org', message: 'Another question about the same roof, please.' });
    assert.equal(res.statusCode, 409);
    assert.match(res.body, /You already asked Quote Roofing/);
    assert.match(res.body, /Another question about the same roof/, 'the form keeps what was written');
    assert.equal(await countRequests(), before);
    // Robin's request was answered above: Robin may ask again.
    assert.equal((await form(slug, { name: 'Robin Park', email: 'robin@example.org', message: 'Thanks! One more roof to quote, please.' })).statusCode, 200);
  });

  it('shows the problem next to the field and keeps the values when the input is wrong (nothing sent)', async () => {
    const before = await countRequests();
    const bad = await form(slug, { name: 'Sam', email: 'not-an-address', message: 'Please quote for gutters on a terraced house.' });
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /id="q-email"[^>]*aria-invalid="true"/);
    assert.match(bad.body, /Please write a valid email address/);
    assert.match(bad.body, /value="Sam"/);
    const short = await json(slug, { name: 'Sam', email: 'sam@example.org', message: 'hi' });
    assert.equal(short.statusCode, 422);
    assert.deepEqual(short.json().detail[0].loc, ['body', 'message']);
    const long = await form(slug, { name: 'Sam', email: 'sam@example.org', message: 'x'.repeat(5001) });
    assert.equal(long.statusCode, 422);
    assert.match(long.body, /please shorten your message/);
    const trap = await json(slug, { name: 'Bot', email: 'bot@example.org', message: 'We can get your company to #1 on Google today!', website: 'https://spam.example' });
    assert.equal(trap.statusCode, 422);
    const unverifiedSlug = await slugOf(unverified);
    const refused = await json(unverifiedSlug, { name: 'Sam', email: 'sam@example.org', message: 'Please fix a dripping tap in the kitchen.' });
    assert.equal(refused.statusCode, 409);
    assert.match(refused.json().detail, /has not confirmed its listing yet/);
    assert.equal((await json('no-such-company', { name: 'Sam', email: 'sam@example.org', message: 'Please fix a dripping tap.' })).statusCode, 404);
    assert.equal(await countRequests(), before);
  });

  it('limits requests per network address and per email address', async () => {
    // Per address a day: five requests to five companies from one address, the sixth refused.
    const ids = await seedCompanies(t.app, Array.from({ length: 6 }, (_, i) => companyFixture({ name: `Limit Co ${i}`, website_url: `https://limit-co-${i}.example.com` })));
    const slugs = await Promise.all(ids.map(slugOf));
    for (const [i, s] of slugs.slice(0, 5).entries()) {
      const res = await json(s, { name: 'Pat', email: 'pat@example.org', message: 'Please quote for painting two rooms.' }, `198.51.100.${i + 1}`);
      assert.equal(res.statusCode, 201, res.body);
      assert.match(res.json().message, /Limit Co \d/);
    }
    const sixth = await json(slugs[5]!, { name: 'Pat', email: 'pat@example.org', message: 'Please quote for painting two rooms.' }, '198.51.100.9');
    assert.equal(sixth.statusCode, 429);
    assert.match(sixth.json().detail, /5 requests today/);
    // Per network address an hour: ten, then refused with Retry-After.
    let last;
    for (let i = 0; i < 11; i++) last = await json(slugs[5]!, { name: 'Lee', email: `lee${i}@example.org`, message: 'Please quote for painting two rooms.' }, '192.0.2.200');
    assert.equal(last!.statusCode, 429);
    assert.ok(Number(last!.headers['retry-after']) > 0);
  });
});
