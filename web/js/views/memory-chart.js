// Memory per chip: weights, KV cache and activations stacked against HBM capacity.
import { h } from '../dom.js';
import * as fmt from '../format.js';
import { MEMORY_COLORS, OVER, AXIS, GRID, FONT } from './palette.js';
import { labelFits, legendLayout, textWidth, wrappingLegend } from './chart.js';

const PARTS = [
  ['weights', 'Weights', 'weights_bytes'],
  ['kv_cache', 'KV cache', 'kv_cache_bytes'],
  ['activations', 'Activations', 'activation_bytes'],
];

function tooltip(name, bytes, capacity) {
  return h('div', { class: 'tt' },
    h('div', { class: 'tt-title', text: name }),
    h('div', { text: `${fmt.gb(bytes)} · ${fmt.percent(bytes / capacity)} of HBM` }));
}

// -> { option, height } for a chart `width` px wide: one bar, the legend under it, a value
// inside a segment only where it fits.
export function memoryOption(result, width = 640) {
  const m = result.memory;
  const capacity = m.capacity_bytes;
  const free = Math.max(capacity - m.total_bytes, 0);
  const scale = Math.max(capacity, m.total_bytes);
  const plot = Math.max(width - 40 - textWidth('Per chip'), 40);
  const label = (bytes) => ({
    show: labelFits(fmt.gb(bytes), (bytes / scale) * plot),
    position: 'inside',
    color: '#fff',
    fontFamily: FONT,
    formatter: () => fmt.gb(bytes),
  });

  const series = PARTS.map(([key, name, field]) => ({
    name,
    type: 'bar',
    stack: 'memory',
    barWidth: 34,
    data: [m[field] / 1e9],
    itemStyle: { color: MEMORY_COLORS[key] },
    label: label(m[field]),
    tooltip: { formatter: () => tooltip(name, m[field], capacity) },
  }));
  series.push({
    name: 'Free',
    type: 'bar',
    stack: 'memory',
    data: [free / 1e9],
    itemStyle: { color: MEMORY_COLORS.free },
    label: { ...label(free), color: AXIS },
    tooltip: { formatter: () => tooltip('Free', free, capacity) },
    markLine: {
      silent: true,
      symbol: 'none',
      lineStyle: { color: m.fits ? AXIS : OVER, type: 'dashed', width: 2 },
      label: { formatter: `HBM ${fmt.gb(capacity)}`, position: 'end', align: 'right', distance: 6, color: m.fits ? AXIS : OVER, fontFamily: FONT, fontWeight: 600 },
      data: [{ xAxis: capacity / 1e9 }],
    },
  });

  const parts = PARTS.filter(([, , field]) => m[field] > 0).map(([, name, field]) => `${name} ${fmt.gb(m[field])}`);
  const top = 24; // room for the capacity line's label
  const legendTop = top + 44 + 26;
  const legend = legendLayout([...PARTS.map(([, name]) => name), 'Free'], width);
  return {
    height: legendTop + legend.height,
    option: {
      aria: {
        enabled: true,
        label: { description: `Memory per chip: ${fmt.gb(m.total_bytes)} of ${fmt.gb(capacity)} of HBM (${parts.join(', ')}).` },
      },
      animationDuration: 250,
      textStyle: { fontFamily: FONT },
      grid: { left: 12, right: 28, top, height: 44, containLabel: true },
      legend: wrappingLegend(legendTop, null, AXIS),
      tooltip: { trigger: 'item', confine: true, className: 'echarts-tooltip' },
      xAxis: {
        type: 'value',
        splitNumber: width < 480 ? 3 : 5,
        axisLabel: { color: AXIS, formatter: (v) => `${fmt.num(v)} GB` },
        splitLine: { lineStyle: { color: GRID } },
      },
      yAxis: { type: 'category', data: ['Per chip'], axisLabel: { color: AXIS }, axisTick: { show: false } },
      series,
    },
  };
}
