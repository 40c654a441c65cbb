// The pipeline timeline of one training step: one row per stage, the forward (F) and
// backward (B) block of every micro-batch as the schedule runs them, idle time (the bubble)
// as gaps. With many micro-batches the steady middle is left out at a "⋯" mark.
// Computed in the page from the per-stage operator times (pipeline-schedule.js); the
// engine's step time adds the exposed DP sync and the optimizer (see the breakdown).
// Drawn at its box's width (at most 760 px) in real pixels, so that its text keeps its size
// and the whole step, to its "≈ end" label, shows on a phone; drawn again when the box's
// width changes (a phone turned, a window resized).
import { h, $, svg } from '../dom.js';
import * as fmt from '../format.js';
import { PASS_COLORS, shade } from './palette.js';
import { recomputes, swatch } from './breakdown-chart.js';
import { scheduleName } from './training-summary.js';
import { timelineOf } from './pipeline-schedule.js';

const MAX_WIDTH = 760;
const MIN_WIDTH = 240; // a narrower box scales this down (training.css)
const LABEL_W = 58;
const CUT_W = 30;
const AXIS_H = 22;

const s = svg;
const title = (text) => s('title', {}, text);

// The drawn pieces of the time axis: kept intervals with the cuts between them.
function axisOf(tl, width) {
  const kept = [];
  let from = 0;
  for (const cut of tl.cuts) {
    kept.push([from, cut.from]);
    from = cut.to;
  }
  kept.push([from, Math.max(...tl.stages.map((blocks) => blocks.at(-1)?.end ?? 0))]);
  const length = kept.reduce((sum, [a, b]) => sum + (b - a), 0);
  const scale = (width - LABEL_W - tl.cuts.length * CUT_W) / (length || 1);
  let x = LABEL_W;
  const pieces = kept.map(([a, b]) => {
    const piece = { a, b, x };
    x += (b - a) * scale + CUT_W;
    return piece;
  });
  return { pieces, scale };
}

function blockText(tl, b, s0) {
  const what = b.pass === 'F' ? 'forward' : tl.recompute ? 'backward (recomputation included)' : 'backward';
  const chunk = tl.v > 1 ? `, chunk ${b.chunk + 1} of ${tl.v}` : '';
  const when = tl.cuts.length ? '' : ` from ${fmt.time(b.start)}`;
  return `Stage ${s0} · ${what} of micro-batch ${tl.relabel(b.mb)}${chunk} · ${fmt.time(b.end - b.start)}${when}`;
}

// The drawn pieces of a stage's blocks, clipped to the kept time.
function piecesOf(blocks, pieces, scale) {
  const out = [];
  for (const b of blocks) {
    for (const piece of pieces) {
      const lo = Math.max(b.start, piece.a);
      const hi = Math.min(b.end, piece.b);
      if (hi > lo) out.push({ b, x: piece.x + (lo - piece.a) * scale, width: (hi - lo) * scale });
    }
  }
  return out;
}

// Up to this many blocks each is its own element with its own tooltip; beyond, each row
// draws one path per pass and chunk (a deep interleaved step has tens of thousands).
const DETAILED = 2000;

function rowTitle(tl, stage) {
  const chunk = tl.v > 1 ? ` (each chunk 1/${tl.v} of it)` : '';
  return `Stage ${stage}: ${fmt.time(tl.times.forward[stage])} forward and ${fmt.time(tl.times.backward[stage])} backward per micro-batch${chunk}`;
}

function draw(tl, width) {
  const p = tl.p;
  const rowH = Math.max(4, Math.min(26, Math.floor(320 / p)));
  const gap = rowH >= 12 ? 4 : 1;
  const height = p * (rowH + gap) + AXIS_H;
  const { pieces, scale } = axisOf(tl, width);
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, width, height, class: 'timeline-svg' });
  const drawn = tl.stages.map((blocks) => piecesOf(blocks, pieces, scale));
  const detailed = drawn.reduce((n, row) => n + row.length, 0) <= DETAILED;
  const fills = new Map(); // "F0" -> colour of the forward of chunk 0
  const fill = (b) => {
    const key = `${b.pass}${b.chunk}`;
    if (!fills.has(key)) fills.set(key, shade(PASS_COLORS[b.pass], b.chunk, tl.v));
    return fills.get(key);
  };

  drawn.forEach((row, stage) => {
    const y = stage * (rowH + gap);
    const g = s('g', { class: 'tl-row', 'data-stage': stage }, detailed ? null : title(rowTitle(tl, stage)));
    if (rowH >= 8 || stage % Math.ceil(p / 16) === 0) {
      g.append(s('text', { class: 'tl-label', x: LABEL_W - 6, y: y + rowH / 2 + 4, 'text-anchor': 'end' }, `Stage ${stage}`));
    }
    for (const piece of pieces) {
      g.append(s('rect', { class: 'tl-track', x: piece.x, y, width: (piece.b - piece.a) * scale, height: rowH }));
    }
    if (!detailed) {
      const paths = new Map();
      for (const { b, x, width } of row) {
        const key = `${b.pass}${b.chunk}`;
        if (!paths.has(key)) paths.set(key, { b, d: [] });
        paths.get(key).d.push(`M${x.toFixed(2)} ${y}h${width.toFixed(2)}v${rowH}h${(-width).toFixed(2)}z`);
      }
      for (const { b, d } of paths.values()) g.append(s('path', { class: `tl-block tl-${b.pass.toLowerCase()}`, d: d.join(''), fill: fill(b) }));
    }
    for (const { b, x, width } of detailed ? row : []) {
      g.append(s('rect', { class: `tl-block tl-${b.pass.toLowerCase()}`, x, y, width, height: rowH, fill: fill(b) },
        title(blockText(tl, b, stage))));
      const label = `${b.pass}${tl.relabel(b.mb)}`;
      if (rowH >= 12 && width >= 7 * label.length + 4) {
        g.append(s('text', { class: 'tl-text', x: x + width / 2, y: y + rowH / 2 + 4, 'text-anchor': 'middle' }, label));
      }
    }
    svg.append(g);
  });

  const rows = p * (rowH + gap) - gap;
  tl.cuts.forEach((cut, i) => {
    const x = pieces[i].x + (pieces[i].b - pieces[i].a) * scale;
    svg.append(s('g', { class: 'tl-cut' },
      title('The steady middle of the step, the same pattern over and over, left out'),
      s('rect', { x: x + 2, y: 0, width: CUT_W - 4, height: rows }),
      s('text', { x: x + CUT_W / 2, y: rows / 2 + 5, 'text-anchor': 'middle' }, '⋯')));
  });
  const axisY = rows + 6;
  svg.append(s('g', { class: 'tl-axis' },
    s('line', { x1: LABEL_W, x2: width, y1: axisY, y2: axisY }),
    s('text', { x: LABEL_W, y: axisY + 14 }, '0'),
    s('text', { x: width, y: axisY + 14, 'text-anchor': 'end' }, `≈ ${fmt.time(tl.end)}`)));
  return svg;
}

