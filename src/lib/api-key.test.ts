import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiKeyPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, safeEqual } from './api-key.js';

describe('api keys', () => {
  it('derives the prefix from the service name', () => {
    assert.equal(apiKeyPrefix('agentpages'), 'agp');
    assert.equal(apiKeyPrefix('bizdir'), 'biz');
    assert.equal(apiKeyPrefix('x-y'), 'xyx');
  });

  it('generates distinct, well-formed keys with at least 160 random bits', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('agp')));
    assert.equal(keys.size, 200);
    for (const k of keys) {
      assert.match(k, /^agp_live_[0-9A-Za-z]{38}$/);
      assert.ok(isWellFormedApiKey(k, 'agp'));
    }
    // 32 base62 characters of secret
    assert.ok(32 * Math.log2(62) >= 160);
  });

  it('rejects a changed character, a wrong prefix or a truncated key by checksum', () => {
    const k = generateApiKey('agp');
    const last = k[20] === 'a' ? 'b' : 'a';
    assert.equal(isWellFormedApiKey(k.slice(0, 20) + last + k.slice(21), 'agp'), false);
    assert.equal(isWellFormedApiKey(k.slice(0, -1), 'agp'), false);
    assert.equal(isWellFormedApiKey(k.replace('agp_', 'abc_'), 'abc'), false);
    assert.equal(isWellFormedApiKey(`${k}x`, 'agp'), false);
    assert.equal(isWellFormedApiKey('', 'agp'), false);
  });

  it('hashes with sha256 and compares in constant time', () => {
    assert.match(hashApiKey('x'), /^[0-9a-f]{64}$/);
    assert.ok(safeEqual('abc', 'abc'));
    assert.ok(!safeEqual('abc', 'abd'));
    assert.ok(!safeEqual('abc', 'abcd'));
  });
});
