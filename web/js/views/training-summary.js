// The headline numbers of a training step: step time, throughput, MFU and HFU, TFLOP/s per
// chip, time and chip-hours to train (when a token count is asked), memory, size, layout.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { activeText, epText, memoryBar, metric, plural, trust } from './summary.js';
import { recomputes } from './breakdown-chart.js';
import { hostMemory, hostText, offloads } from './stage-memory-chart.js';
import { adviceText } from '../fit-advice.js';

// The FLOP convention behind MFU and HFU (core: training/flops.cpp).
export const FLOP_CONVENTION = '6·N·D-style model FLOPs with the attention term, causal mask not halved (Korthikanti et al. 2022 eq. 7)';

// Where each training headline is explained (anchors of methodology.html).
export const TRAINING_HOW = {
  results: 'training-results-the-summary-the-breakdown-time-to-train-warnings',
  flops: 'training-flops-mfu-and-hfu',
  memory: 'training-memory-per-stage',
  schedules: 'pipeline-schedules',
};

const SCHEDULE_NAMES = { gpipe: 'GPipe', '1f1b': '1F1B', interleaved_1f1b: 'interleaved 1F1B', zb_h1: 'zero bubble (ZB-H1)' };
export const scheduleName = (s) => SCHEDULE_NAMES[s] ?? s;

// HFU counts the FLOPs the hardware runs: the attention the kernels compute (FlashAttention
// skips the causal mask's blocks: about half of MFU's attention term) and, with recomputation,
// the recomputed forward as well.
function mfuMetric(s, workload) {
  const again = recomputes(workload);
  const card = metric('mfu', 'MFU', { value: fmt.percent(s.mfu), unit: '' },
    `HFU ${fmt.percent(s.hfu)}${again ? ' (with recomputation)' : ''}`, {
      how: TRAINING_HOW.flops,
      trust: h('div', { class: 'metric-trust metric-convention', text: FLOP_CONVENTION }),
    });
  card.title = `Model FLOPs per second over the chips' dense ${workload.precision} peak: ${FLOP_CONVENTION}. ` +
    'HFU counts the FLOPs the hardware runs: the attention the kernels compute (FlashAttention skips the causal mask\'s blocks, about half of it)' +
    (again ? ' and the recomputed forward.' : '.');
  return card;
}

// Chips in use and how they split: TP × CP × PP × DP, the stages and the micro-batches.
function layoutMetric(result) {
  const s = result.summary;
  const par = result.scenario.parallelism;
  const pipe = result.pipeline;
  const dims = [`TP ${fmt.int(par.tp)}${par.sp ? ' (SP)' : ''}`, par.cp > 1 && `CP ${fmt.int(par.cp)}`,
    `PP ${fmt.int(par.pp)}`, `DP ${fmt.int(par.dp)}`].filter(Boolean).join(' × ') + epText(par);
  const lines = [];
  if (pipe.stages > 1) {
    const chunks = pipe.virtual_stages > 1 ? `, ${pipe.virtual_stages} chunks each` : '';
    lines.push(h('div', {
      class: 'metric-pipeline',
      text: `${plural(pipe.stages, 'pipeline stage')} of ${pipe.stage_layers.map(fmt.int).join(' + ')} layers${chunks} · ${scheduleName(pipe.schedule)}`,
    }));
  }
  const idle = result.scenario.system.count - s.chips;
  if (idle > 0) lines.push(h('div', { class: 'metric-idle', text: `${plural(idle, 'chip')} of the system idle` }));
  return metric('chips', 'Chips in use', { value: fmt.int(s.chips), unit: s.chips === 1 ? 'chip' : 'chips' },
    `${dims} · ZeRO ${par.zero}`,
    { trust: lines.length ? h('div', { class: 'metric-trust' }, lines) : null });
}

// What makes a step that does not fit, fit: the engine's advice and an Apply button, or
// that no single change does.
function adviceLine(advice, onApply) {
  if (!advice) {
    return h('div', { class: 'metric-advice', text: 'No single change of ZeRO stage, recomputation, micro-batch, PP, TP or offload makes it fit.' });
  }
  const text = adviceText(advice);
  if (!text) return h('div', { class: 'metric-advice', text: 'It fits with one change: see the warnings.' });
  return h('div', { class: 'metric-advice' }, h('span', { text: `${text}.` }), ' ',
    h('button', { type: 'button', class: 'apply-advice', title: 'Change those settings in the form', onclick: () => onApply?.(advice), text: 'Apply' }));
}

