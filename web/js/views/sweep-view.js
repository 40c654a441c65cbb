// The Sweep card: one inference scenario along one axis, computed by the sweep worker
// (sweep-client.js, engine.sweep; core/inference/sweep.hpp). Four charts (sweep-plan.js):
// throughput vs batch, TTFT and TPOT vs context, latency vs throughput, memory vs context. The
// scenario's own point is marked; points that do not fit are grey; values the engine refused
// are listed in the table with their reason. Pinned scenarios (compare.js) are drawn dashed.
// The numbers are in a table too.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { AXIS, GRID, FONT, CATEGORICAL } from './palette.js';
import { legendLayout, wrappingLegend } from './chart.js';
import { SWEEP_CHARTS, SWEEP_CHOICES, ownPoint } from '../sweep-plan.js';

const MAIN = '#2f6fd6';
const SECOND = '#e07b24';
const OVER = '#b8c0ca';
const CURRENT = '#1d2733';

const AXIS_WORDS = { batch: 'batch', input_tokens: 'input tokens', output_tokens: 'output tokens', tp: 'TP' };

// Per chart: its series, each [name, y of a point (null: none), colour], and the axes.
const CHART_SPECS = {
  throughput: {
    x: (p) => p.value, xName: 'batch (sequences)', xLog: true, yName: 'output tokens/s per chip', yFormat: fmt.compact,
    series: [['tokens/s per chip', (p) => p.output_tokens_per_s_per_chip, MAIN]],
  },
  context: {
    x: (p) => p.value, xName: 'input tokens', xLog: true, yName: 'time', yLog: true, yFormat: fmt.time,
    series: [['TTFT', (p) => p.ttft_s, MAIN], ['TPOT', (p) => p.tpot_s, SECOND]],
  },
  latency: {
    x: (p) => p.e2e_latency_s, xName: 'end-to-end latency', xLog: false, xFormat: fmt.time, yName: 'output tokens/s per chip',
    yFormat: fmt.compact, series: [['tokens/s per chip', (p) => p.output_tokens_per_s_per_chip, MAIN]],
  },
  memory: {
    x: (p) => p.value, xName: 'input tokens', xLog: true, yName: 'memory per chip', yFormat: fmt.bytes,
    series: [['memory per chip', (p) => p.memory_bytes, MAIN], ['capacity', (p) => p.capacity_bytes, OVER]],
  },
};

const usable = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;

// The chart in words (its ARIA description and the card's note).
export function sweepDescription(answer, choice) {
  const points = answer?.points ?? [];
  const word = AXIS_WORDS[answer?.axis] ?? answer?.axis;
  const ok = points.filter((p) => p.ok);
  const fitting = ok.filter((p) => p.fits);
  const parts = [`${SWEEP_CHARTS[choice]?.label ?? 'Sweep'}: ${fmt.int(points.length)} values of the ${word} from `
    + `${fmt.int(points[0]?.value)} to ${fmt.int(points.at(-1)?.value)}.`];
  if (fitting.length < ok.length) parts.push(`${fmt.int(ok.length - fitting.length)} do not fit in memory (grey).`);
  if (ok.length < points.length) parts.push(`${fmt.int(points.length - ok.length)} are not valid scenarios (see the table).`);
  const own = ownPoint(answer);
  if (own?.ok) {
    parts.push(`This scenario (${word} ${fmt.int(own.value)}): ${fmt.num(own.output_tokens_per_s_per_chip)} tokens/s per chip, `
      + `TTFT ${fmt.time(own.ttft_s)}, TPOT ${fmt.time(own.tpot_s)}, ${fmt.bytes(own.memory_bytes)} per chip.`);
  }
  return parts.join(' ');
}

