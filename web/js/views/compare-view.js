// The Compare card: a Pin button, and once something is pinned, the pinned scenarios and the
// current one side by side: headline numbers with their change against the first pin, and
// their latency (inference: prefill + decode) or step (training: its breakdown) as bars on
// one time axis. compare.js computes what is shown. Each pin's name (its own, or "Pin 1") heads
// its column and its bar, in a box where the person can rename it (committed on change).
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { AXIS, GRID, FONT, STEP_COLORS } from './palette.js';
import { legendLayout, wrappingLegend } from './chart.js';
import { MAX_LABEL, MAX_PINS, columnLabels, compareRows, timeParts } from '../compare.js';

// A name as tooltip HTML (ECharts puts a formatter's string in as HTML).
const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const PART_COLORS = { prefill: '#2f6fd6', decode: '#1e9e8a', ...STEP_COLORS };

// -> { option, height } of the overlaid bars; names: the column names ("Pin 1" or the pin's
// own, "Current"), each as given (a name is text, never markup).
export function compareOption(results, names, width = 640) {
  const parts = new Map();
  results.forEach((r) => {
    for (const [key, label] of timeParts(r)) if (!parts.has(key)) parts.set(key, label);
  });
  const series = [...parts].map(([key, label]) => ({
    name: label, type: 'bar', stack: 'time', barMaxWidth: 22, itemStyle: { color: PART_COLORS[key] ?? '#8d99a8' },
    data: results.map((r) => timeParts(r).find(([k]) => k === key)?.[2] ?? 0),
  }));
  const plotTop = 10;
  const plotHeight = 34 * results.length + 10;
  const legendTop = plotTop + plotHeight + 36;
  const legend = legendLayout(series.map((s) => s.name), width);
  return {
    height: legendTop + legend.height,
    option: {
      animation: false,
      aria: { enabled: true, label: { description: results.map((r, i) => `${names[i]}: ${timeParts(r).map(([, l, s]) => `${l} ${fmt.time(s)}`).join(', ') || 'no result'}`).join('. ') } },
      textStyle: { fontFamily: FONT },
      grid: { left: 12, right: 24, top: plotTop, height: plotHeight, containLabel: true },
      legend: wrappingLegend(legendTop, null, AXIS),
      tooltip: {
        trigger: 'item', confine: true, className: 'echarts-tooltip',
        formatter: (item) => `${escapeHtml(names[item.dataIndex])} · ${escapeHtml(item.seriesName)}: ${fmt.time(item.value)}`,
      },
      xAxis: { type: 'value', min: 0, name: 'seconds', nameLocation: 'middle', nameGap: 24, nameTextStyle: { color: AXIS },
        axisLabel: { color: AXIS, formatter: (v) => fmt.time(v) }, splitLine: { lineStyle: { color: GRID } } },
      // A long name is cut to the width of a short one, with an ellipsis (the card shows it whole).
      yAxis: { type: 'category', inverse: true, data: names, axisLabel: { color: AXIS, width: 150, overflow: 'truncate' } },
      series,
    },
  };
}

// onPin(): pin the current scenario; onUnpin(i); onClear(); onRename(i, text): a name typed.
export function createCompareView({ onPin, onUnpin, onClear, onRename }) {
  $('#pin-button').addEventListener('click', () => onPin());
  $('#pins-clear').addEventListener('click', () => onClear());

  // A pin's name as a text box holding the name shown (its own, or "Pin 1"). The name goes in
  // on change (Enter, or leaving the box), so the card is not redrawn under the typing; Escape
  // puts the name back; emptied, the pin takes its automatic name again.
  function nameBox(i, name) {
    return h('input', {
      type: 'text', class: 'compare-name compare-name-input', value: name, placeholder: `Pin ${i + 1}`,
      maxlength: MAX_LABEL, spellcheck: 'false', autocomplete: 'off', 'aria-label': `Name of pin ${i + 1}`,
      title: `Name this pin (at most ${MAX_LABEL} characters)`,
      onchange: (e) => onRename(i, e.target.value),
      onkeydown: (e) => {
        if (e.key === 'Enter') e.target.blur();
        else if (e.key === 'Escape') e.target.value = name;
      },
    });
  }

  return {
    // pins: [{result | null, error | null, name, named}] of the pinned scenarios (named: the
    // name is the person's, not the automatic one); current: the shown result
    // (null before the first); stale: the current inputs do not compute.
    render(pins, current, chart, { stale = false } = {}) {
      const card = $('#compare-card');
      const full = pins.length >= MAX_PINS;
      $('#pin-button').disabled = full || !current || stale;
      $('#pin-button').title = full ? `At most ${MAX_PINS} scenarios are pinned: unpin one first` : '';
      $('#pins-clear').hidden = pins.length === 0;
      card.dataset.pins = String(pins.length);
      const table = $('#compare-table');
      const chartBox = $('#compare-chart');
      if (pins.length === 0) {
        $('#compare-note').textContent = `Pin this scenario, then change anything: the pinned ones stay beside it (up to ${MAX_PINS}), `
          + 'with each number\'s change against the first pin, and they go into the link.';
        table.replaceChildren();
        chartBox.hidden = true;
        return;
      }
      const results = [...pins.map((p) => p.result), current];
      const names = [...pins.map((p, i) => p.name ?? `Pin ${i + 1}`), 'Current'];
      // The columns' ids for tests and styles: "Pin 1" … "Current", whatever their names.
      const ids = [...pins.map((_, i) => `Pin ${i + 1}`), 'Current'];
      const labels = columnLabels(results);
      const baseline = pins[0].named ? `“${names[0]}” (pin 1)` : 'Pin 1';
      $('#compare-note').textContent = `Changes are against ${baseline}.${stale ? ' The current inputs have an error: the last result that computed is shown.' : ''}`;
      const head = h('tr', {}, h('th', { scope: 'col', text: '' }), results.map((r, i) => h('th', { scope: 'col', class: 'num compare-col', dataset: { col: ids[i] } },
        i < pins.length ? nameBox(i, names[i]) : h('div', { class: 'compare-name', text: names[i] }),
        h('div', { class: 'compare-label', text: pins[i]?.error ? `not computed: ${pins[i].error}` : labels[i] }),
        i < pins.length ? h('button', { type: 'button', class: 'link-button compare-unpin', text: 'Unpin',
          'aria-label': `Unpin ${names[i]}`, onclick: () => onUnpin(i) }) : null)));
      const body = compareRows(results).map((row) => h('tr', { dataset: { row: row.id } },
        h('th', { scope: 'row', text: row.label }),
        row.cells.map((c, i) => h('td', { class: 'num', dataset: { col: ids[i] } },
          h('span', { class: 'compare-value', text: c.text }),
          c.delta ? h('span', { class: `compare-delta ${c.verdict ?? ''}`.trim(), text: ` ${c.delta}` }) : null))));
      table.replaceChildren(h('thead', {}, head), h('tbody', {}, body));
      chartBox.hidden = false;
      chart.render((width) => compareOption(results, names, width));
    },
  };
}
