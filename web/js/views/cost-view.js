// The Cost and energy card: what the scenario costs and draws (result.cost, core/cost/):
// inference: $ per million input and output tokens, $ and J per request, J per output token;
// training: $ per step, $ and energy to train, chip-hours. Under them the $ per chip-hour and
// its capex/energy split, the power per chip part by part, the package's cost breakdown when
// the scenario has one, and every default the engine used ("Defaults used"), so that no
// number rests on something hidden.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { metric } from './summary.js';
import { usd, usdValue, joules, watts, kwh, siParts, DASH } from '../cost-format.js';

// The parts of one package's cost (result.cost.package), in stacking order.
export const PACKAGE_PARTS = [
  ['raw_dies_usd', 'Raw dies', '#2f6fd6'],
  ['die_defects_usd', 'Die defects', '#8a4fd1'],
  ['raw_package_usd', 'Package', '#1e9e8a'],
  ['package_defects_usd', 'Package defects', '#e07b24'],
  ['wasted_dies_usd', 'Wasted dies', '#c0508a'],
  ['hbm_usd', 'HBM', '#b58b00'],
  ['test_usd', 'Test', '#5b6675'],
  ['nre_usd', 'NRE per unit', '#7a5230'],
];

const money = (x) => ({ value: x == null ? DASH : `$${usdValue(x)}`, unit: '' });
const NO_PRICE = 'no price known';
// The engine gives no power, and so no energy, for a chip without a TDP (core/cost/workload_cost.cpp).
const NO_POWER = 'power not modelled: the chip has no TDP';
const powered = (c) => c.power_w_per_chip != null;

// The system's chips the layout leaves idle are in every dollar and joule (core/cost/workload_cost.cpp).
function idleLine(c) {
  if (!c.idle_chips) return '';
  const price = c.usd_per_idle_chip_hour == null ? '' : ` at $${usdValue(c.usd_per_idle_chip_hour)} per chip-hour`;
  const power = c.idle_power_w_per_chip ? `, drawing ${fmt.int(c.idle_power_w_per_chip.it)} W each idle (the chip’s idle power and its share of the hosts)` : '';
  return ` The system’s other ${fmt.int(c.idle_chips)} ${c.idle_chips === 1 ? 'chip is' : 'chips are'} idle and charged too${price}${power}.`;
}

function inferenceMetrics(c) {
  const priced = c.usd_per_chip_hour != null;
  return [
    metric('cost-output', '$ per million output tokens', money(c.usd_per_m_output_tokens),
      priced ? `${fmt.compact(c.output_tokens_per_usd)} output tokens per dollar` : NO_PRICE, { how: null }),
    metric('cost-input', '$ per million input tokens', money(c.usd_per_m_input_tokens),
      priced ? 'the prefill’s share of the chip-hours' : NO_PRICE, { how: null }),
    metric('cost-request', '$ per request', money(c.usd_per_request), `${joules(c.joules_per_request)} per request`, { how: null }),
    metric('cost-energy', 'Energy per output token', siParts(c.joules_per_output_token, 'J'),
      !powered(c) ? NO_POWER : c.joules_per_output_token == null ? 'no decode step' : 'IT energy: chips, hosts, network (no PUE)', { how: null }),
  ];
}

function trainingMetrics(c) {
  const steps = c.steps == null ? 'give the tokens to train for the whole run' : `${fmt.int(c.steps)} steps`;
  const energy = siParts(c.facility_energy_kwh == null ? null : c.facility_energy_kwh * 1e3, 'Wh');
  return [
    metric('cost-step', '$ per step', money(c.usd_per_step), powered(c) ? `${kwh(c.energy_kwh_per_step)} per step (IT)` : NO_POWER, { how: null }),
    metric('cost-total', '$ to train', money(c.usd_total), steps, { how: null }),
    metric('cost-energy', 'Energy to train', energy,
      !powered(c) ? NO_POWER : c.energy_kwh == null ? 'give the tokens to train' : `${kwh(c.energy_kwh)} at the servers, the rest cooling and power delivery`, { how: null }),
    metric('cost-chip-hours', 'Chip-hours', { value: fmt.compact(c.chip_hours), unit: '' },
      c.tokens_per_usd == null ? `${fmt.int(c.chips)} chips` : `${fmt.compact(c.tokens_per_usd)} tokens per dollar`, { how: null }),
  ];
}

