// The page's pure cost modules under Node: the cost block and the accelerator package in the
// link and in the scenario sent to the engine (absent: nothing sent, so older links load and
// compute unchanged), where the engine's cost errors go, the money formatter, and the
// trade-off's request, default values and chart option. No browser and no build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash, toHash } from '../../web/js/state.js';
import { fromScenario, matchingScenario, toScenario } from '../../web/js/scenario.js';
import { switchMode } from '../../web/js/training.js';
import { costField, costFromDoc, costScenario, emptyCost } from '../../web/js/cost.js';
import { usd, joules, kwh } from '../../web/js/cost-format.js';
import { fieldsForPath } from '../../web/js/views/errors.js';
import { defaultValues, parseValues, tradeoffRequest, availableKnobs, defaultKnobs } from '../../web/js/tradeoff-plan.js';
import { tradeoffOption, tradeoffRows, TRADEOFF_COLORS } from '../../web/js/views/tradeoff-chart.js';

const presets = loadPresets();

const OLD_LINK = '#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on';
const PACKAGE = '&pkg=si_interposer&pkg.die1.name=GH100&pkg.die1.area=814&pkg.die1.count=1&pkg.die1.node=5nm-actuary-2022'
  + '&pkg.hbm=5&pkg.hbm_usd=300&pkg.hbm_area=110&pkg.volume=1000000';

test('a link without cost keys sends no cost block, and writes back unchanged', () => {
  const { state, error } = fromHash(OLD_LINK, presets);
  assert.equal(error, null);
  assert.deepEqual(state.cost, emptyCost());
  assert.equal(toHash(state, presets), OLD_LINK);
  assert.equal('cost' in toScenario(state), false);
  assert.equal(matchingScenario(state, presets), 'llama2-70b-dgx-h100-tp8');
  // Training too: the cost block survives the switch and is absent when empty.
  const training = switchMode(state, 'training', { inference: state });
  assert.equal('cost' in toScenario(training), false);
});

test('prices round-trip through the link; only the chosen pricing’s prices reach the engine', () => {
  const hash = `${OLD_LINK}&pricing=owned&usd_per_chip_hour=2.5&chip_usd=25000&amortization_years=5&usd_per_kwh=0.1&pue=1.2`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(toHash(state, presets), hash);
  // usd_per_chip_hour is a cloud price: with pricing "owned" the engine would refuse it.
  assert.deepEqual(toScenario(state).cost, { pricing: 'owned', chip_usd: 25000, amortization_years: 5, usd_per_kwh: 0.1, pue: 1.2 });
  const cloud = fromHash(`${OLD_LINK}&pricing=cloud&usd_per_chip_hour=2.5&chip_usd=25000`, presets).state;
  assert.deepEqual(toScenario(cloud).cost, { pricing: 'cloud', usd_per_chip_hour: 2.5 });
  assert.equal(matchingScenario(cloud, presets), null);
  // The scenario reads back as the same prices; a negative one stays as typed, for the engine to refuse.
  assert.deepEqual(costScenario(fromScenario(toScenario(state), presets).cost), toScenario(state).cost);
  assert.equal(fromHash(`${OLD_LINK}&usd_per_chip_hour=-1`, presets).state.cost.usd_per_chip_hour, -1);
  // A training link keeps its prices.
  const train = fromHash('#mode=training&model=llama-3-8b&system=dgx-h100&chips=8&tp=1&pp=1&seq=4096&global_batch=64&micro_batch=1&pue=1.1', presets);
  assert.equal(train.error, null);
  assert.equal(toScenario(train.state).cost.pue, 1.1);
});

// Issue 17, defect 5: a price without pricing= was shown in its field and not sent (the engine
// used the preset's $6.155 per chip-hour). A price of one pricing chooses it, as the engine reads
// a cost block without one (core/io/cost_json.cpp) and as a price typed in the form does.
test('a price in a link without pricing= chooses its pricing, so the price shown is the price sent', () => {
  const cloud = fromHash(`${OLD_LINK}&usd_per_chip_hour=2`, presets);
  assert.equal(cloud.error, null);
  assert.equal(cloud.state.cost.pricing, 'cloud');
  assert.deepEqual(toScenario(cloud.state).cost, { pricing: 'cloud', usd_per_chip_hour: 2 });
  assert.equal(toHash(cloud.state, presets), `${OLD_LINK}&pricing=cloud&usd_per_chip_hour=2`);
  const owned = fromHash(`${OLD_LINK}&chip_usd=25000&usd_per_kwh=0.1`, presets).state;
  assert.deepEqual(toScenario(owned).cost, { pricing: 'owned', chip_usd: 25000, usd_per_kwh: 0.1 });
  // Both kinds of price: a price per chip-hour means rent (the engine's rule); the owned ones are
  // kept for a switch to owned.
  const both = fromHash(`${OLD_LINK}&chip_usd=25000&usd_per_chip_hour=2`, presets).state;
  assert.deepEqual(toScenario(both).cost, { pricing: 'cloud', usd_per_chip_hour: 2 });
  assert.equal(both.cost.chip_usd, 25000);
  // The PUE belongs to both: it chooses none.
  assert.equal(fromHash(`${OLD_LINK}&pue=1.3`, presets).state.cost.pricing, null);
  // A scenario document without a pricing reads the same way.
  assert.equal(costFromDoc({ usd_per_chip_hour: 2 }).pricing, 'cloud');
  assert.equal(costFromDoc({ chip_usd: 1 }).pricing, 'owned');
  assert.equal(costFromDoc({ pue: 1.2 }).pricing, null);
});

