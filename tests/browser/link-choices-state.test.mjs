// What a shared link carries beyond the scenario, under Node (no browser, no build): the
// Trade-off card's knobs and values (`tradeoff`, `tradeoff.1`, `tradeoff.2`), a pin's name
// (`label=` inside its `pin=`), and a die on a custom wafer (`pkg.dieN.node=custom` with its
// wafer keys). Each is written only when used, so older links read and write back as before;
// a bad value is left out with a notice naming its key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { defaultState, fromHash, toHash, toLink } from '../../web/js/state.js';
import { fromScenario, toScenario } from '../../web/js/scenario.js';
import { MAX_LABEL, cleanLabel, pinName } from '../../web/js/compare.js';
import { costField, customNode } from '../../web/js/cost.js';
import { readTradeoffChoice, tradeoffParams } from '../../web/js/tradeoff-plan.js';

const presets = loadPresets();

const OLD_LINK = '#model=llama-2-70b&system=dgx-h100&chips=8&tp=8&pp=1&batch=1&input=2048&output=256&precision=bf16&flash=on';
const PACKAGE = '&pkg=si_interposer&pkg.die1.name=GH100&pkg.die1.area=814&pkg.die1.count=1&pkg.die1.node=5nm-actuary-2022'
  + '&pkg.hbm=5&pkg.hbm_usd=300&pkg.hbm_area=110';

// ---- the Trade-off card's choice ----------------------------------------------------------

test('trade-off: knobs and typed values round-trip; a link without them reads and writes as before', () => {
  const plain = fromHash(OLD_LINK, presets);
  assert.equal(plain.error, null);
  assert.equal(plain.state.view.tradeoff, null);
  assert.equal(toHash(plain.state, presets), OLD_LINK);

  const hash = `${OLD_LINK}${PACKAGE}&tradeoff=hbm_stacks+chiplets&tradeoff.1=4+5+6`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.deepEqual(state.view.tradeoff, { knobs: ['hbm_stacks', 'chiplets'], values: [[4, 5, 6], null] });
  assert.equal(toHash(state, presets), hash);
  // Hand-written separators (commas, spaces) read the same; the page writes spaces ("+").
  const commas = fromHash(`${OLD_LINK}&tradeoff=scale_up_gbps&tradeoff.1=${encodeURIComponent('100, 200,400')}`, presets);
  assert.equal(commas.error, null);
  assert.deepEqual(commas.state.view.tradeoff, { knobs: ['scale_up_gbps', null], values: [[100, 200, 400], null] });
  assert.match(toHash(commas.state, presets), /&tradeoff=scale_up_gbps&tradeoff\.1=100\+200\+400$/);
  // Process nodes are names, kept as written.
  const nodes = fromHash(`${OLD_LINK}${PACKAGE}&tradeoff=process_node&tradeoff.1=7nm-actuary-2022+3nm-actuary-2022`, presets);
  assert.deepEqual(nodes.state.view.tradeoff.values[0], ['7nm-actuary-2022', '3nm-actuary-2022']);
  // A training link keeps it too (a view option of both modes).
  const train = fromHash('#mode=training&model=llama-3-8b&system=dgx-h100&chips=8&tp=1&pp=1&seq=4096&global_batch=64&micro_batch=1'
    + '&tradeoff=chips_per_system&tradeoff.1=8+16', presets);
  assert.equal(train.error, null);
  assert.deepEqual(train.state.view.tradeoff, { knobs: ['chips_per_system', null], values: [[8, 16], null] });
  // The choice is a view option: it changes nothing sent to the engine.
  assert.deepEqual(toScenario(state), toScenario(fromHash(`${OLD_LINK}${PACKAGE}`, presets).state));
});

