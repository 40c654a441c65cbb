// Predicted against measured, log-log: one point per case, the y = x line and the ±25%
// lines. Points of one kind share a colour; hovering shows the case and its source.
import * as fmt from '../format.js';
import { AXIS, GRID, FONT } from './palette.js';
import { legendLayout, wrappingLegend } from './chart.js';

const KIND_COLORS = { inference: '#2f6fd6', collective: '#e07b24', gemm: '#8a4fd1', training: '#1e9e8a' };

// The first web address in a source text, if any: where a point's link goes.
export function sourceUrl(source) {
  const m = String(source ?? '').match(/https?:\/\/[^\s;,)]+/);
  return m ? m[0] : null;
}

function guide(name, factor, lo, hi, dashed) {
  const color = dashed ? '#9aa3af' : AXIS;
  return {
    name, type: 'line', silent: true, symbol: 'none', z: 1, itemStyle: { color },
    lineStyle: { color, width: 1, type: dashed ? 'dashed' : 'solid' },
    data: [[lo, lo * factor], [hi, hi * factor]],
  };
}

// -> { option, height } for a chart `width` px wide: a square-ish plot (at most 460 px
// tall), the legend under it, unpaged.
export function validationOption(cases, width = 800) {
  const values = cases.flatMap((c) => [c.measured, c.predicted]).filter((v) => v > 0);
  const lo = values.length ? Math.min(...values) / 1.5 : 0.1;
  const hi = values.length ? Math.max(...values) * 1.5 : 10;
  const kinds = [...new Set(cases.map((c) => c.kind))];
  const series = kinds.map((kind) => ({
    name: kind, type: 'scatter', symbolSize: 9, z: 3,
    itemStyle: { color: KIND_COLORS[kind] ?? AXIS, opacity: 0.85 },
    data: cases.filter((c) => c.kind === kind).map((c) => ({ value: [c.measured, c.predicted], case: c })),
  }));
  const top = 12;
  const plot = Math.max(200, Math.min(460, width - 88));
  const legendTop = top + plot + 44; // under the labels and the axis name
  const names = ['y = x', '+25%', '−25%', ...kinds];
  const legend = legendLayout(names, width);
  const option = {
    animation: false,
    aria: { enabled: true, label: { description: `Predicted against measured for ${cases.length} cases, log-log.` } },
    textStyle: { fontFamily: FONT },
    grid: { left: 64, right: 24, top, height: plot },
    legend: wrappingLegend(legendTop, names, AXIS),
    tooltip: {
      trigger: 'item',
      confine: true,
      className: 'echarts-tooltip', // css/theme.css: the dark card in the dark theme
      formatter: (p) => {
        const c = p.data?.case;
        if (!c) return '';
        const esc = (t) => String(t).replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[ch]));
        return `<strong>${esc(c.id)}</strong><br>${esc(c.kind)} · ${esc(c.primary)} · ${esc(c.chip ?? '')}` +
          `<br>measured ${esc(fmt.num(c.measured))}, predicted ${esc(fmt.num(c.predicted))} ` +
          `(${c.error >= 0 ? '+' : ''}${esc((c.error * 100).toFixed(1))}%)<br><em>click to open the source</em>`;
      },
    },
    // The ends of the range are not round numbers; only the decades are labelled.
    xAxis: {
      type: 'log', name: 'measured', nameLocation: 'middle', nameGap: 30, min: lo, max: hi, nameTextStyle: { color: AXIS },
      axisLabel: { color: AXIS, formatter: (v) => fmt.compact(v), showMinLabel: false, showMaxLabel: false },
      splitLine: { lineStyle: { color: GRID } },
    },
    yAxis: {
      type: 'log', name: 'predicted', nameLocation: 'middle', nameGap: 48, min: lo, max: hi, nameTextStyle: { color: AXIS },
      axisLabel: { color: AXIS, formatter: (v) => fmt.compact(v), showMinLabel: false, showMaxLabel: false },
      splitLine: { lineStyle: { color: GRID } },
    },
    series: [
      guide('y = x', 1, lo, hi, false),
      guide('+25%', 1.25, lo, hi, true),
      guide('−25%', 0.75, lo, hi, true),
      ...series,
    ],
  };
  return { option, height: legendTop + legend.height };
}
