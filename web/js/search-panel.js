// The Search card (loaded only when the card is opened, main.js): "what should I run?" for the
// page's current scenario. Its inputs (search-plan.js; kept in the link as state.view.search),
// a run in a worker of its own (search-client.js) with a running state, the time so far and
// Cancel, then the counts, the Pareto front (ECharts, views/chart.js) and the top table, each
// row with Apply: the page's scenario takes that configuration (its `settings` patch).
import { h, $ } from './dom.js';
import { createChart } from './views/chart.js';
import { AXIS, GRID, FONT } from './views/palette.js';
import * as fmt from './format.js';
import { usd } from './cost-format.js';
import { createSearchRunner } from './search-client.js';
import { RANKS, applyPoint, emptyChoice, layoutText, searchRequest } from './search-plan.js';

const TICK_MS = 100;
const FRONT_COLOR = '#e07b24';
const TOP_COLOR = '#2f6fd6';

// The columns of the top table: [heading, point -> text].
function columns(answer) {
  if (answer.search === 'training') {
    const cost = answer.cost === 'usd_per_step'
      ? ['USD per step', (p) => usd(p.usd_per_step)] : ['Chip-hours per step', (p) => fmt.num(p.chip_hours_per_step)];
    return [['Chips', (p) => fmt.int(p.chips)], ['Step time', (p) => fmt.time(p.step_time_s)], ['MFU', (p) => fmt.percent(p.mfu)],
      ['Tokens/s', (p) => fmt.compact(p.tokens_per_s)], cost, ['Memory per chip', (p) => fmt.gb(p.memory_bytes)]];
  }
  return [['Chips', (p) => fmt.int(p.chips)], ['Tokens/s per chip', (p) => fmt.num(p.output_tokens_per_s_per_chip)],
    ['Tokens/s per user', (p) => fmt.num(p.output_tokens_per_s_per_user)], ['TTFT', (p) => fmt.time(p.ttft_s)],
    ['TPOT', (p) => fmt.time(p.tpot_s)], ['USD per M tokens', (p) => usd(p.usd_per_m_output_tokens)],
    ['Meets the SLO', (p) => (p.meets_slo ? 'yes' : 'no')]];
}

// The front's axes: serving tokens/s per chip (y) against tokens/s per user (x); training
// step time (y) against the cost the answer names (x).
function axes(answer) {
  if (answer.search === 'training') {
    const usdCost = answer.cost === 'usd_per_step';
    return { x: usdCost ? 'usd_per_step' : 'chip_hours_per_step', y: 'step_time_s',
      xLabel: usdCost ? 'USD per step' : 'Chip-hours per step', yLabel: 'Step time', xFmt: usdCost ? usd : fmt.num, yFmt: fmt.time };
  }
  return { x: 'output_tokens_per_s_per_user', y: 'output_tokens_per_s_per_chip', xLabel: 'Output tokens/s per user',
    yLabel: 'Output tokens/s per chip', xFmt: fmt.num, yFmt: fmt.num };
}

export function frontOption(answer) {
  const a = axes(answer);
  const ok = (p) => Number.isFinite(p[a.x]) && Number.isFinite(p[a.y]);
  const data = (list) => list.filter(ok).map((p) => ({ value: [p[a.x], p[a.y]], name: layoutText(p) }));
  return {
    animation: false,
    aria: { enabled: true, label: { description: `${a.yLabel} against ${a.xLabel}: the Pareto front of ${answer.front.length} configurations.` } },
    textStyle: { fontFamily: FONT },
    grid: { left: 70, right: 24, top: 40, bottom: 56 },
    legend: { top: 0, textStyle: { color: AXIS } },
    tooltip: { trigger: 'item', formatter: (item) => `${item.name}<br>${a.xLabel}: ${a.xFmt(item.value[0])}<br>${a.yLabel}: ${a.yFmt(item.value[1])}` },
    xAxis: { type: 'value', scale: true, name: a.xLabel, nameLocation: 'middle', nameGap: 32, axisLabel: { color: AXIS, formatter: (v) => a.xFmt(v) },
      nameTextStyle: { color: AXIS }, splitLine: { lineStyle: { color: GRID } } },
    yAxis: { type: 'value', scale: true, name: a.yLabel, nameLocation: 'middle', nameGap: 52, inverse: answer.search === 'training',
      axisLabel: { color: AXIS, formatter: (v) => a.yFmt(v) }, nameTextStyle: { color: AXIS }, splitLine: { lineStyle: { color: GRID } } },
    series: [
      { name: 'Pareto front', type: 'line', data: data(answer.front), symbol: 'circle', symbolSize: 10,
        itemStyle: { color: FRONT_COLOR }, lineStyle: { color: FRONT_COLOR, width: 2 } },
      { name: 'Top', type: 'scatter', data: data(answer.top), symbolSize: 9, itemStyle: { color: TOP_COLOR }, z: 3 },
    ],
  };
}

