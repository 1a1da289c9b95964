/** `v` scaled to unit length, padded or cut to `dimensions`. */
export function unitVector(dimensions: number, v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm) || 1;
  const out = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) out[i] = (v[i] ?? 0) / norm;
  return out;
}