test('the accelerator package round-trips through the link and the scenario', () => {
  const hash = `${OLD_LINK}${PACKAGE}`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(toHash(state, presets), hash);
  assert.deepEqual(toScenario(state).cost, {
    package: {
      kind: 'si_interposer', dies: [{ name: 'GH100', area_mm2: 814, count: 1, node: '5nm-actuary-2022' }],
      hbm: { stacks: 5, usd_per_stack: 300, area_mm2: 110 }, volume: 1e6,
    },
  });
  assert.deepEqual(fromScenario(toScenario(state), presets).cost, state.cost);
  // Two dies, a bridge (its area goes with it), another yield model.
  const two = fromHash(`${OLD_LINK}&pkg=bridge&pkg.yield=murphy&pkg.die1.area=400&pkg.die1.node=5nm-actuary-2022&pkg.die1.count=2`
    + '&pkg.die2.area=100&pkg.die2.node=7nm-actuary-2022&pkg.bridge_area=30', presets);
  assert.equal(two.error, null);
  const pkg = toScenario(two.state).cost.package;
  assert.equal(pkg.dies.length, 2);
  assert.equal(pkg.yield_model, 'murphy');
  assert.equal(pkg.bridge_area_mm2, 30);
});

test('a die’s salvage and the wafer’s geometry round-trip through the link and the scenario', () => {
  const hash = `${OLD_LINK}&pkg=si_interposer&pkg.die1.area=814&pkg.die1.count=1&pkg.die1.node=5nm-actuary-2022`
    + '&pkg.die1.units=144&pkg.die1.units_needed=132&pkg.die1.unit_share=0.5&pkg.wafer_mm=200&pkg.edge_mm=0&pkg.scribe_mm=0.1';
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.equal(toHash(state, presets), hash);
  const pkg = toScenario(state).cost.package;
  assert.deepEqual(pkg.dies[0], { area_mm2: 814, count: 1, node: '5nm-actuary-2022', units: 144, units_needed: 132, unit_area_share: 0.5 });
  // An edge loss of 0 is a value, sent as one.
  assert.deepEqual([pkg.wafer_diameter_mm, pkg.edge_loss_mm, pkg.scribe_lane_mm], [200, 0, 0.1]);
  assert.deepEqual(fromScenario(toScenario(state), presets).cost, state.cost);
  assert.equal(costField('cost.package.dies[0].units_needed'), 'pkg-die-0-units_needed');
  assert.equal(costField('cost.package.wafer_diameter_mm'), 'pkg-wafer_diameter_mm');
});

test('unreadable cost keys are left out and named; the rest of the link is kept', () => {
  const stray = fromHash(`${OLD_LINK}&pkg.die1.area=814&pue=1.3`, presets);
  assert.match(stray.error, /pkg\.die1\.area/);
  assert.equal(stray.state.cost.package, null);
  assert.equal(stray.state.cost.pue, 1.3);
  const kind = fromHash(`${OLD_LINK}&pricing=lease&pue=1.3`, presets);
  assert.match(kind.error, /pricing = "lease" is not one of cloud, owned/);
  assert.equal(kind.state.cost.pricing, null);
  assert.equal(kind.state.workload.batch, 1);
});

test('the engine’s cost errors go to the cost inputs', () => {
  assert.equal(costField('cost.usd_per_chip_hour'), 'cost-usd_per_chip_hour');
  assert.equal(costField('cost.package.dies[1].area_mm2'), 'pkg-die-1-area_mm2');
  assert.equal(costField('cost.package.dies[0].node'), 'pkg-die-0-node');
  assert.equal(costField('cost.package.hbm.usd_per_stack'), 'pkg-hbm-usd_per_stack');
  assert.equal(costField('cost.package.bridge_area_mm2'), 'pkg-bridge_area_mm2');
  // A cost input without a control of its own (tdp_w): the pricing select, its ancestor's.
  assert.deepEqual(fieldsForPath('cost.tdp_w'), ['cost-tdp_w', 'cost-pricing']);
});

