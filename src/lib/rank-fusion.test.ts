import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuse, type FusionList } from './rank-fusion.js';

const list = (source: 'semantic' | 'keyword', weight: number, ids: [string, number][]): FusionList => ({
  source,
  weight,
  candidates: ids.map(([id, score]) => ({ id, score })),
});

describe('fuse (weighted, score-aware reciprocal rank fusion)', () => {
  it('ranks a company found by both sides above one found by either side alone', () => {
    const out = fuse([list('keyword', 1, [['a', 1], ['b', 0.9]]), list('semantic', 1, [['c', 1], ['b', 0.9]])]);
    assert.equal(out[0]!.id, 'b');
    assert.deepEqual(out[0]!.sources, ['semantic', 'keyword']);
    assert.deepEqual(out.find((e) => e.id === 'a')!.sources, ['keyword']);
  });

  it('is plain weighted RRF when scoreShare is 0', () => {
    const out = fuse([list('keyword', 2, [['a', 0.1], ['b', 1]])], { k: 60, scoreShare: 0 });
    assert.deepEqual(out.map((e) => e.id), ['a', 'b']);
    // normalised: rank 1 in the only list = 1
    assert.ok(Math.abs(out[0]!.score - 1) < 1e-12);
    assert.ok(Math.abs(out[1]!.score - 61 / 62) < 1e-12);
  });

  it('lets a much stronger score overtake a better rank when scoreShare is high', () => {
    const out = fuse([list('keyword', 1, [['a', 0.05], ['b', 1]])], { k: 60, scoreShare: 0.9 });
    assert.equal(out[0]!.id, 'b');
  });

  it('weights lists: a heavier list decides a tie of ranks', () => {
    const out = fuse([list('keyword', 1, [['a', 1]]), list('semantic', 3, [['b', 1]])]);
    assert.deepEqual(out.map((e) => e.id), ['b', 'a']);
  });

  it('scales scores to [0, 1], clamps out-of-range scores and ignores empty or zero-weight lists', () => {
    const out = fuse([list('keyword', 1, [['a', 7], ['b', -3]]), list('semantic', 0, [['c', 1]]), list('semantic', 1, [])]);
    assert.deepEqual(out.map((e) => e.id), ['a', 'b']);
    for (const e of out) assert.ok(e.score >= 0 && e.score <= 1);
    assert.equal(out[0]!.score, 1);
  });

  it('is deterministic: ties are broken by id', () => {
    const out = fuse([list('keyword', 1, [['x', 1]]), list('semantic', 1, [['m', 1]])]);
    assert.deepEqual(out.map((e) => e.id), ['m', 'x']);
  });

  it('returns nothing for no candidates', () => {
    assert.deepEqual(fuse([]), []);
  });
});
