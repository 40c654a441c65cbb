// The Trade-off card's controller: the knobs and their values (defaults around the scenario,
// kept as typed once edited), one engine.tradeoff() call per evaluated scenario in the sweep
// worker (sweep-client.js, its own channel: a burst of edits costs one call), and the chart
// and table of its answer (views/tradeoff-chart.js). Either workload.
//
// The knobs and the values typed are a view option of the link (state.view.tradeoff; keys
// `tradeoff`, `tradeoff.1`, `tradeoff.2`: tradeoff-plan.js): main.js hands the card the state's
// choice with each update, and the card gives the person's choice back through onView, as the
// sweep card does. While a form entry is half-typed (not a number yet) the choice waits for the
// next computed result.
import { h, $ } from './dom.js';
import { createChart } from './views/chart.js';
import { pointsCsvButton } from './share.js';
import { tradeoffOption, tradeoffRows, splitPoints } from './views/tradeoff-chart.js';
import {
  KNOBS, KNOB_NAMES, availableKnobs, baseSettings, currentPoint, defaultKnobs, defaultValues, knobNeeds, parseValues, tradeoffRequest, valuesText,
} from './tradeoff-plan.js';

const DELAY_MS = 250;

export function createTradeoffPanel(sweeper, { onView }) {
  const chart = createChart($('#tradeoff-chart'));
  const container = $('#tradeoff-chart');
  // Per axis: the knob (null: none, the second only) and its values' text; edited: typed by the person.
  const axes = [{ knob: null, text: '', edited: false }, { knob: null, text: '', edited: false }];
  let scenario = null;
  let result = null;
  let wanted = null;
  let timer = 0;
  let chosen = false; // the person picked a knob: defaults no longer replace the choice
  let linked = 'null'; // the choice last taken from the state or given to it (JSON)
  let touched = false; // the person changed the knobs or values since then

  const note = (text) => { $('#tradeoff-note').textContent = text; };
  function showError(text, axis = null) {
    $('#tradeoff-error').hidden = !text || axis !== null;
    $('#tradeoff-error').textContent = axis === null ? text ?? '' : '';
    for (const i of [0, 1]) {
      const box = $(`#to-values-${i}-error`);
      const mine = text && axis === i;
      box.hidden = !mine;
      box.textContent = mine ? text : '';
      $(`#to-values-${i}`).toggleAttribute('aria-invalid', Boolean(mine));
    }
  }

  function fillKnobs() {
    const can = availableKnobs(scenario, result);
    for (const i of [0, 1]) {
      const select = $(`#to-knob-${i}`);
      const options = KNOB_NAMES.map((k) => h('option', {
        value: k, disabled: !can.includes(k) || (i === 1 && k === axes[0].knob),
        text: can.includes(k) ? KNOBS[k].label : `${KNOBS[k].label} (${knobNeeds(k)})`,
      }));
      select.replaceChildren(...(i === 1 ? [h('option', { value: '', text: 'None' })] : []), ...options);
      select.value = axes[i].knob ?? '';
      $(`#to-values-${i}`).value = axes[i].text;
      $(`#to-values-${i}`).disabled = !axes[i].knob;
    }
  }

  // Knobs that no longer apply (the package was taken out) go; unedited values follow the scenario.
  function settle() {
    const can = availableKnobs(scenario, result);
    if (!chosen || !can.includes(axes[0].knob) || (axes[1].knob && !can.includes(axes[1].knob))) {
      const [a, b] = defaultKnobs(scenario, result);
      if (axes[0].knob !== a) Object.assign(axes[0], { knob: a, edited: false });
      if (axes[1].knob !== b) Object.assign(axes[1], { knob: b, edited: false });
    }
    const base = baseSettings(scenario, result);
    for (const axis of axes) {
      if (!axis.knob) axis.text = '';
      else if (!axis.edited) axis.text = valuesText(defaultValues(axis.knob, base));
    }
  }

  // The state's choice, when it is not the one last taken or given (a link opened, or edited).
  function adopt(choice) {
    const key = JSON.stringify(choice);
    if (key === linked) return;
    linked = key;
    touched = false;
    chosen = choice !== null;
    for (const i of [0, 1]) {
      const values = choice?.values[i] ?? null;
      Object.assign(axes[i], { knob: choice?.knobs[i] ?? null, text: values ? valuesText(values) : '', edited: values !== null });
    }
  }

  // The choice as the link keeps it: the knobs shown, and the values of those whose values
  // were typed (they read: publish runs after a request was built).
  function choiceNow() {
    const values = axes.map((a) => (a.knob && a.edited ? parseValues(a.knob, a.text).values ?? null : null));
    return { knobs: [axes[0].knob, axes[1].knob], values };
  }

  // The person's choice into the state, and so the link (see the top of this file).
  function publish() {
    if (!touched) return;
    if (document.querySelector('#inputs .field.incomplete')) return; // after the next result
    const choice = choiceNow();
    const key = JSON.stringify(choice);
    touched = false;
    if (key === linked) return;
    linked = key;
    onView('tradeoff', choice.knobs.some(Boolean) ? choice : null);
  }

  function onKnob(i, value) {
    touched = true;
    chosen = true;
    axes[i].knob = value || null;
    axes[i].edited = false;
    if (i === 0 && axes[1].knob === axes[0].knob) axes[1].knob = null;
    settle();
    fillKnobs();
    schedule(0);
  }
  for (const i of [0, 1]) {
    $(`#to-knob-${i}`).addEventListener('change', (e) => onKnob(i, e.target.value));
    $(`#to-values-${i}`).addEventListener('input', (e) => {
      axes[i].text = e.target.value;
      axes[i].edited = true;
      touched = true;
      schedule(DELAY_MS);
    });
  }

  // The designs drawn last, for Download CSV.
  let shown = null;
  pointsCsvButton($('#tradeoff-csv'), () => shown, () => '-tradeoff');

  function renderTable(answer) {
    shown = { scenario, points: answer.points };
    $('#tradeoff-csv').disabled = false;
    const { columns, rows } = tradeoffRows(answer);
    $('#tradeoff-table').replaceChildren(
      h('thead', {}, h('tr', {}, columns.map((c, i) => h('th', { scope: 'col', class: i < answer.knobs.length || i === columns.length - 1 ? 'text' : 'num', text: c })))),
      h('tbody', {}, rows.map((r) => h('tr', { class: `tradeoff-${r.kind}`, dataset: { kind: r.kind } },
        r.cells.map((c, i) => h('td', { class: i < answer.knobs.length || i === r.cells.length - 1 ? 'text' : 'num', text: c }))))));
  }

  function draw(answer) {
    if (!answer.ok) {
      const knob = /^knobs\[(\d)\]/.exec(answer.error?.path ?? '');
      showError(answer.error?.message ?? 'the engine returned no answer', null);
      if (knob) $('#tradeoff-error').textContent = `${KNOBS[axes[Number(knob[1])]?.knob]?.label ?? 'Knob'}: ${answer.error.message}`;
      return;
    }
    showError(null);
    container.hidden = false;
    const parts = splitPoints(answer);
    Object.assign(container.dataset, {
      points: answer.points.length, pareto: parts.front.length, over: parts.over.length, errors: parts.errors.length,
      knobs: answer.knobs.join(','),
    });
    const priced = answer.points.some((p) => p.ok && p.usd_per_chip_hour != null);
    note(priced
      ? `${answer.points.length} designs around this scenario: ${parts.front.length} on the Pareto front (joined), `
        + `${parts.over.length} that do not fit in memory (grey)${parts.errors.length ? `, ${parts.errors.length} the engine refused (in the table)` : ''}. `
        + 'The chip’s price follows its package cost; the diamond is this scenario.'
      : 'No price is known for this chip, so designs cannot be placed by cost: give a price under Cost.');
    chart.render(tradeoffOption(answer, currentPoint(result)));
    renderTable(answer);
  }

  function schedule(ms) {
    clearTimeout(timer);
    if (!scenario) return;
    timer = setTimeout(run, ms);
  }

  function run() {
    if (!availableKnobs(scenario, result).length) {
      // One bare chip without a package: nothing to vary, and no error to show for it.
      wanted = null;
      showError(null);
      container.dataset.state = 'none';
      container.hidden = true;
      $('#tradeoff-table').replaceChildren();
      shown = null;
      $('#tradeoff-csv').disabled = true;
      note('Nothing to vary here: one bare chip has no network, and the scenario describes no package. '
        + 'Choose more chips or a system for its scale-up knobs, or turn on the accelerator package under Cost for its HBM, die and chiplet knobs.');
      return;
    }
    const built = tradeoffRequest(scenario, axes);
    if (built.error) {
      showError(built.error, built.axis ?? null);
      return;
    }
    const key = JSON.stringify(built.request);
    if (key !== wanted) {
      wanted = key;
      container.dataset.state = 'pending';
      sweeper.run('tradeoff', 'tradeoff', built.request).then((answer) => {
        if (answer === null || wanted !== key) return;
        container.dataset.state = 'done';
        draw(answer);
      });
    }
    publish();
  }

  return {
    chart,
    // evaluated: the scenario just evaluated and its result, or nulls (an input error: the card
    // keeps what it shows); choice: the state's (state.view.tradeoff, null: the defaults).
    update(evaluated, evaluatedResult, choice = null) {
      if (!evaluated) return;
      scenario = evaluated;
      result = evaluatedResult;
      adopt(choice);
      settle();
      fillKnobs();
      schedule(DELAY_MS);
    },
  };
}