test('trade-off: a bad key is left out with a notice naming it; the rest of the link is kept', () => {
  const cases = [
    ['&tradeoff=hbm_stacks+frobs', /tradeoff = "hbm_stacks frobs": "frobs" is not one of hbm_stacks, die_area_mm2/],
    ['&tradeoff=chiplets+chiplets', /tradeoff = "chiplets chiplets" names the same knob twice/],
    ['&tradeoff=chiplets+hbm_stacks+die_area_mm2', /tradeoff = .* should name one or two knobs/],
    ['&tradeoff=', /tradeoff = "" should name one or two knobs/],
    ['&tradeoff.1=4+5', /"tradeoff\.1" gives the values of a trade-off knob, but the link names no knob/],
    ['&tradeoff=hbm_stacks&tradeoff.2=1+2', /"tradeoff\.2" gives the values of a second knob, but tradeoff = "hbm_stacks" names one/],
    ['&tradeoff=hbm_stacks&tradeoff.1=4+five', /tradeoff\.1 = "4 five": “five” is not a number/],
    ['&tradeoff=hbm_stacks&tradeoff.1=0+4', /tradeoff\.1 = "0 4": HBM stacks: 0 is not above zero/],
    ['&tradeoff=chiplets&tradeoff.1=1.5', /tradeoff\.1 = "1\.5": Chiplets: 1\.5 is not a whole number/],
    ['&tradeoff=chiplets&tradeoff.1=', /tradeoff\.1 = "": Give one value or more/],
    [`&tradeoff=chiplets&tradeoff.1=${'1+'.repeat(1500)}`, /tradeoff\.1 = "1 1 1 .*…" is too long \(3000 characters, at most 2000\)/],
    [`&tradeoff=chiplets&tradeoff.1=${Array.from({ length: 65 }, (_, i) => i + 1).join('+')}`, /At most 64 values \(65 given\)/],
  ];
  for (const [keys, message] of cases) {
    const out = fromHash(`${OLD_LINK}${PACKAGE}${keys}&pue=1.3`, presets);
    assert.match(out.error ?? '', message, keys.slice(0, 60));
    assert.match(out.error, /^Part of this link was ignored: .*Its other settings are shown\.$/);
    assert.equal(out.state.cost.pue, 1.3, keys.slice(0, 60));
    assert.equal(out.state.workload.batch, 1);
  }
  // Only the bad values go: the knobs stay.
  const bad = `${OLD_LINK}${PACKAGE}&tradeoff=hbm_stacks+chiplets&tradeoff.1=4+five&tradeoff.2=1+2`;
  const kept = fromHash(bad, presets);
  assert.deepEqual(kept.state.view.tradeoff, { knobs: ['hbm_stacks', 'chiplets'], values: [null, [1, 2]] });
  assert.equal(fromHash(`${OLD_LINK}&tradeoff=frobs&tradeoff.1=3`, presets).state.view.tradeoff, null);
  // Two explicit value lists that make too many designs: named at the second.
  const big = Array.from({ length: 40 }, (_, i) => i + 1).join('+');
  const many = fromHash(`${OLD_LINK}${PACKAGE}&tradeoff=hbm_stacks+chiplets&tradeoff.1=${big}&tradeoff.2=${big}`, presets);
  assert.match(many.error, /tradeoff\.2 = "1 2 3 .*": 40 × 40 = 1600 designs, at most 1024/);
  assert.deepEqual(many.state.view.tradeoff.values[1], null);
});

