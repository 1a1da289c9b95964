import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import { testConfig } from '../config.js';
import { startFakeLlm, type FakeLlm } from '../../test/fakes/llm.js';
import { AppError } from './errors.js';
import { createLlm } from './llm.js';

describe('language-model provider', () => {
  let fake: FakeLlm;
  before(async () => {
    fake = await startFakeLlm();
  });
  after(() => fake.close());

  const schema = Type.Object({ city: Type.String() }, { additionalProperties: false });
  const client = () => createLlm({ ...testConfig().llm, baseUrl: fake.baseUrl, timeoutMs: 1500, maxRetries: 1 })!;

  it('is absent without LLM_BASE_URL', () => {
    assert.equal(createLlm(testConfig().llm), undefined);
  });

  it('returns validated structured output and sends the schema', async () => {
    fake.respond = () => '{"city":"Vienna"}';
    assert.deepEqual(await client().completeJson({ messages: [{ role: 'user', content: 'x' }], schema, schemaName: 'place' }), { city: 'Vienna' });
    assert.equal(fake.requests.at(-1)!.response_format?.type, 'json_schema');
  });

  it('refuses output that is not JSON or breaks the schema', async () => {
    fake.respond = () => 'not json';
    await assert.rejects(client().completeJson({ messages: [{ role: 'user', content: 'x' }], schema, schemaName: 'place' }), (e: unknown) => e instanceof AppError && e.code === 'unavailable');
    fake.respond = () => '{"city": 5, "extra": true}';
    await assert.rejects(client().completeJson({ messages: [{ role: 'user', content: 'x' }], schema, schemaName: 'place' }), AppError);
  });

  it('retries a 500 and times out a slow model', async () => {
    let n = 0;
    fake.respond = () => (n++ === 0 ? { status: 500 } : 'fine');
    assert.equal(await client().completeText({ messages: [{ role: 'user', content: 'x' }] }), 'fine');
    fake.respond = () => ({ delayMs: 6000, content: 'late' });
    await assert.rejects(client().completeText({ messages: [{ role: 'user', content: 'x' }] }), (e: unknown) => e instanceof AppError && e.code === 'upstream_timeout');
  });
});
