// A system's network as the page holds it: the list of levels, innermost first, in the
// engine's schema (core: io/hardware_json.cpp; presets/systems/*.json). Pure functions:
// the preset network of a machine, level edits, and their form in the link.
//
// In the link only what differs from the preset is written, one key per field:
//   &levels=3                       (the number of levels, when not the preset's)
//   &net1.link_gbps=100&net1.topology=ring&net1.oversubscription=none&net0.inr.efficiency=0.7
// "none" removes an optional field the preset has; "inr." is in_network_reduction.

export const TOPOLOGIES = ['switch', 'fully_connected', 'ring', 'torus', 'fat_tree', 'dragonfly'];
export const TOPOLOGY_LABELS = {
  switch: 'Switch', fully_connected: 'Fully connected', ring: 'Ring', torus: 'Torus',
  fat_tree: 'Fat tree', dragonfly: 'Dragonfly',
};

// Every field of a level under a flat key, in the order the JSON and the link write them.
export const LEVEL_KEYS = [
  'name', 'size', 'topology', 'dims', 'links_per_chip', 'link_gbps', 'latency_us', 'call_latency_us',
  'efficiency', 'll_bandwidth_gbps', 'oversubscription', 'inr.efficiency', 'inr.latency_us', 'inr.min_chips',
];
export const INR_KEYS = ['inr.efficiency', 'inr.latency_us', 'inr.min_chips'];

// Which topologies take which optional fields (the engine rejects the others).
export const takesDims = (topology) => topology === 'torus';
export const takesOversubscription = (topology) => topology === 'fat_tree' || topology === 'dragonfly';
export const takesReduction = (topology) => topology === 'switch' || topology === 'fat_tree';

// Starting values when someone switches in-network reduction on for a level whose preset
// has none: the NVLS figures of the DGX H100 preset, to be edited.
export const DEFAULT_REDUCTION = { efficiency: 0.61, latency_us: 27, min_chips: 5 };

export function flatten(level) {
  const flat = {};
  for (const key of LEVEL_KEYS) {
    const [outer, inner] = key.startsWith('inr.') ? ['in_network_reduction', key.slice(4)] : [key, null];
    const value = inner ? level?.[outer]?.[inner] : level?.[outer];
    if (value !== undefined && value !== null) flat[key] = Array.isArray(value) ? [...value] : value;
  }
  return flat;
}

export function unflatten(flat) {
  const level = {};
  for (const key of LEVEL_KEYS) {
    if (!(key in flat)) continue;
    if (key.startsWith('inr.')) (level.in_network_reduction ??= {})[key.slice(4)] = flat[key];
    else level[key] = Array.isArray(flat[key]) ? [...flat[key]] : flat[key];
  }
  return level;
}

// Only the engine's fields (presets also carry source and notes), in a stable order.
export const cleanLevel = (level) => unflatten(flatten(level));

export function sameNetwork(a, b) {
  return JSON.stringify((a ?? []).map(cleanLevel)) === JSON.stringify((b ?? []).map(cleanLevel));
}

// The network a machine has when nobody edited it: a system preset's own, or for
// chip × count the network of the chip's reference system (none if it names none).
export function presetNetwork(machine, presets) {
  let system = null;
  if (machine.kind === 'system') system = presets.systems[machine.preset];
  else system = presets.systems[presets.chips[machine.preset]?.reference_system];
  return (system?.network ?? []).map(cleanLevel);
}

export function networkOf(machine, presets) {
  return machine.network ?? presetNetwork(machine, presets);
}

// The level the "Add a level" button appends: the outermost one again, joining two of
// the units below it, without in-network reduction.
export function newLevel(network) {
  const last = network.at(-1);
  const base = last
    ? flatten(last)
    : { topology: 'switch', links_per_chip: 1, link_gbps: 50, latency_us: 2.7, call_latency_us: 6.6, efficiency: 0.9 };
  for (const key of INR_KEYS) delete base[key];
  base.name = `Level ${network.length}`;
  base.size = 2;
  if (base.topology === 'torus') base.dims = [2];
  return unflatten(base);
}

// A level after its topology changed: drops the fields the new topology does not take
// and adds the ones it needs.
export function withTopology(level, topology) {
  const flat = flatten(level);
  flat.topology = topology;
  if (takesDims(topology)) flat.dims ??= [flat.size ?? 1];
  else delete flat.dims;
  if (takesOversubscription(topology)) flat.oversubscription ??= 1;
  else delete flat.oversubscription;
  if (!takesReduction(topology)) for (const key of INR_KEYS) delete flat[key];
  return unflatten(flat);
}

// ---- the link -----------------------------------------------------------------------

export const NET_KEY = /^net(\d+)\.(.+)$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

const numberText = (v) => (Number.isFinite(v) ? String(v) : v > 0 ? '1e999' : '-1e999');

function valueText(key, value) {
  if (key === 'dims') return value.map(numberText).join('x');
  return typeof value === 'number' ? numberText(value) : String(value);
}

function readValue(key, text) {
  if (key === 'name') return text;
  if (key === 'topology') {
    if (!TOPOLOGIES.includes(text)) throw new Error(`${key} = "${text}" is not one of ${TOPOLOGIES.join(', ')}`);
    return text;
  }
  const parts = key === 'dims' ? text.split('x') : [text];
  const numbers = parts.map((part) => {
    if (!NUMBER.test(part)) throw new Error(`${key} = "${text}" is not a number`);
    return Number(part);
  });
  return key === 'dims' ? numbers : numbers[0];
}

// [key, text] pairs for the link; none when the network is the preset's.
export function networkParams(network, preset) {
  if (!network) return [];
  const out = [];
  if (network.length !== preset.length) out.push(['levels', String(network.length)]);
  network.forEach((level, i) => {
    const mine = flatten(level);
    const theirs = preset[i] ? flatten(preset[i]) : {};
    for (const key of LEVEL_KEYS) {
      if (key in mine) {
        if (JSON.stringify(mine[key]) !== JSON.stringify(theirs[key])) out.push([`net${i}.${key}`, valueText(key, mine[key])]);
      } else if (key in theirs) {
        out.push([`net${i}.${key}`, 'none']);
      }
    }
  });
  return out;
}

export const isNetworkKey = (key) => key === 'levels' || (NET_KEY.test(key) && LEVEL_KEYS.includes(key.match(NET_KEY)[2]));

// The network a link describes (null: the preset's). Throws on what cannot be read.
export function readNetwork(params, preset) {
  const keys = [...params.keys()].filter(isNetworkKey);
  if (keys.length === 0) return null;
  let length = preset.length;
  if (params.has('levels')) {
    const text = params.get('levels');
    if (!/^\d{1,2}$/.test(text)) throw new Error(`levels = "${text}" is not a number of levels`);
    length = Number(text);
  }
  const flats = Array.from({ length }, (_, i) => (preset[i] ? flatten(preset[i]) : {}));
  for (const key of keys) {
    if (key === 'levels') continue;
    const [, index, field] = key.match(NET_KEY);
    if (Number(index) >= length) throw new Error(`"${key}" names a level beyond the ${length} of the network`);
    const text = params.get(key);
    if (text === 'none') delete flats[index][field];
    else flats[index][field] = readValue(field, text);
  }
  const network = flats.map(unflatten);
  return sameNetwork(network, preset) ? null : network;
}
