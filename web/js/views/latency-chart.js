// Where the time goes: prefill (the time to first token) and decode, each a stacked bar
// split by operator class, binding roof or operator. Each phase has its own time axis,
// because decode is often 10-1000x longer than prefill and would squash it.
// With pipeline stages a bar shows the busiest stage's ops (its chips' time) and, as its
// own segment, the rest of the phase: waiting for the other stages while the pipeline
// fills, or while a token passes through every stage (METHODOLOGY §13; core:
// inference/evaluate.cpp, time_phases).
import { h } from '../dom.js';
import * as fmt from '../format.js';
import { CLASS_COLORS, CLASS_LABELS, BOUND_COLORS, BOUND_LABELS, AXIS, GRID, FONT, shade } from './palette.js';

const CLASS_ORDER = Object.keys(CLASS_COLORS);
const BOUND_ORDER = Object.keys(BOUND_COLORS);
const PIPELINE = { key: '__pipeline', label: 'Waiting on other stages', color: '#aab3bf' };

// The phase as one bar: the ops of its busiest stage, and what the schedule adds.
export function stageView(phase) {
  const byStage = new Map();
  for (const op of phase.ops) byStage.set(op.stage ?? 0, (byStage.get(op.stage ?? 0) ?? 0) + op.total_time_s);
  if (byStage.size <= 1) return { ops: phase.ops, stage: null, wait: 0 };
  const [stage, busy] = [...byStage].reduce((a, b) => (b[1] > a[1] ? b : a));
  return { ops: phase.ops.filter((op) => (op.stage ?? 0) === stage), stage, wait: Math.max(phase.time_s - busy, 0) };
}

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

function phaseTitle(name, phase, perStep, stage) {
  const busiest = stage === null ? '' : ` · stage ${stage}, the busiest`;
  if (name === 'prefill') return `Prefill · ${fmt.time(phase.time_s)} (time to first token)${busiest}`;
  if (!(phase.steps > 0)) return 'Decode · no decode steps (one output token)';
  return (perStep
    ? `Decode · ${fmt.time(phase.time_s / phase.steps)} per output token (mean over ${fmt.int(phase.steps)} steps)`
    : `Decode · ${fmt.time(phase.time_s)} for all ${fmt.int(phase.steps)} steps`) + busiest;
}

function tooltip(group, phaseName, seconds, phaseSeconds, ops) {
  const lines = [
    h('div', { class: 'tt-title', text: group.label }),
    h('div', { text: `${phaseName}: ${fmt.time(seconds)} · ${fmt.percent(seconds / phaseSeconds)} of the phase` }),
  ];
  if (group.key === PIPELINE.key) lines.push(h('div', { class: 'tt-sub', text: 'The rest of the phase: the pipeline filling (prefill) or a token passing through every stage (decode).' }));
  else if (ops.length === 1) lines.push(h('div', { class: 'tt-sub', text: `${CLASS_LABELS[ops[0].class] ?? ops[0].class} · ${ops[0].bound}-bound` }));
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

  for (const phase of phases) Object.assign(phase, stageView(phase.data));
  const split = groupsFor(view.split, phases.map((p) => p.data));
  const keyOf = split.keyOf;
  // Legend entries only for groups that take time somewhere.
  const groups = split.groups.filter((g) =>
    phases.some((p) => p.ops.some((op) => keyOf(op) === g.key && op.total_time_s > 0)));
  if (phases.some((p) => p.wait > 0)) groups.push(PIPELINE);
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
      text: phaseTitle(phase.name, phase.data, perStep, phase.stage),
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
      const ops = phase.ops.filter((op) => keyOf(op) === group.key);
      const seconds = (group.key === PIPELINE.key ? phase.wait : ops.reduce((sum, op) => sum + op.total_time_s, 0)) / phase.divisor;
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
