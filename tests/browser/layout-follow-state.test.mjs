// TP following the chip count (web/js/layout-follow.js), under Node with the presets. The
// engine's check is stood in for by the rule it applies to a dense model (TP divides the
// heads), written here by hand: what is tested is which TP the page asks for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { defaultState } from '../../web/js/state.js';
import { divisorsDescending, followChips } from '../../web/js/layout-follow.js';

const presets = loadPresets();

// A DGX H100 (8 GPUs a node) holding a 32-head model at TP 8.
function dgx({ count = 8, tp = 8, pp = 1, dp = null } = {}) {
  const state = defaultState(presets);
  state.machine = { kind: 'system', preset: 'dgx-h100', count, network: null };
  state.parallelism = { ...state.parallelism, tp, pp, dp };
  return state;
}
const headsDivide = (heads, fitsUpTo = Infinity) => (s) => {
  const ok = heads % s.parallelism.tp === 0;
  return { ok, fits: ok && s.parallelism.tp <= fitsUpTo };
};
const follow = (state, previous, check = headsDivide(32)) => followChips(state, previous, { presets, check });

test('divisors from the largest down, capped', () => {
  assert.deepEqual(divisorsDescending(72, 8), [8, 6, 4, 3, 2, 1]);
  assert.deepEqual(divisorsDescending(12), [12, 6, 4, 3, 2, 1]);
  assert.deepEqual(divisorsDescending(7, 4), [1]);
});

test('fewer chips than TP × PP: TP shrinks to the largest that divides the chips and the heads', () => {
  assert.equal(follow(dgx({ count: 2 }), 8).parallelism.tp, 2);
  // 6 chips: 6 and 3 do not divide 32 heads, 2 does.
  assert.equal(follow(dgx({ count: 6 }), 8).parallelism.tp, 2);
  // Two stages on 4 chips: 2 chips a stage.
  assert.equal(follow(dgx({ count: 4, tp: 4, pp: 2 }), 8).parallelism.tp, 2);
});

test('a layout that filled the chips grows with them, up to one node, and a typed DP is let go', () => {
  const one = dgx({ count: 8, tp: 1 });
  assert.equal(follow(one, 1).parallelism.tp, 8);
  const wide = follow(dgx({ count: 1024, tp: 8, dp: 1 }), 8);
  assert.equal(wide.parallelism.tp, 8, 'one node of eight GPUs at most');
  assert.equal(wide.parallelism.dp, null, 'DP 1 filled 8 chips: as many replicas as fill 1,024 now');
});

test('one that fits in memory is preferred to a wider one that does not; the engine decides what is accepted', () => {
  assert.equal(follow(dgx({ count: 8, tp: 1 }), 1, headsDivide(32, 4)).parallelism.tp, 4);
  // Nothing fits: the widest accepted one.
  assert.equal(follow(dgx({ count: 8, tp: 1 }), 1, (s) => ({ ok: s.parallelism.tp !== 8, fits: false })).parallelism.tp, 4);
});

test('a layout that leaves chips to the engine on purpose stays as it is', () => {
  // TP 2 on 8 chips with DP left to the engine (4 replicas): 16 chips give 8 replicas.
  const state = dgx({ count: 16, tp: 2 });
  assert.equal(follow(state, 8), state);
  // TP 2 × DP 2 typed on 8 chips: 4 idle on purpose.
  const typed = dgx({ count: 16, tp: 2, dp: 2 });
  assert.equal(follow(typed, 8), typed);
  // The same count, or a count that is not a number yet: nothing to follow.
  const same = dgx();
  assert.equal(follow(same, 8), same);
  const bad = dgx({ count: Number.NaN });
  assert.equal(follow(bad, 8), bad);
});
