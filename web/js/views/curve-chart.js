// Throughput against latency: what the chips deliver (output tokens/s per chip, y) against
// what each user sees (output tokens/s per user, 1/TPOT, x), for up to 64 batches from 1 to
// the largest that fits (engine.curve(), METHODOLOGY §15.3). Batches that do not fit in
// memory are grey; the scenario's own batch is marked. The numbers are also in a table.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { AXIS, GRID, FONT } from './palette.js';
import { legendLayout, wrappingLegend } from './chart.js';

const FITS = '#2f6fd6';
const OVER = '#b8c0ca';
const CURRENT = '#1d2733';

const rate = (x) => `${fmt.num(x)} tokens/s`;
// What a point's batch is called: concurrent requests under continuous batching.
const batchWord = (concurrency) => (concurrency ? 'concurrency' : 'batch');

// The scenario's own point, or null.
export const currentPoint = (curve) => curve.points.find((p) => p.batch === curve.batch) ?? null;

function pointTip(p, concurrency) {
  return h('div', { class: 'tt' },
    h('div', { class: 'tt-title', text: `${batchWord(concurrency)} ${fmt.int(p.batch)}${p.fits ? '' : ' · does not fit in memory'}` }),
    h('div', { text: `${rate(p.output_tokens_per_s_per_chip)} per chip · ${rate(p.output_tokens_per_s_per_user)} per user` }),
    h('div', { text: `TTFT ${fmt.time(p.ttft_s)} · TPOT ${fmt.time(p.tpot_s)}` }));
}

// The chart in words (its ARIA description and the card's note). mark: the scenario's own
// point when it is none of the curve's ({x, y, fits, label}: an offered request rate's).
export function curveDescription(curve, { concurrency = false, mark = null } = {}) {
  const word = batchWord(concurrency);
  const fitting = curve.points.filter((p) => p.fits);
  const first = curve.points[0];
  const last = curve.points.at(-1);
  const parts = [`Output tokens/s per chip against output tokens/s per user, for ${fmt.int(curve.points.length)} values of the ${word} `
    + `from ${fmt.int(first?.batch)} to ${fmt.int(last?.batch)}.`];
  if (fitting.length === 0) parts.push('None of them fits in memory.');
  else if (fitting.length < curve.points.length) parts.push(`Up to ${word} ${fmt.int(fitting.at(-1).batch)} fits in memory; the rest, in grey, does not.`);
  const mine = mark ? null : currentPoint(curve);
  if (mark) parts.push(`This scenario (${mark.label}) gives ${rate(mark.y)} per chip at ${rate(mark.x)} per user${mark.fits ? '' : ' (it does not fit)'}.`);
  if (mine) {
    parts.push(`This scenario's ${word} of ${fmt.int(mine.batch)} gives ${rate(mine.output_tokens_per_s_per_chip)} per chip `
      + `at ${rate(mine.output_tokens_per_s_per_user)} per user${mine.fits ? '' : ' (it does not fit)'}.`);
  }
  return parts.join(' ');
}

