import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bearer, companyFixture, seedCompanies, signInOwner, useTestApp } from '../../../test/helpers/index.js';

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/**
 * An agent's whole journey over MCP only, with the official SDK client on a listening server: it registers, finds a
 * roofer, reads its profile, sends one proposal (retried), reads the owner's answer, replies once (retried), and asks
 * the roofer's own MCP server a question. The owner answers in the dashboard (its REST route).
 */
describe('MCP journey: register → search → propose → answer → reply → ask the company (issue 37)', () => {
  const t = useTestApp();
  const clients: Client[] = [];
  let url: string;
  let rooferId: string;

  async function connect(path: string, headers: Record<string, string> = {}) {
    const client = new Client({ name: 'journey-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url + path), { requestInit: { headers } }));
    // Listing first makes the client check every structured result against the tool's outputSchema.
    await client.listTools();
    clients.push(client);
    return client;
  }
  async function call(client: Client, name: string, args: Record<string, unknown>) {
    const res = (await client.callTool({ name, arguments: args })) as ToolResult;
    assert.ok(!res.isError, `${name}: ${res.content[0]?.text}`);
    return res;
  }

  before(async () => {
    [rooferId] = (await seedCompanies(t.app, [
      companyFixture({
        name: 'Elbe Flat Roofs',
        website_url: 'https://elbe-flat-roofs.example.com',
        category: 'Construction & Home Services',
        industry: 'Roofing',
        description: 'Elbe Flat Roofs repairs flat roofs after storms in Hamburg, with emergency call-outs.',
        services: ['Flat roof repair', 'Storm damage repair'],
        keywords: ['roofer', 'flat roof', 'storm damage'],
        contact_email: 'office@elbe-flat-roofs.example.com',
        city: 'Hamburg',
        address: 'Kaistrasse 9, 20457 Hamburg',
        service_type: 'local',
      }),
      companyFixture({
        name: 'Alster Roofing Rivals',
        category: 'Construction & Home Services',
        industry: 'Roofing',
        description: 'Alster Roofing Rivals repairs roofs after storms in Hamburg.',
        services: ['Roof repair'],
        keywords: ['roofer', 'storm damage'],
        city: 'Hamburg',
        service_type: 'local',
      }),
    ])) as [string];
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  it('goes all the way over MCP', async () => {
    // 1. Register (no key needed) and reconnect with the returned configuration.
    const anonymous = await connect('/mcp');
    const registered = (await call(anonymous, 'register_agent', { name: 'Journey agent', owner_email: 'journey-owner@example.com' })).structuredContent!;
    const config = (registered.usage as { mcp_config: { mcpServers: Record<string, { url: string; headers: Record<string, string> }> } }).mcp_config;
    const entry = config.mcpServers[t.config.serviceName]!;
    assert.equal(entry.headers['X-API-Key'], registered.api_key);
    const agent = await connect(new URL(entry.url).pathname, entry.headers);

    // 2. Search, with only the fields it needs.
    const found = await call(agent, 'search_companies', { q: 'flat roof repair after a storm', city: 'Hamburg', fields: 'name,location,relevance,is_verified' });
    const hits = found.structuredContent!.companies as { id: string; name: string }[];
    assert.ok(hits.some((c) => c.id === rooferId), found.content[0]!.text);
    assert.match(found.content[0]!.text, new RegExp(`Elbe Flat Roofs \\(Hamburg, Germany\\).*id ${rooferId}`));

    // 3. Read the profile.
    const profile = (await call(agent, 'get_company', { company_id: rooferId, fields: 'name,services,accepts_proposals' })).structuredContent!;
    assert.deepEqual(profile, { id: rooferId, name: 'Elbe Flat Roofs', services: ['Flat roof repair', 'Storm damage repair'], accepts_proposals: true });

    // 4. Propose, twice with the same idempotency_key (a retry after a lost answer): one proposal.
    const proposal = { company_id: rooferId, customer_email: 'kim@example.com', customer_name: 'Kim Lee', description: 'Storm damage on a flat garage roof; can you come this week?', idempotency_key: 'journey-proposal-1' };
    const first = (await call(agent, 'create_proposal', proposal)).structuredContent!;
    const retry = await call(agent, 'create_proposal', proposal);
    assert.equal(retry.structuredContent!.id, first.id);
    assert.match(retry.content[0]!.text, /Replayed/);
    assert.equal((await call(agent, 'list_proposals', {})).structuredContent!.total, 1);
    const proposalId = String(first.id);

    // 5. The owner answers in the dashboard.
    const owner = await signInOwner(t, 'owner@elbe-flat-roofs.example.com', 'https://elbe-flat-roofs.example.com');
    assert.equal(owner.companyId, rooferId);
    const answered = await t.app.inject({ method: 'POST', url: `/api/proposals/${proposalId}/respond`, headers: bearer(owner.token), payload: { action: 'respond', message: 'Yes: Thursday at 9, about 400 EUR.' } });
    assert.equal(answered.statusCode, 200, answered.body);

    // 6. The agent reads the answer and replies, twice with the same key: one reply.
    const read = await call(agent, 'get_proposal', { proposal_id: proposalId });
    assert.equal(read.structuredContent!.status, 'responded');
    assert.match(read.content[0]!.text, /Thursday at 9, about 400 EUR/);
    const reply = { proposal_id: proposalId, message: 'Thursday at 9 is fine, thank you.', idempotency_key: 'journey-reply-1' };
    const replied = (await call(agent, 'reply_to_proposal', reply)).structuredContent!;
    assert.equal(replied.status, 'pending');
    const replayed = await call(agent, 'reply_to_proposal', reply);
    assert.deepEqual(replayed.structuredContent, replied);
    const thread = (await call(agent, 'get_proposal', { proposal_id: proposalId })).structuredContent!.messages as { author_role: string; text: string }[];
    assert.deepEqual(thread.map((m) => [m.author_role, m.text]), [
      ['agent', proposal.description],
      ['company', 'Yes: Thursday at 9, about 400 EUR.'],
      ['agent', 'Thursday at 9 is fine, thank you.'],
    ]);

    // 7. The roofer's own MCP server answers from its profile, and names no other company.
    const own = await connect(`/mcp/company/${rooferId}`);
    const asked = await call(own, 'ask_about_company', { question: 'Do you repair flat roofs after storms?' });
    assert.equal(asked.structuredContent!.answer_status, 'yes');
    assert.equal(asked.structuredContent!.company_id, rooferId);
    assert.equal((asked.structuredContent!.contact as { email: string }).email, 'office@elbe-flat-roofs.example.com');
    assert.ok(!JSON.stringify(asked).includes('Alster'), asked.content[0]!.text);
    const unknown = await call(own, 'ask_about_company', { question: 'Do you install battery storage?' });
    assert.equal(unknown.structuredContent!.answer_status, 'not_stated');
    assert.ok(!JSON.stringify(unknown).includes('Alster'));
  });
});
