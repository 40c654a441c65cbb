// The page's pure modules for training offload and fit advice under Node: the offload
// settings in the link and the scenario, old links without them, the schedules the engine
// accepts, the "Offload" part of the step, host memory, and the fit advice in words and
// applied to the state. No browser and no build needed; presets come straight from presets/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash } from '../../web/js/state.js';
import { fromScenario, toScenario } from '../../web/js/scenario.js';
import { SCHEDULES, OFFLOAD_TARGETS } from '../../web/js/training.js';
import { stepParts, breakdownDescription, STEP_PARTS } from '../../web/js/views/breakdown-chart.js';
import { STEP_COLORS } from '../../web/js/views/palette.js';
import { hostMemory, hostText, offloads } from '../../web/js/views/stage-memory-chart.js';
import { fieldsForPath, placeEngineError } from '../../web/js/views/errors.js';
import { adviceText, applyAdvice } from '../../web/js/fit-advice.js';

const NBSP = '\u00a0';
const root = new URL('../../', import.meta.url);
const presets = loadPresets();

const LINK = '#mode=training&model=llama-3-8b&system=dgx-h100&chips=8&tp=1&pp=1&dp=4&sp=off&cp=2&zero=1&schedule=1f1b&vs=1'
  + '&seq=8192&global_batch=128&micro_batch=1&recompute=none&precision=bf16&flash=on&dropout=off';

test('a link from before offload loads with none, and its link stays as it was', () => {
  const { state, error } = fromHash(LINK, presets);
  assert.equal(error, null);
  assert.equal(state.workload.offload_optimizer, 'none');
  assert.equal(state.workload.offload_parameters, 'none');
  assert.equal(toHash(state, presets), LINK);
  assert.deepEqual(toScenario(state).workload.offload, { optimizer: 'none', parameters: 'none' });
});

test('offload settings round-trip through the link and reach the engine under workload.offload', () => {
  const hash = `${LINK.replace('zero=1', 'zero=3')}&offload_optimizer=cpu&offload_parameters=nvme`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(state.workload.offload_optimizer, 'cpu');
  assert.equal(state.workload.offload_parameters, 'nvme');
  assert.equal(toHash(state, presets), hash);
  const sent = toScenario(state).workload;
  assert.deepEqual(sent.offload, { optimizer: 'cpu', parameters: 'nvme' });
  assert.equal(sent.offload_optimizer, undefined, 'the state\'s flat names stay in the page');
  // A scenario document with offload comes back the same.
  const doc = { ...toScenario(state), name: 'x' };
  assert.deepEqual(toScenario(fromScenario(doc, presets)), toScenario(state));
});

test('offload values outside none, cpu, nvme and offload keys in an inference link are refused', () => {
  assert.deepEqual(OFFLOAD_TARGETS, ['none', 'cpu', 'nvme']);
  for (const hash of [`${LINK}&offload_optimizer=gpu`, `${LINK}&offload_parameters=`, '#model=llama-2-70b&offload_optimizer=cpu']) {
    assert.match(fromHash(hash, presets).error ?? '', /ignored/, hash);
  }
});

