// The per-operator table of one phase: what each op computes and moves, how long it
// takes, and which roof (compute, memory, network) binds it. All figures are per chip.
// With pipeline stages the engine lists each stage's ops; the table sums them per name
// (counts add up, per-execution figures are count-weighted means) and says in which
// stages each one runs. Training has a forward and a backward phase; backward ops carry a
// variant (the recomputed forward, the input and weight gradients) and are summed per
// name and variant.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { CLASS_LABELS } from './palette.js';
import { recomputes } from './breakdown-chart.js';

const COLUMNS = [
  ['Operator', 'text', null],
  ['Class', 'text', null],
  ['Count', 'num', 'Executions per pass (e.g. once per layer; with pipeline stages, summed over the stages)'],
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

// "0", "0–3", "0, 2": the stages an op runs in.
function stageText(stages) {
  const sorted = [...stages].sort((a, b) => a - b);
  const contiguous = sorted.every((v, i) => i === 0 || v === sorted[i - 1] + 1);
  if (sorted.length > 2 && contiguous) return `${sorted[0]}–${sorted.at(-1)}`;
  return sorted.join(', ');
}

const VARIANT_TITLE = 'recompute: a forward op run again for the activations it did not keep; dgrad: the ' +
  'gradient of its input; wgrad: of its weights; backward: the backward of an op without weights';

// The ops of every stage summed per name (and variant), in order of first appearance.
export function groupByName(ops) {
  const groups = new Map();
  for (const op of ops) {
    const key = op.variant ? `${op.name}\u0000${op.variant}` : op.name;
    const g = groups.get(key);
    if (!g) {
      groups.set(key, { ...op, stages: new Set([op.stage ?? 0]), longest: op.total_time_s });
      continue;
    }
    const n = g.count + op.count;
    for (const key of ['flops', 'bytes_read', 'bytes_written', 'network_bytes', 'time_s']) {
      g[key] = n > 0 ? (g[key] * g.count + op[key] * op.count) / n : g[key];
    }
    g.count = n;
    g.total_time_s += op.total_time_s;
    g.stages.add(op.stage ?? 0);
    if (op.total_time_s > g.longest) [g.longest, g.bound] = [op.total_time_s, op.bound];
  }
  return [...groups.values()];
}

function row(op, phaseSeconds, staged, variants) {
  const td = (text, cls = 'num') => h('td', { class: cls, text });
  return h('tr', {},
    h('th', { scope: 'row', class: 'op-name', text: op.name }),
    variants ? h('td', { class: 'text' }, h('span', { class: `variant variant-${op.variant}`, text: op.variant ?? '' })) : null,
    staged ? td(stageText(op.stages), 'text') : null,
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

function trainingNote(phaseName, phase, result) {
  const pipe = result.pipeline;
  const what = phaseName === 'forward' ? 'forward'
    : recomputes(result.scenario.workload) ? 'backward (recomputation first, then the gradients)' : 'backward';
  const text = `The ${what} of ${fmt.int(pipe.micro_batches)} micro-batches of ${fmt.int(pipe.micro_batch)} × ` +
    `${fmt.int(result.scenario.workload.seq_len)} tokens: per execution is one micro-batch, totals are all of them; ` +
    `${fmt.flops(phase.flops)} and ${fmt.bytes(phase.bytes)} of memory traffic per chip.`;
  const stages = pipe.stages > 1 ? ` of the slowest stage (${result.summary.critical_stage})` : '';
  return `${text} The phase time${stages}, ${fmt.time(phase.time_s)}, counts only the communication that stays exposed.`;
}

function note(phaseName, phase, workload, pipeline) {
  const traffic = `${fmt.flops(phase.flops)} and ${fmt.bytes(phase.bytes)} of memory traffic per chip`;
  const text = phaseName === 'prefill'
    ? `One forward pass over ${fmt.int(workload.batch)} × ${fmt.int(workload.input_tokens)} prompt tokens: ${traffic}, ${fmt.time(phase.time_s)}.`
    : `${fmt.int(phase.steps)} steps, one new token per sequence each; per-execution figures are means over the steps as the context grows: ${traffic}, ${fmt.time(phase.time_s)} in all.`;
  if (!(pipeline?.stages > 1)) return text;
  return `${text} The ${fmt.int(pipeline.stages)} pipeline stages each run their own layers on their own chips, ` +
    `${fmt.int(pipeline.micro_batches)} micro-batches in turn; totals are summed over the stages, so they add up to ` +
    'more than the phase, whose time is that of the pipelined schedule.';
}

export function renderOpsTable(result, view) {
  const training = result.workload === 'training';
  const phaseName = training
    ? (view.table === 'backward' ? 'backward' : 'forward')
    : (view.table === 'decode' ? 'decode' : 'prefill');
  const phase = result.phases[phaseName];
  const table = $('#ops');
  const empty = phaseName === 'decode' && !(phase.steps > 0);
  const staged = result.pipeline?.stages > 1;
  const variants = phase.ops.some((op) => op.variant);
  $('#ops-note').textContent = empty
    ? 'No decode steps: with one output token, the whole answer comes from prefill.'
    : training ? trainingNote(phaseName, phase, result) : note(phaseName, phase, result.scenario.workload, result.pipeline);

  const ops = groupByName(phase.ops);
  // Shares of the summed op time; without stages that is the phase time.
  const summed = ops.reduce((sum, op) => sum + op.total_time_s, 0);
  const columns = [COLUMNS[0],
    variants && ['Variant', 'text', VARIANT_TITLE],
    staged && ['Stages', 'text', 'The pipeline stages that run this operator'],
    ...COLUMNS.slice(1)].filter(Boolean);
  const head = h('thead', {}, h('tr', {}, ...columns.map(([label, kind, title]) =>
    h('th', { scope: 'col', class: kind, title, text: label }))));
  const body = h('tbody', {}, ...(empty ? [] : ops.map((op) => row(op, summed, staged, variants))));
  const total = (label, seconds, share) => h('tr', {},
    h('th', { scope: 'row', text: label, colspan: columns.length - 3 - DETAIL_COLUMNS.length }),
    h('td', { colspan: DETAIL_COLUMNS.length, dataset: { col: 'detail' } }),
    h('td', { class: 'num', text: empty ? fmt.DASH : fmt.time(seconds) }),
    h('td', { class: 'num', text: empty ? fmt.DASH : share }),
    h('td', {}));
  const foot = h('tfoot', {}, training
    ? [total(staged ? 'All stages, summed' : 'Operators, summed', summed, '100%'),
      total(staged ? 'Phase: the slowest stage, exposed communication' : 'Phase: exposed communication', phase.time_s, '')]
    : staged
      ? [total('All stages, summed', summed, '100%'), total('Phase, pipelined', phase.time_s, '')]
      : total('Phase total', phase.time_s, '100%'));
  table.closest('.table-scroll').hidden = empty;
  table.replaceChildren(
    h('caption', { class: 'visually-hidden', text: `Operators of the ${phaseName} phase` }),
    head, body, foot);
  markColumns(table, columns.map(([label]) => label));
}

// Each cell names its column (data-col), so that a narrow box can leave out the detail
// columns and keep Total, Share and Bound in view (css/adaptive.css); a note says which.
const DETAIL_COLUMNS = ['Read', 'Written', 'Network', 'Intensity', 'Per exec'];
function markColumns(table, labels) {
  for (const tr of table.querySelectorAll('thead tr, tbody tr')) {
    [...tr.children].forEach((cell, i) => { cell.dataset.col = labels[i] ?? ''; });
  }
  const box = table.closest('.table-scroll');
  if (box && !box.nextElementSibling?.classList.contains('ops-narrow-note')) {
    box.after(h('p', { class: 'hint ops-narrow-note', text:
      `At this width the ${DETAIL_COLUMNS.join(', ')} columns are left out; a wider window or the Operators CSV has them.` }));
  }
}
