// A chart's numbers as a table, for whoever cannot see the chart (a screen reader hears the
// table, not the canvas) or wants the figures: "Show as table" under the chart. Built from
// the chart's own ECharts option, so it always matches the picture: a row per series (the
// legend's entries), a column per category of the category axis (Prefill and Decode,
// pipeline stages), every value through the chart's formatter. Zero-only rows are left out.
import { h } from '../dom.js';

const valueOf = (d) => (d !== null && typeof d === 'object' ? d.value : d);
const list = (x) => (x == null ? [] : Array.isArray(x) ? x : [x]);

// -> { caption, columns: [name], rows: [[name, ...cells]] } of formatted text.
export function chartTable(option, format) {
  const categoryAxes = [...list(option.yAxis), ...list(option.xAxis)].filter((a) => a?.type === 'category');
  const yAxes = list(option.yAxis);
  const xAxes = list(option.xAxis);
  const columns = [];
  const cells = new Map(); // series name -> Map(column -> value)
  for (const s of list(option.series)) {
    if (!s || typeof s.name !== 'string') continue;
    const axis = yAxes[s.yAxisIndex ?? 0]?.type === 'category' ? yAxes[s.yAxisIndex ?? 0]
      : xAxes[s.xAxisIndex ?? 0]?.type === 'category' ? xAxes[s.xAxisIndex ?? 0] : categoryAxes[0];
    const names = axis?.data ?? [];
    list(s.data).forEach((d, i) => {
      const column = String(names[i] ?? (names.length ? i : ''));
      if (!columns.includes(column)) columns.push(column);
      if (!cells.has(s.name)) cells.set(s.name, new Map());
      const row = cells.get(s.name);
      row.set(column, (row.get(column) ?? 0) + (Number(valueOf(d)) || 0));
    });
  }
  const rows = [];
  for (const [name, row] of cells) {
    if (![...row.values()].some((v) => v !== 0)) continue;
    rows.push([name, ...columns.map((c) => (row.has(c) ? format(row.get(c)) : '—'))]);
  }
  const aria = option.aria?.label?.description;
  return { caption: typeof aria === 'string' ? aria : '', columns, rows };
}

// The <details> under a chart, created once and refilled on every draw.
export function tableBox(container, title) {
  const table = h('table', { class: 'ops chart-alt-table' });
  const box = h('details', { class: 'chart-alt' },
    h('summary', { text: 'Show as table' }),
    h('div', { class: 'table-scroll', role: 'region', tabindex: '0', 'aria-label': title }, table));
  container.after(box);
  return table;
}

export function fillTable(table, { caption, columns, rows }, corner = '') {
  const head = h('tr', {}, h('th', { scope: 'col', class: 'text', text: corner }),
    ...columns.map((c) => h('th', { scope: 'col', class: 'num', text: c })));
  table.replaceChildren(
    caption ? h('caption', { class: 'chart-alt-caption', text: caption }) : '',
    h('thead', {}, head),
    h('tbody', {}, rows.map(([name, ...values]) => h('tr', {},
      h('th', { scope: 'row', class: 'text', text: name }),
      ...values.map((v) => h('td', { class: 'num', text: v }))))));
}
