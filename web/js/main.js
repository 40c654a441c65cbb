// Bootstrap: load the engine, restore the state from the URL hash, and on every change
// evaluate the scenario and redraw every view from (state, result). The views shown follow
// the result's workload: inference (latency, KV cache) or training (step breakdown, memory
// per stage, pipeline timeline); the headline, mapping, network and operator views serve both.
import { $ } from './dom.js';
import { loadEngine } from './engine.js';
import { createForm } from './form.js';
import { toScenario } from './scenario.js';
import { fromHash, toHash } from './state.js';
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

  const memoryChart = createChart($('#memory-chart'));
  const latencyChart = createChart($('#latency-chart'));
  const breakdownChart = createChart($('#breakdown-chart'));
  const stageMemoryChart = createChart($('#stage-memory-chart'));
  let state;
  let lastGood = null;
  // Controls inside the results (colour of the mapping, the collective and its chips)
  // change only view options.
  const onView = (key, value) => update({ ...state, view: { ...state.view, [key]: value } });
  const networkView = createNetworkView(engine, { onView });

  function renderResult(result, view) {
    const training = result.workload === 'training';
    // Shown before drawing, so that each chart is sized in a visible box.
    for (const el of document.querySelectorAll('#result-body [data-mode]')) {
      el.hidden = el.dataset.mode !== (training ? 'training' : 'inference');
    }
    renderHeading(result, presets);
    renderWarnings(result);
    if (training) {
      renderTrainingSummary(result);
      renderBreakdown(result, breakdownChart);
      renderStageMemory(result, stageMemoryChart);
      renderTimeline(result);
    } else {
      renderSummary(result);
      memoryChart.render((width) => memoryOption(result, width));
      latencyChart.render((width) => latencyOption(result, view, width));
    }
    renderMapping(result, view, onView);
    renderOpsTable(result, view);
  }

  function update(next, { restored = false } = {}) {
    state = next;
    if (restored) form.reset(state);
    else form.render(state);
    const hash = toHash(state, presets);
    if (location.hash !== hash) history.replaceState(null, '', hash);

    const localErrors = form.localErrors();
    let engineError = null;
    if (localErrors.size === 0) {
      const result = engine.evaluate(toScenario(state));
      if (result.ok) lastGood = result;
      else engineError = result.error ?? { path: '', message: 'the engine returned no result' };
    }
    const failed = localErrors.size > 0 || engineError !== null;
    form.showResolved(failed ? null : lastGood);

    const body = $('#result-body');
    body.hidden = lastGood === null;
    body.classList.toggle('stale', failed);
    if (lastGood) renderResult(lastGood, state.view);
    renderErrors({ localErrors, engineError, stale: failed && lastGood !== null, state });
    // The collective is computed for the inputs as they are (it needs only the system);
    // while an input is not a number it waits, without an error of older inputs.
    if (lastGood) networkView.render(state, lastGood, { blocked: localErrors.size > 0 });
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
  });

  function restoreFromHash() {
    const { state: restored, error } = fromHash(location.hash, presets);
    showNotice(error);
    update(restored, { restored: true });
  }

  // replaceState does not fire hashchange: this only sees links and edits of the address bar.
  window.addEventListener('hashchange', restoreFromHash);
  // Back to a page kept in the back-forward cache: the form is drawn again from the link,
  // so no value the browser kept in a control outlives the state it belongs to.
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) restoreFromHash();
  });
  restoreFromHash();
}

start();