// The pricing the inputs chose whose price is missing (the engine then gives no dollars,
// core/io/cost_json.cpp): which price, and where it is typed in.
const MISSING = {
  owned: (chip) => `Own needs the chip’s purchase price, and ${chip} has none in its presets: type it in “Chip price ($)” under Cost, or choose Rent. Performance and energy are unaffected.`,
  cloud: (chip) => `Rent needs a price per chip-hour, and ${chip} has none in its presets: type it in “$ per chip-hour” under Cost, or pick a cloud offering. Performance and energy are unaffected.`,
};

// What an owned chip's write-off holds: the chip and, where a price is known, its server's and
// network's share; a server without a price is said to be left out, not folded in silently.
function ownedParts(inputs) {
  const parts = [`the chip ${usd(inputs.chip_usd)}`];
  if (inputs.system_usd_per_chip > 0) parts.push(`its server ${usd(inputs.system_usd_per_chip)}`);
  if (inputs.network_usd_per_chip > 0) parts.push(`its network ${usd(inputs.network_usd_per_chip)}`);
  return parts.join(' + ');
}
const NO_SERVER = ' No price is known for its server, so the server is left out: type one in “Server ($ per chip)”.';

function hourLine(c, inputs, missing) {
  if (missing) return missing;
  if (c.pricing === 'owned' && !powered(c)) {
    return `${usd(c.capex_usd_per_chip_hour)} per chip-hour to own, before electricity: the chip has no TDP in its presets, `
      + 'so its power, its electricity and the all-in price are not known. Type it in “Chip power limit, TDP (W)” under Cost.';
  }
  if (c.usd_per_chip_hour == null) return 'No price is known for this chip: choose a pricing under Cost and give a price.';
  if (c.pricing === 'owned') {
    return `${usd(c.usd_per_chip_hour)} per chip-hour = ${usd(c.capex_usd_per_chip_hour)} to own (${ownedParts(inputs)}, `
      + `written off over ${fmt.num(inputs.amortization_years)} years) + ${usd(c.energy_usd_per_chip_hour)} of electricity `
      + `at ${usd(inputs.usd_per_kwh)}/kWh.` + (inputs.system_usd_per_chip > 0 ? '' : NO_SERVER);
  }
  return `${usd(c.usd_per_chip_hour)} per chip-hour, rented: the power is in the price.`;
}

function powerLine(c, inputs) {
  if (!powered(c)) return 'Power per chip: not modelled, the chip’s preset has no TDP (its vendor publishes none); type one in “Chip power limit, TDP (W)” under Cost for energy.';
  const p = c.power_w_per_chip;
  return `Power per chip: ${watts(p.chip)} the chip + ${watts(p.system)} its server + ${watts(p.network)} the network `
    + `= ${watts(p.it)} IT; ${watts(p.facility)} at the facility (PUE ${fmt.num(inputs.pue)}).`;
}

