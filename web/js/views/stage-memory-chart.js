// Memory per chip in training, one bar per pipeline stage: weights, gradients, optimizer
// states and activations stacked against the HBM capacity (a dashed line, red when a
// stage does not fit). Stages differ: the first holds the embedding and the most
// micro-batches' activations in flight, the last the output layer.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { MEMORY_COLORS, OVER, AXIS, GRID, FONT } from './palette.js';
import { labelFits, legendLayout, textWidth, wrappingLegend } from './chart.js';

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

// What a screen reader hears: each stage's total and parts, formatted.
function description(stages, names, capacity) {
  const each = stages.map((st, i) => `${names[i]}: ${fmt.gb(st.total_bytes)}${st.fits ? '' : ' (does not fit)'}, ` +
    TRAINING_PARTS.filter(([, , field]) => st[field] > 0).map(([, name, field]) => `${name.toLowerCase()} ${fmt.gb(st[field])}`).join(', '));
  return `Memory per chip against ${fmt.gb(capacity)} of HBM. ${each.join('. ')}.`;
}

// -> { option, height } for a chart `width` px wide: a bar per stage (bars keep a readable
// height, up to a limit), the legend under them, a value inside a segment only where it fits.
export function stageMemoryOption(result, width = 640) {
  const stages = stagesOf(result.memory);
  const capacity = result.memory.capacity_bytes;
  const fits = stages.every((s) => s.fits);
  const scale = Math.max(capacity, ...stages.map((s) => s.total_bytes));
  const names = stages.map((s) => (stages.length > 1 ? `Stage ${s.stage ?? 0}` : 'Per chip'));
  // The bars' length in px: the box less the stage names and the grid's margins.
  const plot = Math.max(width - 40 - Math.max(...names.map((n) => textWidth(n))), 40);
  const label = (bytes) => ({
    show: stages.length <= 16 && labelFits(fmt.gb(bytes), (bytes / scale) * plot),
    position: 'inside', color: '#fff', fontFamily: FONT, formatter: () => fmt.gb(bytes),
  });
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
      label: { formatter: `HBM ${fmt.gb(capacity)}`, position: 'start', align: 'right', padding: [0, 4, 0, 0], color: fits ? AXIS : OVER, fontFamily: FONT, fontWeight: 600 },
      data: [{ xAxis: capacity / 1e9 }],
    },
  });
  const top = 24; // room for the capacity line's label
  const bars = Math.min(30 * stages.length, 540);
  const legendTop = top + bars + 28; // under the axis labels
  const legend = legendLayout([...TRAINING_PARTS.map(([, name]) => name), 'Free'], width);
  return {
    height: legendTop + legend.height,
    option: {
      aria: { enabled: true, label: { description: description(stages, names, capacity) } },
      animationDuration: 250,
      textStyle: { fontFamily: FONT },
      grid: { left: 12, right: 28, top, height: bars, containLabel: true },
      legend: wrappingLegend(legendTop, null, AXIS),
      tooltip: { trigger: 'item', confine: true, className: 'echarts-tooltip' },
      xAxis: {
        type: 'value', splitNumber: width < 480 ? 3 : 5,
        axisLabel: { color: AXIS, formatter: (v) => `${fmt.num(v)} GB` }, splitLine: { lineStyle: { color: GRID } },
      },
      yAxis: { type: 'category', inverse: true, data: names, axisLabel: { color: AXIS }, axisTick: { show: false } },
      series,
    },
  };
}

// Whether the scenario offloads model state to the host (workload.offload).
export function offloads(workload) {
  const o = workload?.offload;
  return Boolean(o) && (o.optimizer !== 'none' || o.parameters !== 'none');
}

// The host memory the offloaded state takes per chip, on the stage that takes the most:
// { used, capacity, fits }, fits false when any stage's state does not fit.
export function hostMemory(memory) {
  const stages = stagesOf(memory);
  const fullest = stages.reduce((a, b) => ((b.host_bytes ?? 0) > (a.host_bytes ?? 0) ? b : a));
  return { used: fullest.host_bytes ?? 0, capacity: fullest.host_capacity_bytes ?? 0, fits: stages.every((s) => s.host_fits !== false) };
}

export function hostText(host) {
  if (!host.fits) return `Does not fit in host memory: ${fmt.gb(host.used)} needed of ${fmt.gb(host.capacity)} per chip`;
  if (host.used === 0) return 'Host memory: none used, the offloaded state is on NVMe';
  return `Host memory: ${fmt.gb(host.used)} of ${fmt.gb(host.capacity)} per chip`;
}

export function renderStageMemory(result, chart) {
  const stages = stagesOf(result.memory);
  chart.render((width) => stageMemoryOption(result, width));
  const m = result.memory;
  const host = offloads(result.scenario.workload) ? hostText(hostMemory(m)) : null;
  const biggest = TRAINING_PARTS.reduce((a, b) => (m[b[2]] > m[a[2]] ? b : a));
  $('#stage-memory-note').textContent = `The fullest is ${stages.length > 1 ? `stage ${m.stage}` : 'the one stage'}: ` +
    `${fmt.gb(m.total_bytes)} of ${fmt.gb(m.capacity_bytes)}, most of it ${biggest[1].toLowerCase()} (${fmt.gb(m[biggest[2]])}). ` +
    `Activations: ${fmt.gb(m.activations_per_micro_batch)} per micro-batch × ${fmt.num(m.micro_batches_in_flight)} in flight.` +
    (host ? ` ${host}.` : '');
}
