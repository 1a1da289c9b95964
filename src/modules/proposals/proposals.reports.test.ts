import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { actors, companyFixture, seedCompanies, useTestApp, type Agent, type Owner } from '../../../test/helpers/index.js';

/** Issue 38: an owner reports an agent that sends spam and blocks it; administrators see the reports. */
describe('reporting and blocking agents', () => {
  const t = useTestApp();
  const as = actors(t);
  let company: string, other: string, spammer: Agent, owner: Owner, stranger: Owner, spam: string;
  before(async () => {
    [company, other] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Quiet Bakery', website_url: 'https://quiet-bakery.example.com' }),
      companyFixture({ name: 'Other Shop', website_url: 'https://other-shop.example.com' }),
    ])) as [string, string];
    owner = await as.owner('anna@quiet-bakery.example.com', 'https://quiet-bakery.example.com');
    stranger = await as.owner('ben@other-shop.example.com', 'https://other-shop.example.com');
    spammer = await as.agent('Rank Booster', 'boost@agents.example.com');
    spam = await propose(company, 'We can get your company to #1 on Google…');
  });
  async function propose(companyId: string, description: string): Promise<string> {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/agent/proposals', headers: spammer.headers, payload: { company_id: companyId, customer_name: 'SEO', customer_email: 'seo@example.org', description } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as string;
  }
  const report = (who: Owner | undefined, id: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/api/proposals/${id}/report`, headers: who?.headers ?? {}, payload });

  it('refuses a report without a session, from another company, or with an unknown reason, and records nothing', async () => {
    assert.equal((await report(undefined, spam, { reason: 'spam' })).statusCode, 401);
    assert.equal((await report(stranger, spam, { reason: 'spam' })).statusCode, 404);
    assert.equal((await report(owner, spam, { reason: 'annoying' })).statusCode, 422);
    assert.equal((await t.db.query('SELECT 1 FROM agent_reports')).length, 0);
    assert.equal((await t.db.query('SELECT 1 FROM agent_blocks')).length, 0);
  });

  it('reports and blocks: the agent can no longer propose or reply to that company, and is told so', async () => {
    const res = await report(owner, spam, { reason: 'spam', note: 'Cold SEO pitch, third this week.' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().blocked, true);
    assert.match(res.json().message, /Rank Booster can no longer send Quiet Bakery proposals or replies/);
    // Reporting the same proposal again records nothing new.
    assert.equal((await report(owner, spam, { reason: 'spam' })).statusCode, 200);
    assert.equal((await t.db.query('SELECT 1 FROM agent_reports')).length, 1);

    const again = await t.app.inject({ method: 'POST', url: '/api/v1/agent/proposals', headers: spammer.headers, payload: { company_id: company, customer_name: 'SEO', customer_email: 'seo@example.org', description: 'Last chance!' } });
    assert.equal(again.statusCode, 403);
    assert.equal(again.json().detail, 'Quiet Bakery does not accept proposals from this agent.');
    const replied = await t.app.inject({ method: 'POST', url: `/api/v1/agent/proposals/${spam}/reply`, headers: spammer.headers, payload: { message: 'Did you see my offer?' } });
    assert.equal(replied.statusCode, 403);
    const batch = await t.app.inject({ method: 'POST', url: '/api/v1/agent/proposals/batch', headers: spammer.headers, payload: { company_ids: [company, other], customer_name: 'SEO', customer_email: 'seo@example.org', description: 'Everyone!' } });
    assert.equal(batch.statusCode, 201, batch.body);
    const outcomes = Object.fromEntries(batch.json().results.map((r: { company_id: string; outcome: string; reason?: string }) => [r.company_id, r.reason ?? r.outcome]));
    assert.deepEqual(outcomes, { [company]: 'blocked', [other]: 'created' });
  });

  it('shows administrators the reports and blocks next to the agent', async () => {
    const admin = await as.admin();
    const list = (await t.app.inject({ method: 'GET', url: '/api/tools/admin/agents?q=Rank', headers: admin.headers })).json();
    const agent = list.agents.find((a: { id: string }) => a.id === spammer.id);
    assert.equal(agent.reports, 1);
    assert.equal(agent.blocked_by, 1);
  });

  it('unblocks: the agent may write again', async () => {
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/proposals/${spam}/block`, headers: stranger.headers })).statusCode, 404);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/proposals/${spam}/block`, headers: owner.headers });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().blocked, false);
    await propose(company, 'A real request this time: 40 croissants.');
  });

  it('administrators work through the reports as a queue: dismiss one, or deactivate the agent and close all its reports', async () => {
    const admin = await as.admin();
    const queue = async () => (await t.app.inject({ method: 'GET', url: '/api/tools/admin/agents/reports', headers: admin.headers })).json().reports;
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/tools/admin/agents/reports' })).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/tools/admin/agents/reports', headers: owner.headers })).statusCode, 403);
    // A second company reports the same agent.
    const second = await propose(other, 'Buy 5,000 backlinks today!');
    assert.equal((await report(stranger, second, { reason: 'abuse', block: false })).statusCode, 200);
    const open = await queue();
    assert.deepEqual(open.map((r: { company_name: string; reason: string }) => [r.company_name, r.reason]), [['Quiet Bakery', 'spam'], ['Other Shop', 'abuse']]);
    assert.equal(open[0].proposal_text, 'We can get your company to #1 on Google…');
    assert.equal(open[0].note, 'Cold SEO pitch, third this week.');
    assert.equal(open[0].open_reports_of_agent, 2);

    const resolve = (id: string, payload: Record<string, unknown>, headers = admin.headers) => t.app.inject({ method: 'POST', url: `/api/tools/admin/agents/reports/${id}/resolve`, headers, payload });
    assert.equal((await resolve(open[0].id, { decision: 'dismiss' }, owner.headers)).statusCode, 403);
    const bad = await resolve(open[0].id, { decision: 'ban' });
    assert.equal(bad.statusCode, 422);
    assert.equal((await queue()).length, 2, 'a refused decision closes nothing');

    const dismissed = await resolve(open[0].id, { decision: 'dismiss' });
    assert.equal(dismissed.statusCode, 200, dismissed.body);
    assert.equal(dismissed.json().resolved, 1);
    assert.equal(dismissed.json().agent.is_active, true);
    assert.equal((await resolve(open[0].id, { decision: 'dismiss' })).statusCode, 404, 'resolved once');

    const third = await propose(company, 'Your reviews could be 5 stars.');
    assert.equal((await report(owner, third, { reason: 'spam', block: false })).statusCode, 200);
    const before = await queue();
    assert.equal(before.length, 2);
    const deactivated = await resolve(before[0].id, { decision: 'deactivate_agent' });
    assert.equal(deactivated.statusCode, 200, deactivated.body);
    assert.equal(deactivated.json().resolved, 2, 'every open report of the agent closes');
    assert.equal(deactivated.json().agent.is_active, false);
    assert.deepEqual(await queue(), []);
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/agent/proposals', headers: spammer.headers, payload: { company_id: other, customer_name: 'SEO', customer_email: 'seo@example.org', description: 'Hello?' } });
    assert.equal(refused.statusCode, 401, 'a deactivated agent\'s key is refused');
  });
});