test('money, energy: three significant digits, a dash for no value', () => {
  assert.equal(usd(147.77513074032976), '$148');
  assert.equal(usd(0.038808279409606926), '$0.0388');
  assert.equal(usd(1977488.2179559804), '$1.98M');
  assert.equal(usd(null), '—');
  assert.equal(joules(69.23664631866441), '69.2\u00a0J');
  assert.equal(joules(17724.58145757809), '17.7\u00a0kJ');
  assert.equal(kwh(608730.0438751326), '609\u00a0MWh');
});

test('trade-off: knobs by what the scenario has, values around it, plain errors, one request', () => {
  const plain = toScenario(fromHash(OLD_LINK, presets).state);
  const withPkg = toScenario(fromHash(`${OLD_LINK}${PACKAGE}`, presets).state);
  assert.deepEqual(availableKnobs(plain), ['scale_up_gbps', 'chips_per_system']);
  assert.deepEqual(defaultKnobs(plain), ['scale_up_gbps', null]);
  assert.deepEqual(defaultKnobs(withPkg), ['hbm_stacks', 'chiplets']);
  assert.deepEqual(defaultValues('hbm_stacks', { hbm_stacks: 5 }), [3, 4, 5, 6, 8]);
  assert.deepEqual(defaultValues('scale_up_gbps', { scale_up_gbps: 450 }), [113, 225, 450, 900, 1800]);
  assert.deepEqual(defaultValues('chips_per_system', { chips_per_system: 8 }), [4, 8, 16, 32, 72]);
  assert.deepEqual(parseValues('hbm_stacks', '4, 5 6'), { values: [4, 5, 6] });
  assert.match(parseValues('hbm_stacks', '4, abc').error, /“abc” is not a number/);
  assert.match(parseValues('hbm_stacks', '4.5').error, /not a whole number/);
  assert.match(parseValues('die_area_mm2', '-100').error, /not above zero/);
  assert.deepEqual(parseValues('process_node', '5nm-actuary-2022, 3nm-actuary-2022'), { values: ['5nm-actuary-2022', '3nm-actuary-2022'] });
  const { request } = tradeoffRequest(withPkg, [{ knob: 'hbm_stacks', text: '4, 5' }, { knob: null, text: '' }]);
  assert.deepEqual(request.knobs, [{ knob: 'hbm_stacks', values: [4, 5] }]);
  const big = Array.from({ length: 40 }, (_, i) => i + 1).join(',');
  assert.match(tradeoffRequest(withPkg, [{ knob: 'hbm_stacks', text: big }, { knob: 'chiplets', text: big }]).error, /1600 designs: at most 1024/);
});

test('trade-off chart: the Pareto front joined in order of cost, points that do not fit grey, the scenario a diamond', () => {
  const p = (usd_per_chip_hour, tps, extra = {}) => ({ ok: true, fits: true, pareto: false, usd_per_chip_hour, output_tokens_per_s_per_chip: tps,
    package_usd: 1000, usd_per_m_output_tokens: 1, joules_per_output_token: 2, setting: { hbm_stacks: tps }, ...extra });
  const answer = {
    ok: true, workload: 'inference', knobs: ['hbm_stacks'],
    points: [p(3, 30, { pareto: true }), p(1, 10, { pareto: true }), p(2, 5), p(1.5, 40, { fits: false }),
      { ok: false, setting: { hbm_stacks: 9 }, error: { path: 'cost.package.dies', message: 'a die of 1e+05 mm² does not fit the wafer' } }],
  };
  const option = tradeoffOption(answer, { usd_per_chip_hour: 2, output_tokens_per_s_per_chip: 20 });
  const series = Object.fromEntries(option.series.map((s) => [s.name, s]));
  assert.equal(series['Pareto front'].type, 'line');
  assert.deepEqual(series['Pareto front'].data.map((d) => d.value), [[1, 10], [3, 30]]);
  assert.deepEqual(series['Does not fit'].data.map((d) => d.value), [[1.5, 40]]);
  assert.equal(series['Does not fit'].itemStyle.color, TRADEOFF_COLORS.over);
  assert.equal(series['This scenario'].symbol, 'diamond');
  assert.match(option.aria.label.description, /5 designs .* 2 on the Pareto front, 1 that do not fit in memory, 1 that could not be computed/);
  const { columns, rows } = tradeoffRows(answer);
  assert.equal(columns[0], 'HBM stacks');
  assert.deepEqual(rows.map((r) => r.kind), ['pareto', 'pareto', 'design', 'over', 'error']);
  assert.match(rows[4].cells.at(-1), /does not fit the wafer/);
});
