import fs from 'node:fs';
import type { EmbeddingProvider } from '../../../src/platform/embeddings/embeddings.js';

/** Memoises document embeddings across stores and runs (the model is deterministic; it is the slow part): eval and calibration scripts. */
export function memoEmbeddings(inner: EmbeddingProvider, cacheFile?: string): EmbeddingProvider {
  const memo = new Map<string, number[]>(cacheFile && fs.existsSync(cacheFile) ? Object.entries(JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as Record<string, number[]>) : []);
  return {
    model: inner.model,
    dimensions: inner.dimensions,
    ready: () => inner.ready(),
    isReady: () => inner.isReady(),
    close: () => inner.close(),
    embedQuery: (t) => inner.embedQuery(t),
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !memo.has(t)))];
      for (let i = 0; i < missing.length; i += 64) {
        const chunk = missing.slice(i, i + 64);
        const vs = await inner.embed(chunk);
        chunk.forEach((t, j) => memo.set(t, vs[j]!));
      }
      if (cacheFile && missing.length) fs.writeFileSync(cacheFile, JSON.stringify(Object.fromEntries(memo)));
      return texts.map((t) => memo.get(t)!);
    },
  };
}
