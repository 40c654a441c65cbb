// The validation view: the model scored on the bundled measured cases, filterable by
// kind, chip and metric; the same figures as `envelope validate`.
import { h, $ } from './dom.js';
import { loadEngine } from './engine.js';
import * as fmt from './format.js';
import { createChart } from './views/chart.js';
import { sourceUrl, validationOption } from './views/validation-chart.js';

const ALL = '';
const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : fmt.DASH);
const signed = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%` : fmt.DASH);

function fillSelect(select, label, values) {
  select.replaceChildren(h('option', { value: ALL, text: `all ${label}` }),
    ...values.map((v) => h('option', { value: v, text: v })));
}

function statsRow(name, s) {
  return h('tr', {},
    h('th', { scope: 'row', class: 'text', text: name }),
    h('td', { text: fmt.int(s.scored) }), h('td', { text: pct(s.mape) }), h('td', { text: pct(s.median_ape) }),
    h('td', { text: pct(s.within_10) }), h('td', { text: pct(s.within_25) }), h('td', { text: signed(s.bias) }),
    h('td', { text: pct(s.worst) }));
}

function renderSummary(summary) {
  const head = h('thead', {}, h('tr', {}, ...['', 'cases', 'mean |error|', 'median |error|', 'within 10%', 'within 25%',
    'bias (median)', 'worst'].map((t, i) => h('th', { scope: 'col', class: i === 0 ? 'text' : '', text: t }))));
  const rows = [statsRow('all', summary)];
  for (const [kind, s] of Object.entries(summary.by_kind ?? {})) rows.push(statsRow(kind, s));
  for (const [metric, s] of Object.entries(summary.by_metric ?? {})) rows.push(statsRow(`  ${metric}`, s));
  $('#validation-summary').replaceChildren(head, h('tbody', {}, rows));
}

// Every regime the cases are in (envelope validate's coverage table): one with cases but none
// scored is unvalidated, and says so.
function renderCoverage(coverage) {
  const head = h('thead', {}, h('tr', {}, ...['regime', '', 'cases', 'scored', 'mean |error|', 'median |error|',
    'bias (median)', 'worst'].map((t, i) => h('th', { scope: 'col', class: i < 2 ? 'text' : '', text: t }))));
  const rows = (coverage ?? []).map((r) => h('tr', { class: r.validated ? '' : 'unvalidated' },
    h('th', { scope: 'row', class: 'text', text: r.regime }), h('td', { class: 'text', text: r.value }),
    h('td', { text: fmt.int(r.cases) }), h('td', { text: fmt.int(r.scored) }),
    ...(r.validated
      ? [h('td', { text: pct(r.mape) }), h('td', { text: pct(r.median_ape) }), h('td', { text: signed(r.bias) }),
        h('td', { text: pct(r.worst) })]
      : [h('td', { colspan: 4, class: 'text', text: 'unvalidated: no case of this regime is scored' })])));
  $('#validation-coverage').replaceChildren(head, h('tbody', {}, rows));
}

function caseRow(c) {
  const url = sourceUrl(c.source);
  return h('tr', { dataset: { id: c.id } },
    h('td', { class: 'text' }, url ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer', text: c.id }) : c.id),
    h('td', { class: 'text', text: c.kind }), h('td', { class: 'text', text: c.chip ?? '' }),
    h('td', { class: 'text', text: c.primary }),
    h('td', { text: fmt.num(c.measured) }), h('td', { text: fmt.num(c.predicted) }),
    h('td', { class: Math.abs(c.error) > 0.25 ? 'error-big' : '', text: signed(c.error) }));
}

function renderCases(cases) {
  const head = h('thead', {}, h('tr', {}, ...['case (source)', 'kind', 'chip', 'metric', 'measured', 'predicted', 'error']
    .map((t, i) => h('th', { scope: 'col', class: i < 4 ? 'text' : '', text: t }))));
  $('#validation-cases').replaceChildren(head, h('tbody', {}, cases.map(caseRow)));
}

async function start() {
  let engine;
  try {
    engine = await loadEngine();
  } catch (error) {
    $('#loading').hidden = true;
    $('#fatal').hidden = false;
    $('#fatal').textContent = `Envelope could not start its calculation engine: ${error?.message ?? error}.`;
    $('#app').setAttribute('aria-busy', 'false');
    return;
  }
  $('#engine-version').textContent = `engine ${engine.version}`;
  // The cases come beside the page (dev.sh copies them): the engine module does not carry them.
  const report = await engine.loadValidation();
  $('#loading').hidden = true;
  $('#results').hidden = false;
  $('#app').setAttribute('aria-busy', 'false');
  if (!report.ok) {
    $('#fatal').hidden = false;
    $('#fatal').textContent = report.error?.message ?? 'the engine could not score the cases';
    return;
  }
  const s = report.summary;
  $('#lede').textContent = `${fmt.int(s.scored)} published measurements predicted, mean absolute error ` +
    `${pct(s.mape)} (median ${pct(s.median_ape)}); ${pct(s.within_25)} of them within 25%. ` +
    `${fmt.int(s.skipped)} more cases need something not modelled yet; they are listed at the end with the reason.`;
  renderSummary(s);
  renderCoverage(report.coverage);
  $('#validation-skipped').replaceChildren(...report.skipped.map((k) =>
    h('li', {}, h('code', { text: k.id || '(no id)' }), ` — ${k.reason}`)));

  const uniq = (key) => [...new Set(report.cases.map((c) => c[key]).filter(Boolean))].sort();
  fillSelect($('#filter-kind'), 'kinds', uniq('kind'));
  fillSelect($('#filter-chip'), 'chips', uniq('chip'));
  fillSelect($('#filter-metric'), 'metrics', uniq('primary'));
  const chart = createChart($('#validation-chart'));

  function update() {
    const kind = $('#filter-kind').value;
    const chip = $('#filter-chip').value;
    const metric = $('#filter-metric').value;
    const shown = report.cases.filter((c) =>
      (kind === ALL || c.kind === kind) && (chip === ALL || c.chip === chip) && (metric === ALL || c.primary === metric));
    $('#chart-note').textContent = `${fmt.int(shown.length)} of ${fmt.int(report.cases.length)} cases. ` +
      'Points between the dashed lines are within 25% of the measurement.';
    chart.render((width) => validationOption(shown, width));
    renderCases(shown);
  }
  $('#filters').addEventListener('change', update);
  update();

  // A click on a point opens the case's source.
  const container = $('#validation-chart');
  if (window.echarts) {
    const instance = window.echarts.getInstanceByDom(container);
    instance?.on('click', (p) => {
      const url = sourceUrl(p.data?.case?.source);
      if (url) window.open(url, '_blank', 'noopener,noreferrer');
    });
  }
}

start();
