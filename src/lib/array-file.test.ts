import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ArrayFileError, openArrayFile, writeArrayFile } from './array-file.js';
import { loadNativeKernels } from '../platform/native.js';

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

  it("gives the whole file's SHA-256 from the bytes read in order, and reads the file again when they were not", async () => {
    const file = path.join(dir, 'h.bin');
    // Lengths that leave padding between arrays, and an array larger than one read chunk.
    const arrays = { a: Uint8Array.from([1, 2, 3]), b: new Float64Array(3 << 20).map((_, i) => i / 7), c: Uint16Array.from([5]), d: Uint8Array.from([9, 9, 9, 9, 9]) };
    writeArrayFile(file, { n: 1 }, arrays);
    const expected = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    const inOrder = await openArrayFile(file);
    try {
      for (const name of ['a', 'b', 'c']) await inOrder.read(name); // d is left unread: the rest of the file is read for it
      assert.equal(await inOrder.sha256(), expected);
    } finally {
      await inOrder.close();
    }
    const outOfOrder = await openArrayFile(file);
    try {
      await outOfOrder.read('c');
      await outOfOrder.read('a');
      assert.equal(await outOfOrder.sha256(), expected);
    } finally {
      await outOfOrder.close();
    }
    // One byte changed inside an array: the arrays still read, the checksum tells.
    const bytes = fs.readFileSync(file);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 1;
    fs.writeFileSync(file, bytes);
    const damaged = await openArrayFile(file);
    try {
      for (const name of Object.keys(arrays)) await damaged.read(name);
      assert.notEqual(await damaged.sha256(), expected);
    } finally {
      await damaged.close();
    }
  });

  it('maps a page-aligned array in place, privately, with zeroed room after it; the checksum still counts it', async (t) => {
    const mapFile = loadNativeKernels()?.mapFile;
    if (!mapFile) return t.skip('native kernels not built');
    const file = path.join(dir, 'm.bin');
    const rows = new Uint16Array(70_001).map((_, i) => i % 65_521);
    const arrays = { before: Uint8Array.from([1, 2, 3]), rows, after: Float64Array.from([0.5, 2]) };
    writeArrayFile(file, { n: 1 }, arrays, ['rows']);
    const expected = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    const reader = await openArrayFile(file);
    try {
      assert.deepEqual(await reader.read('before'), arrays.before);
      const mapped = reader.map('rows', 100_000, mapFile) as Uint16Array;
      assert.ok(mapped instanceof Uint16Array && mapped.length === 100_000);
      assert.deepEqual(mapped.subarray(0, rows.length), rows);
      assert.ok(mapped.subarray(rows.length).every((v) => v === 0), 'the room after the array is zero, not the next array');
      mapped[5] = 9;
      mapped[90_000] = 7;
      assert.equal(reader.map('rows', 10, mapFile), undefined, 'less room than the array');
      assert.deepEqual(await reader.read('after'), arrays.after);
      assert.equal(await reader.sha256(), expected, "the mapped array's bytes are read from the file for the checksum");
    } finally {
      await reader.close();
    }
    assert.equal(createHash('sha256').update(fs.readFileSync(file)).digest('hex'), expected, 'writes to the mapping never reach the file');
    // Written without page alignment (an earlier release's file): not mapped, read as before.
    writeArrayFile(file, { n: 1 }, arrays);
    const old = await openArrayFile(file);
    try {
      assert.equal(old.map('rows', 100_000, mapFile), undefined);
      assert.deepEqual(await old.read('rows'), rows);
    } finally {
      await old.close();
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
