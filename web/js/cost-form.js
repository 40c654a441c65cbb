// The Cost inputs of the form: the pricing (the presets' choice, rent per chip-hour with a
// picker of public cloud offerings, or own: the chip's price, its years, the electricity),
// the PUE, and the accelerator package editor (its kind, its dies with their area, count and
// process node: a preset, or a custom wafer with its price, defect density, critical level and
// NRE; its HBM stacks, the volume made). The state's fields are cost.js's; an empty number
// input is the engine's default, shown as its placeholder ("auto: 6.155").
import { h, $ } from './dom.js';
import { compact, num } from './format.js';
import {
  COST_NUMBERS, CUSTOM_NODE, DIE_START, NODE_FIELDS, PACKAGE_KINDS, PACKAGE_LABELS, PACKAGE_START, SALVAGE_FIELDS, WAFER_FIELDS,
  YIELD_LABELS, YIELD_MODELS,
  customNode, effectivePricing, emptyCost, isCustomNode,
} from './cost.js';
import { loadCostCatalog, offeringFor, offeringGroups } from './cost-catalog.js';
import { chipOf } from './training.js';

const PRICING_HINTS = {
  cloud: 'Rented: every chip-hour at a cloud price; the power is in the price.',
  owned: 'Bought: the chip, its share of the server and network written off over the years, plus the electricity at the facility’s PUE.',
  unknown: 'No price is known for this chip: choose a pricing and give a price for dollars.',
};
const HBM_FIELDS = ['stacks', 'usd_per_stack', 'area_mm2'];
const PACKAGE_NUMBERS = ['volume', 'test_usd', 'bridge_area_mm2'];
const DIE_FIELDS = [
  { key: 'name', label: 'Name', kind: 'text' },
  { key: 'area_mm2', label: 'Area (mm²)' },
  { key: 'count', label: 'Count', int: true },
  { key: 'node', label: 'Process node', kind: 'select' },
  ...SALVAGE_FIELDS.map((f) => ({ ...f, optional: true })),
];
const SALVAGE_HINT = 'Salvage: a die may ship with some units switched off (the H100 SXM5 enables 132 of GH100’s 144 SMs); '
  + 'give all three, or none for a die that must be free of defects.';
const dieId = (i, key) => `pkg-die-${i}-${key}`;
// The ranges of a custom wafer's fields (the engine's), said once under them.
const bound = (x) => (x >= 1e4 ? compact(x) : num(x));
const CUSTOM_HINT = `Ranges: ${NODE_FIELDS.map((f) => `${f.label.replace(/^\w/, (c) => c.toLowerCase())} ${bound(f.min)} – ${bound(f.max)}`).join('; ')}. `
  + 'The NRE is spread over the volume made and scaled by the die’s area, as a preset node’s is. Empty: the engine’s default.';

