// Where the time goes: prefill (the time to first token) and decode, each a stacked bar
// split by operator class, binding roof or operator. Each phase has its own time axis,
// because decode is often 10-1000x longer than prefill and would squash it.
// With pipeline stages a bar shows the critical stage's ops (the stage with the most busy
// time; its chips' time) and, as its own segment, the rest of the phase: waiting for the
// other stages while the pipeline fills, or while a token passes through every stage
// (METHODOLOGY §13; core: inference/evaluate.cpp, time_phases).
import { h } from '../dom.js';
import * as fmt from '../format.js';
import { CLASS_COLORS, CLASS_LABELS, BOUND_COLORS, BOUND_LABELS, CATEGORICAL, OTHER, AXIS, GRID, FONT, labelInk } from './palette.js';
import { labelFits, legendLayout, textWidth, wrappingLegend } from './chart.js';

const CLASS_ORDER = Object.keys(CLASS_COLORS);
const BOUND_ORDER = Object.keys(BOUND_COLORS);
const PIPELINE = { key: '__pipeline', label: 'Waiting on other stages', color: '#aab3bf' };

// The phase as one bar: the ops of its critical stage (the most busy time), and what the
// schedule adds.
export function stageView(phase) {
  const byStage = new Map();
  for (const op of phase.ops) byStage.set(op.stage ?? 0, (byStage.get(op.stage ?? 0) ?? 0) + op.total_time_s);
  if (byStage.size <= 1) return { ops: phase.ops, stage: null, wait: 0 };
  const [stage, busy] = [...byStage].reduce((a, b) => (b[1] > a[1] ? b : a));
  return { ops: phase.ops.filter((op) => (op.stage ?? 0) === stage), stage, wait: Math.max(phase.time_s - busy, 0) };
}

// The per-operator split colours the TOP operators (by their largest share of a phase)
// each in its own hue; the rest go together as one "other" part.
export const TOP_OPERATORS = CATEGORICAL.length - 1;
const OTHERS = { key: '__other', label: 'Other operators', color: OTHER };

// -> [{key, label, color}] in stacking order, and key(op) for the chosen split.
// phases: [{ops, time}] as the bars show them (ops of the stage drawn, the phase's time).
export function groupsFor(split, phases) {
  if (split === 'bound') {
    return { keyOf: (op) => op.bound, groups: BOUND_ORDER.map((k) => ({ key: k, label: BOUND_LABELS[k], color: BOUND_COLORS[k] })) };
  }
  if (split === 'op') {
    const share = new Map(); // op name -> its largest share of a phase
    for (const phase of phases) {
      const byName = new Map();
      for (const op of phase.ops) byName.set(op.name, (byName.get(op.name) ?? 0) + op.total_time_s);
      for (const [name, t] of byName) share.set(name, Math.max(share.get(name) ?? 0, phase.time > 0 ? t / phase.time : 0));
    }
    const ranked = [...share].filter(([, x]) => x > 0).sort((a, b) => b[1] - a[1]).map(([name]) => name);
    // Nine operators fit in the nine hues; with more, eight and "other".
    const top = new Set(ranked.length <= TOP_OPERATORS + 1 ? ranked : ranked.slice(0, TOP_OPERATORS));
    const groups = ranked.filter((name) => top.has(name)).map((name, i) => ({ key: name, label: name, color: CATEGORICAL[i] }));
    if (top.size < ranked.length) groups.push(OTHERS);
    return { keyOf: (op) => (top.has(op.name) ? op.name : OTHERS.key), groups };
  }
  return { keyOf: (op) => op.class, groups: CLASS_ORDER.map((k) => ({ key: k, label: CLASS_LABELS[k], color: CLASS_COLORS[k] })) };
}

function phaseTitle(name, phase, perStep, stage) {
  const critical = stage === null ? '' : ` · stage ${stage} (the critical stage)`;
  if (name === 'prefill') return `Prefill · ${fmt.time(phase.time_s)} (time to first token)${critical}`;
  if (!(phase.steps > 0)) return 'Decode · no decode steps (one output token)';
  return (perStep
    ? `Decode · ${fmt.time(phase.time_s / phase.steps)} per output token (mean over ${fmt.int(phase.steps)} steps)`
    : `Decode · ${fmt.time(phase.time_s)} for all ${fmt.int(phase.steps)} steps`) + critical;
}

