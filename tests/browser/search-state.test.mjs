// The Search card's pure parts under Node (web/js/search-plan.js): its inputs in the link (absent:
// nothing written, so older links load unchanged), what a bad key says, the request it builds from
// the page's scenario, and Apply: a point's settings patch as page state. No browser, no build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash, toLink } from '../../web/js/state.js';
import { toScenario } from '../../web/js/scenario.js';
import { switchMode } from '../../web/js/training.js';
import { applyPoint, emptyChoice, layoutText, searchParams, searchRequest } from '../../web/js/search-plan.js';

const presets = loadPresets();
const OLD_LINK = '#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on';

test('a link without search keys has the card closed and writes back unchanged', () => {
  const { state, error } = fromHash(OLD_LINK, presets);
  assert.equal(error, null);
  assert.equal(state.view.search, null);
  assert.equal(toHash(state, presets), OLD_LINK);
});

test('the search inputs round-trip through the link, as typed', () => {
  const link = `${OLD_LINK}&search=on&search.chips=16&search.ttft_ms=2000&search.tps_user=20`;
  const { state, error } = fromHash(link, presets);
  assert.equal(error, null);
  assert.deepEqual(state.view.search, { chips: '16', ttft_ms: '2000', tps_user: '20', rank: 'step_time' });
  assert.equal(toHash(state, presets), link);
  const t = fromHash('#mode=training', presets).state;
  t.view.search = { ...emptyChoice(), chips: '8, 16 32', rank: 'mfu' };
  const back = fromHash(toHash(t, presets), presets);
  assert.equal(back.error, null);
  assert.deepEqual(back.state.view.search, { chips: '8 16 32', ttft_ms: '', tps_user: '', rank: 'mfu' });
  assert.deepEqual(searchParams(null), []);
  assert.deepEqual(searchParams(emptyChoice()), [['search', 'on']]);
});

test('a pin does not carry the search', () => {
  const { state } = fromHash(`${OLD_LINK}&search=on&search.chips=16`, presets);
  const link = toLink(state, presets, [{ ...state, label: 'a' }]);
  const pin = decodeURIComponent(link.split('&pin=')[1]);
  assert.doesNotMatch(pin, /search/);
});

test('bad search keys are left out with a notice naming the key', () => {
  for (const [tail, key] of [['&search=yes', 'search'], ['&search.chips=8', 'search.chips'], ['&search=on&search.rank=speed', 'search.rank']]) {
    const { state, error } = fromHash(OLD_LINK + tail, presets);
    assert.match(error ?? '', new RegExp(key.replace('.', '\\.')), tail);
    assert.equal(state.model.preset, 'llama-2-70b');
  }
});

test('the request: serving takes the most chips and the SLO, training the chip counts and the rank', () => {
  const { state } = fromHash(OLD_LINK, presets);
  const scenario = toScenario(state);
  const serving = searchRequest(scenario, { chips: '16', ttft_ms: '2000', tps_user: '20', rank: 'mfu' });
  assert.deepEqual(serving.request, { search: 'serving', scenario, top: 10, chips: 16, slo: { ttft_ms: 2000, tokens_per_s_per_user: 20 } });
  assert.deepEqual(searchRequest(scenario, emptyChoice()).request, { search: 'serving', scenario, top: 10 });
  assert.equal(searchRequest(scenario, { ...emptyChoice(), chips: '8 16' }).error.field, 'chips');
  assert.equal(searchRequest(scenario, { ...emptyChoice(), ttft_ms: 'soon' }).error.field, 'ttft_ms');
  const t = toScenario(switchMode(state, 'training'));
  assert.deepEqual(searchRequest(t, { ...emptyChoice(), chips: '8 16', ttft_ms: '5', rank: 'cost' }).request,
    { search: 'training', scenario: t, top: 10, chips: [8, 16], rank: 'cost' });
});

test('Apply: a point\'s settings become the page state, and what the page cannot hold is refused', () => {
  const { state } = fromHash(OLD_LINK, presets);
  const point = { chips: 4, settings: { parallelism: { tp: 4, ep: 1, dp: 1, pp: 1 },
    workload: { batch: 64, precision: { weights: 'fp8', kv_cache: 'fp8', activations: 'bf16', residual: 'bf16' } } } };
  const next = applyPoint(state, point);
  assert.deepEqual([next.parallelism.tp, next.parallelism.dp, next.workload.batch, next.workload.precision.weights], [4, 1, 64, 'fp8']);
  assert.equal(state.parallelism.tp, 8, 'the state given is not changed');
  assert.equal(toScenario(next).parallelism.tp, 4);
  assert.equal(layoutText(point), 'TP 4 · DP 1 · batch 64 · fp8/fp8');
  assert.equal(applyPoint(state, { settings: { disaggregated: {} } }), null);
  const t = switchMode(state, 'training');
  const tp = { chips: 16, settings: { parallelism: { tp: 2, sp: 1, cp: 1, ep: 1, dp: 8, pp: 1, virtual_stages: 1, schedule: '1f1b', zero: 1 },
    workload: { micro_batch: 2, recompute: 'selective' } } };
  const tn = applyPoint(t, tp);
  assert.deepEqual([tn.parallelism.tp, tn.parallelism.sp, tn.parallelism.dp, tn.parallelism.zero, tn.workload.micro_batch, tn.workload.recompute, tn.machine.count],
    [2, true, 8, 1, 2, 'selective', 16]);
});
