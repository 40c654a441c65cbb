// The Trade-off chart and table: each design of engine.tradeoff()'s answer as a point of cost
// (x) against performance (y); the Pareto front (no other design that fits is as cheap and as
// fast, and better in one) drawn larger and joined in order of cost; designs that do not fit
// in memory grey; the scenario itself a diamond. The table lists every design, the ones the
// engine refused with its reason. tradeoffOption() and tradeoffRows() are pure (Node tests).
import { AXIS, GRID, FONT } from './palette.js';
import { axesOf, settingText, KNOBS } from '../tradeoff-plan.js';
import * as fmt from '../format.js';
import { usd, joules } from '../cost-format.js';

export const TRADEOFF_COLORS = { design: '#2f6fd6', pareto: '#e07b24', over: '#b8c0ca', current: '#1d2733' };

const finite = (x) => typeof x === 'number' && Number.isFinite(x);

// -> { designs, front, over, errors }: the answer's points sorted into the chart's series.
export function splitPoints(answer) {
  const { x, y } = axesOf(answer.workload);
  const out = { designs: [], front: [], over: [], errors: [] };
  for (const p of answer.points ?? []) {
    if (!p.ok) out.errors.push(p);
    else if (!finite(p[x]) || !finite(p[y])) out.errors.push({ ...p, error: { message: 'no cost: this chip has no price' } });
    else if (!p.fits) out.over.push(p);
    else if (p.pareto) out.front.push(p);
    else out.designs.push(p);
  }
  out.front.sort((a, b) => a[x] - b[x]);
  return out;
}

const yText = (workload, v) => (workload === 'training' ? fmt.time(v) : `${fmt.num(v)} tokens/s`);
const xText = (workload, v) => (workload === 'training' ? `${usd(v)} per step` : `${usd(v)} per chip-hour`);

export function tradeoffDescription(answer, parts) {
  const { xLabel, yLabel } = axesOf(answer.workload);
  const knobs = (answer.knobs ?? []).map((k) => KNOBS[k]?.label ?? k).join(' and ');
  return `${yLabel} against ${xLabel} for ${answer.points.length} designs varying ${knobs}: ${parts.front.length} on the Pareto front, `
    + `${parts.over.length} that do not fit in memory${parts.errors.length ? `, ${parts.errors.length} that could not be computed` : ''}.`;
}

// current: the scenario's own point ({usd_per_chip_hour, output_tokens_per_s_per_chip} or the
// training pair), or null.
export function tradeoffOption(answer, current = null) {
  const wl = answer.workload;
  const { x, y, xLabel, yLabel } = axesOf(wl);
  const parts = splitPoints(answer);
  const data = (list) => list.map((p) => ({ value: [p[x], p[y]], name: settingText(p.setting) }));
  const scatter = (name, list, color, extra = {}) => ({
    name, type: 'scatter', data: data(list), symbolSize: 9, itemStyle: { color }, emphasis: { focus: 'self' }, ...extra,
  });
  const series = [
    scatter('Designs', parts.designs, TRADEOFF_COLORS.design),
    {
      name: 'Pareto front', type: 'line', data: data(parts.front), symbol: 'circle', symbolSize: 12,
      itemStyle: { color: TRADEOFF_COLORS.pareto }, lineStyle: { color: TRADEOFF_COLORS.pareto, width: 2 }, z: 3,
    },
    scatter('Does not fit', parts.over, TRADEOFF_COLORS.over),
  ];
  if (current && finite(current[x]) && finite(current[y])) {
    series.push(scatter('This scenario', [], TRADEOFF_COLORS.current,
      { symbol: 'diamond', symbolSize: 16, z: 4, data: [{ value: [current[x], current[y]], name: 'This scenario' }] }));
  }
  return {
    animation: false,
    aria: { enabled: true, label: { description: tradeoffDescription(answer, parts) } },
    textStyle: { fontFamily: FONT },
    grid: { left: 70, right: 24, top: 40, bottom: 56 },
    legend: { top: 0, textStyle: { color: AXIS } },
    tooltip: {
      trigger: 'item',
      formatter: (item) => `${item.name}<br>${xText(wl, item.value[0])}<br>${yText(wl, item.value[1])}`,
    },
    xAxis: {
      type: 'value', scale: true, name: xLabel, nameLocation: 'middle', nameGap: 32,
      axisLabel: { color: AXIS, formatter: (v) => usd(v) }, nameTextStyle: { color: AXIS }, splitLine: { lineStyle: { color: GRID } },
    },
    yAxis: {
      type: 'value', scale: true, name: yLabel, nameLocation: 'middle', nameGap: 52, inverse: wl === 'training',
      axisLabel: { color: AXIS, formatter: (v) => (wl === 'training' ? fmt.time(v) : fmt.compact(v)) },
      nameTextStyle: { color: AXIS }, splitLine: { lineStyle: { color: GRID } },
    },
    series,
  };
}

// -> { columns, rows: [{ cells, kind: 'pareto' | 'over' | 'design' | 'error' }] } of text.
export function tradeoffRows(answer) {
  const wl = answer.workload;
  const knobs = answer.knobs ?? [];
  const training = wl === 'training';
  const columns = [...knobs.map((k) => KNOBS[k]?.label ?? k),
    training ? 'Step time' : 'Tokens/s per chip', training ? '$ per step' : '$ per chip-hour', 'Package $',
    training ? '$ to train' : '$ per M output tokens', training ? null : 'J per output token', 'Design'].filter(Boolean);
  const rows = (answer.points ?? []).map((p) => {
    const setting = knobs.map((k) => String(p.setting?.[k] ?? ''));
    if (!p.ok) return { kind: 'error', cells: [...setting, ...columns.slice(knobs.length, -1).map(() => '—'), p.error?.message ?? 'could not be computed'] };
    const kind = !p.fits ? 'over' : p.pareto ? 'pareto' : 'design';
    const status = { over: 'does not fit in memory', pareto: 'Pareto front', design: '' }[kind];
    const cells = training
      ? [fmt.time(p.step_time_s), usd(p.usd_per_step), usd(p.package_usd), usd(p.usd_total)]
      : [fmt.num(p.output_tokens_per_s_per_chip), usd(p.usd_per_chip_hour), usd(p.package_usd), usd(p.usd_per_m_output_tokens), joules(p.joules_per_output_token)];
    return { kind, cells: [...setting, ...cells, status] };
  });
  return { columns, rows };
}
