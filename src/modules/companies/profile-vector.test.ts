import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { blendUnit, embedProfiles, embeddingText, tagsText, TAGS_VECTOR_WEIGHT, type EmbeddableProfile } from './profile-vector.js';

/** A provider whose vectors say which text they came from: a unit vector on the text's own axis. */
function axisProvider(axes: string[]) {
  const calls: string[][] = [];
  const provider: EmbeddingProvider = {
    model: 'axis',
    dimensions: axes.length,
    embed: async (texts) => {
      calls.push(texts);
      return texts.map((t) => {
        const i = axes.indexOf(t);
        assert.ok(i >= 0, `unexpected text: ${t}`);
        return axes.map((_, j) => (j === i ? 1 : 0));
      });
    },
    embedQuery: async () => [],
    ready: async () => {},
    isReady: () => true,
    close: async () => {},
  };
  return { provider, calls };
}

const profile = (over: Partial<EmbeddableProfile>): EmbeddableProfile => ({
  name: 'Oakhill Removals', industry: 'Removals', category: 'Logistics & Transportation', keywords: [], services: [],
  description: 'We relocate households.', city: 'Manchester', country: 'United Kingdom', ...over,
});

test('a profile vector is its text vector plus the weighted tags vector, at unit length; one call for both texts of every profile', async () => {
  const tagged = profile({ keywords: ['house moves', ' packing '] });
  const untagged = profile({ name: 'Other', description: 'Piano handling.' });
  const { provider, calls } = axisProvider([embeddingText(tagged), embeddingText(untagged), 'house moves, packing']);
  const [a, b] = await embedProfiles(provider, [tagged, untagged]);
  assert.equal(calls.length, 1, 'one provider call');
  assert.deepEqual(calls[0], [embeddingText(tagged), embeddingText(untagged), 'house moves, packing'], 'texts first, then the tags that exist');
  const norm = Math.hypot(1, TAGS_VECTOR_WEIGHT);
  assert.deepEqual(a!.map((x) => Number(x.toFixed(6))), [1 / norm, 0, TAGS_VECTOR_WEIGHT / norm].map((x) => Number(x.toFixed(6))));
  assert.deepEqual(b, [0, 1, 0], 'no tags: the text vector alone');
  assert.ok(Math.abs(Math.hypot(...a!) - 1) < 1e-9);
});

test('tagsText trims and drops empty tags; embeddingText leaves name and place out and falls back for a stub', () => {
  assert.equal(tagsText({ keywords: [' a ', '', 'b'] }), 'a, b');
  assert.equal(tagsText({ keywords: [] }), '');
  const text = embeddingText(profile({ keywords: ['packing'] }));
  assert.equal(text, 'Removals. packing. We relocate households.');
  assert.equal(embeddingText(profile({ industry: '', description: '' })), 'Oakhill Removals. Logistics & Transportation');
});

test('blendUnit: unit length, and the first vector when the sum vanishes', () => {
  const v = blendUnit([3, 0], [0, 4], 1);
  assert.deepEqual(v, [0.6, 0.8]);
  assert.deepEqual(blendUnit([1, 0], [-1, 0], 1), [1, 0]);
});
