/*
 * Vectors kept as IEEE half floats (binary16, their bits in a Uint16Array): half the memory of float32, with a
 * relative error of at most 2^-11 per component, so a dot product of unit vectors is off by about 1e-5 at 512
 * dimensions (Node 20 has no Float16Array; the native kernel converts with F16C).
 */
const HALF_TO_FLOAT = new Float32Array(65536);
for (let h = 0; h < 65536; h++) {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  HALF_TO_FLOAT[h] = exponent === 0 ? sign * mantissa * 2 ** -24 : exponent === 31 ? (mantissa ? NaN : sign * Infinity) : sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}
const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);

/** The binary16 bits nearest to `x` (round to nearest even; overflow to infinity, below the smallest subnormal to zero). */
export function toHalf(x: number): number {
  f32[0] = x;
  const bits = f32Bits[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  const mantissa = bits & 0x7fffff;
  if (((bits >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  if (exponent >= 31) return sign | 0x7c00;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    // Subnormal: the implicit bit made explicit, shifted, rounded to nearest even.
    const m = mantissa | 0x800000;
    const shift = 14 - exponent;
    const half = 1 << (shift - 1);
    const rest = m & ((1 << shift) - 1);
    let out = m >>> shift;
    if (rest > half || (rest === half && out & 1)) out++;
    return sign | out;
  }
  let out = (exponent << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // A carry out of the mantissa moves into the exponent, as it should (up to infinity).
  if (rest > 0x1000 || (rest === 0x1000 && out & 1)) out++;
  return sign | out;
}

/** The float value of binary16 bits. */
export function fromHalf(h: number): number {
  return HALF_TO_FLOAT[h & 0xffff]!;
}

/** Row `slot` of a matrix of half floats, as float32 into `out` at `at` (for usearch, which takes float32). */
export function halfRow(m: Uint16Array<ArrayBufferLike>, d: number, slot: number, out: Float32Array = new Float32Array(d), at = 0): Float32Array {
  const base = slot * d;
  for (let i = 0; i < d; i++) out[at + i] = HALF_TO_FLOAT[m[base + i]!]!;
  return out;
}

/** The dot product of `q` with row `slot` of a matrix of half floats (the JavaScript fallback of the native dotRowsHalf). */
export function dotHalfAt(m: Uint16Array<ArrayBufferLike>, d: number, q: Float32Array, slot: number): number {
  const base = slot * d;
  const t = HALF_TO_FLOAT;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < d; i += 4) {
    s0 += t[m[base + i]!]! * q[i]!;
    s1 += t[m[base + i + 1]!]! * q[i + 1]!;
    s2 += t[m[base + i + 2]!]! * q[i + 2]!;
    s3 += t[m[base + i + 3]!]! * q[i + 3]!;
  }
  for (; i < d; i++) s0 += t[m[base + i]!]! * q[i]!;
  return s0 + s1 + s2 + s3;
}
