import fs from 'node:fs';
import { createRequire } from 'node:module';
import { projectPath } from './paths.js';
import type { MapFile } from '../lib/array-file.js';

/** out[n×m] = a[n×k] · w[k×m] + bias[m] (row-major float32); `relu` clamps at zero. */
export type Sgemm = (a: Float32Array, n: number, k: number, w: Float32Array, m: number, bias: Float32Array | null, out: Float32Array, relu: boolean) => void;
/** out[i] = dot(row slots[i] of `matrix` (rows of `dims`), query) for i < count. */
export type DotRows = (matrix: Float32Array, dims: number, slots: Int32Array, count: number, query: Float32Array, out: Float64Array) => void;
/** dotRows over a matrix of IEEE half floats (binary16 bits in a Uint16Array), the query float32. */
export type DotRowsHalf = (matrix: Uint16Array, dims: number, slots: Int32Array, count: number, query: Float32Array, out: Float64Array) => void;

/** Sets the sign bits (bit j of a row's dims/8 bytes: component j > 0) of rows from..from+count-1 of a half-float matrix in `out`. */
export type SignBitsHalf = (matrix: Uint16Array, dims: number, from: number, count: number, out: Uint8Array) => void;
/**
 * Writes to `out` the `keep` slots of slots[0..count) whose sign bits (`bytes` a row in `signs`) are nearest `query`'s
 * by Hamming distance, in the order given, and returns how many it wrote.
 */
export type NearestBySigns = (signs: Uint8Array, bytes: number, slots: Int32Array, count: number, query: Uint8Array, keep: number, out: Int32Array) => number;

export interface NativeKernels {
  sgemm: Sgemm;
  dotRows: DotRows;
  /** Absent from a kernels.node built before it was added (the caller then loops in JavaScript). */
  dotRowsHalf?: DotRowsHalf;
  /** Absent from a build before them (a large filter's scan then reads every row). */
  signBitsHalf?: SignBitsHalf;
  nearestBySigns?: NearestBySigns;
  /** Absent from an older build, and never on a system without mmap (the rows are then read into memory). */
  mapFile?: MapFile;
}

/** Where scripts/dev/build-native.mjs puts the kernels (built by the postinstall from native/kernels.c). */
export const NATIVE_KERNELS_PATH = projectPath('native', 'build', 'kernels.node');

let loaded: NativeKernels | undefined | null = null;

/**
 * The native kernels when they were built on this machine (and `enabled`: config NATIVE_KERNELS),
 * else undefined: callers then use their JavaScript or TensorFlow.js path (same results, slower).
 */
export function loadNativeKernels(enabled = true): NativeKernels | undefined {
  if (!enabled) return undefined;
  if (loaded !== null) return loaded;
  loaded = undefined;
  if (fs.existsSync(NATIVE_KERNELS_PATH)) {
    try {
      loaded = createRequire(import.meta.url)(NATIVE_KERNELS_PATH) as NativeKernels;
    } catch {
      loaded = undefined;
    }
  }
  return loaded;
}
