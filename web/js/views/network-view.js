// The network view: one collective swept over message sizes on the chosen system (with
// its edited network), nccl-tests style, against the measured runs of the same chip and
// collective from the validation cases. The collective and its chip count are view
// options (in the link); the chip count defaults to the scenario's TP group.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { COLLECTIVE_OPS } from '../state.js';
import { systemRef } from '../scenario.js';
import { createChart } from './chart.js';
import { algorithmRuns, binaryBytes, collectiveChart } from './collective-chart.js';

// nccl-tests' usual range: 8 B to 8 GiB, doubling (31 sizes, microseconds each).
export const SWEEP = { from: 8, to: 8 * 2 ** 30, factor: 2 };
const OP_LABELS = {
  all_reduce: 'All-reduce', all_gather: 'All-gather', reduce_scatter: 'Reduce-scatter',
  all_to_all: 'All-to-all', broadcast: 'Broadcast', send_recv: 'Send/receive',
};

function chipKey(machine, presets) {
  return machine.kind === 'chip' ? machine.preset : presets.systems[machine.preset]?.chip;
}

// Measured bus bandwidths of this chip and collective (validation cases).
export function measuredCases(report, chip, op) {
  if (!report?.ok) return [];
  return report.cases.filter((c) => c.kind === 'collective' && c.primary === 'busbw_gbps' &&
    c.scenario?.system?.chip === chip && c.scenario?.op === op && c.scenario.bytes > 0);
}

function runsText(points) {
  return algorithmRuns(points).map((r, i, all) => {
    const from = binaryBytes(points[r.first].bytes);
    const to = binaryBytes(points[r.last].bytes);
    if (all.length === 1) return `${r.algorithm} at every size`;
    if (i === 0) return `${r.algorithm} up to ${to}`;
    if (i === all.length - 1) return `${r.algorithm} from ${from}`;
    return `${r.algorithm} ${from}–${to}`;
  }).join(', ');
}

function renderTable(points) {
  const cols = ['Size', 'Time', 'Algorithm bandwidth', 'Bus bandwidth', 'Algorithm'];
  $('#collective-table').replaceChildren(
    h('thead', {}, h('tr', {}, cols.map((c, i) => h('th', { scope: 'col', class: i === 4 ? 'text' : 'num', text: c })))),
    h('tbody', {}, points.map((p) => h('tr', {},
      h('th', { scope: 'row', class: 'num', text: binaryBytes(p.bytes) }),
      h('td', { class: 'num', text: fmt.time(p.time_s) }),
      h('td', { class: 'num', text: `${fmt.num(p.algbw_gbps)} GB/s` }),
      h('td', { class: 'num', text: `${fmt.num(p.busbw_gbps)} GB/s` }),
      h('td', { class: 'text', text: p.algorithm })))));
}

function showError(id, message) {
  const box = $(`#${id}`);
  box.hidden = !message;
  box.textContent = message ?? '';
  if (id === 'coll-chips-error') {
    if (message) $('#coll-chips').setAttribute('aria-invalid', 'true');
    else $('#coll-chips').removeAttribute('aria-invalid');
    $('#coll-chips').closest('.field').classList.toggle('has-error', Boolean(message));
  }
}

