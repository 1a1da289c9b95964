import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadNativeKernels } from './native.js';

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
});
