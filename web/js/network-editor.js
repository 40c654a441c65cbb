// The Network editor under Hardware: the levels of the chosen system, innermost first,
// each field an input whose id follows the engine's error path
// (system.network[1].link_gbps → #net-1-link_gbps; see views/errors.js).
// Like the architecture editor it keeps the whole edited network in the state
// (machine.network; null while it equals the preset's).
import { h, $ } from './dom.js';
import { int } from './format.js';
import {
  DEFAULT_REDUCTION, TOPOLOGIES, TOPOLOGY_LABELS, flatten, networkOf, newLevel, presetNetwork, sameNetwork,
  takesDims, takesOversubscription, takesReduction, unflatten, withTopology,
} from './network.js';

const hasReduction = (level) => Boolean(level.in_network_reduction);

// One row per field; `when` says whether a level shows it.
const FIELDS = [
  { key: 'name', label: 'Name', kind: 'text', span: true },
  { key: 'size', label: 'Size', int: true, title: 'Level 0: chips joined. Outer levels: units of the level below joined.' },
  { key: 'topology', label: 'Topology', kind: 'select' },
  { key: 'dims', label: 'Torus dimensions', kind: 'text', span: true, when: (l) => takesDims(l.topology), placeholder: 'e.g. 16x16' },
  { key: 'links_per_chip', label: 'Links per chip', int: true },
  { key: 'link_gbps', label: 'Link GB/s', title: 'Per link, one direction' },
  { key: 'latency_us', label: 'Latency (µs)', title: 'Per algorithm step (hop)' },
  { key: 'call_latency_us', label: 'Call latency (µs)', title: 'Fixed cost of one collective call' },
  { key: 'efficiency', label: 'Efficiency', step: 0.01, title: 'Share of the link bandwidth a large collective reaches' },
  { key: 'll_bandwidth_gbps', label: 'LL cap GB/s', optional: true, title: 'Optional: bus bandwidth cap of the low-latency protocol' },
  { key: 'oversubscription', label: 'Oversubscription', when: (l) => takesOversubscription(l.topology) },
  { key: 'inr', label: 'In-network reduction (NVLS, SHARP)', kind: 'checkbox', span: true, when: (l) => takesReduction(l.topology) },
  { key: 'inr.efficiency', label: 'Reduction efficiency', step: 0.01, when: hasReduction },
  { key: 'inr.latency_us', label: 'Reduction latency (µs)', when: hasReduction },
  { key: 'inr.min_chips', label: 'Reduction from chips', int: true, when: hasReduction },
];

export const fieldId = (level, key) => `net-${level}-${key.replace('.', '-')}`;

function control(i, field) {
  const id = fieldId(i, field.key);
  const common = { id, dataset: { level: i, key: field.key }, 'aria-describedby': `${id}-error` };
  if (field.kind === 'select') {
    return h('select', common, TOPOLOGIES.map((t) => h('option', { value: t, text: TOPOLOGY_LABELS[t] })));
  }
  if (field.kind === 'checkbox') return h('input', { ...common, type: 'checkbox' });
  if (field.kind === 'text') return h('input', { ...common, type: 'text', placeholder: field.placeholder, spellcheck: 'false' });
  return h('input', {
    ...common, type: 'number', inputmode: field.int ? 'numeric' : 'decimal', min: 0,
    step: field.int ? 1 : field.step ?? 'any', placeholder: field.optional ? 'none' : null,
  });
}

function fieldBlock(i, field) {
  const id = fieldId(i, field.key);
  const label = h('label', { for: id, text: field.label, title: field.title });
  const error = h('p', { class: 'field-error', id: `${id}-error`, role: 'alert', hidden: true });
  const cls = ['field', field.kind === 'checkbox' ? 'checkbox' : '', field.span ? 'span-2' : ''].filter(Boolean).join(' ');
  // data-label: how the general error line names this field.
  const props = { class: cls, dataset: { field: id, label: `Level ${i}: ${field.label}` } };
  return field.kind === 'checkbox'
    ? h('div', props, control(i, field), label, error)
    : h('div', props, label, control(i, field), error);
}

function levelBlock(level, i, count) {
  const place = count === 1 ? '' : i === 0 ? ' · innermost' : i === count - 1 ? ' · outermost' : '';
  return h('fieldset', { class: 'net-level', dataset: { level: i } },
    h('legend', { text: `Level ${i}${place}` }),
    h('div', { class: 'grid-2' }, FIELDS.filter((f) => !f.when || f.when(level)).map((f) => fieldBlock(i, f))),
    h('button', { type: 'button', class: 'link-button net-remove', dataset: { level: i }, text: `Remove level ${i}` }));
}

const parseDims = (text) => {
  const parts = text.split(/[x×*,\s]+/).filter(Boolean);
  const dims = parts.map(Number);
  return parts.length && dims.every(Number.isFinite) ? dims : undefined;
};

