import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDb, PGLITE_SHARED_BUFFERS } from './db.js';

test('embedded PGlite keeps a small buffer pool (its WebAssembly memory never shrinks)', async () => {
  const db = await openDb({});
  try {
    const [row] = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
    assert.equal(row!.shared_buffers, PGLITE_SHARED_BUFFERS);
  } finally {
    await db.close();
  }
});
