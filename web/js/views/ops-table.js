// The per-operator table of one phase: what each op computes and moves, how long it
// takes, and which roof (compute, memory, network) binds it. All figures are per chip.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { CLASS_LABELS } from './palette.js';

const COLUMNS = [
  ['Operator', 'text', null],
  ['Class', 'text', null],
  ['Count', 'num', 'Executions per pass (e.g. once per layer)'],
  ['FLOPs', 'num', 'Floating-point operations of one execution (k, M, G, T = 10³, 10⁶, 10⁹, 10¹²)'],
  ['Read', 'num', 'Bytes read from HBM by one execution'],
  ['Written', 'num', 'Bytes written to HBM by one execution'],
  ['Network', 'num', 'Bytes each chip sends over the interconnect in one execution'],
  ['Intensity', 'num', 'Arithmetic intensity: FLOPs per byte of HBM traffic (read + written)'],
  ['Per exec', 'num', 'Time of one execution (decode: mean over the steps)'],
  ['Total', 'num', 'Time of all executions in the phase'],
  ['Share', 'num', 'Share of the phase time'],
  ['Bound', 'text', 'The roof that sets the time: compute, memory bandwidth or network'],
];

function shareCell(fraction) {
  const bar = h('span', { class: 'share-bar' });
  bar.style.width = `${Math.max(0, Math.min(fraction, 1)) * 100}%`;
  return h('td', { class: 'num' }, h('span', { class: 'share' },
    h('span', { class: 'share-track', 'aria-hidden': 'true' }, bar), h('span', { text: fmt.percent(fraction) })));
}

// Most ops have nothing in some columns (a collective moves no HBM bytes); a dash reads
// faster than a column of zeros with units.
const zeroAsDash = (x, format) => (x === 0 ? fmt.DASH : format(x));

function row(op, phaseSeconds) {
  const td = (text, cls = 'num') => h('td', { class: cls, text });
  return h('tr', {},
    h('th', { scope: 'row', class: 'op-name', text: op.name }),
    h('td', { class: 'text', title: CLASS_LABELS[op.class] ?? op.class, text: op.class }),
    td(fmt.int(op.count)),
    td(zeroAsDash(op.flops, fmt.si)),
    td(zeroAsDash(op.bytes_read, fmt.bytes)),
    td(zeroAsDash(op.bytes_written, fmt.bytes)),
    td(zeroAsDash(op.network_bytes, fmt.bytes)),
    td(fmt.intensity(op.flops, op.bytes_read + op.bytes_written)),
    td(fmt.time(op.time_s)),
    td(fmt.time(op.total_time_s)),
    shareCell(phaseSeconds > 0 ? op.total_time_s / phaseSeconds : NaN),
    h('td', { class: 'text' }, h('span', { class: `bound bound-${op.bound}`, text: op.bound })),
  );
}

function note(phaseName, phase, workload) {
  const traffic = `${fmt.flops(phase.flops)} and ${fmt.bytes(phase.bytes)} of memory traffic per chip`;
  if (phaseName === 'prefill') {
    return `One forward pass over ${fmt.int(workload.batch)} × ${fmt.int(workload.input_tokens)} prompt tokens: ${traffic}, ${fmt.time(phase.time_s)}.`;
  }
  return `${fmt.int(phase.steps)} steps, one new token per sequence each; per-execution figures are means over the steps as the context grows: ${traffic}, ${fmt.time(phase.time_s)} in all.`;
}

export function renderOpsTable(result, view) {
  const phaseName = view.table === 'decode' ? 'decode' : 'prefill';
  const phase = result.phases[phaseName];
  const table = $('#ops');
  const empty = phaseName === 'decode' && !(phase.steps > 0);
  $('#ops-note').textContent = empty
    ? 'No decode steps: with one output token, the whole answer comes from prefill.'
    : note(phaseName, phase, result.scenario.workload);

  const head = h('thead', {}, h('tr', {}, ...COLUMNS.map(([label, kind, title]) =>
    h('th', { scope: 'col', class: kind, title, text: label }))));
  const body = h('tbody', {}, ...(empty ? [] : phase.ops.map((op) => row(op, phase.time_s))));
  const foot = h('tfoot', {}, h('tr', {},
    h('th', { scope: 'row', text: 'Phase total', colspan: 9 }),
    h('td', { class: 'num', text: empty ? fmt.DASH : fmt.time(phase.time_s) }),
    h('td', { class: 'num', text: empty ? fmt.DASH : '100%' }),
    h('td', {})));
  table.closest('.table-scroll').hidden = empty;
  table.replaceChildren(
    h('caption', { class: 'visually-hidden', text: `Operators of the ${phaseName} phase` }),
    head, body, foot);
}
