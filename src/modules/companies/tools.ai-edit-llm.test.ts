import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testConfig } from '../../config.js';
import { startFakeLlm, type FakeLlm } from '../../../test/fakes/llm.js';
import { actors, companyFixture, seedCompanies, useTestApp, type Owner } from '../../../test/helpers/index.js';

describe('AI edit through a language model (fake chat-completions server)', () => {
  let fake: FakeLlm;
  let id: string;
  let owner: Owner;

  before(async () => {
    fake = await startFakeLlm();
  });
  const t = useTestApp(() => ({ llm: { ...testConfig().llm, baseUrl: fake.baseUrl, timeoutMs: 1500, maxRetries: 0 } }));
  const as = actors(t);
  before(async () => {
    [id] = (await seedCompanies(t.app, [
      companyFixture({ name: 'Delta Tiles', website_url: 'https://delta-tiles.com', category: 'Construction & Home Services', keywords: ['tiles'], phone: '+49 1 2', city: 'Berlin' }),
    ])) as [string];
    owner = await as.owner('owner@delta-tiles.com', 'https://delta-tiles.com');
  });
  after(async () => {
    await fake.close();
  });

  const aiEdit = (payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/tools/${id}/ai-edit`, headers: owner.headers, payload });

  it('turns valid model output into a validated diff and applies it', async () => {
    fake.respond = () => JSON.stringify({ changes: { keywords: ['tiles', 'Austria'], phone: null, description: '<p>We are <b>ISO 27001</b> certified.</p>' }, notes: 'Added Austria.' });
    const res = await aiEdit({ instruction: 'we now also serve Austria; drop the old phone number; say we are ISO 27001 certified', apply: true });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.interpreter, 'llm');
    assert.equal(body.applied, true);
    assert.equal(body.notes, 'Added Austria.');
    assert.deepEqual(body.proposed, { keywords: ['tiles', 'Austria'], phone: null, description: 'We are ISO 27001 certified.' });
    assert.equal(body.tool.description, 'We are ISO 27001 certified.', 'markup from the model is removed like any input');
    // the request carried the instruction as data and asked for structured output
    const req = fake.requests.at(-1)!;
    assert.equal(req.response_format?.type, 'json_schema');
    assert.match(req.messages[1]!.content, /drop the old phone number/);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/tools/${id}/ai-edit/undo`, headers: owner.headers })).statusCode, 200);
  });

  it('never applies fields the model may not touch, or invalid values', async () => {
    fake.respond = () => JSON.stringify({ changes: { is_verified: true, website_url: 'https://evil.com', category: 'Rocket Science', city: 'Vienna' }, notes: '' });
    const res = await aiEdit({ instruction: 'we moved to Vienna and are verified now', apply: true });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(body.proposed, { city: 'Vienna' });
    assert.deepEqual(body.rejected.map((r: { field: string }) => r.field).sort(), ['category', 'is_verified', 'website_url']);
    assert.equal(body.tool.city, 'Vienna');
    assert.equal(body.tool.is_verified, true, 'unchanged: the fixture company was already verified');
    assert.equal(body.tool.website_url, 'https://delta-tiles.com');

    fake.respond = () => JSON.stringify({ changes: { is_featured: true }, notes: '' });
    const only = await aiEdit({ instruction: 'feature us', apply: true });
    assert.equal(only.statusCode, 422);
    assert.match(only.json().detail[0].msg, /is_featured/);
    const detail = (await t.app.inject({ method: 'GET', url: `/api/tools/${id}` })).json();
    assert.equal(detail.is_featured, false);
  });

  it('the model proposes prices per service; a list naming a service twice is rejected, a valid one applied (issue 39)', async () => {
    fake.respond = () => JSON.stringify({ changes: { service_prices: [{ service: 'Tiling', from: 45, currency: 'EUR', unit: 'hour' }, { service: 'tiling', from: 50, currency: 'EUR', unit: 'hour' }] }, notes: '' });
    const twice = await aiEdit({ instruction: 'tiling costs 45 or 50 an hour' });
    assert.equal(twice.statusCode, 422, twice.body);
    assert.match(twice.json().detail[0].msg, /listed twice/);
    fake.respond = () => JSON.stringify({ changes: { service_prices: [{ service: 'Bathroom tiling', from: 1200, to: 3000, currency: 'eur', unit: 'project' }] }, notes: '' });
    const res = await aiEdit({ instruction: 'a bathroom costs 1200 to 3000 euros', apply: true });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().tool.service_prices, [{ service: 'Bathroom tiling', from: 1200, to: 3000, currency: 'EUR', unit: 'project' }]);
    assert.match(fake.requests.at(-1)!.messages[0]!.content, /service_prices is the complete list/);
  });

  it('answers 503 when the model returns invalid JSON', async () => {
    fake.respond = () => 'this is { not json';
    const res = await aiEdit({ instruction: 'set city to Graz' });
    assert.equal(res.statusCode, 503);
    assert.match(res.json().detail, /language model/i);
  });

  it('answers 504 when the model does not answer in time', async () => {
    fake.respond = () => ({ delayMs: 6000, content: '{}' });
    const res = await aiEdit({ instruction: 'set city to Graz' });
    assert.equal(res.statusCode, 504);
    assert.equal(typeof res.json().detail, 'string');
    const detail = (await t.app.inject({ method: 'GET', url: `/api/tools/${id}` })).json();
    assert.equal(detail.city, 'Vienna');
  });
});
