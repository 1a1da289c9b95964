import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Sgemm } from './use-lite.js';

/** Where scripts/build-native.mjs puts the kernel (built by the postinstall). */
export const NATIVE_SGEMM_PATH = new URL('../../../native/build/sgemm.node', import.meta.url).pathname;

/**
 * The native matrix kernel when it was built on this machine, else undefined (the caller then
 * uses the TensorFlow.js graph). `EMBEDDINGS_NATIVE=0` in the environment forces the fallback,
 * so the fallback can be tested and compared.
 */
export function loadNativeSgemm(): Sgemm | undefined {
  if (process.env.EMBEDDINGS_NATIVE === '0' || !fs.existsSync(NATIVE_SGEMM_PATH)) return undefined;
  try {
    const addon = createRequire(import.meta.url)(NATIVE_SGEMM_PATH) as { sgemm: Sgemm };
    return addon.sgemm;
  } catch {
    return undefined;
  }
}