function note(result, tl) {
  const pipe = result.pipeline;
  const slow = result.summary.critical_stage ?? 0;
  const chunks = tl.v > 1 ? ` with ${tl.v} chunks per stage` : '';
  const parts = [
    `One step of one replica: ${fmt.int(tl.m)} ${tl.m === 1 ? 'micro-batch' : 'micro-batches'} of ${fmt.int(pipe.micro_batch)} through ` +
      `${fmt.int(tl.p)} ${tl.p === 1 ? 'stage' : 'stages'}, ${scheduleName(pipe.schedule)}${chunks}.`,
    `Per micro-batch, stage ${slow} takes ${fmt.time(tl.times.forward[slow])} forward and ${fmt.time(tl.times.backward[slow])} backward (its operators' times).`,
  ];
  if (pipe.schedule === 'zb_h1') parts.push('Drawn as 1F1B: ZB-H1 splits each backward into its input and weight gradients and moves the weight gradients into the bubble; the step time counts that, the picture does not.');
  if (tl.cuts.length) parts.push('⋯ marks the steady middle, left out; the start and the end are drawn as they run.');
  parts.push('Gaps are the bubble. The exposed DP sync and the optimizer follow the last backward.');
  return parts.join(' ');
}

// Under the picture: the simulated schedule is not the engine's step, and says so.
function footnote(result, tl) {
  return `The schedule is simulated from each stage's operator times (≈ ${fmt.time(tl.end)}); the step time, ` +
    `${fmt.time(result.summary.step_time_s)}, is the engine's, with the exposed DP sync and the optimizer and only ` +
    'the communication not hidden, so the two can differ slightly.';
}

// The width to draw at: the box's, within [MIN_WIDTH, MAX_WIDTH] (MAX_WIDTH while the box
// is not laid out).
function widthOf(box) {
  const w = Math.floor(box.clientWidth);
  return w > 0 ? Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, w)) : MAX_WIDTH;
}

const drawn = { tl: null, width: 0 }; // what the box shows
let watching = false;

function drawInto(box, tl) {
  drawn.tl = tl;
  drawn.width = widthOf(box);
  const svg = draw(tl, drawn.width);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Pipeline schedule: ${tl.p} stage rows of forward and backward blocks, about ${fmt.time(tl.end)} in all.`);
  box.replaceChildren(svg);
}

// Drawn again when the box's width changes (not when it is hidden: clientWidth 0).
function watch(box) {
  if (watching || typeof ResizeObserver !== 'function') return;
  watching = true;
  new ResizeObserver(() => {
    if (drawn.tl && box.clientWidth > 0 && widthOf(box) !== drawn.width) drawInto(box, drawn.tl);
  }).observe(box);
}

export function renderTimeline(result) {
  const tl = timelineOf(result);
  if (tl) tl.recompute = recomputes(result.scenario.workload);
  const box = $('#timeline');
  watch(box);
  drawn.tl = null;
  $('#timeline-foot').textContent = tl ? footnote(result, tl) : '';
  if (!tl) {
    const pipe = result.pipeline;
    box.replaceChildren();
    $('#timeline-key').replaceChildren();
    $('#timeline-note').textContent = `${fmt.int(pipe.stages)} stages × ${fmt.int(pipe.virtual_stages)} chunks × ` +
      `${fmt.int(pipe.micro_batches)} micro-batches: too many blocks to draw.`;
    return;
  }
  drawInto(box, tl);
  $('#timeline-note').textContent = note(result, tl);
  const key = [['F', 'Forward'], ['B', 'Backward']].map(([pass, label]) =>
    h('li', {}, swatch(PASS_COLORS[pass]), `${pass} ${label}`));
  key.push(h('li', { class: 'tl-key-idle' }, swatch('#eef1f5'), 'Idle (bubble)'));
  if (tl.v > 1) key.push(h('li', { text: 'lighter: later chunks' }));
  $('#timeline-key').replaceChildren(...key);
}
