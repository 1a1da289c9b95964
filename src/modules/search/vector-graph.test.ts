import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_BREADTH, searchBreadth } from './vector-graph.js';

test('the graph search breadth is 256 up to 128k companies, grows with the directory beyond, and is bounded', () => {
  assert.equal(searchBreadth(0), 256);
  assert.equal(searchBreadth(100_000), 256);
  assert.equal(searchBreadth(300_000), 1024);
  assert.equal(searchBreadth(1_000_000), 2048, 'the breadth measured to give recall@10 0.985 at 1M');
  assert.equal(searchBreadth(100_000_000), MAX_BREADTH);
});