// curve: engine.curve()'s answer; width: the chart's in px. -> { option, height }
export function curveOption(curve, { concurrency = false, width = 640, mark = null } = {}) {
  const point = (p) => ({ value: [p.output_tokens_per_s_per_user, p.output_tokens_per_s_per_chip], point: p });
  const tooltip = { formatter: (item) => (item.data?.point ? pointTip(item.data.point, concurrency) : item.data?.mark ?? '') };
  const mine = mark ? null : currentPoint(curve);
  const own = mark ? [{ value: [mark.x, mark.y], mark: `${mark.label}: ${rate(mark.y)} per chip · ${rate(mark.x)} per user` }]
    : mine ? [point(mine)] : [];
  const series = [
    { name: 'fits in memory', type: 'line', z: 2, symbolSize: 6, itemStyle: { color: FITS }, lineStyle: { color: FITS, width: 2 },
      tooltip, data: curve.points.filter((p) => p.fits).map(point) },
    { name: 'does not fit', type: 'scatter', z: 2, symbolSize: 6, itemStyle: { color: OVER }, tooltip,
      data: curve.points.filter((p) => !p.fits).map(point) },
    { name: mark ? 'this scenario' : `this ${batchWord(concurrency)}`, type: 'scatter', z: 3, symbol: 'diamond', symbolSize: 15,
      itemStyle: { color: (mark ?? mine)?.fits === false ? OVER : CURRENT, borderColor: CURRENT, borderWidth: 1.5 }, tooltip,
      label: { show: true, position: 'top', color: CURRENT, fontFamily: FONT, fontWeight: 600,
        formatter: () => (mark ? mark.label : `${batchWord(concurrency)} ${fmt.int(mine?.batch)}`) },
      data: own },
  ].filter((s) => s.data.length > 0);

  const plotTop = 30; // the y-axis title above the plot
  const plotHeight = width < 480 ? 220 : 250;
  const legendTop = plotTop + plotHeight + 50; // under the axis labels and the axis title
  const legend = legendLayout(series.map((s) => s.name), width);
  return {
    height: legendTop + legend.height,
    option: {
      animation: false,
      aria: { enabled: true, label: { description: curveDescription(curve, { concurrency }) } },
      textStyle: { fontFamily: FONT },
      grid: { left: 56, right: 24, top: plotTop, height: plotHeight },
      legend: wrappingLegend(legendTop, null, AXIS),
      tooltip: { trigger: 'item', confine: true, className: 'echarts-tooltip' },
      xAxis: {
        type: 'value', min: 0, name: 'output tokens/s per user (1 / TPOT)', nameLocation: 'middle', nameGap: 28,
        nameTextStyle: { color: AXIS }, axisLabel: { color: AXIS, formatter: (v) => fmt.num(v) }, splitLine: { lineStyle: { color: GRID } },
      },
      yAxis: {
        type: 'value', min: 0, name: 'output tokens/s per chip', nameGap: 12, nameTextStyle: { color: AXIS, align: 'left' },
        axisLabel: { color: AXIS, formatter: (v) => fmt.compact(v) }, splitLine: { lineStyle: { color: GRID } },
      },
      series,
    },
  };
}

function curveTable(curve, concurrency, marked) {
  const head = [concurrency ? 'Concurrency' : 'Batch', 'Tokens/s per chip', 'Tokens/s per user', 'TTFT', 'TPOT', 'Fits'];
  return [
    h('thead', {}, h('tr', {}, head.map((t) => h('th', { scope: 'col', class: 'num', text: t })))),
    h('tbody', {}, curve.points.map((p) => h('tr', {
      class: [p.batch === curve.batch && !marked ? 'curve-current' : '', p.fits ? '' : 'curve-over'].join(' ').trim() || null,
      'aria-current': p.batch === curve.batch && !marked ? 'true' : null,
      dataset: { batch: String(p.batch) },
    },
    h('td', { class: 'num', text: fmt.int(p.batch) }),
    h('td', { class: 'num', text: fmt.num(p.output_tokens_per_s_per_chip) }),
    h('td', { class: 'num', text: fmt.num(p.output_tokens_per_s_per_user) }),
    h('td', { class: 'num', text: fmt.time(p.ttft_s) }),
    h('td', { class: 'num', text: fmt.time(p.tpot_s) }),
    h('td', { class: 'num', text: p.fits ? 'yes' : 'no' })))),
  ];
}

// Draws engine.curve()'s answer into the curve card. chart: createChart()'s wrapper;
// serving: the scenario's mode (its own, or "server" for a closed-loop curve with the
// request rate's point as `mark`).
export function renderCurve(curve, chart, { concurrency = false, mark = null, serving = null } = {}) {
  const box = $('#curve-chart');
  const error = $('#curve-error');
  const ok = curve?.ok === true && curve.points?.length > 0;
  error.hidden = ok;
  error.textContent = ok ? '' : `The curve could not be computed: ${curve?.error?.message ?? 'the engine returned no points'}.`;
  box.hidden = !ok;
  $('#curve-table').replaceChildren(...(ok ? curveTable(curve, concurrency, mark !== null) : []));
  if (!ok) {
    $('#curve-note').textContent = '';
    return;
  }
  // For tests and tools: what is drawn.
  Object.assign(box.dataset, { batch: curve.batch, points: curve.points.length, over: curve.points.filter((p) => !p.fits).length,
    serving: serving ?? (concurrency ? 'concurrency' : 'static'), marked: mark ? 'yes' : 'no' });
  $('#curve-note').textContent = curveDescription(curve, { concurrency, mark });
  chart.render((width) => curveOption(curve, { concurrency, width, mark }));
}