// answer: the sweep's; overlays: [{label, answer}] of pinned scenarios (same chart), drawn
// dashed. -> { option, height }
export function sweepOption(answer, choice, { width = 640, overlays = [] } = {}) {
  const spec = CHART_SPECS[choice] ?? CHART_SPECS.throughput;
  const ok = (answer.points ?? []).filter((p) => p.ok);
  const own = ownPoint(answer);
  const series = [];
  const pointOf = (p, y) => ({ value: [spec.x(p), y(p)], point: p });
  const plotted = (list, y) => list.filter((p) => usable(spec.x(p)) && usable(y(p)));
  for (const [name, y, color] of spec.series) {
    const line = name === 'capacity';
    series.push({ name, type: 'line', z: 2, symbolSize: line ? 0 : 5, showSymbol: !line, itemStyle: { color },
      lineStyle: { color, width: 2, type: line ? 'dashed' : 'solid' },
      data: plotted(line ? ok : ok.filter((p) => p.fits), y).map((p) => pointOf(p, y)) });
    if (!line) {
      series.push({ name: 'does not fit', type: 'scatter', z: 2, symbolSize: 6, itemStyle: { color: OVER },
        data: plotted(ok.filter((p) => !p.fits), y).map((p) => pointOf(p, y)) });
    }
  }
  overlays.forEach(({ label, answer: other }, i) => {
    const color = CATEGORICAL[(i + 2) % CATEGORICAL.length];
    const [, y] = spec.series[0];
    series.push({ name: label, type: 'line', z: 1, symbolSize: 0, showSymbol: false, itemStyle: { color },
      lineStyle: { color, width: 1.5, type: 'dashed' },
      data: plotted((other?.points ?? []).filter((p) => p.ok), y).map((p) => pointOf(p, y)) });
  });
  if (own?.ok) {
    const marks = spec.series.filter(([name]) => name !== 'capacity').map(([, y]) => y).filter((y) => usable(y(own)) && usable(spec.x(own)));
    series.push({ name: 'this scenario', type: 'scatter', z: 3, symbol: 'diamond', symbolSize: 15,
      itemStyle: { color: own.fits ? CURRENT : OVER, borderColor: CURRENT, borderWidth: 1.5 },
      data: marks.map((y) => pointOf(own, y)) });
  }
  const shown = series.filter((s) => s.data.length > 0);
  const tooltip = {
    trigger: 'item', confine: true, className: 'echarts-tooltip',
    formatter: (item) => (item.data?.point ? pointTip(item.data.point, answer.axis) : ''),
  };
  const plotTop = 30;
  const plotHeight = width < 480 ? 220 : 250;
  const legendTop = plotTop + plotHeight + 50;
  const legend = legendLayout(shown.map((s) => s.name), width);
  const axis = (log, name, format) => ({
    type: log ? 'log' : 'value', name, nameTextStyle: { color: AXIS }, splitLine: { lineStyle: { color: GRID } },
    axisLabel: { color: AXIS, formatter: (v) => (format ?? fmt.compact)(v) }, ...(log ? {} : { min: 0 }),
  });
  return {
    height: legendTop + legend.height,
    option: {
      animation: false,
      aria: { enabled: true, label: { description: sweepDescription(answer, choice) } },
      textStyle: { fontFamily: FONT },
      grid: { left: 64, right: 24, top: plotTop, height: plotHeight },
      legend: wrappingLegend(legendTop, null, AXIS),
      tooltip,
      xAxis: { ...axis(spec.xLog, spec.xName, spec.xFormat ?? fmt.int), nameLocation: 'middle', nameGap: 28 },
      yAxis: { ...axis(spec.yLog, spec.yName, spec.yFormat), nameGap: 12, nameTextStyle: { color: AXIS, align: 'left' } },
      series: shown,
    },
  };
}

function pointTip(p, axis) {
  return h('div', { class: 'tt' },
    h('div', { class: 'tt-title', text: `${AXIS_WORDS[axis] ?? axis} ${fmt.int(p.value)}${p.fits ? '' : ' · does not fit in memory'}` }),
    h('div', { text: `${fmt.num(p.output_tokens_per_s_per_chip)} tokens/s per chip · ${fmt.num(p.output_tokens_per_s_per_user)} per user` }),
    h('div', { text: `TTFT ${fmt.time(p.ttft_s)} · TPOT ${fmt.time(p.tpot_s)} · E2E ${fmt.time(p.e2e_latency_s)}` }),
    h('div', { text: `${fmt.bytes(p.memory_bytes)} of ${fmt.bytes(p.capacity_bytes)} per chip` }));
}

