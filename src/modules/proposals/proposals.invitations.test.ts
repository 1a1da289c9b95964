import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSmtpSink } from '../../../test/fakes/smtp.js';
import { actors, companyFixture, seedCompanies, useTestApp, type Agent } from '../../../test/helpers/index.js';

/**
 * Issue 37: a proposal to a verified company nobody has claimed is announced to its public address as an
 * invitation to claim the listing (once per company per period, with unsubscribe), and the agent is told how
 * the proposal was delivered.
 */
describe('claim invitations for unclaimed companies', () => {
  const t = useTestApp();
  const as = actors(t);
  let invitable: string, silent: string, claimed: string, agent: Agent, other: Agent;
  before(async () => {
    [invitable, silent, claimed] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Harbour Roofing', website_url: 'https://harbour-roofing.example.com', contact_email: 'Info@Harbour-Roofing.example.com' }),
      companyFixture({ name: 'No Address Ltd', website_url: 'https://no-address.example.com' }),
      companyFixture({ name: 'Owned Co', website_url: 'https://owned-co.example.com', contact_email: 'hello@owned-co.example.com' }),
    ])) as [string, string, string];
    await as.owner('boss@owned-co.example.com', 'https://owned-co.example.com');
    agent = await as.agent('Invite agent', 'invite@agents.example.com');
    other = await as.agent('Second agent', 'second@agents.example.com');
  });

  const propose = (who: Agent, companyId: string, description = 'Please quote for repairing a flat roof after the storm.', headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST', url: '/api/v1/agent/proposals', headers: { ...who.headers, ...headers },
      payload: { company_id: companyId, customer_name: 'Dana Ruiz', customer_email: 'dana@example.org', description, budget: { amount: 900, currency: 'EUR' } },
    });
  const invitationsTo = async (address: string) => (await t.app.services.mail.recent({ to: address })).filter((m) => m.subject.startsWith('A request for'));
  const reachability = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${id}` })).json().reachability;
  const tokenOf = (text: string) => /unsubscribe\?token=([\w-]+)/.exec(text)![1]!;

  it('says before any proposal that a proposal would be announced by email', async () => {
    assert.equal((await reachability(invitable)).delivery, 'email');
    assert.equal((await reachability(silent)).delivery, 'none');
    assert.equal((await reachability(claimed)).delivery, 'dashboard');
  });

  it('invites the public address once, with the request, the way to claim and an unsubscribe link', async () => {
    const res = await propose(agent, invitable, 'Please quote for repairing a flat roof after the storm.', { 'idempotency-key': 'invite-once-1' });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().delivery, 'email');
    assert.match(res.json().delivery_note, /invited to claim it and answer/);
    // A retry of the same request replays the answer and mails nothing more.
    const replay = await propose(agent, invitable, 'Please quote for repairing a flat roof after the storm.', { 'idempotency-key': 'invite-once-1' });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    const mails = await invitationsTo('info@harbour-roofing.example.com');
    assert.equal(mails.length, 1);
    const mail = mails[0]!;
    assert.match(mail.subject, /Harbour Roofing/);
    assert.match(mail.text_body, /flat roof after the storm/);
    assert.match(mail.text_body, /Budget: €900/);
    assert.match(mail.text_body, /Claim harbour-roofing\.example\.com from your dashboard/);
    assert.ok(!mail.text_body.includes('dana@example.org'), "the customer's address is for the owner who claims the listing, not for whoever reads the public inbox");
    assert.match(mail.list_unsubscribe ?? '', /\/invitations\/unsubscribe\?token=/);
    // The token is stored hashed only.
    const [stored] = await t.db.query<{ unsubscribe_token_hash: string }>('SELECT unsubscribe_token_hash FROM claim_invitations WHERE company_id = $1', [invitable]);
    assert.notEqual(stored!.unsubscribe_token_hash, tokenOf(mail.text_body));
  });

  it('does not invite again within the period, and two proposals at once invite once', async () => {
    const [a, b] = await Promise.all([propose(other, invitable, 'Second request: gutters.'), propose(agent, invitable, 'Third request: skylight.')]);
    assert.equal(a.statusCode, 201, a.body);
    assert.equal(b.statusCode, 201, b.body);
    assert.equal(a.json().delivery, 'email');
    assert.equal((await invitationsTo('info@harbour-roofing.example.com')).length, 1);
    // Once the period has passed, the next proposal invites again.
    await t.db.query(`UPDATE claim_invitations SET sent_at = now() - interval '31 days' WHERE company_id = $1`, [invitable]);
    assert.equal((await propose(agent, invitable, 'A month later: a new roof.')).statusCode, 201);
    assert.equal((await invitationsTo('info@harbour-roofing.example.com')).length, 2);
  });

  it('tells the agent when nobody can read the proposal, and sends a claimed company to its inbox only', async () => {
    const none = await propose(agent, silent);
    assert.equal(none.statusCode, 201, none.body);
    assert.equal(none.json().delivery, 'none');
    assert.match(none.json().delivery_note, /nobody could read the proposal/);
    const owned = await propose(agent, claimed);
    assert.equal(owned.json().delivery, 'dashboard');
    assert.equal((await invitationsTo('hello@owned-co.example.com')).length, 0);
    // The agent's list shows how each went.
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/agent/proposals?limit=50', headers: agent.headers })).json();
    const deliveries = new Set(list.proposals.map((p: { delivery: string }) => p.delivery));
    assert.deepEqual([...deliveries].sort(), ['dashboard', 'email', 'none']);
  });

  it('stops invitations from the unsubscribe link: a page with a button, then no more mail', async () => {
    const [mail] = await invitationsTo('info@harbour-roofing.example.com');
    const token = tokenOf(mail!.text_body);
    const page = await t.app.inject({ method: 'GET', url: `/invitations/unsubscribe?token=${token}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<form method="post" action="unsubscribe">/);
    assert.equal((await reachability(invitable)).delivery, 'email', 'opening the page changes nothing');
    const done = await t.app.inject({ method: 'POST', url: '/invitations/unsubscribe', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `token=${token}` });
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.body, /i•••@harbour-roofing\.example\.com will receive no more invitations/);
    // One-click from a mail client (RFC 8058): the token in the query; repeating it is harmless.
    const oneClick = await t.app.inject({ method: 'POST', url: `/invitations/unsubscribe?token=${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    assert.equal(oneClick.statusCode, 200);
    assert.equal((await reachability(invitable)).delivery, 'none');
    await t.db.query(`UPDATE claim_invitations SET sent_at = now() - interval '31 days' WHERE company_id = $1`, [invitable]);
    const after = await propose(agent, invitable, 'After the opt-out.');
    assert.equal(after.json().delivery, 'none');
    assert.equal((await invitationsTo('info@harbour-roofing.example.com')).length, 2);
  });

  it('refuses an unknown or missing token in a sentence, on the page and over JSON', async () => {
    const json = await t.app.inject({ method: 'POST', url: '/invitations/unsubscribe', payload: { token: 'not-a-real-token' } });
    assert.equal(json.statusCode, 400);
    assert.match(json.json().detail, /not valid/);
    const missing = await t.app.inject({ method: 'POST', url: '/invitations/unsubscribe', payload: {} });
    assert.equal(missing.statusCode, 400);
    const form = await t.app.inject({ method: 'POST', url: '/invitations/unsubscribe', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'token=nope' });
    assert.equal(form.statusCode, 400);
    assert.match(form.body, /This link did not work/);
    assert.equal((await t.db.query('SELECT 1 FROM invitation_optouts')).length, 1);
  });
});

describe('claim invitations over real SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  before(async () => {
    smtp = await startSmtpSink();
  });
  const t = useTestApp(() => ({ smtpUrl: smtp.url, runJobs: true, baseUrl: 'https://agentpages.test' }));
  const as = actors(t);
  after(async () => {
    await smtp.close();
  });

  it('carries a one-click unsubscribe header (RFC 8058)', async () => {
    const [id] = await seedCompanies(t.app, [companyFixture({ name: 'Mail Header Co', contact_email: 'desk@mail-header.example.com' })]);
    const agent = await as.agent('Header agent', 'header@agents.example.com');
    const res = await t.app.inject({
      method: 'POST', url: '/api/v1/agent/proposals', headers: agent.headers,
      payload: { company_id: id, customer_name: 'Lee', customer_email: 'lee@example.org', description: 'A quote for office cleaning, please.' },
    });
    assert.equal(res.statusCode, 201, res.body);
    const mail = await smtp.waitFor((m) => m.to.includes('desk@mail-header.example.com'));
    assert.match(mail.raw, /^List-Unsubscribe:\s+<https:\/\/agentpages\.test\/invitations\/unsubscribe\?token=[\w-]+>/im);
    assert.match(mail.raw, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click/im);
  });
});
