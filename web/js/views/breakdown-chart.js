// Where a training step goes: the parts of result.summary.breakdown (they add up to the
// step time) as one horizontal stacked bar, and the same numbers as a list under it.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { STEP_COLORS, AXIS, GRID, FONT, labelInk } from './palette.js';
import { labelFits } from './chart.js';

const SVG = 'http://www.w3.org/2000/svg';

export const STEP_PARTS = {
  compute_s: ['Compute', 'Forward and backward kernels of the slowest stage'],
  tp_s: ['TP communication', 'Tensor-parallel collectives left on the critical path'],
  cp_s: ['CP communication', 'The context-parallel K/V ring not hidden behind attention'],
  pp_s: ['Pipeline hand-offs', 'Activations and gradients sent between stages'],
  ep_s: ['Expert all-to-alls', 'The experts’ dispatch and combine all-to-alls over the EP group, forward and backward, not overlapped'],
  zero3_s: ['ZeRO-3 gathers', 'Parameter gathers and gradient reduce-scatters per micro-batch, exposed'],
  bubble_s: ['Pipeline bubble', 'Idle time of the slowest stage while the pipeline fills and drains'],
  dp_s: ['DP gradient sync', 'Data-parallel gradient reduction and parameter gathering, exposed'],
  optimizer_s: ['Optimizer step', 'Adam over the chip’s shard of the parameters'],
  offload_s: ['Offload', 'Offloaded state moved between the chip and its host (CPU memory or NVMe), and the host optimizer step, not hidden'],
};

// Recomputation runs only with recompute = selective or full; "none" keeps every activation.
export const recomputes = (workload) => workload?.recompute === 'selective' || workload?.recompute === 'full';

// [{key, label, about, color, seconds, share}] for the parts that take time, in stacking order.
// `workload`: the scenario's, for what the compute part includes.
export function stepParts(summary, workload) {
  const step = summary.step_time_s;
  return Object.entries(STEP_PARTS)
    .map(([key, [label, about]]) => ({
      key, label, color: STEP_COLORS[key], seconds: summary.breakdown?.[key],
      about: key === 'compute_s' && recomputes(workload) ? `${about}, recomputation included` : about,
    }))
    .filter((p) => Number.isFinite(p.seconds) && p.seconds > 0)
    .map((p) => ({ ...p, share: step > 0 ? p.seconds / step : 0 }));
}

function tooltip(part) {
  return h('div', { class: 'tt' },
    h('div', { class: 'tt-title', text: part.label }),
    h('div', { text: `${fmt.time(part.seconds)} · ${fmt.percent(part.share)} of the step` }),
    h('div', { class: 'tt-sub', text: part.about }));
}

// What a screen reader hears for the chart: formatted values, the missing parts left out.
export function breakdownDescription(summary, parts) {
  const list = parts.map((p) => `${p.label} ${fmt.time(p.seconds)} (${fmt.percent(p.share)})`).join(', ');
  return `Where the step goes: ${fmt.time(summary.step_time_s)} in all${list ? `: ${list}` : ''}.`;
}

// The list under the chart is its legend, so the chart has none. -> { option, height }
export function breakdownOption(result, width = 640) {
  const parts = stepParts(result.summary, result.scenario?.workload);
  const step = result.summary.step_time_s;
  const plot = Math.max(width - 40, 40); // the bar's length in px, between the grid's margins
  return {
    height: 64,
    option: {
      aria: { enabled: true, label: { description: breakdownDescription(result.summary, parts) } },
      animationDuration: 250,
      textStyle: { fontFamily: FONT },
      tooltip: { trigger: 'item', confine: true, className: 'echarts-tooltip' },
      grid: { left: 8, right: 24, top: 4, bottom: 4, containLabel: true },
      xAxis: {
        type: 'value', min: 0, max: step || undefined, splitNumber: width < 480 ? 3 : 5,
        axisLabel: { color: AXIS, formatter: (v) => fmt.time(v) }, splitLine: { lineStyle: { color: GRID } },
      },
      yAxis: { type: 'category', data: ['Step'], show: false },
      series: parts.map((part) => ({
        name: part.label,
        type: 'bar',
        stack: 'step',
        barWidth: 34,
        data: [part.seconds],
        itemStyle: { color: part.color },
        label: {
          show: part.share >= 0.05 && labelFits(fmt.percent(part.share), part.share * plot),
          position: 'inside', color: labelInk(part.color), fontFamily: FONT,
          formatter: () => fmt.percent(part.share),
        },
        tooltip: { formatter: () => tooltip(part) },
      })),
    },
  };
}

// A colour square; SVG, because an inline style attribute would break the page's CSP.
export function swatch(color) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 10 10');
  svg.setAttribute('width', '10');
  svg.setAttribute('height', '10');
  svg.setAttribute('aria-hidden', 'true');
  const rect = document.createElementNS(SVG, 'rect');
  for (const [k, v] of Object.entries({ width: 10, height: 10, rx: 2, fill: color })) rect.setAttribute(k, String(v));
  svg.append(rect);
  return h('span', { class: 'swatch' }, svg);
}

export function renderBreakdown(result, chart) {
  const s = result.summary;
  chart.render((width) => breakdownOption(result, width));
  const parts = stepParts(s, result.scenario.workload);
  $('#breakdown-list').replaceChildren(
    ...parts.map((p) => h('li', { title: p.about, dataset: { part: p.key, seconds: p.seconds } },
      swatch(p.color), h('span', { class: 'part-label', text: p.label }),
      h('span', { class: 'part-value', text: `${fmt.time(p.seconds)} · ${fmt.percent(p.share)}` }))),
    h('li', { class: 'breakdown-total', dataset: { seconds: s.step_time_s } },
      h('span', { class: 'part-label', text: 'Step' }), h('span', { class: 'part-value', text: fmt.time(s.step_time_s) })));
  const stages = result.pipeline.stages;
  $('#breakdown-note').textContent = stages > 1
    ? `Stage ${s.critical_stage} of ${stages} is the slowest and sets the pace; the DP sync and the optimizer follow the last backward.`
    : 'One pipeline stage: no bubble; the DP sync and the optimizer follow the last backward.';
}
