import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { testConfig } from '../../config.js';
import { createEmbeddingProvider } from './embeddings.js';

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('query embeddings: micro-batching', () => {
  const provider = createEmbeddingProvider({ ...testConfig().embeddings, workers: 1, cacheSize: 100 });
  after(() => provider.close());

  it('serves concurrent novel queries with fewer model calls, each query getting its own vector', async () => {
    await provider.ready();
    const texts = Array.from({ length: 12 }, (_, i) => `query number ${i} about ${['plumbing', 'tax advice', 'wedding photos', 'solar panels'][i % 4]}`);
    const single = await provider.embed(texts);
    const calls: number[] = [];
    const embed = provider.embed.bind(provider);
    provider.embed = (batch: string[]) => {
      calls.push(batch.length);
      return embed(batch);
    };
    const vectors = await Promise.all(texts.map((t) => provider.embedQuery(t)));
    assert.ok(calls.length < texts.length, `12 queries took ${calls.length} model calls (${calls.join(', ')})`);
    assert.equal(calls[0], 1, 'the first query does not wait for others');
    vectors.forEach((v, i) => assert.ok(cosine(v, single[i]!) > 0.9999, `query ${i} got another query's vector`));
    // Answered from the cache afterwards: no further model call.
    const before = calls.length;
    await provider.embedQuery(texts[3]!);
    assert.equal(calls.length, before);
  });

  it('rejects every query of a failed call and lets the next one succeed', async () => {
    const embed = provider.embed;
    let fail = true;
    provider.embed = (batch: string[]) => (fail ? Promise.reject(new Error('model down')) : embed(batch));
    await assert.rejects(provider.embedQuery('a query that fails'), /model down/);
    fail = false;
    assert.equal((await provider.embedQuery('a query that fails')).length, 512, 'a failure is not cached');
  });
});
