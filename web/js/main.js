// Bootstrap: load the engine, restore the state from the URL hash, and on every change
// evaluate the scenario and redraw every view from (state, result). The views shown follow
// the result's workload: inference (latency, KV cache) or training (step breakdown, memory
// per stage, pipeline timeline); the headline, mapping, network and operator views serve both.
import { $ } from './dom.js';
import { loadEngine } from './engine.js';
import { createForm } from './form.js';
import { toScenario } from './scenario.js';
import { fromHash, toLink } from './state.js';
import { renderErrors } from './views/errors.js';
import { renderHeading } from './views/heading.js';
import { renderSummary } from './views/summary.js';
import { renderWarnings } from './views/warnings.js';
import { createChart } from './views/chart.js';
import { memoryOption } from './views/memory-chart.js';
import { latencyOption } from './views/latency-chart.js';
import { renderOpsTable } from './views/ops-table.js';
import { renderMapping } from './views/mapping.js';
import { createNetworkView } from './views/network-view.js';
import { renderTrainingSummary } from './views/training-summary.js';
import { renderBreakdown } from './views/breakdown-chart.js';
import { renderStageMemory } from './views/stage-memory-chart.js';
import { renderTimeline } from './views/timeline.js';
import { applyAdvice } from './fit-advice.js';
import { applyFewestChips, applyFormats } from './inference-fit.js';
import { renderCurve } from './views/curve-chart.js';
import { renderServing } from './views/serving-view.js';
import { curvePlan, markOf } from './serving-curve.js';
import { withOfflineBatch } from './serving.js';
import { createShareBar } from './share.js';
import * as fmt from './format.js';
import { announceResults } from './announce.js';
import { createSweeper } from './sweep-client.js';
import { createSweepPanel } from './sweep-panel.js';
import { createPins } from './pins.js';
import { applyScenarioParam } from './scenario-param.js';
import { renderCost } from './views/cost-view.js';
import { createTradeoffPanel } from './tradeoff-panel.js';
import { watchExplanations } from './views/explain-panel.js';
import { createHeadlineBar } from './views/headline-bar.js';
import { emptyChoice } from './search-plan.js';

// The throughput–latency curve is up to 64 whole evaluations (a few ms, tens for the biggest
// models): it waits for a pause in typing this long, and is computed once per scenario.
const CURVE_DELAY_MS = 200;

function showFatal(error) {
  $('#loading').hidden = true;
  const box = $('#fatal');
  box.hidden = false;
  box.replaceChildren();
  const title = document.createElement('strong');
  title.textContent = 'Envelope could not start its calculation engine.';
  const body = document.createElement('p');
  body.textContent =
    'This page needs a browser with WebAssembly enabled (a current Chrome, Edge, Firefox or Safari) ' +
    'and must be opened from a web server, not as a local file. ' +
    `Reason: ${error?.message ?? error}.`;
  box.append(title, body);
  $('#app').setAttribute('aria-busy', 'false');
}

function showNotice(text) {
  $('#notice').hidden = !text;
  $('#notice').textContent = text ?? '';
}