function renderPackage(pkg) {
  const box = $('#cost-package');
  box.hidden = !pkg;
  if (!pkg) return;
  const total = pkg.total_usd;
  const bar = $('#pkg-bar');
  bar.replaceChildren(...PACKAGE_PARTS.filter(([key]) => pkg[key] > 0).map(([key, label, color]) => {
    const seg = h('span', { class: 'pkg-seg', title: `${label}: ${usd(pkg[key])}` });
    seg.style.width = `${((pkg[key] / total) * 100).toFixed(2)}%`;
    seg.style.background = color;
    return seg;
  }));
  const share = (x) => (total > 0 ? fmt.percent(x / total) : DASH);
  $('#pkg-table').replaceChildren(
    h('caption', { class: 'chart-alt-caption', text: `Package area ${fmt.num(pkg.package_area_mm2)} mm²`
      + (pkg.interposer_area_mm2 > 0 ? ` on a ${fmt.num(pkg.interposer_area_mm2)} mm² interposer` : '')
      + ` · package yield ${fmt.percent(pkg.package_yield)}` }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'text', text: 'Part' }),
      h('th', { scope: 'col', class: 'num', text: '$ per unit' }), h('th', { scope: 'col', class: 'num', text: 'Share' }))),
    h('tbody', {}, PACKAGE_PARTS.map(([key, label, color]) => h('tr', { dataset: { part: key } },
      h('th', { scope: 'row', class: 'text' }, h('span', { class: 'pkg-key', 'aria-hidden': 'true', dataset: { color } }), label),
      h('td', { class: 'num', text: usd(pkg[key]) }), h('td', { class: 'num', text: share(pkg[key]) })))),
    h('tfoot', {}, h('tr', { dataset: { part: 'total' } }, h('th', { scope: 'row', class: 'text', text: 'Total' }),
      h('td', { class: 'num', text: usd(total) }), h('td', { class: 'num', text: '100%' }))));
  for (const key of $('#pkg-table').querySelectorAll('.pkg-key')) key.style.background = key.dataset.color;
  const cols = ['Die', 'Count', 'Area (mm²)', 'Dies per wafer', 'Yield', 'Raw $', 'Known-good $'];
  $('#pkg-dies-table').replaceChildren(
    h('thead', {}, h('tr', {}, cols.map((c, i) => h('th', { scope: 'col', class: i ? 'num' : 'text', text: c })))),
    h('tbody', {}, pkg.dies.map((d) => h('tr', {},
      h('th', { scope: 'row', class: 'text', text: d.name }), h('td', { class: 'num', text: fmt.int(d.count) }),
      h('td', { class: 'num', text: fmt.num(d.area_mm2) }), h('td', { class: 'num', text: fmt.int(d.dies_per_wafer) }),
      // A salvaged die sells more than its defect-free share: both are shown.
      h('td', { class: 'num', dataset: { yield: d.yield }, text: d.defect_free_yield < d.yield - 1e-9
        ? `${fmt.percent(d.yield)} (${fmt.percent(d.defect_free_yield)} defect-free)` : fmt.percent(d.yield) }),
      h('td', { class: 'num', text: usd(d.raw_usd) }), h('td', { class: 'num', text: usd(d.known_good_usd) })))));
}

// result: an evaluated scenario (either workload) with its "cost" section; asked: the pricing
// the inputs chose (state.cost.pricing), null for the presets'.
// A chosen pricing without its price turns the card off with a sentence saying which price to
// give; a run that does not fit has its dollars dimmed (a cost of a run that cannot happen).
export function renderCost(result, { asked = null } = {}) {
  const card = $('#cost-card');
  const c = result.cost;
  card.hidden = !c;
  if (!c) return;
  const inputs = result.scenario?.cost ?? {};
  const training = result.workload === 'training';
  const missing = c.pricing === 'unknown' && MISSING[asked] ? MISSING[asked](result.scenario?.system?.chip?.name ?? 'this chip') : null;
  const unfit = result.memory?.fits === false;
  card.classList.toggle('cost-off', missing !== null);
  card.classList.toggle('cost-unfit', unfit);
  const how = c.pricing === 'owned' ? 'bought and powered' : c.pricing === 'cloud' ? 'rented' : 'without a price';
  $('#cost-note').textContent = `${fmt.int(c.chips)} ${c.chips === 1 ? 'chip' : 'chips'}, ${how}.` + idleLine(c)
    + (unfit ? ' It does not fit in memory: these are the costs of a run that cannot happen.' : '');
  $('#cost-summary').replaceChildren(...(training ? trainingMetrics(c) : inferenceMetrics(c)));
  $('#cost-split').replaceChildren(
    h('p', { class: missing ? 'cost-hour cost-missing' : 'cost-hour', dataset: { pricing: c.pricing }, text: hourLine(c, inputs, missing) }),
    h('p', { class: 'cost-power', text: powerLine(c, inputs) }));
  renderPackage(c.package ?? null);
  $('#cost-assumptions').replaceChildren(...(c.assumptions ?? []).map((a) => h('li', { text: a })));
  $('#cost-assumptions').previousElementSibling.hidden = !(c.assumptions ?? []).length;
}