function tooltip(group, phaseName, seconds, phaseSeconds, ops) {
  const lines = [
    h('div', { class: 'tt-title', text: group.label }),
    h('div', { text: `${phaseName}: ${fmt.time(seconds)} · ${fmt.percent(seconds / phaseSeconds)} of the phase` }),
  ];
  if (group.key === PIPELINE.key) {
    lines.push(h('div', { class: 'tt-sub', text: 'The critical stage is the one with the most busy time; the rest of the phase it waits: the pipeline filling (prefill) or a token passing through the other stages (decode).' }));
  } else if (ops.length === 1) lines.push(h('div', { class: 'tt-sub', text: `${CLASS_LABELS[ops[0].class] ?? ops[0].class} · ${ops[0].bound}-bound` }));
  else if (ops.length > 1) lines.push(h('div', { class: 'tt-sub', text: [...new Set(ops.map((op) => op.name))].join(', ') }));
  return h('div', { class: 'tt' }, ...lines);
}

const TITLE_SIZE = 13;
const TITLE_LINE = 17;
const BAR = 30;

// -> { option, height } for a chart `width` px wide: per phase a title (wrapped when
// long), its bar and its time axis; the legend under both, unpaged.
export function latencyOption(result, view, width = 640) {
  const perStep = view.decode === 'step';
  const phases = [
    { name: 'prefill', label: 'Prefill', data: result.phases.prefill, divisor: 1 },
    { name: 'decode', label: 'Decode', data: result.phases.decode, divisor: 1 },
  ];
  if (perStep && result.phases.decode.steps > 0) phases[1].divisor = result.phases.decode.steps;

  for (const phase of phases) Object.assign(phase, stageView(phase.data));
  const split = groupsFor(view.split, phases.map((p) => ({ ops: p.ops, time: p.data.time_s })));
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
  const plot = Math.max(width - 32, 40); // a bar's length in px
  const described = [];
  let y = 0;

  phases.forEach((phase, i) => {
    const phaseSeconds = phase.data.time_s / phase.divisor;
    const text = phaseTitle(phase.name, phase.data, perStep, phase.stage);
    const lines = Math.max(1, Math.ceil(textWidth(text, TITLE_SIZE, 600) / Math.max(width - 8, 40)));
    titles.push({
      text,
      top: y,
      left: 0,
      textStyle: {
        fontSize: TITLE_SIZE, fontWeight: 600, color: '#1d2733', fontFamily: FONT,
        width: width - 8, overflow: 'break', lineHeight: TITLE_LINE,
      },
    });
    y += lines * TITLE_LINE + 8;
    grids.push({ left: 8, right: 24, top: y, height: BAR, containLabel: false });
    y += BAR + 34; // the bar, its time labels, a gap
    xAxes.push({
      type: 'value',
      gridIndex: i,
      min: 0,
      max: phaseSeconds > 0 ? undefined : 1,
      splitNumber: width < 480 ? 3 : 5,
      axisLabel: { color: AXIS, formatter: (v) => (phaseSeconds > 0 ? fmt.time(v) : '') },
      splitLine: { lineStyle: { color: GRID } },
    });
    yAxes.push({ type: 'category', gridIndex: i, data: [phase.label], show: false });

    const parts = [];
    for (const group of groups) {
      const ops = phase.ops.filter((op) => keyOf(op) === group.key);
      const seconds = (group.key === PIPELINE.key ? phase.wait : ops.reduce((sum, op) => sum + op.total_time_s, 0)) / phase.divisor;
      const share = phaseSeconds > 0 ? seconds / phaseSeconds : 0;
      if (seconds > 0) parts.push(`${group.label} ${fmt.time(seconds)} (${fmt.percent(share)})`);
      series.push({
        name: group.label,
        type: 'bar',
        stack: phase.name,
        xAxisIndex: i,
        yAxisIndex: i,
        barWidth: BAR,
        data: [seconds],
        itemStyle: { color: group.color },
        label: {
          show: share >= 0.05 && labelFits(fmt.percent(share), share * plot),
          position: 'inside',
          color: labelInk(group.color),
          fontFamily: FONT,
          formatter: () => fmt.percent(share),
        },
        tooltip: { formatter: () => tooltip(group, phase.label, seconds, phaseSeconds, ops) },
      });
    }
    described.push(`${text}${parts.length ? `: ${parts.join(', ')}` : ''}.`);
  });

  const labels = groups.map((g) => g.label);
  const legend = legendLayout(labels, width);
  return {
    height: y + legend.height,
    option: {
      aria: { enabled: true, label: { description: described.join(' ') } },
      animationDuration: 250,
      textStyle: { fontFamily: FONT },
      title: titles,
      legend: wrappingLegend(y, labels, AXIS),
      tooltip: { trigger: 'item', confine: true, className: 'echarts-tooltip' },
      grid: grids,
      xAxis: xAxes,
      yAxis: yAxes,
      series,
    },
  };
}