async function start() {
  let engine;
  try {
    engine = await loadEngine();
  } catch (error) {
    showFatal(error);
    return;
  }
  const { presets } = engine;
  $('#engine-version').textContent = `engine ${engine.version}`;
  $('#loading').hidden = true;
  $('#app').setAttribute('aria-busy', 'false');

  // Each chart keeps a "Show as table" of its numbers (views/chart-table.js).
  const gbCell = (v) => fmt.gb(v * 1e9);
  const memoryChart = createChart($('#memory-chart'), { table: { format: gbCell, title: 'Memory per chip', corner: 'Part' } });
  const latencyChart = createChart($('#latency-chart'), { table: { format: fmt.time, title: 'Where the time goes', corner: 'Part' } });
  const breakdownChart = createChart($('#breakdown-chart'), { table: { format: fmt.time, title: 'Where the step goes', corner: 'Part' } });
  const stageMemoryChart = createChart($('#stage-memory-chart'), { table: { format: gbCell, title: 'Memory per chip, by stage', corner: 'Part' } });
  const curveChart = createChart($('#curve-chart'));
  // One column: the headline at the top of the screen while the form is edited below it.
  const headlineBar = createHeadlineBar();
  let state;
  let lastGood = null;
  let lastGoodScenario = null; // the scenario lastGood is the result of
  let lastFit = null; // engine.fit() of lastGood's scenario (inference only)
  const fitCache = new Map(); // scenario text -> engine.fit(): the current one, and pinned offline ones
  const curveRun = { wanted: null, timer: 0 };
  // Controls inside the results (colour of the mapping, the collective and its chips)
  // change only view options.
  const onView = (key, value) => update({ ...state, view: { ...state.view, [key]: value } });
  const networkView = createNetworkView(engine, { onView });
  // Sweeps and the curve run in a worker (sweep-client.js); pinned scenarios beside the current (pins.js).
  const sweeper = createSweeper(engine);
  const sweepPanel = createSweepPanel(sweeper, { onView });
  const pins = createPins(engine, { onChange: () => update(state), scenarioOf: (pinned) => resolved(pinned) });
  // Cost against performance for designs around the scenario (tradeoff-panel.js), in the worker.
  const tradeoffPanel = createTradeoffPanel(sweeper, { onView });
  // The Search card's code loads when the card is opened, or when a link has a search
  // (search-panel.js); its inputs are a view option of the link (state.view.search).
  const searchDetails = $('#search-details');
  let searchPanel = null; // a promise of the card's controller
  let searchFromLink = false; // a link was just opened: its search runs at once
  const loadSearch = () => (searchPanel ??= import('./search-panel.js').then((m) => m.createSearchPanel(engine, {
    onView, onApply: (next) => update(next, { restored: true }) })));
  searchDetails.addEventListener('toggle', () => {
    if (searchDetails.open !== (state.view.search != null)) onView('search', searchDetails.open ? emptyChoice() : null);
  });
  function updateSearch(scenario) {
    const open = state.view.search != null;
    if (searchDetails.open !== open) searchDetails.open = open;
    const fromLink = searchFromLink;
    searchFromLink = false;
    if (!open && !searchPanel) return;
    const now = state;
    loadSearch().then((panel) => panel.update(now, scenario, { restored: fromLink }));
  }
  // "How?" beside each headline and cost number: its formula with this result's values (explain.js).
  watchExplanations([$('#summary'), $('#cost-summary')], () => lastGood);
  // The fit advice's Apply: its settings go into the form (and the link), and it recomputes.
  const onApply = (advice) => {
    const next = state.mode === 'training' ? applyAdvice(state, advice) : null;
    if (next) update(next, { restored: true });
  };
  // The fit answer's Apply (inference): the fewest chips' TP and PP, one replica.
  const onApplyFit = (fewest) => {
    const next = state.mode === 'training' ? null : applyFewestChips(state, fewest);
    if (next) update(next, { restored: true });
  };
  // An 8-bit option of the fit answer: its weight and KV-cache formats.
  const onApplyFormats = (option) => {
    const next = state.mode === 'training' ? null : applyFormats(state, option);
    if (next) update(next, { restored: true });
  };

  // The scenario the engine evaluates: offline takes the largest batch that fits (serving.js).
  function resolved(state) {
    const scenario = toScenario(state);
    return state.workload?.serving === 'offline' ? withOfflineBatch(scenario, fitOf(scenario)) : scenario;
  }

  // "Does it fit?" for the scenario just evaluated (the same scenario: the same answer).
  function fitOf(scenario) {
    const key = JSON.stringify(scenario);
    if (!fitCache.has(key)) {
      if (fitCache.size >= 8) fitCache.delete(fitCache.keys().next().value); // the oldest
      fitCache.set(key, engine.fit(scenario));
    }
    return fitCache.get(key);
  }

  // The curve of an inference scenario that evaluated, after a pause (now: at once, for a
  // restored link); null: none to compute (training, or inputs with an error).
  function scheduleCurve(scenario, { now = false } = {}) {
    const key = scenario ? JSON.stringify(scenario) : null;
    if (key === curveRun.wanted) return; // drawn already, or on its way
    curveRun.wanted = key;
    clearTimeout(curveRun.timer);
    if (!scenario) return;
    curveRun.timer = setTimeout(() => {
      // Over concurrency; an offered rate's own point from the engine's sweep (serving-curve.js).
      const plan = curvePlan(scenario);
      const label = `${fmt.num(scenario.workload.request_rate)} requests/s`;
      Promise.all([sweeper.run('curve', 'curve', plan.curve), plan.mark ? sweeper.run('curve-mark', 'sweep', plan.mark) : null])
        .then(([curve, point]) => {
          if (!curve || curveRun.wanted !== key) return;
          renderCurve(curve, curveChart, { concurrency: plan.curve.workload.mode === 'concurrency',
            mark: plan.mark ? markOf(point, label) : null, serving: scenario.workload.mode ?? 'static' });
        });
    }, now ? 0 : CURVE_DELAY_MS);
  }

  function renderResult(result, view) {
    const training = result.workload === 'training';
    // Shown before drawing, so that each chart is sized in a visible box.
    for (const el of document.querySelectorAll('#result-body [data-mode]')) {
      el.hidden = el.dataset.mode !== (training ? 'training' : 'inference');
    }
    renderHeading(result, presets);
    renderWarnings(result);
    if (training) {
      renderTrainingSummary(result, { onApply });
      renderBreakdown(result, breakdownChart);
      renderStageMemory(result, stageMemoryChart);
      renderTimeline(result);
    } else {
      renderSummary(result, { fit: lastFit, onApplyFit, onApplyFormats });
      renderServing(result, presets, { offline: state.workload?.serving === 'offline' });
      memoryChart.render((width) => memoryOption(result, width));
      latencyChart.render((width) => latencyOption(result, view, width));
    }
    renderMapping(result, view, onView);
    renderOpsTable(result, view);
    renderCost(result, { asked: state.cost?.pricing ?? null });
  }

  // keepUrl: the link just read had a part that was ignored; it stays in the address bar
  // as its author wrote it until the first edit.
  function update(next, { restored = false, keepUrl = false } = {}) {
    state = next;
    if (restored) form.reset(state);
    else form.render(state);
    const hash = toLink(state, presets, pins.list());
    if (!keepUrl && location.hash !== hash) history.replaceState(null, '', hash);

    const localErrors = form.localErrors();
    let engineError = null;
    let evaluated = null; // an inference scenario that computed
    if (localErrors.size === 0) {
      const scenario = resolved(state);
      const result = engine.evaluate(scenario);
      if (result.ok) {
        lastGood = result;
        lastGoodScenario = scenario;
        const inference = result.workload === 'inference';
        lastFit = inference ? fitOf(scenario) : null;
        if (inference) evaluated = scenario;
      } else engineError = result.error ?? { path: '', message: 'the engine returned no result' };
    }
    scheduleCurve(evaluated, { now: restored });
    const failed = localErrors.size > 0 || engineError !== null;
    form.showResolved(failed ? null : lastGood);

    const body = $('#result-body');
    body.hidden = lastGood === null;
    // Dimmed only when the engine refused the inputs; an entry still being typed (empty, a
    // lone minus) leaves the last good results as they are and marks only its field.
    body.classList.toggle('stale', engineError !== null);
    if (lastGood) renderResult(lastGood, state.view);
    renderErrors({ localErrors, engineError, stale: engineError !== null && lastGood !== null, state });
    headlineBar.render(lastGood, { stale: engineError !== null });
    if (!failed) announceResults();
    // The collective is computed for the inputs as they are (it needs only the system);
    // while an input is not a number it waits, without an error of older inputs.
    if (lastGood) networkView.render(state, lastGood, { blocked: localErrors.size > 0 });
    pins.render(state, lastGood, { stale: failed });
    sweepPanel.update(evaluated, state.view.sweep, lastFit, pins.scenarios());
    if (!failed) tradeoffPanel.update(lastGoodScenario, lastGood, state.view.tradeoff ?? null);
    updateSearch(failed ? null : lastGoodScenario);
  }

  const form = createForm(presets, {
    // notice: a sentence about what the page did beyond the edit (a preset it loaded).
    onChange: (next, { notice = null } = {}) => {
      showNotice(notice);
      update(next);
    },
    // Whether a state computes, and fits in memory (the switch to training looks for one).
    check: (candidate) => {
      const result = engine.evaluate(toScenario(candidate));
      return { ok: result.ok === true, fits: result.ok === true && result.memory?.fits === true };
    },
    importHf: (text) => engine.importHf(text),
  });

  // The phase the operator table shows (ops-table.js picks it the same way).
  const tablePhase = (result, view) => (result.workload === 'training'
    ? (view.table === 'backward' ? 'backward' : 'forward')
    : (view.table === 'decode' ? 'decode' : 'prefill'));
  createShareBar({
    current: () => (lastGood ? { scenario: lastGoodScenario, result: lastGood, phase: tablePhase(lastGood, state.view) } : null),
    link: () => location.href.split('#')[0] + toLink(state, presets, pins.list()),
    engineVersion: engine.version,
    charts: [['Memory', memoryChart, $('#memory-chart')], ['Latency', latencyChart, $('#latency-chart')],
      ['Throughput-latency', curveChart, $('#curve-chart')], ['Step breakdown', breakdownChart, $('#breakdown-chart')],
      ['Stage memory', stageMemoryChart, $('#stage-memory-chart')], ['Sweep', sweepPanel.chart, $('#sweep-chart')],
      ['Compare', pins.chart, $('#compare-chart')], ['Trade-off', tradeoffPanel.chart, $('#tradeoff-chart')]],
  });

  function restoreFromHash() {
    const { state: restored, pins: pinned, error } = fromHash(location.hash, presets);
    pins.set(pinned);
    showNotice(error);
    searchFromLink = true;
    update(restored, { restored: true, keepUrl: error !== null });
  }

  // replaceState does not fire hashchange: this only sees links and edits of the address bar.
  window.addEventListener('hashchange', restoreFromHash);
  // "Skip to results" moves the focus without touching the link, which holds the state (an
  // #results fragment would be read as a link and reset it).
  $('.skip-link').addEventListener('click', (e) => {
    e.preventDefault();
    $('#results').focus();
  });
  // Back to a page kept in the back-forward cache: the form is drawn again from the link,
  // so no value the browser kept in a control outlives the state it belongs to.
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) restoreFromHash();
  });
  const scenarioNote = applyScenarioParam(presets); // ?scenario=ID: that preset's link
  restoreFromHash();
  if (scenarioNote) showNotice(scenarioNote);
}

start();
