import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadNativeKernels } from './native.js';
import { dotHalfAt, fromHalf, toHalf } from '../lib/half-float.js';

// The kernels' own guards: wrong types, arrays shorter than their dimensions and slots outside the
// matrix throw instead of reading or writing past the end of a buffer. (Their results are tested
// against the JavaScript paths in use-lite.test.ts and vector-index.test.ts.)
describe('native kernels', () => {
  const native = loadNativeKernels();

  it('are off when the configuration says so', () => {
    assert.equal(loadNativeKernels(false), undefined);
  });

  it('sgemm: computes a small product, rejects short arrays and wrong types', (t) => {
    if (!native) return t.skip('native kernels not built');
    const out = new Float32Array(4);
    // [1 2; 3 4] · [1 0; 0 1] + [10 20], then relu.
    native.sgemm(Float32Array.from([1, 2, 3, -40]), 2, 2, Float32Array.from([1, 0, 0, 1]), 2, Float32Array.from([10, 20]), out, true);
    assert.deepEqual([...out], [11, 22, 13, 0]);
    assert.throws(() => native.sgemm(new Float32Array(3), 2, 2, new Float32Array(4), 2, null, new Float32Array(4), false), /shorter/);
    assert.throws(() => native.sgemm(new Float32Array(4), 2, 2, new Float32Array(4), 2, null, new Float32Array(3), false), /shorter/);
    assert.throws(() => native.sgemm(new Float64Array(4) as unknown as Float32Array, 2, 2, new Float32Array(4), 2, null, new Float32Array(4), false), /bad arguments/);
  });

  it('sgemm: every shape (register blocks, their edge rows and columns) gives the plain loop\'s product', (t) => {
    if (!native) return t.skip('native kernels not built');
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    for (const [n, k, m] of [[1, 5, 3], [3, 64, 130], [7, 33, 16], [8, 16, 144], [13, 40, 200], [21, 17, 17]] as const) {
      const a = Float32Array.from({ length: n * k }, random);
      const w = Float32Array.from({ length: k * m }, random);
      const bias = Float32Array.from({ length: m }, random);
      const out = new Float32Array(n * m);
      native.sgemm(a, n, k, w, m, bias, out, true);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < m; j++) {
          let sum = bias[j]!;
          for (let p = 0; p < k; p++) sum += a[i * k + p]! * w[p * m + j]!;
          assert.ok(Math.abs(out[i * m + j]! - Math.max(0, sum)) < 1e-4, `${n}×${k}·${k}×${m} at ${i},${j}`);
        }
      }
    }
  });

  it('dotRows: scores the named rows, rejects short arrays and slots outside the matrix', (t) => {
    if (!native) return t.skip('native kernels not built');
    const matrix = Float32Array.from([1, 0, 0, 1, 2, 2]);
    const out = new Float64Array(2);
    native.dotRows(matrix, 2, Int32Array.from([2, 0]), 2, Float32Array.from([1, 3]), out);
    assert.deepEqual([...out], [8, 1]);
    assert.throws(() => native.dotRows(matrix, 2, Int32Array.from([3]), 1, Float32Array.from([1, 3]), out), /outside the matrix/);
    assert.throws(() => native.dotRows(matrix, 2, Int32Array.from([-1]), 1, Float32Array.from([1, 3]), out), /outside the matrix/);
    assert.throws(() => native.dotRows(matrix, 2, Int32Array.from([0]), 2, Float32Array.from([1, 3]), out), /shorter/);
    assert.throws(() => native.dotRows(matrix, 2, Int32Array.from([0]), 1, Float32Array.from([1]), out), /shorter/);
    assert.throws(() => native.dotRows(matrix, 2, Int32Array.from([0]), 1, Float32Array.from([1, 3]), new Float32Array(1) as unknown as Float64Array), /bad arguments/);
  });

  it('dotRowsHalf: scores rows kept as half floats like the JavaScript loop, rejects bad arguments', (t) => {
    if (!native?.dotRowsHalf) return t.skip('native kernels not built');
    const dims = 37; // not a multiple of 16: the tail is summed one by one
    const rows = 5;
    const matrix = new Uint16Array(rows * dims);
    for (let i = 0; i < matrix.length; i++) matrix[i] = toHalf(Math.sin(i * 0.7) * 0.3);
    const q = Float32Array.from({ length: dims }, (_, i) => Math.cos(i) * 0.2);
    const slots = Int32Array.from([4, 0, 2]);
    const out = new Float64Array(3);
    native.dotRowsHalf(matrix, dims, slots, 3, q, out);
    slots.forEach((slot, i) => assert.ok(Math.abs(out[i]! - dotHalfAt(matrix, dims, q, slot)) < 1e-6));
    assert.throws(() => native.dotRowsHalf!(matrix, dims, Int32Array.from([5]), 1, q, out), /outside the matrix/);
    assert.throws(() => native.dotRowsHalf!(matrix, dims, slots, 3, q.subarray(1), out), /shorter/);
    assert.throws(() => native.dotRowsHalf!(new Float32Array(4) as unknown as Uint16Array, 2, slots, 1, q, out), /bad arguments/);
  });

  it('signBitsHalf: one bit a component, set when it is above zero; rejects rows past the arrays', (t) => {
    if (!native?.signBitsHalf) return t.skip('native kernels not built');
    const dims = 10; // two bytes a row, the second partly used
    const matrix = new Uint16Array(2 * dims);
    [0.5, -0.5, 0, -0, 1e-3, 2, -3, 0.1, 0.2, -0.2].forEach((x, i) => (matrix[dims + i] = toHalf(x)));
    const out = new Uint8Array(4).fill(0xff);
    native.signBitsHalf(matrix, dims, 1, 1, out);
    assert.deepEqual([...out], [0xff, 0xff, 0b10110001, 0b01]);
    assert.throws(() => native.signBitsHalf!(matrix, dims, 1, 2, out), /shorter/);
    assert.throws(() => native.signBitsHalf!(matrix, dims, 0, 2, new Uint8Array(3)), /shorter/);
    assert.throws(() => native.signBitsHalf!(matrix, dims, -1, 1, out), /bad arguments/);
  });

  it('nearestBySigns: keeps the slots nearest by Hamming distance, ties in the order given; rejects bad slots', (t) => {
    if (!native?.nearestBySigns) return t.skip('native kernels not built');
    const bytes = 9; // one 8-byte word and a byte
    // Row r differs from the query (all zero) in r bits.
    const signs = new Uint8Array(6 * bytes);
    for (const [r, bits] of [[0, 5], [1, 0], [2, 3], [3, 3], [4, 70], [5, 1]] as const) for (let b = 0; b < bits; b++) signs[r * bytes + (b >> 3)]! |= 1 << (b & 7);
    const q = new Uint8Array(bytes);
    const out = new Int32Array(6);
    const keep = (slots: number[], k: number) => [...out.subarray(0, native.nearestBySigns!(signs, bytes, Int32Array.from(slots), slots.length, q, k, out))];
    assert.deepEqual(keep([0, 1, 2, 3, 4, 5], 3), [1, 2, 5], 'distances 0 and 1, then the first of the two at 3');
    assert.deepEqual(keep([4, 3, 2, 1], 2), [3, 1]);
    assert.deepEqual(keep([4, 0], 5), [4, 0], 'keep above count keeps all');
    assert.deepEqual(keep([], 2), []);
    assert.throws(() => native.nearestBySigns!(signs, bytes, Int32Array.from([6]), 1, q, 1, out), /outside/);
    assert.throws(() => native.nearestBySigns!(signs, bytes, Int32Array.from([0]), 1, q.subarray(1), 1, out), /shorter/);
    assert.throws(() => native.nearestBySigns!(signs, bytes, Int32Array.from([0, 1]), 2, q, 2, new Int32Array(1)), /shorter/);
    assert.throws(() => native.nearestBySigns!(signs, 0, Int32Array.from([0]), 1, q, 1, out), /bad arguments/);
  });

  it('half floats: rounding to nearest even, subnormals, overflow and back', () => {
    for (const x of [0, 1, -2, 0.5, 65504, 2 ** -14, 2 ** -24, -(2 ** -20)]) assert.equal(fromHalf(toHalf(x)), x);
    assert.equal(fromHalf(toHalf(0.1)), 0.0999755859375);
    assert.equal(fromHalf(toHalf(1 + 2 ** -11)), 1, 'a tie rounds to the even mantissa');
    assert.equal(fromHalf(toHalf(1 + 3 * 2 ** -11)), 1 + 2 ** -9);
    assert.equal(fromHalf(toHalf(1e6)), Infinity);
    assert.equal(fromHalf(toHalf(2 ** -26)), 0);
    assert.ok(Number.isNaN(fromHalf(toHalf(NaN))));
    for (let i = 0; i < 1000; i++) {
      const x = Math.sin(i) * 0.25;
      // Half a unit in the last place: 2^-11 of the value, 2^-25 among subnormals.
      assert.ok(Math.abs(fromHalf(toHalf(x)) - x) <= Math.max(Math.abs(x) * 2 ** -11, 2 ** -25));
    }
  });
});
