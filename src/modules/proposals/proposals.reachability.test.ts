import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { actors, companyFixture, seedCompanies, useTestApp, type Agent, type Owner } from '../../../test/helpers/index.js';

/** Issue 37: every company lookup says how a proposal reaches it, from its real proposal history. */
describe('company reachability', () => {
  const t = useTestApp();
  const as = actors(t);
  let claimed: string, unclaimed: string, unverified: string, agent: Agent, owner: Owner;
  before(async () => {
    [claimed, unclaimed, unverified] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Claimed Co', website_url: 'https://claimed-co.example.com' }),
      companyFixture({ name: 'Nobody Reads Co', website_url: 'https://nobody-reads.example.com' }),
      companyFixture({ name: 'Unverified Co', is_verified: false }),
    ])) as [string, string, string];
    owner = await as.owner('owner@claimed-co.example.com', 'https://claimed-co.example.com');
    agent = await as.agent('Reach agent', 'reach@agents.example.com');
  });
  const profile = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/agent/companies/${id}` })).json();

  it('says who will read a proposal before any history exists', async () => {
    assert.deepEqual((await profile(claimed)).reachability, { claimed: true, delivery: 'dashboard', response_rate: null, median_response_hours: null, measured_on: 0 });
    assert.deepEqual((await profile(unclaimed)).reachability, { claimed: false, delivery: 'none', response_rate: null, median_response_hours: null, measured_on: 0 });
    assert.equal((await profile(unverified)).reachability.delivery, 'none');
    const byUrl = (await t.app.inject({ method: 'GET', url: '/api/v1/agent/companies/by-url/claimed-co.example.com' })).json();
    assert.equal(byUrl.reachability.claimed, true);
  });

  it('measures the response rate and the median time to a first answer from real proposals', async () => {
    const send = async (text: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/agent/proposals', headers: agent.headers, payload: { company_id: claimed, customer_name: 'Ann', customer_email: 'ann@example.org', description: text } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id as string;
    };
    const answered = await send('Quote for a booking website, please.');
    const ignored = await send('Another request nobody answers.');
    // Sent four days ago and answered two hours later; the unanswered one is older than three days.
    await t.db.query(`UPDATE proposals SET created_at = now() - interval '4 days' WHERE id = ANY($1::uuid[])`, [[answered, ignored]]);
    const res = await t.app.inject({ method: 'POST', url: `/api/proposals/${answered}/respond`, headers: owner.headers, payload: { action: 'respond', message: 'Happy to help: when can we talk?' } });
    assert.equal(res.statusCode, 200, res.body);
    await t.db.query(`UPDATE proposal_messages SET created_at = now() - interval '4 days' + interval '2 hours' WHERE proposal_id = $1 AND author_role = 'company'`, [answered]);
    const r = (await profile(claimed)).reachability;
    assert.deepEqual(r, { claimed: true, delivery: 'dashboard', response_rate: 0.5, median_response_hours: 2, measured_on: 2 });
    // A fresh proposal is not counted against the company until it had three days to answer.
    await send('A fresh one.');
    assert.equal((await profile(claimed)).reachability.measured_on, 2);
  });
});
