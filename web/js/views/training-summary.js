// The headline numbers of a training step: step time, throughput, MFU and HFU, TFLOP/s per
// chip, time and chip-hours to train (when a token count is asked), memory, size, layout.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { activeText, epText, memoryBar, metric, plural, trust } from './summary.js';
import { recomputes } from './breakdown-chart.js';

// The FLOP convention behind MFU and HFU (core: training/flops.cpp).
export const FLOP_CONVENTION = '6·N·D-style model FLOPs with the attention term, causal mask not halved (Korthikanti et al. 2022 eq. 7)';

// Where each training headline is explained (anchors of methodology.html).
export const TRAINING_HOW = {
  results: 'training-results-the-summary-the-breakdown-time-to-train-warnings',
  flops: 'training-flops-mfu-and-hfu',
  memory: 'training-memory-per-stage',
  schedules: 'pipeline-schedules',
};

const SCHEDULE_NAMES = { gpipe: 'GPipe', '1f1b': '1F1B', interleaved_1f1b: 'interleaved 1F1B' };
export const scheduleName = (s) => SCHEDULE_NAMES[s] ?? s;

// HFU counts the FLOPs the hardware runs: with recomputation (selective or full), the
// recomputed forward as well; without, the same FLOPs as MFU.
function mfuMetric(s, workload) {
  const again = recomputes(workload);
  const card = metric('mfu', 'MFU', { value: fmt.percent(s.mfu), unit: '' },
    `HFU ${fmt.percent(s.hfu)}${again ? ' (with recomputation)' : ''}`, {
      how: TRAINING_HOW.flops,
      trust: h('div', { class: 'metric-trust metric-convention', text: FLOP_CONVENTION }),
    });
  card.title = `Model FLOPs per second over the chips' dense ${workload.precision} peak: ${FLOP_CONVENTION}. ` +
    (again ? 'HFU also counts the recomputed forward.' : 'HFU counts the FLOPs the hardware runs; without recomputation they are the model FLOPs.');
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

function memoryMetric(result) {
  const m = result.memory;
  const fits = m.fits === true;
  const stage = result.pipeline.stages > 1 ? ` · stage ${m.stage}, the fullest` : '';
  const sub = (fits
    ? `fits · ${fmt.percent(m.total_bytes / m.capacity_bytes)} of HBM`
    : `does not fit · ${fmt.gb(m.total_bytes - m.capacity_bytes)} over capacity`) + stage;
  return metric('memory', 'Memory per chip', { value: fmt.num(m.total_bytes / 1e9), unit: `of ${fmt.gb(m.capacity_bytes)}` }, sub,
    { class: fits ? '' : 'metric-bad', bar: memoryBar(m.total_bytes, m.capacity_bytes, fits), how: TRAINING_HOW.memory });
}

export function renderTrainingSummary(result) {
  const s = result.summary;
  const w = result.scenario.workload;
  const pipe = result.pipeline;
  // How far the bundled training runs fell from the model (a ratio on the step time).
  const band = s.error_band?.step;
  const coverage = s.error_band?.coverage ?? 0.8;
  const cards = [
    metric('step', 'Step time', fmt.durationParts(s.step_time_s),
      `${plural(pipe.micro_batches, 'micro-batch', 'micro-batches')} of ${plural(pipe.micro_batch, 'sequence')} per replica · ${fmt.compact(s.tokens_per_step)} tokens`,
      { how: TRAINING_HOW.results, trust: trust({ expected: s.step_time_s, band, coverage, show: fmt.duration }) }),
    metric('tokens', 'Training throughput', { value: fmt.compact(s.tokens_per_s), unit: 'tokens/s' },
      `${fmt.compact(s.tokens_per_s_per_chip)} tokens/s per chip`,
      { how: TRAINING_HOW.results, trust: trust({ expected: s.tokens_per_s, band, coverage, rate: true, show: (x) => `${fmt.compact(x)} tokens/s` }) }),
    mfuMetric(s, w),
    metric('tflops', 'Model TFLOP/s per chip', { value: fmt.num(s.model_tflops_per_chip), unit: 'TFLOP/s' },
      recomputes(w)
        ? `${fmt.num(s.hardware_tflops_per_chip)} TFLOP/s with recomputation`
        : `${fmt.num(s.hardware_tflops_per_chip)} hardware TFLOP/s (no recomputation)`, { how: TRAINING_HOW.flops }),
    metric('params', 'Parameters', { value: fmt.compact(s.params), unit: '' },
      `${activeText(result)}${fmt.flops(s.model_flops_per_step)} of model FLOPs per step`),
    memoryMetric(result),
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
