/*
 * Unit vectors kept as int8 with one float32 scale per row: a quarter of float32's memory (512 B a company at 512
 * dimensions, plus 4 B of scale). Each component is rounded to 1/127 of the row's largest, and the scale is chosen
 * so that the row read back has unit length: what it scores is the cosine with a direction that differs from the
 * original by the rounding alone, about 3e-4 on a cosine at 512 dimensions for real embeddings (half floats were
 * about 1e-5, at twice the memory).
 */

/** Writes unit vector `unit` into row `slot` of `matrix` (rows of `unit.length`) and its scale into `scales`. */
export function quantizeRow(unit: Float32Array, matrix: Int8Array<ArrayBufferLike>, scales: Float32Array<ArrayBufferLike>, slot: number): void {
  const d = unit.length;
  let largest = 0;
  for (let i = 0; i < d; i++) largest = Math.max(largest, Math.abs(unit[i]!));
  const base = slot * d;
  if (largest === 0) {
    matrix.fill(0, base, base + d);
    scales[slot] = 0;
    return;
  }
  const step = 127 / largest;
  let squares = 0;
  for (let i = 0; i < d; i++) {
    const q = Math.round(unit[i]! * step);
    matrix[base + i] = q;
    squares += q * q;
  }
  scales[slot] = 1 / Math.sqrt(squares);
}

/** Row `slot` as float32 into `out` at `at` (for usearch, which takes float32). */
export function int8Row(matrix: Int8Array<ArrayBufferLike>, scales: Float32Array<ArrayBufferLike>, d: number, slot: number, out: Float32Array = new Float32Array(d), at = 0): Float32Array {
  const base = slot * d;
  const scale = scales[slot]!;
  for (let i = 0; i < d; i++) out[at + i] = matrix[base + i]! * scale;
  return out;
}

/** The dot product of `q` with row `slot` (the JavaScript fallback of the native dotRowsInt8). */
export function dotInt8At(matrix: Int8Array<ArrayBufferLike>, scales: Float32Array<ArrayBufferLike>, d: number, q: Float32Array, slot: number): number {
  const base = slot * d;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < d; i += 4) {
    s0 += matrix[base + i]! * q[i]!;
    s1 += matrix[base + i + 1]! * q[i + 1]!;
    s2 += matrix[base + i + 2]! * q[i + 2]!;
    s3 += matrix[base + i + 3]! * q[i + 3]!;
  }
  for (; i < d; i++) s0 += matrix[base + i]! * q[i]!;
  return (s0 + s1 + s2 + s3) * scales[slot]!;
}
