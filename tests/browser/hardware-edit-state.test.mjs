// The custom chip and system in the page state, the scenario and the link (web/js/hardware-edit.js,
// state.js, scenario.js), under Node with the presets from presets/; and the pure parts of the
// "How is this computed" panels (explain.js: its methodology anchors) and of the pickers (picker.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash, toLink, defaultState } from '../../web/js/state.js';
import { fromScenario, toScenario } from '../../web/js/scenario.js';
import { effectiveChip, hardwareField, hostOf, normalizeMachine } from '../../web/js/hardware-edit.js';
import { ANCHORS } from '../../web/js/explain.js';
import { filterItems, hardwareItems, modelItems } from '../../web/js/picker.js';
import { joinMethodology } from '../../tools/docs.mjs';

const presets = loadPresets();
const OLD = '#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on';

test('an edited chip goes into the scenario as a merge patch over its preset, and into the link', () => {
  const state = structuredClone(fromHash('#model=llama-3-8b&chip=h100-sxm&chips=8&tp=8', presets).state);
  state.machine.chip = { preset: 'h100-sxm', edits: { hbm_tb_s: 4.8, 'peak_tflops.bf16': 1200, 'efficiency.matrix.default': 0.7, 'peak_tflops.int8': null } };
  const s = toScenario(state);
  assert.deepEqual(s.system, {
    chip: { preset: 'h100-sxm', hbm_tb_s: 4.8, peak_tflops: { bf16: 1200, int8: null }, efficiency: { matrix: { default: 0.7 } } }, count: 8,
  });
  const hash = toHash(state, presets);
  assert.match(hash, /&chip\.hbm_tb_s=4\.8&chip\.peak_tflops\.bf16=1200&chip\.efficiency\.matrix\.default=0\.7&chip\.peak_tflops\.int8=none&/);
  const back = fromHash(toLink(state, presets), presets);
  assert.equal(back.error, null);
  assert.deepEqual(back.state.machine.chip, state.machine.chip);
  assert.equal(toHash(back.state, presets), hash);
  // The chip the hint and the editor show: the preset with the edits over it.
  const chip = effectiveChip(back.state.machine, presets);
  assert.equal(chip.hbm_tb_s, 4.8);
  assert.equal(chip.peak_tflops.int8, undefined);
  assert.equal(chip.efficiency.matrix.fp8, 0.709, 'the other efficiencies stay the preset\'s');
});

test('a system with another chip and an edited host round-trips; equal values are no edit', () => {
  const { state, error } = fromHash(`${OLD}&sys.chip=h200-sxm&chip.hbm_gb=100&host.memory_gb=500`, presets);
  assert.equal(error, null);
  assert.deepEqual(state.machine.chip, { preset: 'h200-sxm', edits: { hbm_gb: 100 } });
  assert.deepEqual(state.machine.host, { link_gbps: 57.6, memory_gb: 500, memory_gbps: 76.8, nvme_gbps: 0 });
  assert.deepEqual(toScenario(state).system.chip, { preset: 'h200-sxm', hbm_gb: 100 });
  assert.match(toHash(state, presets), /&sys\.chip=h200-sxm&chip\.hbm_gb=100&host\.memory_gb=500&/);
  // A scenario document with the same system reads back to the same state.
  assert.deepEqual(fromScenario(toScenario(state), presets).machine, state.machine);

  // Values equal to the presets' are dropped, so the link and the preset match stay clean.
  const same = fromHash(`${OLD}&chip.hbm_gb=85.52&host.memory_gb=250`, presets).state;
  assert.equal(same.machine.chip, null);
  assert.equal(same.machine.host, null);
  assert.equal(toHash(same, presets), toHash(fromHash(OLD, presets).state, presets));
  const machine = { kind: 'system', preset: 'dgx-h100', count: 8, network: null, chip: { preset: 'h100-sxm', edits: {} } };
  assert.equal(normalizeMachine(machine, presets).chip, null);
  assert.deepEqual(hostOf({ kind: 'chip', preset: 'h100-sxm', count: 2 }, presets).memory_gb, 250, 'chip × count: its reference system\'s host');
});

test('old links load as before, and a bad chip or system key is left out with a sentence naming it', () => {
  const old = fromHash(OLD, presets);
  assert.equal(old.error, null);
  assert.equal(old.state.machine.chip, undefined);
  assert.deepEqual(toScenario(old.state).system, { preset: 'dgx-h100', count: 8 });

  const bad = fromHash(`${OLD}&chip.hbm_gb=lots&sys.chip=h900&chip.voltage=3&chip.hbm_tb_s=4`, presets);
  assert.match(bad.error, /chip\.hbm_gb = "lots" is not a number/);
  assert.match(bad.error, /sys\.chip = "h900" is not a chip preset/);
  assert.match(bad.error, /unknown setting "chip\.voltage"/);
  assert.deepEqual(bad.state.machine.chip, { preset: 'h100-sxm', edits: { hbm_tb_s: 4 } }, 'the readable edit is kept');

  const single = fromHash('#model=llama-3-8b&chip=h100-sxm&chips=2&tp=2&sys.chip=h200-sxm&chip.tdp_w=none', presets);
  assert.match(single.error, /"sys\.chip" is a setting of a system preset/);
  assert.deepEqual(single.state.machine.chip, { preset: 'h100-sxm', edits: { tdp_w: null } });
  assert.deepEqual(toScenario(single.state).system, { chip: { preset: 'h100-sxm', tdp_w: null }, count: 2 });
});

