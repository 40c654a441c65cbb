// The mapping picture: the chips in use, grouped into the network's units (nodes, NVLink
// domains, torus rows), coloured by one parallel dimension (TP groups, PP stages or DP
// replicas), and one line per dimension saying which network levels it crosses, with the
// bytes it moves and the time it takes. Large systems are drawn as boxes of chips, each
// split by the share of every colour in it.
import { h, $, svg } from '../dom.js';
import * as fmt from '../format.js';
import { boxes, chipText, chooseDim, colourOf, colouring, dimName, unitsOf } from './mapping-layout.js';

const WIDTH = 720; // the widest picture, in px (it scales down with its card)
const MAX_HEIGHT = 380;
const GAP = 10; // between boxes
const PAD = 5; // inside a box
const LABEL = 14; // box label line

const s = svg;
const title = (text) => s('title', {}, text);

// The largest chip size whose boxes fit the picture's height.
function detailedGeometry(units) {
  const cols = units.box <= 8 ? units.box : units.box <= 64 ? 8 : 16;
  const rows = Math.ceil(units.box / cols);
  let g;
  for (const cell of [26, 20, 16, 12, 9, 7, 5]) {
    const boxW = cols * (cell + 2) - 2 + 2 * PAD;
    const boxH = LABEL + rows * (cell + 2) - 2 + 2 * PAD;
    const perRow = Math.max(1, Math.min(units.boxes, Math.floor((WIDTH + GAP) / (boxW + GAP))));
    const height = Math.ceil(units.boxes / perRow) * (boxH + GAP) - GAP;
    g = { cols, cell, boxW, boxH, perRow, height, width: perRow * (boxW + GAP) - GAP };
    if (height <= MAX_HEIGHT) break;
  }
  return g;
}

function drawDetailed(units, list, colour, dims) {
  const g = detailedGeometry(units);
  const svg = s('svg', { viewBox: `0 0 ${g.width} ${g.height}`, width: g.width, height: g.height });
  list.forEach((box, k) => {
    const x = (k % g.perRow) * (g.boxW + GAP);
    const y = Math.floor(k / g.perRow) * (g.boxH + GAP);
    const group = s('g', { transform: `translate(${x} ${y})` }, title(box.text));
    group.append(s('rect', { class: 'map-box', x: 0.5, y: 0.5, width: g.boxW - 1, height: g.boxH - 1, rx: 5 }));
    if (g.cell >= 9 || k % Math.max(1, Math.ceil(units.boxes / 16)) === 0) {
      group.append(s('text', { class: 'map-label', x: PAD, y: LABEL - 3 }, `#${k}`));
    }
    box.indices.forEach((index, j) => {
      const rank = box.first + j;
      group.append(s('rect', {
        x: PAD + (j % g.cols) * (g.cell + 2), y: LABEL + PAD + Math.floor(j / g.cols) * (g.cell + 2),
        width: g.cell, height: g.cell, rx: Math.min(3, g.cell / 4), fill: colour ? colourOf(index, colour.count) : '#8d99a8',
      }, title(chipText(rank, dims))));
    });
    svg.append(group);
  });
  return svg;
}

// Boxes of many chips: a bar split by how many of each colour the box holds.
function drawAggregated(units, list, colour) {
  const boxW = 44;
  const boxH = 26;
  const perRow = Math.max(1, Math.min(units.boxes, Math.floor((WIDTH + 6) / (boxW + 6))));
  const width = perRow * (boxW + 6) - 6;
  const height = Math.ceil(units.boxes / perRow) * (boxH + 6) - 6;
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, width, height });
  list.forEach((box, k) => {
    const x = (k % perRow) * (boxW + 6);
    const y = Math.floor(k / perRow) * (boxH + 6);
    const group = s('g', { transform: `translate(${x} ${y})` }, title(`box ${k}: ${box.text}`));
    const total = box.last - box.first + 1;
    let offset = 0;
    for (const [index, n] of [...box.counts].sort((a, b) => a[0] - b[0])) {
      const w = ((boxW - 4) * n) / total;
      group.append(s('rect', { x: 2 + offset, y: 2, width: w, height: boxH - 4, fill: colour ? colourOf(index, colour.count) : '#8d99a8' }));
      offset += w;
    }
    group.append(s('rect', { class: 'map-box map-box-over', x: 0.5, y: 0.5, width: boxW - 1, height: boxH - 1, rx: 4 }));
    svg.append(group);
  });
  return svg;
}

