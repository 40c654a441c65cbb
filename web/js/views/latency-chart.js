// Where the time goes: prefill (the time to first token) and decode, each a stacked bar
// split by operator class, binding roof or operator. Each phase has its own time axis,
// because decode is often 10-1000x longer than prefill and would squash it.
import { h } from '../dom.js';
import * as fmt from '../format.js';
import { CLASS_COLORS, CLASS_LABELS, BOUND_COLORS, BOUND_LABELS, AXIS, GRID, FONT, shade } from './palette.js';

const CLASS_ORDER = Object.keys(CLASS_COLORS);
const BOUND_ORDER = Object.keys(BOUND_COLORS);

// -> [{key, label, color}] in stacking order, and key(op) for the chosen split.
function groupsFor(split, phases) {
  if (split === 'bound') {
    return { keyOf: (op) => op.bound, groups: BOUND_ORDER.map((k) => ({ key: k, label: BOUND_LABELS[k], color: BOUND_COLORS[k] })) };
  }
  if (split === 'op') {
    const seen = new Map();
    for (const phase of phases) for (const op of phase.ops) if (!seen.has(op.name)) seen.set(op.name, op.class);
    const byClass = {};
    for (const [name, cls] of seen) (byClass[cls] ??= []).push(name);
    const groups = [...seen].map(([name, cls]) => {
      const siblings = byClass[cls];
      return { key: name, label: name, color: shade(CLASS_COLORS[cls] ?? AXIS, siblings.indexOf(name), siblings.length) };
    });
    return { keyOf: (op) => op.name, groups };
  }
  return { keyOf: (op) => op.class, groups: CLASS_ORDER.map((k) => ({ key: k, label: CLASS_LABELS[k], color: CLASS_COLORS[k] })) };
}

function phaseTitle(name, phase, perStep) {
  if (name === 'prefill') return `Prefill · ${fmt.time(phase.time_s)} (time to first token)`;
  if (!(phase.steps > 0)) return 'Decode · no decode steps (one output token)';
  return perStep
    ? `Decode · ${fmt.time(phase.time_s / phase.steps)} per output token (mean over ${fmt.int(phase.steps)} steps)`
    : `Decode · ${fmt.time(phase.time_s)} for all ${fmt.int(phase.steps)} steps`;
}

function tooltip(group, phaseName, seconds, phaseSeconds, ops) {
  const lines = [
    h('div', { class: 'tt-title', text: group.label }),
    h('div', { text: `${phaseName}: ${fmt.time(seconds)} · ${fmt.percent(seconds / phaseSeconds)} of the phase` }),
  ];
  if (ops.length === 1) lines.push(h('div', { class: 'tt-sub', text: `${CLASS_LABELS[ops[0].class] ?? ops[0].class} · ${ops[0].bound}-bound` }));
  else if (ops.length > 1) lines.push(h('div', { class: 'tt-sub', text: ops.map((op) => op.name).join(', ') }));
  return h('div', { class: 'tt' }, ...lines);
}

export function latencyOption(result, view) {
  const perStep = view.decode === 'step';
  const phases = [
    { name: 'prefill', label: 'Prefill', data: result.phases.prefill, divisor: 1 },
    { name: 'decode', label: 'Decode', data: result.phases.decode, divisor: 1 },
  ];
  if (perStep && result.phases.decode.steps > 0) phases[1].divisor = result.phases.decode.steps;

  const split = groupsFor(view.split, phases.map((p) => p.data));
  const keyOf = split.keyOf;
  // Legend entries only for groups that take time somewhere.
  const groups = split.groups.filter((g) =>
    phases.some((p) => p.data.ops.some((op) => keyOf(op) === g.key && op.total_time_s > 0)));
  const series = [];
  const titles = [];
  const grids = [];
  const xAxes = [];
  const yAxes = [];
  const top0 = 44;
  const band = 96;

  phases.forEach((phase, i) => {
    const phaseSeconds = phase.data.time_s / phase.divisor;
    titles.push({
      text: phaseTitle(phase.name, phase.data, perStep),
      top: top0 + i * band,
      left: 0,
      textStyle: { fontSize: 13, fontWeight: 600, color: '#1d2733', fontFamily: FONT },
    });
    grids.push({ left: 8, right: 24, top: top0 + i * band + 26, height: 34, containLabel: false });
    xAxes.push({
      type: 'value',
      gridIndex: i,
      min: 0,
      max: phaseSeconds > 0 ? undefined : 1,
      axisLabel: { color: AXIS, formatter: (v) => (phaseSeconds > 0 ? fmt.time(v) : '') },
      splitLine: { lineStyle: { color: GRID } },
    });
    yAxes.push({ type: 'category', gridIndex: i, data: [phase.label], show: false });

    for (const group of groups) {
      const ops = phase.data.ops.filter((op) => keyOf(op) === group.key);
      const seconds = ops.reduce((sum, op) => sum + op.total_time_s, 0) / phase.divisor;
      const share = phaseSeconds > 0 ? seconds / phaseSeconds : 0;
      series.push({
        name: group.label,
        type: 'bar',
        stack: phase.name,
        xAxisIndex: i,
        yAxisIndex: i,
        barWidth: 30,
        data: [seconds],
        itemStyle: { color: group.color },
        label: {
          show: share >= 0.08,
          position: 'inside',
          color: '#fff',
          fontFamily: FONT,
          formatter: () => fmt.percent(share),
        },
        tooltip: { formatter: () => tooltip(group, phase.label, seconds, phaseSeconds, ops) },
      });
    }
  });

  return {
    aria: { enabled: true },
    animationDuration: 250,
    textStyle: { fontFamily: FONT },
    title: titles,
    legend: {
      type: 'scroll',
      top: 0,
      left: 0,
      right: 0,
      itemWidth: 12,
      itemHeight: 12,
      textStyle: { color: AXIS },
      data: groups.map((g) => g.label),
    },
    tooltip: { trigger: 'item', confine: true, className: 'echarts-tooltip' },
    grid: grids,
    xAxis: xAxes,
    yAxis: yAxes,
    series,
  };
}