// update(edit): applies an edit to a copy of the state; readNumber(el, {optional}): the form's
// reader (records entries that are not numbers in `invalid`, field id -> message).
export function createCostForm(presets, { update, readNumber, invalid }) {
  let catalog = { offerings: [], nodes: [], defaults: {}, packaging: {} };
  let current = null;
  let resolved = null; // the last result's resolved cost inputs (result.scenario.cost) and pricing
  const costOf = (state) => state.cost ?? emptyCost();
  const edit = (fn) => update((next) => {
    next.cost = structuredClone(costOf(next));
    fn(next.cost);
  });

  $('#pkg-kind').append(...PACKAGE_KINDS.map((k) => h('option', { value: k, text: PACKAGE_LABELS[k] })));
  $('#pkg-yield_model').append(...YIELD_MODELS.map((k) => h('option', { value: k, text: YIELD_LABELS[k] })));

  // "As the presets say" takes the typed prices away with it: a price left in a field would be
  // shown and not used (the engine is sent only the prices of the pricing chosen, cost.js).
  $('#cost-pricing').addEventListener('change', (e) => edit((c) => {
    c.pricing = e.target.value || null;
    if (c.pricing) return;
    for (const [key, pricing] of Object.entries(COST_NUMBERS)) {
      if (!pricing) continue;
      c[key] = null;
      invalid.delete(`cost-${key}`);
    }
  }));
  // A price of one pricing chooses it.
  for (const [key, pricing] of Object.entries(COST_NUMBERS)) {
    $(`#cost-${key}`).addEventListener('input', (e) => edit((c) => {
      const value = readNumber(e.target, { optional: true });
      if (value === undefined) return;
      c[key] = value;
      if (pricing && value !== null && c.pricing === null) c.pricing = pricing;
    }));
  }
  $('#cost-offering').addEventListener('change', (e) => {
    const offering = catalog.offerings.find((o) => o.id === e.target.value);
    if (!offering) return;
    invalid.delete('cost-usd_per_chip_hour');
    edit((c) => {
      c.pricing = 'cloud';
      c.usd_per_chip_hour = offering.usd_per_chip_hour;
    });
  });

  // The package: on from the start package (or the last one this session), off to none.
  let lastPackage = structuredClone(PACKAGE_START);
  $('#pkg-on').addEventListener('change', (e) => edit((c) => {
    if (!e.target.checked) {
      lastPackage = c.package ?? lastPackage;
      for (const id of [...invalid.keys()]) if (id.startsWith('pkg-')) invalid.delete(id);
    }
    c.package = e.target.checked ? structuredClone(lastPackage) : null;
  }));
  $('#pkg-kind').addEventListener('change', (e) => edit((c) => { if (c.package) c.package.kind = e.target.value; }));
  $('#pkg-yield_model').addEventListener('change', (e) => edit((c) => { if (c.package) c.package.yield_model = e.target.value; }));
  for (const key of HBM_FIELDS) {
    $(`#pkg-hbm-${key}`).addEventListener('input', (e) => edit((c) => {
      const value = readNumber(e.target);
      if (value === undefined || !c.package) return;
      c.package.hbm ??= { stacks: 0, usd_per_stack: 0, area_mm2: 0 };
      c.package.hbm[key] = value;
    }));
  }
  // The wafer's geometry: empty is the default (an edge of 0 is a value, not "none").
  $('#pkg-wafer').replaceChildren(...WAFER_FIELDS.map((f) => {
    const id = `pkg-${f.key}`;
    return h('div', { class: 'field', dataset: { field: id } }, h('label', { for: id, text: f.label }),
      h('input', { id, type: 'number', inputmode: 'decimal', min: f.min, max: f.max, step: 'any', 'aria-describedby': `${id}-error` }),
      h('p', { class: 'field-error', id: `${id}-error`, role: 'alert', hidden: true }));
  }));
  for (const f of WAFER_FIELDS) {
    $(`#pkg-${f.key}`).addEventListener('input', (e) => edit((c) => {
      const value = readNumber(e.target, { optional: true });
      if (value !== undefined && c.package) c.package[f.key] = value;
    }));
  }
  for (const key of PACKAGE_NUMBERS) {
    $(`#pkg-${key}`).addEventListener('input', (e) => edit((c) => {
      const value = readNumber(e.target, { optional: key !== 'bridge_area_mm2' });
      if (value !== undefined && c.package) c.package[key] = value ?? 0;
    }));
  }
  $('#pkg-add-die').addEventListener('click', () => edit((c) => {
    if (c.package) c.package.dies.push({ ...DIE_START, node: structuredClone(c.package.dies.at(-1)?.node ?? DIE_START.node) });
  }));

  // The die rows: drawn again only when their number changes (a rewrite would take the focus).
  const diesBox = $('#pkg-dies');
  let drawnDies = -1;
  diesBox.addEventListener('input', (e) => {
    const { die, key } = e.target.dataset;
    if (die === undefined) return;
    const i = Number(die);
    const nodeField = NODE_FIELDS.find((f) => f.key === key);
    if (key === 'node' && e.target.value !== CUSTOM_NODE) for (const f of NODE_FIELDS) invalid.delete(dieId(i, f.key));
    edit((c) => {
      const d = c.package?.dies[i];
      if (!d) return;
      if (key === 'name') d.name = e.target.value;
      else if (key === 'node') {
        // Custom: from the numbers of the node it was on.
        if (e.target.value !== CUSTOM_NODE) d.node = e.target.value;
        else if (!isCustomNode(d.node)) d.node = customNode(catalog.nodes.find((n) => n.id === d.node));
      } else if (nodeField) {
        const value = readNumber(e.target, { optional: !nodeField.required });
        if (value !== undefined && isCustomNode(d.node)) d.node[key] = value;
      } else {
        const optional = DIE_FIELDS.find((f) => f.key === key)?.optional ?? false;
        const value = readNumber(e.target, { optional });
        if (value !== undefined) d[key] = value;
      }
    });
  });
  diesBox.addEventListener('click', (e) => {
    const i = e.target.dataset?.remove;
    if (i === undefined) return;
    for (const f of [...DIE_FIELDS, ...NODE_FIELDS]) invalid.delete(dieId(i, f.key));
    edit((c) => { c.package?.dies.splice(Number(i), 1); });
  });

  // The presets, a node the link named that is none of them, and a custom wafer.
  function nodeOptions(select, chosen) {
    const ids = catalog.nodes.map((n) => n.id);
    const key = [...ids, chosen].join(' ');
    if (select.dataset.nodes === key) return;
    select.dataset.nodes = key;
    select.replaceChildren(...catalog.nodes.map((n) => h('option', { value: n.id, text: `${n.id} · $${num(n.wafer_usd)} per wafer` })),
      ids.includes(chosen) || chosen === CUSTOM_NODE ? null : h('option', { value: chosen, text: chosen }),
      h('option', { value: CUSTOM_NODE, text: 'Custom wafer…' }));
  }

  // A field of the die, with its label, its control and its error line.
  function dieField(i, f, control) {
    const id = dieId(i, f.key);
    return h('div', { class: 'field', dataset: { field: id, label: `Die ${i + 1}: ${f.label}` } },
      h('label', { for: id, text: f.label }), control,
      h('p', { class: 'field-error', id: `${id}-error`, role: 'alert', hidden: true }));
  }
  const common = (i, key) => ({ id: dieId(i, key), dataset: { die: i, key }, 'aria-describedby': `${dieId(i, key)}-error` });

  function dieRows(dies) {
    if (dies.length === drawnDies) return;
    drawnDies = dies.length;
    diesBox.replaceChildren(...dies.map((_, i) => h('fieldset', { class: 'pkg-die', dataset: { die: i } },
      h('legend', { text: `Die ${i + 1}` }),
      h('div', { class: 'grid-2' }, DIE_FIELDS.map((f) => dieField(i, f, f.kind === 'select' ? h('select', common(i, f.key))
        : f.kind === 'text' ? h('input', { ...common(i, f.key), type: 'text', spellcheck: 'false', placeholder: `die ${i}` })
          : h('input', {
            ...common(i, f.key), type: 'number', inputmode: f.int ? 'numeric' : 'decimal', min: f.int ? 1 : 0, step: f.int ? 1 : 'any',
            ...(f.optional ? { placeholder: 'none' } : {}),
          })))),
      h('p', { class: 'hint', text: SALVAGE_HINT }),
      h('div', { class: 'pkg-custom-node', id: dieId(i, 'custom'), role: 'group', 'aria-label': `Die ${i + 1}: custom wafer`, hidden: true },
        h('div', { class: 'grid-2' }, NODE_FIELDS.map((f) => dieField(i, f, h('input', {
          ...common(i, f.key), type: 'number', inputmode: 'decimal', min: f.min, max: f.max, step: 'any', required: f.required,
        })))),
        h('p', { class: 'hint', text: CUSTOM_HINT })),
      dies.length > 1 ? h('button', { type: 'button', class: 'link-button', dataset: { remove: i }, text: `Remove die ${i + 1}` }) : null)));
  }

  function fillOfferings(state) {
    const chip = chipOf(state.machine, presets);
    const chipKey = state.machine.kind === 'chip' ? state.machine.preset : presets.systems[state.machine.preset]?.chip;
    const select = $('#cost-offering');
    const key = `${chipKey} ${catalog.offerings.length}`;
    if (select.dataset.chip !== key) {
      select.dataset.chip = key;
      select.replaceChildren(h('option', { value: '', text: 'Pick an offering…' }),
        ...offeringGroups(catalog.offerings, chipKey, chip?.name ?? chipKey).map(([label, list]) => h('optgroup', { label },
          list.map((o) => h('option', { value: o.id, text: `${o.provider} ${o.instance} · $${num(o.usd_per_chip_hour)}/chip-h · ${o.date}` })))));
    }
    const price = costOf(state).usd_per_chip_hour ?? (effectivePricing(costOf(state), resolved?.pricing) === 'cloud' ? resolved?.inputs?.usd_per_chip_hour : null);
    const offering = offeringFor(catalog.offerings, chipKey, price);
    select.value = costOf(state).usd_per_chip_hour != null && offering ? offering.id : '';
    const hint = $('#cost-offering-hint');
    if (!offering) {
      hint.textContent = catalog.offerings.length ? 'Public list prices, each with its date and source.' : '';
      return;
    }
    const other = offering.chip !== chipKey ? ` Priced for ${presets.chips[offering.chip]?.name ?? offering.chip}, not this scenario's chip.` : '';
    hint.textContent = `${offering.provider} ${offering.instance}, ${offering.region ? `${offering.region}, ` : ''}${offering.date}: ${offering.source}${other}`;
  }

  // Placeholders: the engine's resolved value, else the chip's preset or the defaults file.
  function placeholders(state) {
    const chip = chipOf(state.machine, presets);
    const inputs = resolved?.inputs ?? {};
    const fallback = {
      usd_per_chip_hour: chip?.economics?.cloud_usd_per_hour || null,
      chip_usd: chip?.economics?.price_usd || null,
      system_usd_per_chip: null,
      amortization_years: catalog.defaults?.amortization_years?.value,
      usd_per_kwh: catalog.defaults?.usd_per_kwh?.value,
      pue: catalog.defaults?.pue?.value,
      tdp_w: chip?.tdp_w || null,
    };
    for (const key of Object.keys(COST_NUMBERS)) {
      // A TDP of 0 is the engine's "not known" (a TPU's preset has none): its power is not modelled.
      const value = key === 'tdp_w' ? (inputs.tdp_w || fallback.tdp_w) : inputs[key] ?? fallback[key];
      $(`#cost-${key}`).placeholder = value != null ? `auto: ${num(value)}` : 'none known';
    }
  }

  // set(el, value): the form's writer (leaves a number input alone while it is typed in).
  function render(state, set) {
    current = state;
    const cost = costOf(state);
    set($('#cost-pricing'), cost.pricing ?? '');
    const pricing = effectivePricing(cost, resolved?.pricing);
    $('#cost-pricing').options[0].textContent = resolved?.pricing && !cost.pricing
      ? `As the presets say: ${resolved.pricing === 'owned' ? 'own' : resolved.pricing === 'cloud' ? 'rent' : 'no price'}` : 'As the presets say';
    $('#cost-pricing-hint').textContent = PRICING_HINTS[pricing ?? 'unknown'];
    $('#cost-cloud').hidden = pricing === 'owned';
    $('#cost-owned').hidden = pricing === 'cloud';
    for (const key of Object.keys(COST_NUMBERS)) set($(`#cost-${key}`), cost[key] ?? '');
    placeholders(state);
    fillOfferings(state);

    const p = cost.package;
    set($('#pkg-on'), p !== null);
    $('#pkg-fields').hidden = p === null;
    $('#pkg-badge').hidden = p === null;
    $('#pkg-badge').textContent = p ? 'on' : '';
    if (!p) {
      dieRows([]);
      return;
    }
    lastPackage = structuredClone(p);
    set($('#pkg-kind'), p.kind);
    set($('#pkg-yield_model'), p.yield_model ?? 'negative_binomial');
    for (const key of HBM_FIELDS) set($(`#pkg-hbm-${key}`), p.hbm?.[key] ?? '');
    for (const key of PACKAGE_NUMBERS) set($(`#pkg-${key}`), key === 'bridge_area_mm2' ? p[key] : (p[key] || ''));
    const manufacture = catalog.packaging?.manufacture ?? {};
    for (const f of WAFER_FIELDS) {
      set($(`#pkg-${f.key}`), p[f.key] ?? '');
      const auto = manufacture[f.key];
      $(`#pkg-${f.key}`).placeholder = auto != null ? `auto: ${num(auto)}` : 'auto';
    }
    $('[data-field="pkg-bridge_area_mm2"]').hidden = p.kind !== 'bridge';
    dieRows(p.dies);
    p.dies.forEach((d, i) => {
      const custom = isCustomNode(d.node);
      nodeOptions($(`#${dieId(i, 'node')}`), custom ? CUSTOM_NODE : d.node);
      for (const f of DIE_FIELDS) set($(`#${dieId(i, f.key)}`), f.key === 'node' && custom ? CUSTOM_NODE : d[f.key] ?? '');
      $(`#${dieId(i, 'custom')}`).hidden = !custom;
      for (const f of NODE_FIELDS) {
        const input = $(`#${dieId(i, f.key)}`);
        set(input, custom ? d.node[f.key] ?? '' : '');
        const auto = f.key === 'critical_level' ? catalog.packaging?.manufacture?.critical_level : 0;
        input.placeholder = f.required ? 'required' : auto != null ? `auto: ${num(auto)}` : 'auto';
      }
    });
  }

  loadCostCatalog().then((loaded) => {
    catalog = loaded;
    drawnDies = -1; // the node selects get their options
    if (current) render(current, (el, value) => {
      if (el.type === 'checkbox') el.checked = Boolean(value);
      else if (el.type !== 'number' || document.activeElement !== el) el.value = String(value);
    });
  });

  // The engine's resolved inputs of the last result (placeholders, the presets' pricing).
  function showResolved(result) {
    if (!result) return;
    resolved = { pricing: result.cost?.pricing ?? null, inputs: result.scenario?.cost ?? {} };
    if (current) {
      const pricing = effectivePricing(costOf(current), resolved.pricing);
      $('#cost-cloud').hidden = pricing === 'owned';
      $('#cost-owned').hidden = pricing === 'cloud';
      $('#cost-pricing-hint').textContent = PRICING_HINTS[pricing ?? 'unknown'];
      if (!current.cost?.pricing) {
        $('#cost-pricing').options[0].textContent = `As the presets say: ${resolved.pricing === 'owned' ? 'own' : resolved.pricing === 'cloud' ? 'rent' : 'no price'}`;
      }
      placeholders(current);
      fillOfferings(current);
    }
  }

  return { render, showResolved };
}
