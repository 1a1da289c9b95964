import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { actors, companyFixture, seedCompanies, useTestApp, type Agent, type Owner } from '../../../test/helpers/index.js';
import { checkNeededByWindow, cleanStructured, detailLabel, formatBudget } from './proposals.fields.js';

const BASE = '/api/v1/agent';

/** A date `days` from today (UTC), YYYY-MM-DD. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

describe('proposals: structured requests (issue 37)', () => {
  // Webhook endpoints on 127.0.0.1; jobs do not run, so recorded events stay in the store to be read.
  const t = useTestApp({}, { WEBHOOKS_ALLOW_PRIVATE: 'true' });
  const as = actors(t);
  let agent: Agent;
  let companyId: string;
  let otherCompanyId: string;
  let owner: Owner;

  const neededBy = inDays(30);
  const structured = {
    budget: { amount: 2500, currency: 'eur' },
    needed_by: neededBy,
    location: 'Torstraße 1, <b>Berlin</b>-Mitte',
    details: { property_type: 'house', area_m2: 120.5, floors: 2, occupied: true },
  };
  const body = (over: Record<string, unknown> = {}) => ({
    company_id: companyId,
    customer_email: 'ann@example.org',
    customer_name: 'Ann',
    description: 'Quote for 40 m2 of roof panels',
    ...structured,
    ...over,
  });
  const create = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${BASE}/proposals`, headers: { ...agent.headers, ...headers }, payload: payload as Record<string, unknown> });
  const expected = {
    budget: { amount: 2500, currency: 'EUR' },
    needed_by: neededBy,
    location: 'Torstraße 1, Berlin -Mitte',
    details: { property_type: 'house', area_m2: 120.5, floors: 2, occupied: true },
  };
  const fieldsOf = (p: Record<string, unknown>) => ({ budget: p.budget, needed_by: p.needed_by, location: p.location, details: p.details });
  const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM proposals'))[0]!.n;

  before(async () => {
    [companyId, otherCompanyId] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Roof Works', website_url: 'https://roof-works.example.com', category: 'Construction & Home Services' }),
      companyFixture({ name: 'Other Roofers', website_url: 'https://other-roofers.example.com' }),
    ])) as [string, string];
    agent = await as.agent('Structured agent', 'structured@agents.example.com');
    owner = await as.owner('owner@roof-works.example.com', 'https://roof-works.example.com');
  });

  it('stores the fields and returns them to the agent (create, get, list), to the owner and in the owner mail', async () => {
    const res = await create(body());
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.deepEqual(fieldsOf(created), expected);

    const got = (await t.app.inject({ method: 'GET', url: `${BASE}/proposals/${created.id}`, headers: agent.headers })).json();
    assert.deepEqual(fieldsOf(got), expected);
    assert.deepEqual(Object.keys(got.details), ['property_type', 'area_m2', 'floors', 'occupied'], 'details keep the order the agent gave');
    const listed = (await t.app.inject({ method: 'GET', url: `${BASE}/proposals`, headers: agent.headers })).json();
    assert.deepEqual(fieldsOf(listed.proposals.find((p: { id: string }) => p.id === created.id)), expected);

    const ownerList = await t.app.inject({ method: 'GET', url: '/api/proposals', headers: owner.headers });
    assert.equal(ownerList.statusCode, 200, ownerList.body);
    assert.deepEqual(fieldsOf(ownerList.json().proposals.find((p: { id: string }) => p.id === created.id)), expected);

    const mail = (await t.app.services.mail.recent({ to: 'owner@roof-works.example.com' })).find((m) => m.subject.includes('New proposal'));
    assert.ok(mail, 'the owner is mailed');
    for (const line of ['Quote for 40 m2 of roof panels', 'Budget: €2,500', `Needed by: ${neededBy}`, 'Location: Torstraße 1, Berlin -Mitte', 'Property type: house', 'Area m2: 120.5', 'Occupied: yes']) {
      assert.ok(mail.text_body.includes(line), `${line} in\n${mail.text_body}`);
    }

    // Without the fields: null everywhere, and the batch carries them like a single create.
    const plain = await create(body({ budget: undefined, needed_by: undefined, location: undefined, details: undefined }));
    assert.deepEqual(fieldsOf(plain.json()), { budget: null, needed_by: null, location: null, details: null });
    const batch = await t.app.inject({
      method: 'POST', url: `${BASE}/proposals/batch`, headers: agent.headers,
      payload: { ...body({ company_id: undefined, budget: { amount: 1999.99, currency: 'USD' } }), company_ids: [companyId, otherCompanyId] },
    });
    assert.equal(batch.statusCode, 201, batch.body);
    for (const r of batch.json().results) assert.deepEqual(fieldsOf(r.proposal), { ...expected, budget: { amount: 1999.99, currency: 'USD' } });
  });

  it('puts the fields into the proposal.* webhook events', async () => {
    const hook = await t.app.inject({
      method: 'POST', url: `${BASE}/webhooks`, headers: agent.headers,
      payload: { url: 'http://127.0.0.1/hooks', event_types: ['proposal.responded', 'proposal.message', 'proposal.deleted'] },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const id = (await create(body())).json().id as string;
    const owned = owner.headers;
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/proposals/${id}/respond`, headers: owned, payload: { action: 'respond', message: 'Which roof?' } })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/proposals/${id}`, headers: owned })).statusCode, 200);
    const rows = await t.db.query<{ type: string; payload: string }>('SELECT type, payload FROM webhook_events WHERE agent_id = $1', [agent.id]);
    const events = rows.map((r) => ({ type: r.type, data: (JSON.parse(r.payload) as { data: Record<string, unknown> }).data })).filter((e) => e.data.proposal_id === id);
    assert.deepEqual(events.map((e) => e.type).sort(), ['proposal.deleted', 'proposal.message', 'proposal.responded']);
    for (const e of events) assert.deepEqual(fieldsOf(e.data), expected, e.type);
    assert.equal(events.find((e) => e.type === 'proposal.responded')!.data.status, 'responded');
  });

  it('refuses each invalid field with a 422 naming it, and stores nothing', async () => {
    const before = await count();
    const budget = (over: Record<string, unknown>) => ({ budget: { amount: 100, currency: 'EUR', ...over } });
    const manyKeys = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`key_${i}`, i]));
    const cases: [string, Record<string, unknown>, (string | number)[]][] = [
      ['negative amount', budget({ amount: -5 }), ['body', 'budget', 'amount']],
      ['zero amount', budget({ amount: 0 }), ['body', 'budget', 'amount']],
      ['three decimals', budget({ amount: 10.005 }), ['body', 'budget', 'amount']],
      ['amount too large', budget({ amount: 1e13 }), ['body', 'budget', 'amount']],
      ['amount as text', budget({ amount: 'lots' }), ['body', 'budget', 'amount']],
      ['currency of four letters', budget({ currency: 'EURO' }), ['body', 'budget', 'currency']],
      ['unknown currency', budget({ currency: 'ABC' }), ['body', 'budget', 'currency']],
      ['currency missing', { budget: { amount: 100 } }, ['body', 'budget', 'currency']],
      ['unknown budget field', budget({ per: 'month' }), ['body', 'budget', 'per']],
      ['date in the past', { needed_by: inDays(-1) }, ['body', 'needed_by']],
      ['February 30', { needed_by: `${new Date().getUTCFullYear() + 1}-02-30` }, ['body', 'needed_by']],
      ['month 13', { needed_by: `${new Date().getUTCFullYear() + 1}-13-01` }, ['body', 'needed_by']],
      ['not ISO', { needed_by: '01.05.2027' }, ['body', 'needed_by']],
      ['too far ahead', { needed_by: inDays(6 * 366) }, ['body', 'needed_by']],
      ['empty location', { location: '' }, ['body', 'location']],
      ['location too long', { location: 'x'.repeat(201) }, ['body', 'location']],
      ['control character in location', { location: 'Berlin\u0007' }, ['body', 'location']],
      ['line break in location', { location: 'Berlin\nMitte' }, ['body', 'location']],
      ['markup only location', { location: '<b></b>' }, ['body', 'location']],
      ['too many detail keys', { details: manyKeys }, ['body', 'details']],
      ['nested object in details', { details: { property: { type: 'house' } } }, ['body', 'details', 'property']],
      ['list in details', { details: { rooms: [1, 2] } }, ['body', 'details', 'rooms']],
      ['null in details', { details: { rooms: null } }, ['body', 'details', 'rooms']],
      ['key not snake_case', { details: { PropertyType: 'house' } }, ['body', 'details']],
      ['detail text too long', { details: { note: 'x'.repeat(501) } }, ['body', 'details', 'note']],
      ['control character in a detail', { details: { note: 'a\u0000b' } }, ['body', 'details', 'note']],
      ['tab in a detail', { details: { note: 'a\tb' } }, ['body', 'details', 'note']],
      ['detail number too large', { details: { area_m2: 1e13 } }, ['body', 'details', 'area_m2']],
      ['details not an object', { details: 'house' }, ['body', 'details']],
    ];
    for (const [what, over, loc] of cases) {
      const res = await create(body({ budget: undefined, needed_by: undefined, location: undefined, details: undefined, ...over }));
      assert.equal(res.statusCode, 422, `${what}: ${res.body}`);
      assert.deepEqual(res.json().detail[0].loc, loc, `${what}: ${res.body}`);
    }
    const batch = await t.app.inject({ method: 'POST', url: `${BASE}/proposals/batch`, headers: agent.headers, payload: { ...body({ company_id: undefined, needed_by: inDays(-3) }), company_ids: [companyId] } });
    assert.equal(batch.statusCode, 422);
    assert.deepEqual(batch.json().detail[0].loc, ['body', 'needed_by']);
    assert.equal(await count(), before);
  });

  it('treats the fields as part of the request for Idempotency-Key', async () => {
    const key = { 'idempotency-key': 'structured-1' };
    const first = await create(body(), key);
    assert.equal(first.statusCode, 201, first.body);
    // Same fields, keys in another order: the same request.
    const again = await create({ ...body(), details: { occupied: true, floors: 2, area_m2: 120.5, property_type: 'house' } }, key);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.json().id, first.json().id);
    for (const over of [{ budget: { amount: 2600, currency: 'EUR' } }, { needed_by: inDays(31) }, { location: 'Hamburg' }, { details: { property_type: 'flat' } }, { details: undefined }]) {
      const other = await create(body(over), key);
      assert.equal(other.statusCode, 422, JSON.stringify(over));
      assert.deepEqual(other.json().detail[0].loc, ['header', 'idempotency-key']);
    }
  });

  it('the MCP tools create_proposal, create_batch_proposals and send_proposal accept the fields and refuse bad ones', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const connect = async (path: string) => {
      const client = new Client({ name: 'structured-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}${path}`), { requestInit: { headers: agent.headers } }));
      // Listing first makes the client check each structured result against the tool's outputSchema.
      await client.listTools();
      return client;
    };
    const args = { customer_email: 'ann@example.org', customer_name: 'Ann', description: 'Roof quote', ...structured };
    const agentServer = await connect('/mcp');
    try {
      const call = async (name: string, a: Record<string, unknown>) => (await agentServer.callTool({ name, arguments: a })) as ToolResult;
      // The tools' inputSchema spells out the value types of details (the REST schema cannot: its validator coerces).
      const { tools } = await agentServer.listTools();
      for (const name of ['create_proposal', 'create_batch_proposals']) {
        const props = tools.find((x) => x.name === name)!.inputSchema.properties as Record<string, { additionalProperties?: { anyOf?: { type: string }[] } }>;
        assert.deepEqual(props.details!.additionalProperties!.anyOf!.map((b) => b.type), ['string', 'number', 'boolean'], name);
        assert.ok(['budget', 'needed_by', 'location'].every((k) => k in props), name);
      }
      const created = await call('create_proposal', { ...args, company_id: companyId, idempotency_key: 'mcp-structured-1' });
      assert.ok(!created.isError, created.content[0]?.text);
      assert.deepEqual(fieldsOf(created.structuredContent!), expected);
      const replay = await call('create_proposal', { ...args, company_id: companyId, idempotency_key: 'mcp-structured-1', budget: { amount: 1, currency: 'EUR' } });
      assert.equal(replay.isError, true);
      assert.match(replay.content[0]!.text, /idempotency-key/);

      const batch = await call('create_batch_proposals', { ...args, company_ids: [companyId, otherCompanyId] });
      assert.ok(!batch.isError, batch.content[0]?.text);
      for (const r of batch.structuredContent!.results as { proposal: Record<string, unknown> }[]) assert.deepEqual(fieldsOf(r.proposal), expected);

      for (const [bad, field] of [[{ budget: { amount: -1, currency: 'EUR' } }, 'budget.amount'], [{ needed_by: inDays(-1) }, 'needed_by'], [{ details: { a: { b: 1 } } }, 'details.a'], [{ needed_by: '2027-02-30' }, 'needed_by']] as const) {
        const res = await call('create_proposal', { ...args, ...bad, company_id: companyId });
        assert.equal(res.isError, true, JSON.stringify(bad));
        assert.ok(res.content[0]!.text.includes(field), `${field}: ${res.content[0]!.text}`);
      }
    } finally {
      await agentServer.close();
    }
    const companyServer = await connect(`/mcp/company/${companyId}`);
    try {
      const sent = (await companyServer.callTool({ name: 'send_proposal', arguments: args })) as ToolResult;
      assert.ok(!sent.isError, sent.content[0]?.text);
      assert.deepEqual(fieldsOf(sent.structuredContent!), expected);
    } finally {
      await companyServer.close();
    }
  });

  it('rules: the date window is relative to the UTC day; budgets and labels read well', () => {
    const now = new Date('2026-03-01T23:30:00Z');
    checkNeededByWindow('2026-03-01', now);
    checkNeededByWindow('2031-03-01', now);
    assert.throws(() => checkNeededByWindow('2026-02-28', now), /past/);
    assert.throws(() => checkNeededByWindow('2031-03-02', now), /5 years/);
    checkNeededByWindow('2033-02-28', new Date('2028-02-29T12:00:00Z'));
    assert.throws(() => cleanStructured({ needed_by: '2027-02-29' }), /calendar date/);
    assert.equal(cleanStructured({ needed_by: '2028-02-29' }).needed_by, '2028-02-29');
    assert.equal(cleanStructured({ budget: { amount: 0.29, currency: 'gbp' } }).budget!.currency, 'GBP');
    assert.equal(formatBudget({ amount: 2500, currency: 'EUR' }), '€2,500');
    assert.equal(formatBudget({ amount: 2500.5, currency: 'USD' }), '$2,500.50');
    assert.equal(detailLabel('area_m2'), 'Area m2');
    assert.equal(cleanStructured({ details: {} }).details, null);
  });
});
