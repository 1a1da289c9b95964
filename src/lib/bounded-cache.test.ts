import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approximateBytes, BoundedCache } from './bounded-cache.js';

test('a bounded cache drops the least recently used entries once their sizes pass the budget', () => {
  const cache = new BoundedCache<string, number>(100);
  cache.set('a', 1, 40);
  cache.set('b', 2, 40);
  assert.equal(cache.get('a'), 1); // a is now the most recently used
  cache.set('c', 3, 40);
  assert.equal(cache.has('b'), false);
  assert.deepEqual([cache.get('a'), cache.get('c')], [1, 3]);
  assert.equal(cache.bytes, 80);
  assert.equal(cache.size, 2);
});

test('a bounded cache replaces an entry and its size, and never keeps one larger than itself', () => {
  const cache = new BoundedCache<string, string>(100);
  cache.set('a', 'x', 30);
  cache.set('a', 'y', 50);
  assert.equal(cache.bytes, 50);
  assert.equal(cache.get('a'), 'y');
  cache.set('huge', 'z', 101);
  assert.equal(cache.has('huge'), false);
  assert.equal(cache.get('a'), 'y');
  cache.delete('a');
  assert.equal(cache.bytes, 0);
  cache.set('b', 'w', 10);
  cache.clear();
  assert.deepEqual([cache.size, cache.bytes], [0, 0]);
});

test('approximate bytes grow with the data and count a little for an empty value', () => {
  assert.ok(approximateBytes({}) > 0);
  assert.ok(approximateBytes({ description: 'x'.repeat(1000) }) > 1500);
  assert.ok(approximateBytes(undefined) > 0);
});
