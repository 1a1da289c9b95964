import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ArrayFileError, openArrayFile, writeArrayFile } from './array-file.js';

describe('array file (the search index snapshot)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentpages-arrays-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads back every kind of array and the JSON value, into new arrays or into larger shared ones', async () => {
    const file = path.join(dir, 'a.bin');
    const arrays = {
      bytes: Uint8Array.from([1, 2, 3]),
      halves: Uint16Array.from([0, 0x3c00, 0xffff, 7, 9]),
      codes: Uint32Array.from([4_000_000_000, 1]),
      ids: Int32Array.from([-5, 0, 2 ** 31 - 1]),
      ranks: Float32Array.from([0.1, -2.5]),
      coordinates: Float64Array.from([52.52, NaN, -97.743]),
      empty: new Int32Array(0),
    };
    writeArrayFile(file, { names: ['a', 'ü'], n: 3 }, arrays);
    const reader = await openArrayFile(file);
    try {
      assert.deepEqual(reader.meta, { names: ['a', 'ü'], n: 3 });
      for (const [name, a] of Object.entries(arrays)) assert.deepEqual(await reader.read(name), a, name);
      const shared = new Uint16Array(new SharedArrayBuffer(2 * 16));
      await reader.readInto('halves', shared);
      assert.deepEqual([...shared.subarray(0, 5)], [...arrays.halves]);
      assert.equal(shared[5], 0, 'the room beyond is left as it was');
      await assert.rejects(reader.readInto('halves', new Uint16Array(2)), ArrayFileError, 'a target too small');
      await assert.rejects(reader.readInto('halves', new Int32Array(8)), ArrayFileError, 'a target of another type');
      await assert.rejects(reader.read('missing'), ArrayFileError);
    } finally {
      await reader.close();
    }
  });

  it('refuses a file that is not one, or is cut short', async () => {
    const other = path.join(dir, 'other.bin');
    fs.writeFileSync(other, 'not an array file at all');
    await assert.rejects(openArrayFile(other), ArrayFileError);
    const file = path.join(dir, 'cut.bin');
    writeArrayFile(file, {}, { rows: new Float64Array(1000) });
    fs.truncateSync(file, fs.statSync(file).size - 100);
    await assert.rejects(openArrayFile(file), /truncated/);
  });
});
