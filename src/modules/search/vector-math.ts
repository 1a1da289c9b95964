/** `v` scaled to unit length, padded or cut to `dimensions`. */
export function unitVector(dimensions: number, v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm) || 1;
  const out = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) out[i] = (v[i] ?? 0) / norm;
  return out;
}

/** The dot product of `q` with row `slot` of a row-major matrix (four accumulators: the JavaScript fallback of the native kernel). */
export function dotAt(m: Float32Array<ArrayBufferLike>, d: number, q: Float32Array, slot: number): number {
  const base = slot * d;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < d; i += 4) {
    s0 += m[base + i]! * q[i]!;
    s1 += m[base + i + 1]! * q[i + 1]!;
    s2 += m[base + i + 2]! * q[i + 2]!;
    s3 += m[base + i + 3]! * q[i + 3]!;
  }
  for (; i < d; i++) s0 += m[base + i]! * q[i]!;
  return s0 + s1 + s2 + s3;
}