test('engine error paths of the chip and the host name the editor\'s inputs', () => {
  assert.equal(hardwareField('system.chip.hbm_gb'), 'chip-hbm_gb');
  assert.equal(hardwareField('system.chip.peak_tflops.bf16'), 'chip-peak_tflops-bf16');
  assert.equal(hardwareField('system.chip.efficiency.matrix.default'), 'chip-efficiency-matrix-default');
  assert.equal(hardwareField('system.chip.peak_tflops'), 'chip-peak_tflops-bf16');
  assert.equal(hardwareField('system.host.memory_gb'), 'host-memory_gb');
  assert.equal(hardwareField('system.chip.kernels.compute_units'), null, 'not on the form: the nearest field (Hardware) takes it');
  assert.equal(hardwareField('system.count'), null);
});

// methodology-main.js's slug: "15. Headline numbers" -> "headline-numbers".
const slug = (text) => text.toLowerCase().replace(/^[\d.\s]+/, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

test('every "How?" panel links to a heading of the methodology', () => {
  const md = joinMethodology();  // the document the page renders (core/methodology/, joined)
  const headings = new Set(md.split('\n').filter((l) => /^#{2,3} /.test(l)).map((l) => slug(l.replace(/^#+ /, '').replace(/`/g, ''))));
  for (const [name, anchor] of Object.entries(ANCHORS)) assert.ok(headings.has(anchor), `${name}: #${anchor}`);
});

test('the pickers filter by name, key and family; every word must match', () => {
  const models = modelItems(presets);
  assert.equal(models.length, Object.keys(presets.models).length);
  assert.deepEqual(filterItems(models, 'mixtral').map((i) => i.value).sort(), ['mixtral-8x22b', 'mixtral-8x7b']);
  assert.deepEqual(filterItems(models, 'LLAMA 405').map((i) => i.value), ['llama-3.1-405b']);
  const moe = filterItems(models, 'moe').map((i) => i.value);
  for (const key of ['deepseek-v3', 'mixtral-8x7b', 'qwen3-30b-a3b']) assert.ok(moe.includes(key), key);
  assert.ok(!moe.includes('llama-2-70b'));
  assert.ok(filterItems(models, 'mamba').some((i) => i.value === 'jamba-v0.1'), 'a hybrid is found by its Mamba layers');
  const hardware = hardwareItems(presets);
  assert.deepEqual(filterItems(hardware, 'mi300x').map((i) => i.value), ['system:mi300x-platform', 'chip:mi300x']);
  assert.ok(filterItems(hardware, 'amd').length >= 6, 'by vendor');
  assert.deepEqual(filterItems(hardware, 'no such thing'), []);
});

test('a peak removed from a system preset\'s chip goes as the whole chip (the engine drops nulls merged into a key)', () => {
  const { state, error } = fromHash(`${OLD}&chip.peak_tflops.int8=none&chip.hbm_gb=90`, presets);
  assert.equal(error, null);
  const chip = toScenario(state).system.chip;
  assert.equal(chip.name, presets.chips['h100-sxm'].name);
  assert.equal(chip.hbm_gb, 90);
  assert.equal(chip.peak_tflops.int8, undefined);
  assert.equal(chip.peak_tflops.bf16, 989);
  assert.ok(!JSON.stringify(chip).includes('null'));
});

test('the attention kernel\'s half-rate keys: an edit, "none" for no length effect, both in the link', () => {
  const { state, error } = fromHash(`${OLD}&chip.efficiency.attention_half_keys=150`, presets);
  assert.equal(error, null);
  assert.deepEqual(state.machine.chip, { preset: 'h100-sxm', edits: { 'efficiency.attention_half_keys': 150 } });
  assert.deepEqual(toScenario(state).system.chip, { preset: 'h100-sxm', efficiency: { attention_half_keys: 150 } });
  assert.match(toHash(state, presets), /&chip\.efficiency\.attention_half_keys=150&/);
  const none = fromHash(`${OLD}&chip.efficiency.attention_half_keys=none`, presets);
  assert.equal(none.error, null);
  assert.equal(effectiveChip(none.state.machine, presets).efficiency.attention_half_keys, undefined);
  assert.match(toHash(none.state, presets), /&chip\.efficiency\.attention_half_keys=none&/);
});