export function createNetworkEditor(presets, { update, readNumber, invalid }) {
  const box = $('#net-levels');
  let shape = null;

  // Every edit rewrites the whole network and drops it again when it equals the preset.
  function edit(change) {
    update((next) => {
      const network = structuredClone(networkOf(next.machine, presets));
      change(network, presetNetwork(next.machine, presets));
      next.machine.network = sameNetwork(network, presetNetwork(next.machine, presets)) ? null : network;
    });
  }

  function read(el, key) {
    if (key === 'name') return el.value;
    if (key === 'dims') {
      const dims = parseDims(el.value);
      if (dims) invalid.delete(el.id);
      else invalid.set(el.id, 'Enter the sizes of the torus dimensions, e.g. 16x16.');
      return dims;
    }
    return readNumber(el, { optional: key === 'll_bandwidth_gbps' });
  }

  function onInput(e) {
    const el = e.target;
    const { key } = el.dataset;
    const i = Number(el.dataset.level);
    // Selects and checkboxes fire both events; typed inputs count on each keystroke.
    const onChange = el.type === 'checkbox' || el.tagName === 'SELECT';
    if (!key || onChange !== (e.type === 'change')) return;
    edit((network, preset) => {
      if (key === 'topology') network[i] = withTopology(network[i], el.value);
      else if (key === 'inr') {
        if (el.checked) network[i].in_network_reduction = { ...(preset[i]?.in_network_reduction ?? DEFAULT_REDUCTION) };
        else delete network[i].in_network_reduction;
      } else {
        const value = read(el, key);
        const flat = flatten(network[i]);
        if (value === undefined) {
          // Not a number (an emptied field): the level goes back to the preset's value, so
          // that neither the link nor the views keep the entry it replaced; the field keeps
          // its "Enter a number" until it is rewritten.
          const theirs = preset[i] ? flatten(preset[i]) : null;
          if (!theirs) return;
          if (key in theirs) flat[key] = theirs[key];
          else delete flat[key];
        } else if (value === null) delete flat[key];
        else flat[key] = value;
        network[i] = unflatten(flat);
      }
    });
  }
  box.addEventListener('input', onInput);
  box.addEventListener('change', onInput);
  box.addEventListener('click', (e) => {
    if (!e.target.classList.contains('net-remove')) return;
    const i = Number(e.target.dataset.level);
    edit((network) => network.splice(i, 1));
  });
  $('#net-add').addEventListener('click', () => edit((network) => network.push(newLevel(network))));
  $('#net-reset').addEventListener('click', () => {
    for (const id of [...invalid.keys()]) if (id.startsWith('net-')) invalid.delete(id);
    update((next) => { next.machine.network = null; });
  });

  // Rebuilds the inputs only when the set of fields changes (so typing keeps its focus),
  // then writes the values, except into the input someone is typing in.
  function render(state, { force = false } = {}) {
    const network = networkOf(state.machine, presets);
    const preset = presetNetwork(state.machine, presets);
    const nextShape = JSON.stringify([state.machine.kind, state.machine.preset,
      network.map((l) => [l.topology, hasReduction(l)])]);
    if (nextShape !== shape) {
      const focused = document.activeElement?.id;
      box.replaceChildren(...network.map((level, i) => levelBlock(level, i, network.length)));
      shape = nextShape;
      if (focused?.startsWith('net-')) document.getElementById(focused)?.focus();
      for (const id of invalid.keys()) if (id.startsWith('net-') && !document.getElementById(id)) invalid.delete(id);
    }
    network.forEach((level, i) => {
      const mine = flatten(level);
      const theirs = preset[i] ? flatten(preset[i]) : {};
      for (const field of FIELDS) {
        const el = document.getElementById(fieldId(i, field.key));
        if (!el) continue;
        const edited = field.key === 'inr'
          ? hasReduction(level) !== Boolean(preset[i]?.in_network_reduction)
          : JSON.stringify(mine[field.key]) !== JSON.stringify(theirs[field.key]);
        el.closest('.field').classList.toggle('edited', edited);
        if (el.type === 'checkbox') {
          el.checked = hasReduction(level);
          continue;
        }
        if (!force && document.activeElement === el && el.tagName !== 'SELECT') continue;
        const value = mine[field.key];
        el.value = value === undefined ? '' : field.key === 'dims' ? value.join('x') : String(value);
        invalid.delete(el.id);
      }
    });
    // An emptied field has put the preset's value back in the state, but is still an edit
    // on screen: the reset stays at hand.
    const edited = state.machine.network !== null || [...invalid.keys()].some((id) => id.startsWith('net-'));
    $('#net-badge').hidden = !edited;
    $('#net-badge').textContent = 'edited';
    $('#net-reset').hidden = !edited;
    // Sizes that are not whole numbers above zero make no count of chips to show.
    const sized = network.every((l, i) => Number.isInteger(l.size) && l.size > 0 && !invalid.has(fieldId(i, 'size')));
    const joined = network.reduce((n, l) => n * l.size, 1);
    $('#net-summary').textContent = network.length
      ? `${network.map((l) => `${l.name}${sized ? ` ×${int(l.size)}` : ''}`).join(' → ')}${sized ? `: joins ${int(joined)} chips` : ''}.`
      : 'No network: a single chip, or add a level.';
  }

  return { render };
}