function memoryMetric(result, onApply) {
  const m = result.memory;
  const fits = m.fits === true;
  const host = offloads(result.scenario.workload) ? hostMemory(m) : null;
  const stage = result.pipeline.stages > 1 ? ` · stage ${m.stage}, the fullest` : '';
  const sub = (fits
    ? `fits · ${fmt.percent(m.total_bytes / m.capacity_bytes)} of HBM`
    : `does not fit · ${fmt.gb(m.total_bytes - m.capacity_bytes)} over capacity`) + stage;
  const lines = [];
  if (host) lines.push(h('div', { class: `metric-host${host.fits ? '' : ' metric-host-over'}`, text: hostText(host) }));
  if (!fits || (host && !host.fits)) lines.push(adviceLine(m.fit_advice, onApply));
  return metric('memory', 'Memory per chip', { value: fmt.num(m.total_bytes / 1e9), unit: `of ${fmt.gb(m.capacity_bytes)}` }, sub, {
    class: fits && (!host || host.fits) ? '' : 'metric-bad',
    bar: memoryBar(m.total_bytes, m.capacity_bytes, fits),
    how: TRAINING_HOW.memory,
    trust: lines.length ? h('div', { class: 'metric-trust' }, lines) : null,
  });
}

// onApply(advice): applies the engine's fit advice to the form.
export function renderTrainingSummary(result, { onApply } = {}) {
  const s = result.summary;
  const w = result.scenario.workload;
  const pipe = result.pipeline;
  // How far the bundled training runs fell from the model (a ratio on the step time).
  const band = s.error_band?.step;
  const coverage = s.error_band?.coverage ?? 0.8;
  const unvalidated = s.error_band?.unvalidated ?? [];
  const cards = [
    metric('step', 'Step time', fmt.durationParts(s.step_time_s),
      `${plural(pipe.micro_batches, 'micro-batch', 'micro-batches')} of ${plural(pipe.micro_batch, 'sequence')} per replica · ${fmt.compact(s.tokens_per_step)} tokens`,
      { how: TRAINING_HOW.results, trust: trust({ expected: s.step_time_s, band, coverage, unvalidated, show: fmt.duration }) }),
    metric('tokens', 'Training throughput', { value: fmt.compact(s.tokens_per_s), unit: 'tokens/s' },
      `${fmt.compact(s.tokens_per_s_per_chip)} tokens/s per chip`,
      { how: TRAINING_HOW.results, trust: trust({ expected: s.tokens_per_s, band, coverage, unvalidated, rate: true, show: (x) => `${fmt.compact(x)} tokens/s` }) }),
    mfuMetric(s, w),
    metric('tflops', 'Model TFLOP/s per chip', { value: fmt.num(s.model_tflops_per_chip), unit: 'TFLOP/s' },
      recomputes(w)
        ? `${fmt.num(s.hardware_tflops_per_chip)} TFLOP/s with recomputation`
        : `${fmt.num(s.hardware_tflops_per_chip)} hardware TFLOP/s (no recomputation)`, { how: TRAINING_HOW.flops }),
    metric('params', 'Parameters', { value: fmt.compact(s.params), unit: '' },
      `${activeText(result)}${fmt.flops(s.model_flops_per_step)} of model FLOPs per step`),
    memoryMetric(result, onApply),
    layoutMetric(result),
  ];
  if (s.train_time_s != null) {
    cards.push(metric('train-time', 'Time to train', { value: fmt.duration(s.train_time_s), unit: '' },
      `${fmt.compact(w.train_tokens)} tokens at ${fmt.compact(s.tokens_per_s)} tokens/s`, { how: TRAINING_HOW.results }));
  }
  if (s.chip_hours != null) {
    cards.push(metric('chip-hours', 'Chip-hours', { value: fmt.compact(s.chip_hours), unit: 'chip-hours' },
      `${plural(s.chips, 'chip')} for ${fmt.duration(s.train_time_s)}`, { how: TRAINING_HOW.results }));
  }
  $('#summary').replaceChildren(...cards);
}
