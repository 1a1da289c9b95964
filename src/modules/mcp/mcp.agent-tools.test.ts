import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { companyFixture, registerAgent, seedCompanies, useTestApp } from '../../../test/helpers/index.js';
import { MODERN_VERSION } from './mcp.protocol.js';

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

describe('MCP agent tools: registration, idempotency, compact results (issue 37)', () => {
  const t = useTestApp();
  let url: string;
  let boilerId: string;
  let plumberId: string;
  let key: string;

  /** An SDK client that lists the tools first: it then checks every structured result against the tool's outputSchema. */
  async function connect(headers: Record<string, string> = {}) {
    const client = new Client({ name: 'agent-tools-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
    await client.listTools();
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
  const ok = (res: ToolResult) => {
    assert.ok(!res.isError, res.content[0]?.text);
    return res.structuredContent!;
  };

  before(async () => {
    [boilerId, plumberId] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Berlin Boiler Repair', keywords: ['boiler', 'heating', 'repair'], services: ['Boiler repair', 'Heating maintenance'], description: 'We repair gas boilers in Berlin.' }),
      companyFixture({ name: 'Spree Plumbing', keywords: ['plumbing', 'boiler'], services: ['Leak repair'], description: 'Plumbers in Berlin who also service boilers.' }),
    ])) as [string, string];
    ({ key } = await registerAgent(t.app, 'Tools test agent', 'tools-owner@example.com'));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('declares an outputSchema (an object) on every tool, in tools/list of both protocol generations', async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      for (const tool of tools) assert.equal(tool.outputSchema?.type, 'object', tool.name);
      const search = tools.find((x) => x.name === 'search_companies')!;
      const items = (search.outputSchema!.properties as Record<string, { items: { required: string[]; properties: Record<string, unknown> } }>).companies!.items;
      assert.deepEqual(items.required, ['id']);
      assert.ok('relevance' in items.properties);
      assert.ok(!JSON.stringify(search.outputSchema).includes('$ref'));
    } finally {
      await client.close();
    }
    const res = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION } } }),
    });
    const modern = ((await res.json()) as { result: { tools: { name: string; outputSchema?: { type: string } }[] } }).result.tools;
    for (const tool of modern) assert.equal(tool.outputSchema?.type, 'object', tool.name);
  });

  it('summarises search results in one line per company (name, place, relevance, id) and projects fields', async () => {
    const client = await connect();
    try {
      const full = await call(client, 'search_companies', { q: 'boiler repair', limit: 5 });
      const companies = ok(full).companies as Record<string, unknown>[];
      assert.ok(companies.length >= 1);
      const lines = full.content[0]!.text.split('\n').filter((l) => l.startsWith('- '));
      assert.equal(lines.length, companies.length);
      const first = companies[0]!;
      assert.match(lines[0]!, new RegExp(`^- ${String(first.name)} \\(Berlin, Germany\\) · .*id ${String(first.id)}$`));
      if (typeof first.relevance === 'string') assert.ok(lines[0]!.includes(`relevance ${first.relevance}`));
      assert.ok(!full.content[0]!.text.includes('"description"'));

      for (const fields of ['name,relevance', ['name', 'relevance'], ' name , relevance ']) {
        const picked = await call(client, 'search_companies', { q: 'boiler repair', limit: 5, fields });
        for (const c of ok(picked).companies as Record<string, unknown>[]) {
          assert.ok(Object.keys(c).every((k) => ['id', 'name', 'relevance'].includes(k)), JSON.stringify(c));
          assert.equal(typeof c.id, 'string');
          assert.equal(typeof c.name, 'string');
        }
        assert.equal(typeof ok(picked).total_found, 'number');
      }
      const idOnly = await call(client, 'search_companies', { q: 'boiler repair', fields: 'id' });
      for (const c of ok(idOnly).companies as Record<string, unknown>[]) assert.deepEqual(Object.keys(c), ['id']);

      const unknown = await call(client, 'search_companies', { q: 'boiler', fields: 'name,phone_number' });
      assert.equal(unknown.isError, true);
      assert.match(unknown.content[0]!.text, /^Invalid arguments for search_companies: fields: unknown field phone_number; valid fields: id, name, /);
      assert.match(unknown.content[0]!.text, /match_score/);
    } finally {
      await client.close();
    }
  });

  it('projects get_company and get_company_by_website with fields; unknown fields list the valid ones', async () => {
    const client = await connect();
    try {
      const picked = ok(await call(client, 'get_company', { company_id: boilerId, fields: ['services', 'contact'] }));
      assert.deepEqual(Object.keys(picked).sort(), ['contact', 'id', 'services']);
      assert.deepEqual(picked.services, ['Boiler repair', 'Heating maintenance']);
      const full = await call(client, 'get_company', { company_id: boilerId });
      assert.equal(ok(full).name, 'Berlin Boiler Repair');
      assert.match(full.content[0]!.text, new RegExp(`^- Berlin Boiler Repair \\(Berlin, Germany\\) · verified · id ${boilerId}`));
      const website = String(ok(full).website_url);
      const byUrl = ok(await call(client, 'get_company_by_website', { website_url: website, fields: 'name' }));
      assert.deepEqual(byUrl, { id: boilerId, name: 'Berlin Boiler Repair' });
      const bad = await call(client, 'get_company', { company_id: boilerId, fields: 'services,nope,alsonope' });
      assert.equal(bad.isError, true);
      assert.match(bad.content[0]!.text, /unknown fields nope, alsonope; valid fields: id, name, website_url, domain/);
    } finally {
      await client.close();
    }
  });

  it('register_agent registers like the REST route: the key once and the MCP config to reconnect with it', async () => {
    const anonymous = await connect();
    let apiKey: string;
    try {
      const res = await call(anonymous, 'register_agent', { name: 'MCP-registered agent', owner_email: 'mcp-registered@example.com' });
      const body = ok(res);
      apiKey = String(body.api_key);
      assert.match(apiKey, /^agp_/);
      const agent = body.agent as Record<string, unknown>;
      assert.equal(agent.name, 'MCP-registered agent');
      const usage = body.usage as { header: string; mcp_config: { mcpServers: Record<string, { url: string; headers: Record<string, string> }> } };
      assert.equal(usage.header, `X-API-Key: ${apiKey}`);
      assert.deepEqual(usage.mcp_config, { mcpServers: { [t.config.serviceName]: { url: `${t.config.baseUrl}/mcp`, headers: { 'X-API-Key': apiKey } } } });
      // The key is in the text too (clients that show only text), and the configuration to reconnect.
      assert.ok(res.content[0]!.text.includes(apiKey));
      assert.match(res.content[0]!.text, /mcpServers/);
      // The same validation as POST /api/v1/agent/register.
      const badEmail = await call(anonymous, 'register_agent', { name: 'X', owner_email: 'not-an-email' });
      assert.equal(badEmail.isError, true);
      const noName = await call(anonymous, 'register_agent', { name: '', owner_email: 'x@example.com' });
      assert.equal(noName.isError, true);
      const extra = await call(anonymous, 'register_agent', { name: 'X', owner_email: 'x@example.com', admin: true });
      assert.equal(extra.isError, true);
      // One agent per confirmed owner email, as over REST.
      const taken = await call(anonymous, 'register_agent', { name: 'Again', owner_email: 'tools-owner@example.com' });
      assert.equal(taken.isError, true);
      assert.match(taken.content[0]!.text, /409/);
    } finally {
      await anonymous.close();
    }
    const reconnected = await connect({ 'X-API-Key': apiKey });
    try {
      assert.equal(ok(await call(reconnected, 'get_me', {})).name, 'MCP-registered agent');
    } finally {
      await reconnected.close();
    }
  });

  it('idempotency_key: create_proposal and create_batch_proposals retried with the same key create nothing new', async () => {
    const client = await connect({ 'X-API-Key': key });
    try {
      const args = { company_id: boilerId, customer_email: 'jane@example.com', customer_name: 'Jane Doe', description: 'Please repair my boiler.', idempotency_key: 'mcp-create-1' };
      const first = await call(client, 'create_proposal', args);
      const second = await call(client, 'create_proposal', args);
      assert.equal(ok(second).id, ok(first).id);
      assert.deepEqual(second.structuredContent, first.structuredContent);
      assert.ok(!first.content[0]!.text.includes('Replayed'));
      assert.match(second.content[0]!.text, /Replayed: this idempotency_key was already used/);
      const other = await call(client, 'create_proposal', { ...args, description: 'Something else.' });
      assert.equal(other.isError, true);
      assert.match(other.content[0]!.text, /Idempotency-Key was already used with a different request/);
      const badKey = await call(client, 'create_proposal', { ...args, idempotency_key: 'has space' });
      assert.equal(badKey.isError, true);
      assert.match(badKey.content[0]!.text, /idempotency_key/);
      // The MCP key is the REST Idempotency-Key: a REST retry with it returns the same proposal.
      const { idempotency_key: _k, ...body } = args;
      const rest = await t.app.inject({ method: 'POST', url: '/api/v1/agent/proposals', headers: { 'x-api-key': key, 'idempotency-key': 'mcp-create-1' }, payload: body });
      assert.equal(rest.json().id, ok(first).id);
      assert.equal(rest.headers['idempotent-replayed'], 'true');

      const batchArgs = { company_ids: [boilerId, plumberId], customer_email: 'jane@example.com', customer_name: 'Jane Doe', description: 'Quotes please.', idempotency_key: 'mcp-batch-1' };
      const b1 = ok(await call(client, 'create_batch_proposals', batchArgs));
      const b2 = await call(client, 'create_batch_proposals', batchArgs);
      assert.deepEqual(b2.structuredContent, b1);
      assert.match(b2.content[0]!.text, /Replayed/);
      const list = ok(await call(client, 'list_proposals', { limit: 100 }));
      assert.equal(list.total, 3);
    } finally {
      await client.close();
    }
  });

  it('idempotency_key: reply_to_proposal retried with the same key adds one reply (REST Idempotency-Key too)', async () => {
    const client = await connect({ 'X-API-Key': key });
    try {
      const created = ok(await call(client, 'create_proposal', { company_id: plumberId, customer_email: 'jo@example.com', customer_name: 'Jo', description: 'Leak under the sink.' }));
      const id = String(created.id);
      const reply = { proposal_id: id, message: 'Any time on Friday works.', idempotency_key: 'mcp-reply-1' };
      const r1 = ok(await call(client, 'reply_to_proposal', reply));
      const r2 = await call(client, 'reply_to_proposal', reply);
      assert.deepEqual(r2.structuredContent, r1);
      assert.match(r2.content[0]!.text, /Replayed/);
      const thread = ok(await call(client, 'get_proposal', { proposal_id: id })).messages as { text: string }[];
      assert.equal(thread.filter((m) => m.text === 'Any time on Friday works.').length, 1);
      const otherMessage = await call(client, 'reply_to_proposal', { ...reply, message: 'Saturday instead.' });
      assert.equal(otherMessage.isError, true);
      // The same key on another proposal is another request: refused, not replayed.
      const otherProposal = await call(client, 'reply_to_proposal', { ...reply, proposal_id: boilerId });
      assert.equal(otherProposal.isError, true);

      const restReply = () => t.app.inject({ method: 'POST', url: `/api/v1/agent/proposals/${id}/reply`, headers: { 'x-api-key': key, 'idempotency-key': 'rest-reply-1' }, payload: { message: 'Or Monday.' } });
      const a = await restReply();
      assert.equal(a.statusCode, 200, a.body);
      assert.equal(a.headers['idempotent-replayed'], undefined);
      const b = await restReply();
      assert.equal(b.statusCode, 200);
      assert.equal(b.headers['idempotent-replayed'], 'true');
      assert.deepEqual(b.json(), a.json());
      const after = ok(await call(client, 'get_proposal', { proposal_id: id })).messages as { text: string }[];
      assert.equal(after.filter((m) => m.text === 'Or Monday.').length, 1);
      // Without a key every reply counts, as before.
      await call(client, 'reply_to_proposal', { proposal_id: id, message: 'Ping.' });
      await call(client, 'reply_to_proposal', { proposal_id: id, message: 'Ping.' });
      const pings = ok(await call(client, 'get_proposal', { proposal_id: id })).messages as { text: string }[];
      assert.equal(pings.filter((m) => m.text === 'Ping.').length, 2);
    } finally {
      await client.close();
    }
  });

  it('idempotency_key: create_webhook retried with the same key registers one endpoint (REST Idempotency-Key too)', async () => {
    const client = await connect({ 'X-API-Key': key });
    try {
      const args = { url: 'https://93.184.216.34/hook', event_types: ['proposal.responded'], idempotency_key: 'mcp-hook-1' };
      const first = await call(client, 'create_webhook', args);
      const second = await call(client, 'create_webhook', args);
      assert.deepEqual(ok(second).endpoint, ok(first).endpoint);
      assert.equal(ok(second).secret, ok(first).secret);
      assert.match(String(ok(first).secret), /^whsec_/);
      assert.ok(first.content[0]!.text.includes(String(ok(first).secret)));
      assert.match(second.content[0]!.text, /Replayed/);
      const other = await call(client, 'create_webhook', { ...args, url: 'https://93.184.216.35/hook' });
      assert.equal(other.isError, true);
      const listed = ok(await call(client, 'list_webhooks', {}));
      assert.equal(listed.total, 1);

      const rest = () => t.app.inject({ method: 'POST', url: '/api/v1/agent/webhooks', headers: { 'x-api-key': key, 'idempotency-key': 'rest-hook-1' }, payload: { url: 'https://93.184.216.34/other' } });
      const a = await rest();
      assert.equal(a.statusCode, 201, a.body);
      const b = await rest();
      assert.equal(b.statusCode, 201);
      assert.equal(b.headers['idempotent-replayed'], 'true');
      assert.equal(b.json().endpoint.id, a.json().endpoint.id);
      assert.equal(b.json().secret, a.json().secret);
      assert.equal(ok(await call(client, 'list_webhooks', {})).total, 2);
      // A deleted endpoint takes its key with it: the same key registers anew.
      await call(client, 'delete_webhook', { webhook_id: (ok(first).endpoint as { id: string }).id });
      const again = ok(await call(client, 'create_webhook', args));
      assert.notEqual((again.endpoint as { id: string }).id, (ok(first).endpoint as { id: string }).id);
    } finally {
      await client.close();
    }
  });
});