const COUNT_WORDS = { enumerated: 'enumerated', evaluated: 'evaluated', invalid: 'invalid', pruned_by_bound: 'pruned by a bound',
  over_memory: 'over memory', dominated: 'dominated' };
export function countsText(counts) {
  return Object.entries(COUNT_WORDS).filter(([k]) => Number.isFinite(counts?.[k])).map(([k, w]) => `${fmt.int(counts[k])} ${w}`).join(' · ');
}

// engine: the page's engine; onView(key, value): the link's view option; onApply(state): the
// page takes that state.
export function createSearchPanel(engine, { onView, onApply }) {
  const runner = createSearchRunner(engine);
  const root = $('#search-body');
  let state = null;
  let scenario = null;
  let choice = emptyChoice();
  let linked = null; // the choice last taken from the state or given to it (JSON)
  let answer = null;
  let timer = 0;

  const field = (id, label, input, hint = null) => h('div', { class: 'field', dataset: { field: id } },
    h('label', { for: id, text: label }), input, hint ? h('p', { class: 'hint', text: hint }) : null);
  const chipsInput = h('input', { id: 'search-chips', type: 'text', autocomplete: 'off', spellcheck: 'false', inputmode: 'numeric' });
  const ttftInput = h('input', { id: 'search-ttft', type: 'text', autocomplete: 'off', inputmode: 'decimal', placeholder: 'none' });
  const tpsInput = h('input', { id: 'search-tps-user', type: 'text', autocomplete: 'off', inputmode: 'decimal', placeholder: 'none' });
  const rankSelect = h('select', { id: 'search-rank', autocomplete: 'off' },
    ...Object.entries(RANKS).map(([value, text]) => h('option', { value, text })));
  const chipsLabel = h('span');
  const servingFields = [field('search-ttft', 'TTFT at most (ms)', ttftInput), field('search-tps-user', 'Tokens/s per user at least', tpsInput)];
  const trainingFields = [field('search-rank', 'Rank by', rankSelect)];
  const runButton = h('button', { type: 'button', class: 'share-button', id: 'search-run', text: 'Search' });
  const cancelButton = h('button', { type: 'button', class: 'link-button', id: 'search-cancel', text: 'Cancel', hidden: true });
  const progress = h('progress', { id: 'search-progress', hidden: true, 'aria-label': 'Searching' });
  const status = h('p', { class: 'card-note', id: 'search-status', role: 'status' });
  const error = h('p', { class: 'field-error', id: 'search-error', role: 'alert', hidden: true });
  const counts = h('p', { class: 'card-note', id: 'search-counts' });
  const chartBox = h('div', { class: 'chart chart-search', id: 'search-chart', hidden: true });
  const table = h('table', { class: 'ops', id: 'search-table' });
  const chipsField = h('div', { class: 'field', dataset: { field: 'search-chips' } }, h('label', { for: 'search-chips' }, chipsLabel), chipsInput);
  root.replaceChildren(
    h('div', { class: 'tradeoff-controls search-controls', role: 'group', 'aria-label': 'Inputs of the search' },
      chipsField, ...servingFields, ...trainingFields),
    h('div', { class: 'controls' }, runButton, cancelButton, progress),
    status, error, counts, chartBox,
    h('div', { class: 'table-scroll', role: 'region', tabindex: '0', 'aria-label': 'The best configurations' }, table));
  const chart = createChart(chartBox);

  const training = () => state?.mode === 'training';
  function showError(text) {
    error.hidden = !text;
    error.textContent = text ?? '';
  }

  function fill() {
    chipsInput.value = choice.chips;
    ttftInput.value = choice.ttft_ms;
    tpsInput.value = choice.tps_user;
    rankSelect.value = choice.rank;
  }

  function layoutMode() {
    const t = training();
    chipsLabel.textContent = t ? 'Chip counts to search' : 'Most chips a configuration may use';
    chipsInput.placeholder = state ? `${fmt.int(state.machine.count)} (the scenario's)` : '';
    for (const f of servingFields) f.hidden = t;
    for (const f of trainingFields) f.hidden = !t;
  }

  function edited() {
    choice = { chips: chipsInput.value, ttft_ms: ttftInput.value, tps_user: tpsInput.value, rank: rankSelect.value };
    linked = JSON.stringify(choice);
    onView('search', choice);
  }
  for (const el of [chipsInput, ttftInput, tpsInput]) el.addEventListener('input', edited);
  rankSelect.addEventListener('change', edited);

  function setRunning(on, t0 = 0) {
    runButton.disabled = on;
    cancelButton.hidden = !on;
    progress.hidden = !on;
    root.setAttribute('aria-busy', on ? 'true' : 'false');
    clearInterval(timer);
    if (on) {
      const tick = () => { status.textContent = `Searching… ${fmt.time((performance.now() - t0) / 1000)}`; };
      tick();
      timer = setInterval(tick, TICK_MS);
    }
  }

  async function run() {
    showError(null);
    if (!scenario) {
      showError('The scenario has an error: fix it to search.');
      return;
    }
    const built = searchRequest(scenario, choice);
    if (built.error) {
      showError(built.error.message);
      return;
    }
    const t0 = performance.now();
    setRunning(true, t0);
    const out = await runner.run(built.request);
    if (out === null) return; // cancelled, or replaced by a newer run
    setRunning(false);
    render(out);
  }

  function cancel() {
    if (!runner.cancel()) return;
    setRunning(false);
    status.textContent = 'Search cancelled.';
  }
  runButton.addEventListener('click', run);
  cancelButton.addEventListener('click', cancel);

  function render(out) {
    const a = out.answer;
    if (a?.ok !== true) {
      answer = null;
      status.textContent = '';
      counts.textContent = '';
      chartBox.hidden = true;
      table.replaceChildren();
      const path = a?.error?.path ? `${a.error.path}: ` : '';
      showError(`The search could not run: ${path}${a?.error?.message ?? 'no answer'}`);
      return;
    }
    answer = a;
    status.textContent = `${a.search === 'training' ? 'Training' : 'Serving'} search: ${fmt.int(a.counts.evaluated)} evaluated in ${fmt.time(out.ms / 1000)} (${out.where}).`;
    counts.textContent = countsText(a.counts);
    chartBox.hidden = a.front.length === 0;
    if (a.front.length) chart.render(frontOption(a));
    renderTable(a);
  }

  function renderTable(a) {
    const cols = columns(a);
    const head = h('tr', {}, h('th', { scope: 'col', text: '#' }), h('th', { scope: 'col', text: 'Layout' }),
      ...cols.map(([title]) => h('th', { scope: 'col', text: title })), h('th', { scope: 'col', text: '' }));
    const rows = a.top.map((p, i) => {
      const next = state ? applyPoint(state, p) : null;
      const apply = h('button', { type: 'button', class: 'link-button', text: 'Apply', disabled: !next, dataset: { rank: String(i + 1) },
        title: next ? 'Set the scenario to this configuration' : 'This configuration has settings the page cannot take',
        onclick: () => { const s = state && applyPoint(state, p); if (s) onApply(s); } });
      return h('tr', {}, h('td', { text: String(i + 1) }), h('th', { scope: 'row', text: layoutText(p) }),
        ...cols.map(([, cell]) => h('td', { text: cell(p) })), h('td', {}, apply));
    });
    if (!rows.length) rows.push(h('tr', {}, h('td', { colspan: String(cols.length + 3), text: 'No configuration meets the SLO.' })));
    table.replaceChildren(h('thead', {}, head), h('tbody', {}, ...rows));
  }

  return {
    // next: the page state; evaluated: its scenario when it computed (else null: the card keeps
    // the last good one); restored: a link was just opened (its search runs at once).
    update(next, evaluated, { restored = false } = {}) {
      const modeChanged = state && state.mode !== next.mode;
      state = next;
      if (evaluated) scenario = evaluated;
      const wanted = next.view.search ?? emptyChoice();
      const key = JSON.stringify(wanted);
      const adopted = key !== linked;
      if (adopted) {
        linked = key;
        choice = { ...emptyChoice(), ...wanted };
        fill();
      }
      layoutMode();
      if (modeChanged) {
        runner.cancel();
        setRunning(false);
        answer = null;
        status.textContent = '';
        counts.textContent = '';
        chartBox.hidden = true;
        table.replaceChildren();
      }
      if (restored && next.view.search && evaluated) run();
    },
    chart,
    running: () => runner.running(),
    answer: () => answer,
  };
}
