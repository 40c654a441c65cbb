// Where each chip of a result sits: its coordinate in every parallel dimension and the
// network unit (node, NVLink domain, torus row) it belongs to. Pure data for the mapping
// picture (mapping.js).
//
// Chip r's coordinate in a dimension is ⌊r / stride⌋ mod size (result.network gives each
// dimension's stride: core parallel/placement.cpp orders them tp, cp, ep, dp, pp from the
// innermost), and chips fill the network's units in order: chip r is in unit ⌊r / unit⌋.

export const DIM_NAMES = { tp: 'TP', pp: 'PP', dp: 'DP', cp: 'CP', ep: 'EP', sp: 'SP' };
// Dimensions whose members differ in what they hold (a stage, a replica) are coloured by
// coordinate; the others (TP, …) by group: the chips that share their collectives.
const BY_INDEX = { pp: ['PP stages', 'stage'], dp: ['DP replicas', 'replica'] };

// Above this many chips the picture draws boxes of chips with counts, not chips.
export const DETAIL_LIMIT = 512;
const MAX_BOXES = 128;

export const dimName = (dim) => DIM_NAMES[dim.dimension] ?? dim.dimension.toUpperCase();
export const coordinate = (rank, dim) => Math.floor(rank / dim.stride) % dim.size;
// The group of `dim` that chip `rank` is in, numbered 0, 1, … in chip order.
export const groupOf = (rank, dim) => Math.floor(rank / (dim.stride * dim.size)) * dim.stride + (rank % dim.stride);

// How the chips are coloured when the picture shows dimension `dim`.
export function colouring(dim, chips) {
  const byIndex = BY_INDEX[dim.dimension];
  if (byIndex) {
    return { dim, label: byIndex[0], count: dim.size, indexOf: (r) => coordinate(r, dim), name: (i) => `${byIndex[1]} ${i}` };
  }
  const name = dimName(dim);
  return {
    dim, label: `${name} groups`, count: Math.max(1, Math.round(chips / dim.size)),
    indexOf: (r) => groupOf(r, dim), name: (i) => `${name} group ${i}`,
  };
}

// The dimension that colours the picture: the one asked for if the result has it, else
// PP stages, else DP replicas, else the first one.
export function chooseDim(dims, wanted) {
  const find = (name) => dims.find((d) => d.dimension === name);
  return find(wanted) ?? find('pp') ?? find('dp') ?? dims[0] ?? null;
}

// One line per dimension of a chip: "TP rank 3 in group 1", "stage 0", "replica 2".
export function chipText(rank, dims) {
  const parts = dims.map((d) => (BY_INDEX[d.dimension]
    ? `${BY_INDEX[d.dimension][1]} ${coordinate(rank, d)}`
    : `${dimName(d)} rank ${coordinate(rank, d)} in group ${groupOf(rank, d)}`));
  return [`chip ${rank}`, ...parts].join(' · ');
}

// The unit the picture groups chips by: the innermost network level (a node), or for a
// single torus level one row along its first dimension; large systems take several per box.
export function unitsOf(result) {
  const chips = result.summary.chips;
  const levels = result.scenario.system.network ?? [];
  const first = levels[0];
  let size = chips;
  let name = 'chips';
  if (first && levels.length === 1 && Array.isArray(first.dims) && first.dims.length > 1) {
    size = first.dims[0];
    name = `rows of the ${first.name} (dimension 0)`;
  } else if (first && levels.length > 1) {
    size = first.size;
    name = `${first.name} units`;
  } else if (first) {
    name = first.name;
  }
  size = Math.max(1, Math.min(size, chips));
  const detailed = chips <= DETAIL_LIMIT;
  let box = size;
  if (!detailed) while (Math.ceil(chips / box) > MAX_BOXES) box *= 2;
  return { chips, unit: size, box, perBox: box / size, boxes: Math.ceil(chips / box), name, detailed };
}

// Each box: its chips' colour indices (detailed) or the count of each index (aggregated),
// plus a line that says what is inside.
export function boxes(units, colour, dims) {
  const out = [];
  for (let k = 0; k < units.boxes; k++) {
    const first = k * units.box;
    const last = Math.min(first + units.box, units.chips) - 1;
    const counts = new Map();
    const indices = [];
    for (let r = first; r <= last; r++) {
      const i = colour ? colour.indexOf(r) : 0;
      counts.set(i, (counts.get(i) ?? 0) + 1);
      if (units.detailed) indices.push(i);
    }
    const spans = dims.map((d) => {
      const c = colouring(d, units.chips);
      const seen = new Set();
      for (let r = first; r <= last; r++) seen.add(c.indexOf(r));
      const list = [...seen].sort((a, b) => a - b);
      return list.length === 1 ? c.name(list[0]) : `${c.label} ${list[0]}–${list.at(-1)}`;
    });
    out.push({ first, last, indices, counts, text: [`chips ${first}–${last}`, ...spans].join(' · ') });
  }
  return out;
}

const PALETTE = ['#2f6fd6', '#e07b24', '#1e9e8a', '#8a4fd1', '#d43c3c', '#b58b00', '#3aa0d8', '#c2557a', '#5c7c2f', '#7a6a58'];

// Distinct colours for up to ten groups; beyond, a ramp from blue to orange in order.
export function colourOf(index, count) {
  if (count <= PALETTE.length) return PALETTE[index % PALETTE.length];
  const t = count > 1 ? index / (count - 1) : 0;
  return `hsl(${Math.round(220 - 195 * t)}, 62%, ${Math.round(48 + 6 * Math.sin(t * Math.PI))}%)`;
}