// "NVLink ×2 + InfiniBand ×4"; the dimensions of one torus level go together:
// "ICI torus ×4 × 16 (torus dimensions 0, 1)".
function levelsText(dim) {
  const byLevel = [];
  for (const l of dim.levels) {
    if (byLevel.at(-1)?.level === l.level) byLevel.at(-1).parts.push(l);
    else byLevel.push({ level: l.level, name: l.name, parts: [l] });
  }
  return byLevel.map(({ name, parts }) => {
    const sizes = parts.map((p) => fmt.int(p.size)).join(' × ');
    const tori = parts.filter((p) => p.dim != null).map((p) => p.dim);
    const torus = tori.length ? ` (torus dimension${tori.length > 1 ? 's' : ''} ${tori.join(', ')})` : '';
    return `${name} ×${sizes}${torus}`;
  }).join(' + ');
}

function dimLine(dim, colour) {
  const traffic = dim.bytes > 0
    ? `${fmt.bytes(dim.bytes)} sent per chip, ${fmt.time(dim.time_s)} over the run`
    : 'no traffic in this workload';
  const swatch = colour?.dim === dim ? h('span', { class: 'map-current', text: 'colours the picture' }) : null;
  return h('li', { dataset: { dimension: dim.dimension } },
    h('strong', { text: `${dimName(dim)} ${fmt.int(dim.size)}` }), ' → ', levelsText(dim),
    h('span', { class: 'map-traffic', text: ` · ${traffic}` }),
    dim.stride > 1 ? h('span', { class: 'map-stride', text: ` · stride ${fmt.int(dim.stride)}` }) : null, swatch);
}

// A colour square; SVG, because an inline style attribute would break the page's CSP.
function swatch(index, count) {
  return h('span', { class: 'map-swatch', 'aria-hidden': 'true' },
    s('svg', { viewBox: '0 0 10 10', width: 10, height: 10 }, s('rect', { width: 10, height: 10, rx: 2, fill: colourOf(index, count) })));
}

function keyItems(colour) {
  if (!colour) return [];
  if (colour.count <= 12) {
    return Array.from({ length: colour.count }, (_, i) => h('li', {}, swatch(i, colour.count), colour.name(i)));
  }
  const last = colour.count - 1;
  return [h('li', {}, swatch(0, colour.count), `${colour.name(0)} … `, swatch(last, colour.count), colour.name(last))];
}

// Rebuilt only when the dimensions change, so that a radio chosen with the arrow keys
// keeps its focus.
function renderControl(dims, chosen, onView) {
  const box = $('#mapping-colour');
  box.hidden = dims.length < 2;
  const names = dims.map((d) => d.dimension).join(' ');
  if (box.dataset.dims === names) {
    for (const radio of box.querySelectorAll('input')) radio.checked = radio.value === chosen?.dimension;
    return;
  }
  box.dataset.dims = names;
  const legend = h('legend', { text: 'Colour by' });
  const radios = dims.flatMap((d) => {
    const id = `map-${d.dimension}`;
    return [
      h('input', { type: 'radio', name: 'map', id, value: d.dimension, checked: d === chosen, onchange: () => onView('map', d.dimension) }),
      h('label', { for: id, text: colouring(d, 1).label }),
    ];
  });
  box.replaceChildren(legend, ...radios);
}

export function renderMapping(result, view, onView) {
  const dims = result.network ?? [];
  const chosen = chooseDim(dims, view.map);
  const units = unitsOf(result);
  const colour = chosen ? colouring(chosen, units.chips) : null;
  const list = boxes(units, colour, dims);
  renderControl(dims, chosen, onView);

  const svg = units.detailed ? drawDetailed(units, list, colour, dims) : drawAggregated(units, list, colour);
  const what = units.detailed
    ? `${fmt.int(units.chips)} chips in ${fmt.int(units.boxes)} ${units.boxes === 1 ? 'box' : 'boxes'} of ${fmt.int(units.box)} (${units.name})`
    : `${fmt.int(units.chips)} chips in ${fmt.int(units.boxes)} boxes of ${fmt.int(units.box)} (${fmt.int(units.perBox)} ${units.name} each)`;
  // The note under the heading is the picture's description for screen readers too; the
  // colours and the levels each dimension crosses are listed under the picture.
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Parallel layout: ${what}${colour ? `, coloured by ${colour.label}` : ''}.`);
  svg.setAttribute('aria-describedby', 'mapping-note');
  $('#mapping').replaceChildren(svg);
  $('#mapping-note').textContent = `${what}${colour ? `; colours: ${colour.label}` : ''}. ` +
    (units.detailed
      ? 'Hover a chip or a box for its coordinates, or see the legend below.'
      : 'Each box shows the share of each colour among its chips; hover for its range, or see the legend below.');

  $('#mapping-key').replaceChildren(...keyItems(colour));
  $('#mapping-dims').replaceChildren(...(dims.length
    ? dims.map((d) => dimLine(d, colour))
    : [h('li', { text: 'One chip: nothing crosses the network.' })]));
}