test('trade-off: the card’s choice goes into the link in place of the old one; pins do not carry it', () => {
  const before = fromHash(`${OLD_LINK}${PACKAGE}&tradeoff=hbm_stacks`, presets).state;
  const withChoice = (st, tradeoff) => toLink({ ...st, view: { ...st.view, tradeoff } }, presets);
  const next = withChoice(before, { knobs: ['die_area_mm2', 'chiplets'], values: [[400, 800], null] });
  assert.match(next, /^#v=1&model=/);
  assert.equal((next.match(/tradeoff=/g) ?? []).length, 1);
  assert.deepEqual(fromHash(next, presets).state.view.tradeoff, { knobs: ['die_area_mm2', 'chiplets'], values: [[400, 800], null] });
  assert.doesNotMatch(withChoice(before, null), /tradeoff/);
  assert.deepEqual(tradeoffParams(null), []);
  assert.deepEqual(readTradeoffChoice(() => null), null);
  // A pinned scenario is written without the card's choice.
  const current = fromHash(`${OLD_LINK}${PACKAGE}&tradeoff=hbm_stacks&tradeoff.1=4+5`, presets).state;
  const pinned = toLink(current, presets, [current]);
  assert.equal((pinned.match(/tradeoff/g) ?? []).length, 2); // tradeoff= and tradeoff.1= of the page itself
  assert.equal(fromHash(pinned, presets).pins[0].view.tradeoff, null);
});

// ---- a pin's name --------------------------------------------------------------------------

test('a pin’s name round-trips through the link, escaped; a pin without one keeps its automatic name', () => {
  const base = defaultState(presets);
  const named = { ...structuredClone(base), label: 'H100 & "TP=8" #1 100% ✓' };
  const other = structuredClone(base);
  other.workload.batch = 16;
  const link = toLink(base, presets, [named, other]);
  // One pin= per pin; nothing of the name leaks out of its pin's value.
  assert.equal((link.match(/&pin=/g) ?? []).length, 2);
  assert.doesNotMatch(link.slice(1), /[ "#✓]|&label=/);
  const back = fromHash(link, presets);
  assert.equal(back.error, null);
  assert.deepEqual(back.pins, [named, other]);
  assert.equal(pinName(back.pins[0], 0), 'H100 & "TP=8" #1 100% ✓');
  assert.equal(pinName(back.pins[1], 1), 'Pin 2');
  // A link written before names existed.
  const old = fromHash(`#v=1&model=llama-2-70b&pin=${encodeURIComponent(toHash(other, presets).slice(1))}`, presets);
  assert.equal(old.error, null);
  assert.equal(old.pins[0].label, undefined);
  // A label outside a pin is no setting of the page.
  assert.match(fromHash(`${OLD_LINK}&label=x`, presets).error, /unknown setting "label"/);
});

test('a pin’s name: at most 40 characters, no control characters, said when a link’s had to be cleaned', () => {
  assert.equal(MAX_LABEL, 40);
  assert.equal(cleanLabel('  Baseline\tH100\n'), 'Baseline H100');
  assert.equal(cleanLabel('a\u0000b\u0007c\u202Ed\u2066e'), 'abcde');
  assert.equal(cleanLabel('x'.repeat(60)), 'x'.repeat(40));
  assert.equal(cleanLabel('🙂'.repeat(41)), '🙂'.repeat(40)); // characters, not UTF-16 units
  assert.equal(cleanLabel('\u0001 \u0002'), null);
  assert.equal(cleanLabel(42), null);

  const settings = toHash(defaultState(presets), presets).slice(1);
  const pin = (label) => `pin=${encodeURIComponent(`${new URLSearchParams({ label })}&${settings}`)}`;
  const long = fromHash(`#v=1&model=llama-2-70b&${pin('y'.repeat(45))}`, presets);
  assert.equal(long.pins[0].label, 'y'.repeat(40));
  assert.match(long.error, /Compare: pinned scenario 1's name \(label\) was shortened to 40 characters\./);
  const odd = fromHash(`#v=1&model=llama-2-70b&${pin('My\u0000pin\u202E')}`, presets);
  assert.equal(odd.pins[0].label, 'Mypin');
  assert.match(odd.error, /pinned scenario 1's name \(label\) had control characters, which were taken out/);
  // Empty, or nothing left: the automatic name, quietly.
  const empty = fromHash(`#v=1&model=llama-2-70b&${pin('   ')}`, presets);
  assert.equal(empty.error, null);
  assert.equal(empty.pins[0].label, undefined);
  // A pin of nothing but a name is no scenario: left out, named.
  const bare = fromHash(`#v=1&model=llama-2-70b&pin=${encodeURIComponent('label=x')}`, presets);
  assert.deepEqual(bare.pins, []);
  assert.match(bare.error, /pinned scenario 1 could not be read/);
  // The page never writes a name longer than 40 characters.
  const written = toLink(defaultState(presets), presets, [{ ...defaultState(presets), label: 'z'.repeat(50) }]);
  assert.equal(fromHash(written, presets).pins[0].label, 'z'.repeat(40));
  assert.equal(fromHash(written, presets).error, null);
});

// ---- a die on a custom wafer ---------------------------------------------------------------

const CUSTOM = '&pkg=si_interposer&pkg.die1.name=X1&pkg.die1.area=600&pkg.die1.count=2&pkg.die1.node=custom'
  + '&pkg.die1.wafer_usd=12000&pkg.die1.defect_density=0.15&pkg.die1.critical_level=4&pkg.die1.nre_usd=300000000';

test('a custom wafer round-trips through the link and the scenario, in the schema’s shape', () => {
  const hash = `${OLD_LINK}${CUSTOM}`;
  const { state, error } = fromHash(hash, presets);
  assert.equal(error, null);
  assert.deepEqual(state.cost.package.dies[0].node, { wafer_usd: 12000, defect_density_per_cm2: 0.15, critical_level: 4, nre_usd: 3e8 });
  assert.equal(toHash(state, presets), hash);
  // core/SCHEMA.md § package: node is {"wafer_usd", "defect_density_per_cm2", "critical_level"?, "nre_usd"?}.
  assert.deepEqual(toScenario(state).cost.package.dies, [
    { name: 'X1', area_mm2: 600, count: 2, node: { wafer_usd: 12000, defect_density_per_cm2: 0.15, critical_level: 4, nre_usd: 3e8 } },
  ]);
  assert.deepEqual(fromScenario(toScenario(state), presets).cost, state.cost);
  // The optional fields left out: left out of the scenario too (the engine's defaults).
  const short = fromHash(`${OLD_LINK}&pkg=organic&pkg.die1.area=100&pkg.die1.node=custom&pkg.die1.wafer_usd=5000&pkg.die1.defect_density=0.1`, presets);
  assert.equal(short.error, null);
  assert.deepEqual(toScenario(short.state).cost.package.dies[0].node, { wafer_usd: 5000, defect_density_per_cm2: 0.1 });
  // Next to a die on a preset node.
  const mixed = fromHash(`${OLD_LINK}${CUSTOM}&pkg.die2.area=100&pkg.die2.node=7nm-actuary-2022`, presets);
  assert.equal(mixed.error, null);
  assert.equal(toScenario(mixed.state).cost.package.dies[1].node, '7nm-actuary-2022');
  // A custom wafer starts from the preset's numbers.
  assert.deepEqual(customNode({ wafer_usd: 16988, defect_density_per_cm2: 0.11, nre_usd: 542000000 }),
    { wafer_usd: 16988, defect_density_per_cm2: 0.11, critical_level: null, nre_usd: 542000000 });
});

test('a custom wafer’s bad keys: named and left out; a missing price is left for the engine to ask for', () => {
  // Not a number: that key goes, the wafer stays custom, the rest of the link is kept.
  const nan = fromHash(`${OLD_LINK}${CUSTOM.replace('wafer_usd=12000', 'wafer_usd=cheap')}&pue=1.3`, presets);
  assert.match(nan.error, /pkg\.die1\.wafer_usd = "cheap" is not a number/);
  assert.equal(nan.state.cost.package.dies[0].node.wafer_usd, null);
  assert.equal(nan.state.cost.package.dies[0].node.defect_density_per_cm2, 0.15);
  assert.equal(nan.state.cost.pue, 1.3);
  // Missing: nothing sent, so the engine names the field ("is required").
  assert.equal('wafer_usd' in toScenario(nan.state).cost.package.dies[0].node, false);
  // Out of range: kept as typed, for the engine to judge at the field.
  assert.equal(fromHash(`${OLD_LINK}${CUSTOM.replace('defect_density=0.15', 'defect_density=500')}`, presets)
    .state.cost.package.dies[0].node.defect_density_per_cm2, 500);
  // A wafer key on a die of a preset node.
  const stray = fromHash(`${OLD_LINK}${PACKAGE}&pkg.die1.wafer_usd=9000`, presets);
  assert.match(stray.error, /"pkg\.die1\.wafer_usd" is a setting of a custom wafer, and die 1 is on the process node "5nm-actuary-2022"/);
  assert.equal(stray.state.cost.package.dies[0].node, '5nm-actuary-2022');
  // A wafer key of a die that is not there.
  assert.match(fromHash(`${OLD_LINK}${CUSTOM}&pkg.die2.wafer_usd=1`, presets).error, /"pkg\.die2\.wafer_usd" belongs to no die/);
  // A scenario file's custom wafer with a field the editor has no input for.
  assert.throws(() => fromScenario({ ...toScenario(fromHash(`${OLD_LINK}${CUSTOM}`, presets).state),
    cost: { package: { kind: 'organic', dies: [{ area_mm2: 100, node: { wafer_usd: 1, defect_density_per_cm2: 0, diameter_mm: 450 } }] } } }, presets),
  /cannot show the custom wafer's diameter_mm/);
});

test('the engine’s errors about a custom wafer go to its inputs', () => {
  assert.equal(costField('cost.package.dies[0].node.wafer_usd'), 'pkg-die-0-wafer_usd');
  assert.equal(costField('cost.package.dies[1].node.defect_density_per_cm2'), 'pkg-die-1-defect_density_per_cm2');
  assert.equal(costField('cost.package.dies[0].node.critical_level'), 'pkg-die-0-critical_level');
  assert.equal(costField('cost.package.dies[0].node.nre_usd'), 'pkg-die-0-nre_usd');
  assert.equal(costField('cost.package.dies[0].node.frobs'), 'pkg-die-0-node');
  assert.equal(costField('cost.package.dies[0].node'), 'pkg-die-0-node');
});
