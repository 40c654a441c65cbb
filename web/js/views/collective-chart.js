// Predicted bus bandwidth against message size, as nccl-tests plots it: one line per
// algorithm the library would pick (the line changes colour where the choice flips), and
// the measured runs of the same chip and collective on top.
import { h } from '../dom.js';
import * as fmt from '../format.js';
import { AXIS, GRID, FONT } from './palette.js';
import { legendLayout, wrappingLegend } from './chart.js';

const ALGORITHM_COLORS = ['#2f6fd6', '#e07b24', '#1e9e8a', '#8a4fd1', '#d43c3c', '#b58b00'];
const MEASURED = '#1d2733';

// 8 B, 32 KiB, 1 GiB: message sizes in the binary units nccl-tests sweeps in.
export function binaryBytes(b) {
  if (!(b > 0)) return fmt.DASH;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  const k = Math.min(units.length - 1, Math.floor(Math.log2(b) / 10));
  return `${fmt.num(b / 2 ** (10 * k))}\u00a0${units[k]}`;
}

const gbps = (x) => `${fmt.num(x)}\u00a0GB/s`;

// [{algorithm, first, last}]: the runs of message sizes that one algorithm serves.
export function algorithmRuns(points) {
  const runs = [];
  points.forEach((p, i) => {
    if (runs.length && runs.at(-1).algorithm === p.algorithm) runs.at(-1).last = i;
    else runs.push({ algorithm: p.algorithm, first: i, last: i });
  });
  return runs;
}

function pointTip(p) {
  return h('div', { class: 'tt' },
    h('div', { class: 'tt-title', text: `${binaryBytes(p.bytes)} · ${p.algorithm}` }),
    h('div', { text: `time ${fmt.time(p.time_s)} (roofline bound ${fmt.time(p.bound_time_s)})` }),
    h('div', { text: `bus bandwidth ${gbps(p.busbw_gbps)} · algorithm bandwidth ${gbps(p.algbw_gbps)}` }));
}

function caseTip(c) {
  const s = c.scenario;
  const forced = s.algorithm && s.algorithm !== 'auto' ? ` · ${s.algorithm.replace('_', '-')} algorithm forced` : '';
  return h('div', { class: 'tt' },
    h('div', { class: 'tt-title', text: `Measured: ${gbps(c.measured)} bus bandwidth` }),
    h('div', { text: `${binaryBytes(s.bytes)} on ${fmt.int(s.chips)} chips${forced}` }),
    h('div', { text: `Envelope for that system: ${gbps(c.predicted)} (${c.error >= 0 ? '+' : ''}${(c.error * 100).toFixed(1)}%)` }),
    h('div', { class: 'tt-sub', text: `${c.id} — ${String(c.source ?? '').slice(0, 200)}` }));
}

// sweep: engine.collective()'s answer; cases: measured collective cases to overlay;
// width: the chart's in px. -> { option, height }
export function collectiveChart(sweep, cases, width = 640) {
  const points = sweep.points;
  const runs = algorithmRuns(points);
  const algorithms = [...new Set(points.map((p) => p.algorithm))];
  const colorOf = (alg) => ALGORITHM_COLORS[algorithms.indexOf(alg) % ALGORITHM_COLORS.length];

  // A line per algorithm, with gaps elsewhere; each run reaches on to the next point
  // (drawn without a symbol) so that the curve stays unbroken across a flip.
  const lines = algorithms.map((alg) => ({
    name: alg, type: 'line', z: 2, symbolSize: 6, connectNulls: false,
    itemStyle: { color: colorOf(alg) }, lineStyle: { color: colorOf(alg), width: 2 },
    tooltip: { formatter: (item) => (item.data?.point ? pointTip(item.data.point) : '') },
    data: points.map((p, i) => {
      if (p.algorithm === alg) return { value: [p.bytes, p.busbw_gbps], point: p };
      if (points[i - 1]?.algorithm === alg) return { value: [p.bytes, p.busbw_gbps], symbol: 'none' };
      return { value: [p.bytes, '-'] };
    }),
  }));
  // Where the choice flips: a dashed line half-way (in log size) between the two sizes.
  lines[0].markLine = {
    silent: true, symbol: 'none', lineStyle: { color: '#9aa3af', type: 'dashed' },
    label: { color: AXIS, fontFamily: FONT, fontSize: 11, position: 'insideEndTop', formatter: (d) => d.name },
    data: runs.slice(1).map((r) => ({
      name: `→ ${r.algorithm}`, xAxis: Math.sqrt(points[r.first - 1].bytes * points[r.first].bytes),
    })),
  };

  const same = cases.filter((c) => c.scenario.chips === sweep.chips);
  const other = cases.filter((c) => c.scenario.chips !== sweep.chips);
  const measured = (name, list, filled) => ({
    name, type: 'scatter', z: 3, symbol: 'diamond', symbolSize: 11,
    itemStyle: filled ? { color: MEASURED } : { color: '#fff', borderColor: MEASURED, borderWidth: 1.5 },
    tooltip: { formatter: (item) => caseTip(item.data.case) },
    data: list.map((c) => ({ value: [c.scenario.bytes, c.measured], case: c })),
  });
  const series = [...lines];
  if (same.length) series.push(measured(`measured, ${fmt.int(sweep.chips)} chips`, same, true));
  if (other.length) series.push(measured('measured, other chip counts', other, false));

  const sizes = [...points.map((p) => p.bytes), ...cases.map((c) => c.scenario.bytes)];
  // The legend goes under the plot and wraps; the size axis takes a tick per 16× where
  // there is room for eight labels, else one per 1024× (1 KiB, 1 MiB, 1 GiB).
  const plotTop = 30; // the y-axis title above the plot
  const plotHeight = width < 480 ? 220 : 240;
  const legendTop = plotTop + plotHeight + 50; // under the size labels and the axis title
  const legend = legendLayout(series.map((s) => s.name), width);
  const roomy = width - 80 >= 8 * 56;
  return {
    height: legendTop + legend.height,
    option: {
      animation: false,
      aria: { enabled: true, label: { description: `Predicted ${sweep.op} bus bandwidth on ${sweep.chips} chips against message size.` } },
      textStyle: { fontFamily: FONT },
      grid: { left: 56, right: 24, top: plotTop, height: plotHeight },
      legend: wrappingLegend(legendTop, null, AXIS),
      tooltip: { trigger: 'item', confine: true, className: 'echarts-tooltip' },
      xAxis: {
        // ECharts steps log ticks by powers of the base: 16 gives 16 B, 256 B, 4 KiB, …
        type: 'log', logBase: roomy ? 16 : 1024, splitNumber: 12, min: Math.min(...sizes), max: Math.max(...sizes),
        name: 'message size', nameLocation: 'middle', nameGap: 28, nameTextStyle: { color: AXIS },
        axisLabel: { color: AXIS, formatter: binaryBytes, showMinLabel: false }, splitLine: { lineStyle: { color: GRID } },
      },
      yAxis: {
        type: 'value', min: 0, name: 'bus bandwidth (GB/s)', nameGap: 12, nameTextStyle: { color: AXIS, align: 'left' },
        axisLabel: { color: AXIS, formatter: (v) => fmt.num(v) }, splitLine: { lineStyle: { color: GRID } },
      },
      series,
    },
  };
}

export const collectiveOption = (sweep, cases, width) => collectiveChart(sweep, cases, width).option;
