import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { actors, companyFixture, seedCompanies, useTestApp, type Admin, type Agent, type Owner } from '../../../test/helpers/index.js';

const BASE = '/api/v1/agent';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('proposals: agent side, owner side, administration', () => {
  const t = useTestApp();
  const as = actors(t);
  let agentA: Agent;
  let agentB: Agent;
  let companyA: string; // verified, owned by ownerA
  let companyB: string; // verified, owned by ownerB
  let unverified: string;
  let ownerA: Owner;
  let ownerB: Owner;
  let admin: Admin;

  const body = (over: Record<string, unknown> = {}) => ({
    company_id: companyA,
    customer_email: 'Customer@Example.com',
    customer_name: 'Jane <i>Customer</i>',
    description: 'We need a <b>booking</b> website for 3 clinics.',
    ...over,
  });
  const create = async (agent: Agent, over: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${BASE}/proposals`, headers: { ...agent.headers, ...headers }, payload: body(over) });

  before(async () => {
    [companyA, companyB, unverified] = await seedCompanies(t.app, [
      companyFixture({ name: 'Clinic Web A', website_url: 'https://acme-a.example.com' }),
      companyFixture({ name: 'Clinic Web B', website_url: 'https://acme-b.example.com' }),
      companyFixture({ name: 'Not Yet Verified', is_verified: false }),
    ]) as [string, string, string];
    agentA = await as.agent('Agent A', 'a@agents.example.com');
    agentB = await as.agent('Agent B', 'b@agents.example.com');
    ownerA = await as.owner('owner@acme-a.example.com', 'https://acme-a.example.com');
    ownerB = await as.owner('owner@acme-b.example.com', 'https://acme-b.example.com');
    assert.equal(ownerA.companyId, companyA);
    assert.equal(ownerB.companyId, companyB);
    admin = await as.admin();
  });

  it('creates a proposal (201, pending, plain text, thread starts with the request)', async () => {
    const res = await create(agentA);
    assert.equal(res.statusCode, 201, res.body);
    const p = res.json();
    assert.equal(p.status, 'pending');
    assert.equal(p.type, 'custom');
    assert.equal(p.company_id, companyA);
    assert.equal(p.company_name, 'Clinic Web A');
    assert.equal(p.agent_id, agentA.id);
    assert.equal(p.customer_name, 'Jane Customer');
    assert.equal(p.customer_email, 'customer@example.com');
    assert.equal(p.description, 'We need a booking website for 3 clinics.');
    assert.equal(p.messages.length, 1);
    assert.deepEqual({ ...p.messages[0], id: 0, created_at: '' }, { id: 0, author_role: 'agent', kind: 'request', action: null, text: p.description, created_at: '' });
    const std = await create(agentA, { type: 'standard' });
    assert.equal(std.json().type, 'standard');
  });

  it('refuses unverified (409) and unknown (404) companies and stores nothing', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM proposals'))[0]!.n;
    const u = await create(agentA, { company_id: unverified });
    assert.equal(u.statusCode, 409);
    assert.match(u.json().detail, /not verified/);
    const n = await create(agentA, { company_id: UNKNOWN });
    assert.equal(n.statusCode, 404);
    const after = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM proposals'))[0]!.n;
    assert.equal(after, before);
  });

  it('validates create bodies (422) and requires a key (401)', async () => {
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ company_id: 'nope' }, ['body', 'company_id']],
      [{ customer_email: 'not-email' }, ['body', 'customer_email']],
      [{ customer_name: '' }, ['body', 'customer_name']],
      [{ description: '' }, ['body', 'description']],
      [{ description: 'x'.repeat(10_001) }, ['body', 'description']],
      [{ type: 'premium' }, ['body', 'type']],
    ];
    for (const [over, loc] of cases) {
      const res = await create(agentA, over);
      assert.equal(res.statusCode, 422, JSON.stringify(over));
      assert.deepEqual(res.json().detail[0].loc, loc);
    }
    const noKey = await t.app.inject({ method: 'POST', url: `${BASE}/proposals`, payload: body() });
    assert.equal(noKey.statusCode, 401);
  });

  it('batch: mixes verified, unverified, unknown and duplicates; one refusal loses nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${BASE}/proposals/batch`,
      headers: agentA.headers,
      payload: { ...body(), company_id: undefined, company_ids: [companyA, unverified, UNKNOWN, companyB, companyA.toUpperCase()] },
    });
    assert.equal(res.statusCode, 201, res.body);
    const r = res.json();
    assert.equal(r.created, 2);
    assert.equal(r.refused, 2);
    assert.deepEqual(r.results.map((x: { company_id: string; outcome: string; reason?: string }) => [x.company_id, x.outcome, x.reason ?? null]), [
      [companyA, 'created', null],
      [unverified, 'refused', 'not_verified'],
      [UNKNOWN, 'refused', 'not_found'],
      [companyB, 'created', null],
    ]);
    assert.equal(r.results[0].proposal.status, 'pending');

    const none = await t.app.inject({ method: 'POST', url: `${BASE}/proposals/batch`, headers: agentA.headers, payload: { ...body(), company_id: undefined, company_ids: [unverified] } });
    assert.equal(none.statusCode, 200);
    assert.equal(none.json().created, 0);

    const ids = Array.from({ length: 11 }, () => companyA);
    const tooMany = await t.app.inject({ method: 'POST', url: `${BASE}/proposals/batch`, headers: agentA.headers, payload: { ...body(), company_id: undefined, company_ids: ids } });
    assert.equal(tooMany.statusCode, 422);
    assert.deepEqual(tooMany.json().detail[0].loc, ['body', 'company_ids']);
    const ten = await t.app.inject({ method: 'POST', url: `${BASE}/proposals/batch`, headers: agentA.headers, payload: { ...body(), company_id: undefined, company_ids: ids.slice(0, 10) } });
    assert.equal(ten.statusCode, 201);
    assert.equal(ten.json().results.length, 1);
    const empty = await t.app.inject({ method: 'POST', url: `${BASE}/proposals/batch`, headers: agentA.headers, payload: { ...body(), company_id: undefined, company_ids: [] } });
    assert.equal(empty.statusCode, 422);
  });

  it('Idempotency-Key: a retry returns the first result and creates nothing twice', async () => {
    const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM proposals WHERE agent_id = $1', [agentB.id]))[0]!.n;
    const before = await count();
    const key = { 'idempotency-key': 'retry-123' };
    const first = await create(agentB, {}, key);
    assert.equal(first.statusCode, 201);
    const second = await create(agentB, {}, key);
    assert.equal(second.statusCode, 201);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.deepEqual(second.json(), first.json());
    assert.equal(await count(), before + 1);
    // Parallel retries with a fresh key: still one proposal.
    const parallel = await Promise.all([1, 2, 3].map(() => create(agentB, {}, { 'idempotency-key': 'parallel-1' })));
    assert.deepEqual(parallel.map((r) => r.statusCode), [201, 201, 201]);
    assert.equal(new Set(parallel.map((r) => r.json().id)).size, 1);
    assert.equal(await count(), before + 2);
    // Same key, different body: 422 on the header.
    const other = await create(agentB, { description: 'Something else' }, key);
    assert.equal(other.statusCode, 422);
    assert.deepEqual(other.json().detail[0].loc, ['header', 'idempotency-key']);
    // Keys are per agent: agent A may use the same key string.
    assert.equal((await create(agentA, {}, key)).headers['idempotent-replayed'], undefined);
    // Batch too.
    const batch = () => t.app.inject({ method: 'POST', url: `${BASE}/proposals/batch`, headers: { ...agentB.headers, 'idempotency-key': 'batch-1' }, payload: { ...body(), company_id: undefined, company_ids: [companyA, companyB] } });
    const b1 = await batch();
    const b2 = await batch();
    assert.equal(b1.statusCode, 201);
    assert.deepEqual(b2.json(), b1.json());
    assert.equal(await count(), before + 4);
    // A refused create leaves the key unused.
    const refused = await create(agentB, { company_id: unverified }, { 'idempotency-key': 'refused-1' });
    assert.equal(refused.statusCode, 409);
    assert.equal((await create(agentB, {}, { 'idempotency-key': 'refused-1' })).statusCode, 201);
  });

  it('lists and reads only the caller\'s proposals (agent A vs agent B)', async () => {
    const mine = await create(agentA);
    const id = mine.json().id;
    const list = await t.app.inject({ method: 'GET', url: `${BASE}/proposals?limit=2`, headers: agentA.headers });
    assert.equal(list.statusCode, 200);
    const l = list.json();
    assert.equal(l.limit, 2);
    assert.equal(l.proposals.length, 2);
    assert.equal(l.has_more, true);
    assert.ok(l.proposals.every((p: { agent_id: string }) => p.agent_id === agentA.id));
    const paged = await t.app.inject({ method: 'GET', url: `${BASE}/proposals?limit=100&offset=1`, headers: agentA.headers });
    assert.equal(paged.json().proposals.length, l.total - 1);
    const filtered = await t.app.inject({ method: 'GET', url: `${BASE}/proposals?status=approved`, headers: agentA.headers });
    assert.ok(filtered.json().proposals.every((p: { status: string }) => p.status === 'approved'));
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'status=open']) {
      assert.equal((await t.app.inject({ method: 'GET', url: `${BASE}/proposals?${q}`, headers: agentA.headers })).statusCode, 422, q);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: `${BASE}/proposals`, headers: agentB.headers })).json().proposals.some((p: { id: string }) => p.id === id), false);

    assert.equal((await t.app.inject({ method: 'GET', url: `${BASE}/proposals/${id}`, headers: agentA.headers })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: `${BASE}/proposals/${id}`, headers: agentB.headers })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: `${BASE}/proposals/${UNKNOWN}`, headers: agentA.headers })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: `${BASE}/proposals/not-a-uuid`, headers: agentA.headers })).statusCode, 422);
    const replyB = await t.app.inject({ method: 'POST', url: `${BASE}/proposals/${id}/reply`, headers: agentB.headers, payload: { message: 'hijack' } });
    assert.equal(replyB.statusCode, 404);
    const emptyReply = await t.app.inject({ method: 'POST', url: `${BASE}/proposals/${id}/reply`, headers: agentA.headers, payload: {} });
    assert.equal(emptyReply.statusCode, 422);
    assert.deepEqual(emptyReply.json().detail[0].loc, ['body', 'message']);
  });

  it('runs the full ping-pong: create → respond → reply → pending → respond, with emails', async () => {
    const id = (await create(agentA, { customer_name: 'Ping Pong' })).json().id;
    const ownerMail = await t.app.services.mail.recent({ to: 'owner@acme-a.example.com' });
    assert.ok(ownerMail.some((m) => m.subject.includes('New proposal') && m.subject.includes('Ping Pong')));

    let res = await t.app.inject({ method: 'POST', url: `/api/proposals/${id}/respond`, headers: ownerA.headers, payload: { action: 'respond', message: 'Which clinics? What budget?' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'responded');
    const agentMail = await t.app.services.mail.recent({ to: 'a@agents.example.com' });
    assert.ok(agentMail.some((m) => m.text_body.includes('Which clinics?')));

    res = await t.app.inject({ method: 'POST', url: `${BASE}/proposals/${id}/reply`, headers: agentA.headers, payload: { message: 'Berlin, Hamburg, Munich; 20k EUR.' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().status, 'pending');
    assert.ok((await t.app.services.mail.recent({ to: 'owner@acme-a.example.com' })).some((m) => m.text_body.includes('Berlin, Hamburg, Munich')));

    res = await t.app.inject({ method: 'POST', url: `/api/proposals/${id}/respond`, headers: ownerA.headers, payload: { action: 'approve', message: 'Deal.' } });
    assert.equal(res.json().status, 'approved');
    // Decided: a second company action waits for the agent.
    res = await t.app.inject({ method: 'POST', url: `/api/proposals/${id}/respond`, headers: ownerA.headers, payload: { action: 'reject' } });
    assert.equal(res.statusCode, 409);

    const thread = (await t.app.inject({ method: 'GET', url: `${BASE}/proposals/${id}`, headers: agentA.headers })).json();
    assert.equal(thread.status, 'approved');
    assert.deepEqual(thread.messages.map((m: { author_role: string; kind: string; action: string | null; text: string }) => [m.author_role, m.kind, m.action, m.text]), [
      ['agent', 'request', null, 'We need a booking website for 3 clinics.'],
      ['company', 'response', 'respond', 'Which clinics? What budget?'],
      ['agent', 'reply', null, 'Berlin, Hamburg, Munich; 20k EUR.'],
      ['company', 'response', 'approve', 'Deal.'],
    ]);
    assert.equal(thread.message_count, 4);

    // The agent may reopen a decided proposal, and may reply before any company answer.
    res = await t.app.inject({ method: 'POST', url: `${BASE}/proposals/${id}/reply`, headers: agentA.headers, payload: { message: 'One more clinic?' } });
    assert.equal(res.json().status, 'pending');
    const fresh = (await create(agentA)).json().id;
    res = await t.app.inject({ method: 'POST', url: `${BASE}/proposals/${fresh}/reply`, headers: agentA.headers, payload: { message: 'Also urgent.' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().status, 'pending');
    assert.equal(res.json().messages.length, 2);
  });

  it('owner side: respond bounds, owner A vs owner B, reject mapping', async () => {
    const id = (await create(agentA)).json().id;
    const url = `/api/proposals/${id}/respond`;
    assert.equal((await t.app.inject({ method: 'POST', url, headers: ownerB.headers, payload: { action: 'approve' } })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'POST', url, payload: { action: 'approve' } })).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'POST', url, headers: ownerA.headers, payload: { action: 'maybe' } })).statusCode, 422);
    const noMsg = await t.app.inject({ method: 'POST', url, headers: ownerA.headers, payload: { action: 'respond' } });
    assert.equal(noMsg.statusCode, 422);
    assert.deepEqual(noMsg.json().detail[0].loc, ['body', 'message']);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/proposals/${UNKNOWN}/respond`, headers: ownerA.headers, payload: { action: 'approve' } })).statusCode, 404);
    const rej = await t.app.inject({ method: 'POST', url, headers: ownerA.headers, payload: { action: 'reject' } });
    assert.equal(rej.statusCode, 200);
    assert.equal(rej.json().status, 'rejected');
    assert.equal(rej.json().messages.at(-1).text, '');
  });

  it('owner list: own companies only, q, status, bounds, soft delete and restore', async () => {
    const id = (await create(agentA, { customer_name: 'Zed Searchable', customer_email: 'zed@findme.example' })).json().id;
    let list = (await t.app.inject({ method: 'GET', url: '/api/proposals?limit=100', headers: ownerA.headers })).json();
    assert.ok(list.proposals.length > 0);
    assert.ok(list.proposals.every((p: { company_id: string }) => p.company_id === companyA));
    assert.equal(list.limit, 100);
    assert.ok(Array.isArray(list.proposals[0].messages));
    const def = (await t.app.inject({ method: 'GET', url: '/api/proposals', headers: ownerA.headers })).json();
    assert.equal(def.limit, 10);
    const listB = (await t.app.inject({ method: 'GET', url: '/api/proposals?limit=100', headers: ownerB.headers })).json();
    assert.ok(listB.proposals.every((p: { company_id: string }) => p.company_id === companyB));
    assert.equal(listB.proposals.some((p: { id: string }) => p.id === id), false);

    for (const q of ['zed', 'FINDME', 'searchable']) {
      const r = (await t.app.inject({ method: 'GET', url: `/api/proposals?q=${q}`, headers: ownerA.headers })).json();
      assert.deepEqual(r.proposals.map((p: { id: string }) => p.id), [id], q);
    }
    const pending = (await t.app.inject({ method: 'GET', url: '/api/proposals?status=pending&limit=100', headers: ownerA.headers })).json();
    assert.ok(pending.proposals.every((p: { status: string }) => p.status === 'pending'));
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'status=x', 'include_deleted=maybe']) {
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/proposals?${q}`, headers: ownerA.headers })).statusCode, 422, q);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/proposals' })).statusCode, 401);

    // Soft delete: owner B cannot; owner A can; hidden unless include_deleted; status unchanged.
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/proposals/${id}`, headers: ownerB.headers })).statusCode, 404);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/proposals/${id}`, headers: ownerA.headers });
    assert.equal(del.statusCode, 200);
    assert.equal(del.json().is_deleted, true);
    assert.equal(del.json().status, 'pending');
    list = (await t.app.inject({ method: 'GET', url: '/api/proposals?q=zed', headers: ownerA.headers })).json();
    assert.equal(list.total, 0);
    list = (await t.app.inject({ method: 'GET', url: '/api/proposals?q=zed&include_deleted=true', headers: ownerA.headers })).json();
    assert.equal(list.total, 1);
    const blocked = await t.app.inject({ method: 'POST', url: `/api/proposals/${id}/respond`, headers: ownerA.headers, payload: { action: 'approve' } });
    assert.equal(blocked.statusCode, 409);
    // The agent still sees its proposal.
    assert.equal((await t.app.inject({ method: 'GET', url: `${BASE}/proposals/${id}`, headers: agentA.headers })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/proposals/${id}/restore`, headers: ownerB.headers })).statusCode, 404);
    const restored = await t.app.inject({ method: 'POST', url: `/api/proposals/${id}/restore`, headers: ownerA.headers });
    assert.equal(restored.json().is_deleted, false);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/proposals?q=zed', headers: ownerA.headers })).json().total, 1);
  });

  it('parallel replies and responses never lose a message or leave an impossible status', async () => {
    for (let round = 0; round < 3; round++) {
      const id = (await create(agentA)).json().id;
      await t.app.inject({ method: 'POST', url: `/api/proposals/${id}/respond`, headers: ownerA.headers, payload: { action: 'respond', message: 'Question?' } });
      const results = await Promise.all([
        t.app.inject({ method: 'POST', url: `${BASE}/proposals/${id}/reply`, headers: agentA.headers, payload: { message: 'r1' } }),
        t.app.inject({ method: 'POST', url: `/api/proposals/${id}/respond`, headers: ownerA.headers, payload: { action: 'approve', message: 'ok1' } }),
        t.app.inject({ method: 'POST', url: `${BASE}/proposals/${id}/reply`, headers: agentA.headers, payload: { message: 'r2' } }),
        t.app.inject({ method: 'POST', url: `/api/proposals/${id}/respond`, headers: ownerA.headers, payload: { action: 'reject', message: 'no1' } }),
      ]);
      for (const r of results) assert.ok([200, 409].includes(r.statusCode), r.body);
      const succeeded = results.filter((r) => r.statusCode === 200).length;
      const p = (await t.app.inject({ method: 'GET', url: `${BASE}/proposals/${id}`, headers: agentA.headers })).json();
      // request + first response + every accepted message
      assert.equal(p.messages.length, 2 + succeeded);
      assert.ok(p.messages.some((m: { text: string }) => m.text === 'r1'));
      assert.ok(p.messages.some((m: { text: string }) => m.text === 'r2'));
      // The status is the one the last message implies; a decision is never followed by another decision.
      const last = p.messages.at(-1);
      const expected = last.author_role === 'agent' ? 'pending' : { approve: 'approved', reject: 'rejected', respond: 'responded' }[last.action as 'approve'];
      assert.equal(p.status, expected);
      for (let i = 1; i < p.messages.length; i++) {
        const prev = p.messages[i - 1];
        const cur = p.messages[i];
        if (cur.author_role === 'company' && prev.author_role === 'company') assert.equal(prev.action, 'respond');
      }
      assert.deepEqual([...p.messages.map((m: { id: number }) => m.id)], [...p.messages.map((m: { id: number }) => m.id)].sort((a, b) => a - b));
    }
  });

  it('admin: agents list with counts, search, keyset cursor, deactivate/reactivate, proposals', async () => {
    const h = admin.headers;
    let res = await t.app.inject({ method: 'GET', url: '/api/tools/admin/agents', headers: h });
    assert.equal(res.statusCode, 200, res.body);
    const all = res.json();
    assert.equal(all.limit, 50);
    const a = all.agents.find((x: { id: string }) => x.id === agentA.id);
    assert.ok(a.proposal_counts.total > 0);
    assert.equal(a.proposal_counts.total, a.proposal_counts.pending + a.proposal_counts.approved + a.proposal_counts.rejected + a.proposal_counts.responded);

    res = await t.app.inject({ method: 'GET', url: '/api/tools/admin/agents?q=B@AGENTS', headers: h });
    assert.deepEqual(res.json().agents.map((x: { id: string }) => x.id), [agentB.id]);

    // Keyset pages of 1 walk every agent exactly once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { agents: { id: string }[]; next_cursor: string | null } = (await t.app.inject({ method: 'GET', url: `/api/tools/admin/agents?limit=1${cursor ? `&cursor=${cursor}` : ''}`, headers: h })).json();
      seen.push(...page.agents.map((x: { id: string }) => x.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(seen.length, all.total);
    assert.equal(new Set(seen).size, all.total);
    const byOffset = (await t.app.inject({ method: 'GET', url: '/api/tools/admin/agents?limit=1&offset=1', headers: h })).json();
    assert.equal(byOffset.agents[0].id, seen[1]);

    for (const q of ['limit=0', 'limit=501', 'offset=-1', 'cursor=bogus']) {
      assert.equal((await t.app.inject({ method: 'GET', url: `/api/tools/admin/agents?${q}`, headers: h })).statusCode, 422, q);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/tools/admin/agents?limit=500', headers: h })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/tools/admin/agents', headers: ownerA.headers })).statusCode, 403);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/tools/admin/agents' })).statusCode, 401);

    res = await t.app.inject({ method: 'POST', url: `/api/tools/admin/agents/${agentB.id}/deactivate`, headers: h });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().is_active, false);
    assert.ok(res.json().deactivated_at);
    assert.equal((await t.app.inject({ method: 'GET', url: `${BASE}/me`, headers: agentB.headers })).statusCode, 401);
    assert.equal((await create(agentB)).statusCode, 401);
    res = await t.app.inject({ method: 'POST', url: `/api/tools/admin/agents/${agentB.id}/reactivate`, headers: h });
    assert.equal(res.json().is_active, true);
    assert.equal((await t.app.inject({ method: 'GET', url: `${BASE}/me`, headers: agentB.headers })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/tools/admin/agents/${UNKNOWN}/deactivate`, headers: h })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/tools/admin/agents/${agentB.id}/deactivate`, headers: ownerA.headers })).statusCode, 403);

    res = await t.app.inject({ method: 'GET', url: `/api/tools/admin/agents/${agentA.id}/proposals?limit=100`, headers: h });
    assert.equal(res.statusCode, 200);
    const withDeleted = (await t.app.inject({ method: 'GET', url: `/api/tools/admin/agents/${agentA.id}/proposals?limit=100&include_deleted=true`, headers: h })).json();
    assert.ok(withDeleted.total >= res.json().total);
    assert.ok(res.json().proposals.every((p: { agent_id: string; messages: unknown[] }) => p.agent_id === agentA.id && p.messages.length > 0));
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/tools/admin/agents/${agentA.id}/proposals?limit=101`, headers: h })).statusCode, 422);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/tools/admin/agents/${UNKNOWN}/proposals`, headers: h })).statusCode, 404);

    // An admin acting as owner sees and answers every company's proposals.
    const adminList = (await t.app.inject({ method: 'GET', url: '/api/proposals?limit=100', headers: h })).json();
    assert.ok(new Set(adminList.proposals.map((p: { company_id: string }) => p.company_id)).size >= 2);
  });

  it('keeps a deactivated agent\'s proposals', async () => {
    const c = await as.agent('Agent C', 'c@agents.example.com');
    const id = (await create(c)).json().id;
    await t.app.inject({ method: 'DELETE', url: `${BASE}/me`, headers: c.headers });
    assert.equal((await t.app.inject({ method: 'GET', url: `${BASE}/proposals/${id}`, headers: c.headers })).statusCode, 401);
    const list = (await t.app.inject({ method: 'GET', url: '/api/proposals?limit=100', headers: ownerA.headers })).json();
    assert.ok(list.proposals.some((p: { id: string }) => p.id === id));
  });
});
