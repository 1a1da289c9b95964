import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TopK } from './top-k.js';

describe('TopK', () => {
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  it('keeps the best k, best first, ties broken by id as the SQL ORDER BY does', () => {
    const heap = new TopK(3, ids);
    for (const [slot, score] of [[5, 0.1], [3, 0.9], [1, 0.5], [4, 0.5], [0, 0.5], [2, 0.95]] as const) heap.push(slot, score);
    assert.deepEqual(heap.sorted(), [{ id: 'c', score: 0.95 }, { id: 'd', score: 0.9 }, { id: 'a', score: 0.5 }]);
  });
  it('holds fewer than k when fewer were pushed, and nothing for k = 0', () => {
    const heap = new TopK(10, ids);
    heap.push(1, 0.2);
    heap.push(2, 0.3);
    assert.deepEqual(heap.sorted().map((r) => r.id), ['c', 'b']);
    const none = new TopK(0, ids);
    none.push(1, 1);
    assert.deepEqual(none.sorted(), []);
  });
});