export function createNetworkView(engine, { onView }) {
  const { presets } = engine;
  const chart = createChart($('#collective-chart'));
  const op = $('#coll-op');
  const chips = $('#coll-chips');
  op.append(...COLLECTIVE_OPS.map((k) => h('option', { value: k, text: OP_LABELS[k] })));
  op.addEventListener('change', () => onView('coll', op.value));
  let typo = false; // the chip count shows "Enter a number" for what was typed
  chips.addEventListener('input', () => {
    const text = chips.value.trim();
    typo = false;
    if (text === '' && chips.validity.valid) onView('coll_chips', null);
    else if (Number.isFinite(chips.valueAsNumber)) onView('coll_chips', chips.valueAsNumber);
    else {
      typo = true;
      showError('coll-chips-error', 'Enter a number.');
    }
  });
  let last = null; // the request drawn last: redraw only when it changes

  // state: the page state (its machine, with edits); result: the last good evaluation;
  // blocked: an input of the scenario is not a number, so its system is not known.
  let latest = null;  // the last render's arguments, drawn again once the measured cases arrive
  function render(state, result, { blocked = false } = {}) {
    latest = [state, result, { blocked }];
    const tp = result?.scenario.parallelism?.tp ?? 1;
    const fallback = tp > 1 ? tp : 8;
    const count = state.view.coll_chips ?? fallback;
    op.value = state.view.coll;
    // The count as typed, unless it is being typed and says what the state says (a preset
    // chosen meanwhile resets it even in a focused field).
    const typed = chips.value.trim() === '' ? null : chips.valueAsNumber;
    if (document.activeElement !== chips || (!typo && typed !== state.view.coll_chips)) {
      chips.value = state.view.coll_chips ?? '';
      // Rewritten from the state: what was typed is gone, and so is its error.
      if (typo) {
        typo = false;
        last = null;
      }
    }
    chips.placeholder = `${fallback}${tp > 1 ? ' (TP)' : ''}`;
    if (blocked) {
      // No error of older inputs stays on screen; the chart waits, dimmed.
      last = null;
      if (!typo) showError('coll-chips-error', null);
      showError('collective-error', null);
      $('#collective-chart').classList.add('stale');
      return;
    }
    // One chip talks to no other: a plain sentence instead of the engine's refusal.
    const system = result?.scenario?.system;
    if (system && system.count < 2) {
      last = null;
      showError('coll-chips-error', null);
      showError('collective-error', null);
      $('#collective-chart').hidden = true;
      $('#collective-table').replaceChildren();
      $('#collective-note').textContent = `A collective runs between chips, and this system has ${fmt.int(system.count)}: `
        + 'choose 2 chips or more (or a system such as a DGX) to see how long an all-reduce of each size takes.';
      return;
    }
    $('#collective-chart').hidden = false;
    const chip = chipKey(state.machine, presets);
    // The measured runs come once the cases are fetched (engine.js): then the view draws again.
    const report = engine.validation();
    if (!report) {
      engine.loadValidation().then(() => {
        last = null;
        render(...latest);
      });
    }
    const cases = measuredCases(report, chip, state.view.coll);
    // The sweep reaches the largest measured size (nccl-tests runs often go to 16 GiB).
    const to = Math.max(SWEEP.to, ...cases.map((c) => 2 ** Math.ceil(Math.log2(c.scenario.bytes))));
    const request = {
      system: systemRef(state.machine), op: state.view.coll, chips: count, stride: 1,
      sweep: { ...SWEEP, to }, algorithm: 'auto',
    };
    const key = JSON.stringify(request);
    if (key === last) return;
    last = key;

    const sweep = engine.collective(request);
    showError('coll-chips-error', null);
    showError('collective-error', null);
    $('#collective-chart').classList.toggle('stale', !sweep.ok);
    if (!sweep.ok) {
      const where = sweep.error?.path === 'chips' ? 'coll-chips-error' : 'collective-error';
      showError(where, `${sweep.error?.message ?? 'the engine returned no result'}${where === 'collective-error' && sweep.error?.path ? ` (${sweep.error.path})` : ''}`);
      return;
    }
    chart.render((width) => collectiveChart(sweep, cases, width));
    renderTable(sweep.points);
    const levels = sweep.levels.map((l) => `${l.name} ×${fmt.int(l.size)}`).join(' + ');
    const chipName = presets.chips[chip]?.name ?? chip;
    $('#collective-note').textContent = `${OP_LABELS[sweep.op]} on ${fmt.int(sweep.chips)} chips of ${sweep.system} ` +
      `(${levels}), ${binaryBytes(SWEEP.from)} to ${binaryBytes(to)}: ${runsText(sweep.points)}. ` +
      (cases.length
        ? `Diamonds: ${fmt.int(cases.length)} measured ${cases.length === 1 ? 'run' : 'runs'} of ${chipName} (hover for the source).`
        : `No measured run of this collective on ${chipName} is bundled.`);
  }

  return { render };
}
