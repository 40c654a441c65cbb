// Memory per chip in training, one bar per pipeline stage: weights, gradients, optimizer
// states and activations stacked against the HBM capacity (a dashed line, red when a
// stage does not fit). Stages differ: the first holds the embedding and the most
// micro-batches' activations in flight, the last the output layer.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { MEMORY_COLORS, OVER, AXIS, GRID, FONT } from './palette.js';

export const TRAINING_PARTS = [
  ['weights', 'Weights', 'weights_bytes'],
  ['gradients', 'Gradients', 'gradient_bytes'],
  ['optimizer', 'Optimizer states', 'optimizer_bytes'],
  ['activations', 'Activations', 'activation_bytes'],
];

function tooltip(stage, name, bytes) {
  const lines = [
    h('div', { class: 'tt-title', text: `Stage ${stage.stage} · ${name}` }),
    h('div', { text: `${fmt.gb(bytes)} · ${fmt.percent(bytes / stage.capacity_bytes)} of HBM` }),
    h('div', { text: `stage total ${fmt.gb(stage.total_bytes)}${stage.fits ? '' : ' — does not fit'}` }),
  ];
  if (name === 'Activations') {
    lines.push(h('div', {
      class: 'tt-sub',
      text: `${fmt.gb(stage.activations_per_micro_batch)} per micro-batch × ${fmt.num(stage.micro_batches_in_flight)} in flight`,
    }));
  }
  return h('div', { class: 'tt' }, ...lines);
}

// The stages of a result (a result without per-stage figures is one stage).
export const stagesOf = (memory) => (Array.isArray(memory.stages) && memory.stages.length ? memory.stages : [memory]);

export function stageMemoryOption(result) {
  const stages = stagesOf(result.memory);
  const capacity = result.memory.capacity_bytes;
  const fits = stages.every((s) => s.fits);
  const scale = Math.max(capacity, ...stages.map((s) => s.total_bytes));
  const names = stages.map((s) => (stages.length > 1 ? `Stage ${s.stage ?? 0}` : 'Per chip'));
  const label = (bytes) => ({ show: stages.length <= 16 && bytes / scale > 0.1, position: 'inside', color: '#fff', fontFamily: FONT, formatter: () => fmt.gb(bytes) });
  const series = TRAINING_PARTS.map(([key, name, field]) => ({
    name, type: 'bar', stack: 'memory', barMaxWidth: 26,
    itemStyle: { color: MEMORY_COLORS[key] },
    data: stages.map((s) => ({ value: s[field] / 1e9, label: label(s[field]), stage: s })),
    tooltip: { formatter: (item) => tooltip(item.data.stage, name, item.data.stage[field]) },
  }));
  series.push({
    name: 'Free', type: 'bar', stack: 'memory', barMaxWidth: 26,
    itemStyle: { color: MEMORY_COLORS.free },
    data: stages.map((s) => Math.max(capacity - s.total_bytes, 0) / 1e9),
    tooltip: { formatter: (item) => h('div', { class: 'tt' }, h('div', { class: 'tt-title', text: `${names[item.dataIndex]} · free` }), h('div', { text: fmt.gb(item.value * 1e9) })) },
    markLine: {
      silent: true, symbol: 'none',
      lineStyle: { color: fits ? AXIS : OVER, type: 'dashed', width: 2 },
      label: { formatter: `HBM ${fmt.gb(capacity)}`, position: 'start', color: fits ? AXIS : OVER, fontFamily: FONT, fontWeight: 600 },
      data: [{ xAxis: capacity / 1e9 }],
    },
  });
  return {
    aria: { enabled: true },
    animationDuration: 250,
    textStyle: { fontFamily: FONT },
    grid: { left: 12, right: 28, top: 36, bottom: 24, containLabel: true },
    legend: { top: 0, left: 0, itemWidth: 12, itemHeight: 12, textStyle: { color: AXIS } },
    tooltip: { trigger: 'item', confine: true, className: 'echarts-tooltip' },
    xAxis: { type: 'value', axisLabel: { color: AXIS, formatter: (v) => `${fmt.num(v)} GB` }, splitLine: { lineStyle: { color: GRID } } },
    yAxis: { type: 'category', inverse: true, data: names, axisLabel: { color: AXIS }, axisTick: { show: false } },
    series,
  };
}

// The chart grows with the stages (bars keep a readable height, up to a limit).
export function renderStageMemory(result, chart) {
  const stages = stagesOf(result.memory);
  const box = $('#stage-memory-chart');
  box.style.height = `${Math.min(80 + 30 * stages.length, 620)}px`;
  chart.render(stageMemoryOption(result));
  const m = result.memory;
  const biggest = TRAINING_PARTS.reduce((a, b) => (m[b[2]] > m[a[2]] ? b : a));
  $('#stage-memory-note').textContent = `The fullest is ${stages.length > 1 ? `stage ${m.stage}` : 'the one stage'}: ` +
    `${fmt.gb(m.total_bytes)} of ${fmt.gb(m.capacity_bytes)}, most of it ${biggest[1].toLowerCase()} (${fmt.gb(m[biggest[2]])}). ` +
    `Activations: ${fmt.gb(m.activations_per_micro_batch)} per micro-batch × ${fmt.num(m.micro_batches_in_flight)} in flight.`;
}