test('the schedule choices are the ones the engine accepts, each with an option in the form', () => {
  // The engine's one spelling table of the schedules (core/io/names.hpp).
  const core = readFileSync(new URL('core/io/names.hpp', root), 'utf8');
  const m = core.match(/kPipelineScheduleNames\[\] = \{([\s\S]*?)\n\};/);
  assert.ok(m, 'the schedule spellings in core/io/names.hpp');
  const accepted = [...m[1].matchAll(/PipelineSchedule::\w+, "([^"]+)"/g)].map((x) => x[1]);
  assert.equal(accepted.length, 4);
  assert.deepEqual([...SCHEDULES].sort(), [...accepted].sort());
  const html = readFileSync(new URL('web/index.html', root), 'utf8');
  const select = html.match(/<select id="schedule"[^>]*>([\s\S]*?)<\/select>/)[1];
  assert.deepEqual([...select.matchAll(/value="([^"]+)"/g)].map((x) => x[1]), SCHEDULES);
  assert.match(select, /Zero bubble \(ZB-H1\)/);
  const { state, error } = fromHash(LINK.replace('schedule=1f1b', 'schedule=zb_h1'), presets);
  assert.equal(error, null);
  assert.equal(toScenario(state).parallelism.schedule, 'zb_h1');
});

test('the step\'s offload time is its own part, "Offload", in the list and the spoken description', () => {
  assert.equal(STEP_PARTS.offload_s[0], 'Offload');
  assert.match(STEP_COLORS.offload_s, /^#[0-9a-f]{6}$/);
  const summary = { step_time_s: 10, breakdown: { compute_s: 8, dp_s: 0.5, optimizer_s: 0, offload_s: 1.5 } };
  const parts = stepParts(summary, { recompute: 'none' });
  assert.deepEqual(parts.map((p) => p.key), ['compute_s', 'dp_s', 'offload_s']);
  assert.equal(parts[2].share, 0.15);
  assert.equal(breakdownDescription(summary, parts),
    `Where the step goes: 10${NBSP}s in all: Compute 8${NBSP}s (80.0%), DP gradient sync 500${NBSP}ms (5.0%), Offload 1.5${NBSP}s (15.0%).`);
});

test('host memory: the fullest stage, and "does not fit" when any stage does not', () => {
  assert.equal(offloads({ offload: { optimizer: 'none', parameters: 'none' } }), false);
  assert.equal(offloads({}), false);
  assert.equal(offloads({ offload: { optimizer: 'cpu', parameters: 'none' } }), true);
  // Llama-3-8B, CP 2 × DP 4, optimizer on the CPU: 16·Ψ/d = 16 · 8.03e9 / 8 ≈ 16.06 GB per chip.
  const stage = (host, fits = true) => ({ host_bytes: host, host_capacity_bytes: 250e9, host_fits: fits });
  const one = hostMemory({ stages: [stage(16.06e9)] });
  assert.deepEqual(one, { used: 16.06e9, capacity: 250e9, fits: true });
  assert.equal(hostText(one), `Host memory: 16.1${NBSP}GB of 250${NBSP}GB per chip`);
  const over = hostMemory({ stages: [stage(120e9), stage(300e9, false)] });
  assert.equal(hostText(over), `Does not fit in host memory: 300${NBSP}GB needed of 250${NBSP}GB per chip`);
  assert.equal(hostText(hostMemory({ stages: [stage(0)] })), 'Host memory: none used, the offloaded state is on NVMe');
});

test('fit advice in plain words', () => {
  const advice = (settings, peak = 61e9) => ({ settings, peak_bytes: peak, capacity_bytes: 85.52e9 });
  assert.equal(adviceText(advice([{ field: 'parallelism.zero', value: 3 }])), `Fits with ZeRO stage 3 (61${NBSP}GB per chip)`);
  assert.equal(adviceText(advice([{ field: 'workload.recompute', value: 'full' }])), `Fits with full recomputation (61${NBSP}GB per chip)`);
  assert.equal(adviceText(advice([{ field: 'workload.micro_batch', value: 1 }])), `Fits with a micro-batch of 1 sequence (61${NBSP}GB per chip)`);
  assert.equal(adviceText(advice([{ field: 'parallelism.pp', value: 4 }, { field: 'parallelism.dp', value: 2 }], 83.2e9)),
    `Fits with PP 4 and DP 2 (83.2${NBSP}GB per chip)`);
  assert.equal(adviceText(advice([{ field: 'workload.offload.optimizer', value: 'cpu' }], 65.6e9)),
    `Fits with the optimizer states offloaded to CPU memory (65.6${NBSP}GB per chip)`);
  assert.equal(adviceText(advice([{ field: 'system.count', value: 16 }])), null, 'a change the page cannot name');
  assert.equal(adviceText(null), null);
});

test('applying fit advice changes exactly its fields in the state', () => {
  const { state } = fromHash(LINK.replace('zero=1', 'zero=0').replace('schedule=1f1b&vs=1', 'schedule=interleaved_1f1b&vs=2'), presets);
  const zero = applyAdvice(state, { settings: [{ field: 'parallelism.zero', value: 2 }] });
  assert.equal(zero.parallelism.zero, 2);
  assert.equal(state.parallelism.zero, 0, 'the state itself is left alone');
  assert.deepEqual({ ...zero, parallelism: state.parallelism }, state);
  const pp = applyAdvice(state, { settings: [{ field: 'parallelism.pp', value: 2 }, { field: 'parallelism.dp', value: 2 }] });
  assert.deepEqual([pp.parallelism.pp, pp.parallelism.dp, pp.parallelism.virtual_stages], [2, 2, 2]);
  const off = applyAdvice(state, { settings: [{ field: 'workload.offload.optimizer', value: 'cpu' }] });
  assert.equal(off.workload.offload_optimizer, 'cpu');
  assert.match(toHash(off, presets), /&offload_optimizer=cpu/);
  const recompute = applyAdvice(state, { settings: [{ field: 'workload.recompute', value: 'selective' }] });
  assert.equal(recompute.workload.recompute, 'selective');
  assert.equal(applyAdvice(state, { settings: [{ field: 'system.count', value: 16 }] }), null);
  assert.equal(applyAdvice(state, null), null);
});

test('offload errors find the offload selects; a system without a host points at them too', () => {
  assert.deepEqual(fieldsForPath('workload.offload.optimizer'), ['offload_optimizer']);
  assert.deepEqual(fieldsForPath('workload.offload.parameters'), ['offload_parameters', 'offload_optimizer']);
  const training = (optimizer, parameters) => ({ mode: 'training', workload: { offload_optimizer: optimizer, offload_parameters: parameters } });
  const at = (path, state) => placeEngineError({ path, message: 'm' }, state).path;
  assert.equal(at('system.host.link_gbps', training('cpu', 'none')), 'workload.offload.optimizer');
  assert.equal(at('system.host.link_gbps', training('none', 'cpu')), 'workload.offload.parameters');
  assert.equal(at('system.host.nvme_gbps', training('cpu', 'nvme')), 'workload.offload.parameters');
  assert.equal(at('system.host.memory_gb', training('nvme', 'cpu')), 'workload.offload.parameters');
  assert.match(placeEngineError({ path: 'system.host.nvme_gbps', message: 'm' }, training('nvme', 'none')).note, /CPU memory instead/);
  assert.equal(at('system.host.link_gbps', training('none', 'none')), 'system.host.link_gbps');
});
