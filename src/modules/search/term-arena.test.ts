import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TermArena } from './term-arena.js';

let seed = 7;
const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);

function terms(n: number): { ids: Int32Array; ranks: Float32Array } {
  const ids = new Set<number>();
  while (ids.size < n) ids.add(Math.floor(rnd() * 5000));
  const sorted = Int32Array.from([...ids].sort((a, b) => a - b));
  return { ids: sorted, ranks: Float32Array.from(sorted, (id) => Math.fround(id / 7)) };
}

describe('term arena', () => {
  it('keeps every slot\'s terms through rewrites, growth, clears and compactions', () => {
    const arena = new TermArena();
    const model = new Map<number, { ids: Int32Array; ranks: Float32Array }>();
    // Enough rewrites that a third of the arrays is left behind many times over (compaction above 65 536 terms).
    for (let step = 0; step < 30_000; step++) {
      const slot = Math.floor(rnd() * 3000);
      if (rnd() < 0.15) {
        arena.clear(slot);
        model.delete(slot);
      } else {
        const t = terms(1 + Math.floor(rnd() * 40));
        arena.set(slot, t.ids, t.ranks);
        model.set(slot, t);
      }
    }
    for (let slot = 0; slot < 3000; slot++) {
      const want = model.get(slot);
      assert.deepEqual([...arena.idsOf(slot)], want ? [...want.ids] : [], `slot ${slot}`);
      if (!want) continue;
      assert.ok(arena.holds(slot, want.ids, want.ranks));
      want.ids.forEach((id, i) => {
        assert.equal(arena.indexOf(slot, id), i);
        assert.equal(arena.ranks[arena.offset(slot) + i], want.ranks[i]);
      });
      assert.equal(arena.indexOf(slot, 5001), -1);
    }
    // Compacted: the arrays hold little more than the live terms.
    const live = [...model.values()].reduce((n, t) => n + t.ids.length, 0);
    assert.ok(arena.ids.length <= Math.max(3 * live, 1 << 17), `${arena.ids.length} slots for ${live} live terms`);
  });
});