export function sweepTable(answer) {
  const head = [AXIS_WORDS[answer.axis] ?? answer.axis, 'Tokens/s', 'Tokens/s per chip', 'TTFT', 'TPOT', 'E2E latency',
    'Memory per chip', 'Fits'];
  const row = (p) => {
    const mine = p.value === answer.current;
    const cells = p.ok
      ? [fmt.num(p.output_tokens_per_s), fmt.num(p.output_tokens_per_s_per_chip), fmt.time(p.ttft_s), fmt.time(p.tpot_s),
        fmt.time(p.e2e_latency_s), fmt.bytes(p.memory_bytes), p.fits ? 'yes' : 'no']
      : null;
    return h('tr', { class: [mine ? 'curve-current' : '', p.ok && p.fits ? '' : 'curve-over'].join(' ').trim() || null,
      'aria-current': mine ? 'true' : null, dataset: { value: String(p.value) } },
    h('td', { class: 'num', text: fmt.int(p.value) }),
    cells ? cells.map((t) => h('td', { class: 'num', text: t }))
      : h('td', { colspan: String(head.length - 1), class: 'sweep-invalid',
        text: `not valid: ${p.error?.path ? `${p.error.path}: ` : ''}${p.error?.message ?? ''}` }));
  };
  return [
    h('thead', {}, h('tr', {}, head.map((t) => h('th', { scope: 'col', class: 'num', text: t })))),
    h('tbody', {}, (answer.points ?? []).map(row)),
  ];
}

// The card. onView(key, value): a view option changed (the chart choice, view.sweep).
export function createSweepView({ onView }) {
  for (const choice of SWEEP_CHOICES) {
    $(`#sweep-${choice}`)?.addEventListener('change', (e) => {
      if (e.target.checked) onView('sweep', choice);
    });
  }
  return {
    // Before an answer: the chart choice and a "computing" note.
    pending(choice) {
      const radio = $(`#sweep-${choice}`);
      if (radio) radio.checked = true;
      $('#sweep-card').dataset.state = 'computing';
    },
    // answer: the sweep's; timing: {engineMs, roundTripMs, where}; overlays as sweepOption's.
    render(answer, choice, chart, { timing = null, overlays = [] } = {}) {
      const card = $('#sweep-card');
      const radio = $(`#sweep-${choice}`);
      if (radio) radio.checked = true;
      const ok = answer?.ok === true && answer.points?.length > 0;
      const error = $('#sweep-error');
      error.hidden = ok;
      error.textContent = ok ? '' : `The sweep could not be computed: ${answer?.error?.message ?? 'no points'}.`;
      $('#sweep-chart').hidden = !ok;
      $('#sweep-table').replaceChildren(...(ok ? sweepTable(answer) : []));
      $('#sweep-note').textContent = ok ? sweepDescription(answer, choice) : '';
      $('#sweep-timing').textContent = ok && timing?.engineMs != null
        ? `${fmt.int(answer.points.length)} evaluations in ${fmt.num(timing.engineMs)} ms (${timing.where}; ${fmt.num(timing.roundTripMs)} ms with the hand-off).`
        : '';
      const own = ownPoint(answer);
      // For tests and tools: what is drawn.
      Object.assign(card.dataset, {
        state: ok ? 'done' : 'error', chart: choice, axis: answer?.axis ?? '', points: ok ? answer.points.length : 0,
        current: answer?.current ?? '', currentTtft: own?.ok ? own.ttft_s : '', currentTput: own?.ok ? own.output_tokens_per_s_per_chip : '',
        overlays: overlays.length, engineMs: timing?.engineMs ?? '',
      });
      if (ok) chart.render((width) => sweepOption(answer, choice, { width, overlays }));
    },
  };
}
