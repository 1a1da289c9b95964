import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadNativeKernels } from './native.js';
import { dotInt8At, int8Row, quantizeRow } from '../lib/int8-vectors.js';

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

  it('dotRowsInt8: scores int8 rows times their scales like the JavaScript loop, rejects bad arguments', (t) => {
    if (!native?.dotRowsInt8) return t.skip('native kernels not built');
    const dims = 37; // not a multiple of 16: the tail is summed one by one
    const rows = 5;
    const matrix = new Int8Array(rows * dims);
    const scales = new Float32Array(rows);
    for (let r = 0; r < rows; r++) quantizeRow(Float32Array.from({ length: dims }, (_, i) => Math.sin((r * dims + i) * 0.7) * 0.3), matrix, scales, r);
    const q = Float32Array.from({ length: dims }, (_, i) => Math.cos(i) * 0.2);
    const slots = Int32Array.from([4, 0, 2]);
    const out = new Float64Array(3);
    native.dotRowsInt8(matrix, scales, dims, slots, 3, q, out);
    slots.forEach((slot, i) => assert.ok(Math.abs(out[i]! - dotInt8At(matrix, scales, dims, q, slot)) < 1e-6));
    assert.throws(() => native.dotRowsInt8!(matrix, scales, dims, Int32Array.from([5]), 1, q, out), /outside the matrix/);
    assert.throws(() => native.dotRowsInt8!(matrix, scales.subarray(0, 2), dims, Int32Array.from([3]), 1, q, out), /outside the matrix/);
    assert.throws(() => native.dotRowsInt8!(matrix, scales, dims, slots, 3, q.subarray(1), out), /shorter/);
    assert.throws(() => native.dotRowsInt8!(new Uint8Array(4) as unknown as Int8Array, scales, 2, slots, 1, q, out), /bad arguments/);
  });

  it('int8 rows: unit length read back, each cosine within the rounding bound', () => {
    const d = 512;
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const unit = (v: Float32Array) => {
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const matrix = new Int8Array(d * 20);
    const scales = new Float32Array(20);
    for (let r = 0; r < 20; r++) {
      const v = unit(Float32Array.from({ length: d }, random));
      quantizeRow(v, matrix, scales, r);
      const back = int8Row(matrix, scales, d, r);
      assert.ok(Math.abs(Math.hypot(...back) - 1) < 1e-6, 'the row read back has unit length');
      const q = unit(Float32Array.from({ length: d }, random));
      const exact = v.reduce((sum, x, i) => sum + x * q[i]!, 0);
      assert.ok(Math.abs(dotInt8At(matrix, scales, d, q, r) - exact) < 2e-3, `row ${r}: cosine within the rounding error`);
      assert.ok(dotInt8At(matrix, scales, d, v, r) > 0.9999, 'a vector is its own nearest');
    }
    quantizeRow(new Float32Array(d), matrix, scales, 0);
    assert.equal(dotInt8At(matrix, scales, d, unit(Float32Array.from({ length: d }, random)), 0), 0, 'a zero vector scores 0');
  });
});
