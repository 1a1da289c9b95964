import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { actors, companyFixture, seedCompanies, useTestApp, type Agent, type Owner } from '../../../test/helpers/index.js';

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

describe('MCP review tools (issue 39): list, submit for the customer, report', () => {
  const t = useTestApp();
  let url: string;
  let company: string;
  let agent: Agent;
  let owner: Owner;

  /** An SDK client that lists the tools first: it then checks every structured result against the tool's outputSchema. */
  async function connect(headers: Record<string, string> = {}) {
    const client = new Client({ name: 'review-tools-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
    await client.listTools();
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;

  before(async () => {
    [company] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Harbour Glaziers', website_url: 'https://harbour-glaziers.example', description: 'Window repair and glazing.', keywords: ['glazier'], is_verified: true }),
    ])) as [string];
    const as = actors(t);
    agent = await as.agent('Review Helper');
    owner = await as.owner('owner@harbour-glaziers.example', 'https://harbour-glaziers.example');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('submits the customer\'s review only after approval and holds it for the customer; a bad rating or an unknown review is an error', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/agent/proposals', headers: agent.headers, payload: { company_id: company, customer_email: 'sam@customers.example', customer_name: 'Sam Lee', description: 'A cracked shop window.' } });
    assert.equal(created.statusCode, 201, created.body);
    const proposalId = created.json().id as string;
    const client = await connect({ 'x-api-key': agent.key });
    try {
      const empty = await call(client, 'list_reviews', { company_id: company });
      assert.ok(!empty.isError, empty.content[0]?.text);
      assert.equal(empty.content[0]!.text, 'No published reviews yet.');
      assert.equal((empty.structuredContent!.rating as { count: number }).count, 0);

      const early = await call(client, 'submit_review', { proposal_id: proposalId, rating: 5, text: 'Fast and clean.' });
      assert.equal(early.isError, true);
      assert.match(early.content[0]!.text, /once the company approved/);

      const approved = await t.app.inject({ method: 'POST', url: `/api/proposals/${proposalId}/respond`, headers: owner.headers, payload: { action: 'approve', message: 'Tomorrow at 9.' } });
      assert.equal(approved.statusCode, 200, approved.body);
      const held = await call(client, 'submit_review', { proposal_id: proposalId, rating: 5, text: 'Fast and clean.' });
      assert.ok(!held.isError, held.content[0]?.text);
      assert.equal(held.structuredContent!.status, 'held');
      assert.match(held.content[0]!.text, /confirm/);

      const bad = await call(client, 'submit_review', { proposal_id: proposalId, rating: 9, text: 'x' });
      assert.equal(bad.isError, true, 'a rating out of 1..5 is refused');
      const unknown = await call(client, 'report_review', { review_id: '00000000-0000-4000-8000-000000000000', reason: 'fake' });
      assert.equal(unknown.isError, true);
      assert.match(unknown.content[0]!.text, /not found/i);
    } finally {
      await client.close();
    }
  });

  it('needs a key for submit and report, not for list', async () => {
    const client = await connect();
    try {
      assert.ok(!(await call(client, 'list_reviews', { company_id: company })).isError);
      const res = await call(client, 'submit_review', { proposal_id: '00000000-0000-4000-8000-000000000000', rating: 4, text: 'Good.' });
      assert.equal(res.isError, true);
      assert.match(res.content[0]!.text, /X-API-Key/);
    } finally {
      await client.close();
    }
  });
});
