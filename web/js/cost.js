// The scenario's "cost" block in the page state, the scenario and the link: how the chips are
// paid for (rented per chip-hour, or bought and powered), the facility's PUE, and an optional
// accelerator package whose cost the engine breaks down (dies, yield, packaging, HBM, NRE).
//
//   state.cost = { pricing: null | 'cloud' | 'owned',      null: as the presets say
//                  usd_per_chip_hour, chip_usd, system_usd_per_chip, amortization_years, usd_per_kwh, pue, tdp_w,
//                                                        each null: the engine's default
//                  package: null | { kind, yield_model,
//                                    dies: [{name, area_mm2, count, node, units, units_needed, unit_area_share}],
//                                    (the last three null: no salvage; all three: the die ships
//                                     with units switched off)
//                                    (node: a process-node preset's id, or a custom wafer
//                                     { wafer_usd, defect_density_per_cm2, critical_level, nre_usd },
//                                     the last two null: the engine's default)
//                                    hbm: null | {stacks, usd_per_stack, area_mm2},
//                                    volume, test_usd, bridge_area_mm2,
//                                    wafer_diameter_mm, edge_loss_mm, scribe_lane_mm (null: the defaults) } }
// Only the prices of the pricing chosen go to the engine ($/chip-hour for cloud; the chip's
// price, its years and the electricity for owned), so a switch back and forth keeps both.
// A price given without a pricing (a link, a scenario document) chooses its pricing, as one
// typed in the form does, so that a price shown is a price used (pricedAs).
//
// Link keys (either mode; absent: the engine's defaults, so older links load unchanged):
//   [&pricing=owned][&usd_per_chip_hour=2.5][&chip_usd=25000][&system_usd_per_chip=9000][&amortization_years=5]
//   [&usd_per_kwh=0.1][&pue=1.2][&tdp_w=200]
//   [&pkg=si_interposer[&pkg.yield=poisson]&pkg.die1.name=GH100&pkg.die1.area=814
//    &pkg.die1.count=1&pkg.die1.node=5nm-actuary-2022 ...&pkg.hbm=5&pkg.hbm_usd=300
//    &pkg.hbm_area=110[&pkg.volume=1000000][&pkg.test_usd=50][&pkg.bridge_area=20]
//    [&pkg.wafer_mm=300][&pkg.edge_mm=5][&pkg.scribe_mm=0.2]]
//   A die sold with units switched off: &pkg.die1.units=144&pkg.die1.units_needed=132&pkg.die1.unit_share=0.5
//   A die on a custom wafer (core/SCHEMA.md § package, `node` as an object):
//    &pkg.die1.node=custom&pkg.die1.wafer_usd=17000&pkg.die1.defect_density=0.11
//    [&pkg.die1.critical_level=10][&pkg.die1.nre_usd=542000000]
//   (a missing wafer price or defect density is left empty, for the engine to ask for).
export const PRICINGS = ['cloud', 'owned'];
export const PACKAGE_KINDS = ['organic', 'fan_out', 'si_interposer', 'bridge'];
export const YIELD_MODELS = ['negative_binomial', 'poisson', 'murphy'];
export const PACKAGE_LABELS = {
  organic: 'Organic substrate', fan_out: 'Fan-out RDL (InFO-like)', si_interposer: 'Silicon interposer (CoWoS-S-like)',
  bridge: 'Silicon bridges (EMIB, CoWoS-L-like)',
};
export const YIELD_LABELS = { negative_binomial: 'Negative binomial', poisson: 'Poisson', murphy: 'Murphy' };

// The plain numbers of the block, which pricing each belongs to (null: both) and its link key.
export const COST_NUMBERS = {
  usd_per_chip_hour: 'cloud', chip_usd: 'owned', system_usd_per_chip: 'owned', amortization_years: 'owned', usd_per_kwh: 'owned',
  pue: null, tdp_w: null,
};
const COST_KEYS = new Set(['pricing', ...Object.keys(COST_NUMBERS)]);

export const emptyCost = () => ({
  pricing: null, usd_per_chip_hour: null, chip_usd: null, system_usd_per_chip: null, amortization_years: null, usd_per_kwh: null,
  pue: null, tdp_w: null, package: null,
});

// A package to start editing from: one die the size of NVIDIA's GH100 (814 mm², TSMC 4N, a
// 5 nm-class node) on a silicon interposer with five HBM stacks, as the H100 SXM is built. The
// HBM price is a placeholder (presets/costs/packaging.json: no public per-stack price), the
// stack footprint about 11 × 10 mm; the form says so.
export const PACKAGE_START = {
  kind: 'si_interposer', yield_model: 'negative_binomial',
  dies: [{ name: 'GH100', area_mm2: 814, count: 1, node: '5nm-actuary-2022' }],
  hbm: { stacks: 5, usd_per_stack: 300, area_mm2: 110 }, volume: 0, test_usd: 0, bridge_area_mm2: 20,
};
// A die's salvage (core/cost/salvage.hpp): how many repeated units it has, how many must work,
// the share of its area they cover; all empty: the die must be free of defects.
export const SALVAGE_FIELDS = [
  { key: 'units', link: 'units', label: 'Repeated units (e.g. SMs)', int: true },
  { key: 'units_needed', link: 'units_needed', label: 'Units that must work', int: true },
  { key: 'unit_area_share', link: 'unit_share', label: 'Units’ share of the area (0 – 1)' },
];
// A die with no salvage: every salvage field empty.
const NO_SALVAGE = Object.fromEntries(SALVAGE_FIELDS.map((f) => [f.key, null]));
export const DIE_START = { name: '', area_mm2: 100, count: 1, node: '5nm-actuary-2022', ...NO_SALVAGE };
// The wafer's geometry, for every die and the interposer (null: presets/costs/packaging.json's).
export const WAFER_FIELDS = [
  { key: 'wafer_diameter_mm', link: 'wafer_mm', label: 'Wafer diameter (mm)', min: 25, max: 450 },
  { key: 'edge_loss_mm', link: 'edge_mm', label: 'Edge loss (mm)', min: 0 },
  { key: 'scribe_lane_mm', link: 'scribe_mm', label: 'Scribe lane (mm)', min: 0, max: 10 },
];

// A die's node on a custom wafer: its fields with their units and ranges (core/io/package_json.cpp
// read_node; the engine checks them), whether it must be given, and its link key.
export const CUSTOM_NODE = 'custom';
export const NODE_FIELDS = [
  { key: 'wafer_usd', link: 'wafer_usd', label: 'Wafer price ($ per 300 mm wafer)', min: 1, max: 1e7, required: true },
  { key: 'defect_density_per_cm2', link: 'defect_density', label: 'Defect density (per cm²)', min: 0, max: 100, required: true },
  { key: 'critical_level', link: 'critical_level', label: 'Critical level (defect clustering)', min: 0.1, max: 1000 },
  { key: 'nre_usd', link: 'nre_usd', label: 'Design NRE ($ at 300 mm² of die)', min: 0, max: 1e12 },
];
export const isCustomNode = (node) => node !== null && typeof node === 'object';
// A custom wafer with the numbers of a preset node (catalog entry), or empty.
export const customNode = (preset = null) => ({
  wafer_usd: preset?.wafer_usd ?? null, defect_density_per_cm2: preset?.defect_density_per_cm2 ?? null,
  critical_level: null, nre_usd: preset?.nre_usd ?? null,
});

// The pricing the page shows fields for: the chosen one, else what the engine resolved.
export const effectivePricing = (cost, resolved = null) => cost?.pricing ?? (PRICINGS.includes(resolved) ? resolved : null);

// The pricing of cost's prices when it names none: a price per chip-hour means rent (as the
// engine reads a cost block without a pricing, core/io/cost_json.cpp), else a price of owning
// means own; null when no price of either is given.
export function pricedAs(cost) {
  if (cost.pricing) return cost.pricing;
  return PRICINGS.find((p) => Object.entries(COST_NUMBERS).some(([key, of]) => of === p && cost[key] != null)) ?? null;
}

// -> the scenario's "cost" block, or null when every input is the engine's default.
export function costScenario(cost) {
  if (!cost) return null;
  const out = {};
  if (cost.pricing) out.pricing = cost.pricing;
  for (const [key, pricing] of Object.entries(COST_NUMBERS)) {
    if (cost[key] == null) continue;
    if (pricing === null || pricing === cost.pricing) out[key] = cost[key];
  }
  if (cost.package) out.package = packageScenario(cost.package);
  return Object.keys(out).length ? out : null;
}

export function packageScenario(p) {
  const out = { kind: p.kind };
  if (p.yield_model && p.yield_model !== 'negative_binomial') out.yield_model = p.yield_model;
  out.dies = p.dies.map((d) => ({
    ...(d.name ? { name: d.name } : {}), area_mm2: d.area_mm2, count: d.count, node: nodeScenario(d.node),
    ...Object.fromEntries(SALVAGE_FIELDS.filter((f) => d[f.key] != null).map((f) => [f.key, d[f.key]])),
  }));
  for (const f of WAFER_FIELDS) if (p[f.key] != null) out[f.key] = p[f.key];
  if (p.hbm) out.hbm = { stacks: p.hbm.stacks, usd_per_stack: p.hbm.usd_per_stack, area_mm2: p.hbm.area_mm2 };
  if (p.volume) out.volume = p.volume;
  if (p.test_usd) out.test_usd = p.test_usd;
  if (p.kind === 'bridge') out.bridge_area_mm2 = p.bridge_area_mm2 ?? PACKAGE_START.bridge_area_mm2;
  return out;
}

// A custom wafer as the engine reads it: its fields given (null: the engine's default).
function nodeScenario(node) {
  if (!isCustomNode(node)) return node;
  return Object.fromEntries(NODE_FIELDS.filter((f) => node[f.key] != null).map((f) => [f.key, node[f.key]]));
}

// A scenario document's cost block -> state.cost. Throws on what the form cannot show
// (package inputs beyond the editor's).
export function costFromDoc(block) {
  const cost = emptyCost();
  if (!block || typeof block !== 'object') return cost;
  if (block.pricing != null) {
    if (!PRICINGS.includes(block.pricing)) throw new Error(`unknown pricing ${JSON.stringify(block.pricing)}`);
    cost.pricing = block.pricing;
  }
  for (const key of Object.keys(COST_NUMBERS)) if (typeof block[key] === 'number') cost[key] = block[key];
  cost.pricing = pricedAs(cost);
  const p = block.package;
  if (p && typeof p === 'object') {
    const known = ['kind', 'yield_model', 'dies', 'hbm', 'volume', 'test_usd', 'bridge_area_mm2', ...WAFER_FIELDS.map((f) => f.key)];
    const other = Object.keys(p).filter((k) => !known.includes(k));
    if (other.length) throw new Error(`the package editor cannot show ${other.join(', ')}`);
    if (!Array.isArray(p.dies) || p.dies.some((d) => typeof d?.node !== 'string' && !isCustomNode(d?.node))) {
      throw new Error('the package editor shows dies on a process node preset or a custom wafer only');
    }
    const fields = NODE_FIELDS.map((f) => f.key);
    for (const d of p.dies) {
      if (!isCustomNode(d.node)) continue;
      const odd = Object.keys(d.node).filter((k) => !fields.includes(k) || typeof d.node[k] !== 'number');
      if (odd.length) throw new Error(`the package editor cannot show the custom wafer's ${odd.join(', ')}`);
    }
    cost.package = {
      kind: p.kind ?? 'organic', yield_model: p.yield_model ?? 'negative_binomial',
      dies: p.dies.map((d) => ({
        name: d.name ?? '', area_mm2: d.area_mm2, count: d.count ?? 1,
        node: isCustomNode(d.node) ? { ...customNode(), ...d.node } : d.node,
        ...Object.fromEntries(SALVAGE_FIELDS.map((f) => [f.key, typeof d[f.key] === 'number' ? d[f.key] : null])),
      })),
      hbm: p.hbm ? { stacks: p.hbm.stacks, usd_per_stack: p.hbm.usd_per_stack, area_mm2: p.hbm.area_mm2 } : null,
      volume: p.volume ?? 0, test_usd: p.test_usd ?? 0, bridge_area_mm2: p.bridge_area_mm2 ?? PACKAGE_START.bridge_area_mm2,
      ...Object.fromEntries(WAFER_FIELDS.map((f) => [f.key, typeof p[f.key] === 'number' ? p[f.key] : null])),
    };
  }
  return cost;
}

// ---- the link -------------------------------------------------------------------------

const DIE_KEYS = { name: 'name', area: 'area_mm2', count: 'count', node: 'node' };
const PACKAGE_NUMBERS = { volume: 'volume', test_usd: 'test_usd', bridge_area: 'bridge_area_mm2' };
const HBM_KEYS = { hbm: 'stacks', hbm_usd: 'usd_per_stack', hbm_area: 'area_mm2' };
// (The custom wafer's keys are NODE_FIELDS' `link`s.)
const PACKAGE_KEY = /^pkg(?:\.(?:yield|volume|test_usd|bridge_area|hbm|hbm_usd|hbm_area|wafer_mm|edge_mm|scribe_mm|die([1-9]\d?)\.(?:name|area|count|node|wafer_usd|defect_density|critical_level|nre_usd|units|units_needed|unit_share)))?$/;

export const isCostKey = (key) => COST_KEYS.has(key) || PACKAGE_KEY.test(key);

// -> [[key, text]] in link order; `text` writes a number as the link keeps it.
export function costParams(cost, text) {
  const out = [];
  if (!cost) return out;
  if (cost.pricing) out.push(['pricing', cost.pricing]);
  for (const key of Object.keys(COST_NUMBERS)) if (cost[key] != null) out.push([key, text(cost[key])]);
  const p = cost.package;
  if (!p) return out;
  out.push(['pkg', p.kind]);
  if (p.yield_model && p.yield_model !== 'negative_binomial') out.push(['pkg.yield', p.yield_model]);
  p.dies.forEach((d, i) => {
    for (const [key, field] of Object.entries(DIE_KEYS)) {
      if (field === 'name' && !d.name) continue;
      const value = field === 'node' && isCustomNode(d.node) ? CUSTOM_NODE : d[field];
      out.push([`pkg.die${i + 1}.${key}`, typeof value === 'number' ? text(value) : String(value)]);
    }
    for (const f of SALVAGE_FIELDS) if (d[f.key] != null) out.push([`pkg.die${i + 1}.${f.link}`, text(d[f.key])]);
    if (!isCustomNode(d.node)) return;
    for (const f of NODE_FIELDS) if (d.node[f.key] != null) out.push([`pkg.die${i + 1}.${f.link}`, text(d.node[f.key])]);
  });
  for (const f of WAFER_FIELDS) if (p[f.key] != null) out.push([`pkg.${f.link}`, text(p[f.key])]);
  if (p.hbm) for (const [key, field] of Object.entries(HBM_KEYS)) out.push([`pkg.${key}`, text(p.hbm[field])]);
  for (const [key, field] of Object.entries(PACKAGE_NUMBERS)) {
    if (field === 'bridge_area_mm2' ? p.kind === 'bridge' : p[field]) out.push([`pkg.${key}`, text(p[field])]);
  }
  return out;
}

// Reads the cost keys of a link into `state.cost`. `read`: the link's readers { number, choice }.
// The package's keys belong to "pkg" (its kind); its dies are numbered from 1 without gaps.
export function readCost(q, state, read) {
  state.cost ??= emptyCost();
  const cost = state.cost;
  if (q.has('pricing')) cost.pricing = read.choice('pricing', q.get('pricing'), PRICINGS);
  for (const key of Object.keys(COST_NUMBERS)) if (q.has(key)) cost[key] = read.number(key, q.get(key));
  cost.pricing = pricedAs(cost);
  const pkgKeys = [...q.keys()].filter((k) => k.startsWith('pkg.'));
  if (!q.has('pkg')) {
    if (pkgKeys.length) throw new Error(`"${pkgKeys[0]}" is a setting of the accelerator package, which needs "pkg"`);
    return;
  }
  const p = {
    kind: read.choice('pkg', q.get('pkg'), PACKAGE_KINDS), yield_model: 'negative_binomial', dies: [], hbm: null,
    volume: 0, test_usd: 0, bridge_area_mm2: PACKAGE_START.bridge_area_mm2,
    ...Object.fromEntries(WAFER_FIELDS.map((f) => [f.key, null])),
  };
  for (const f of WAFER_FIELDS) if (q.has(`pkg.${f.link}`)) p[f.key] = read.number(`pkg.${f.link}`, q.get(`pkg.${f.link}`));
  if (q.has('pkg.yield')) p.yield_model = read.choice('pkg.yield', q.get('pkg.yield'), YIELD_MODELS);
  for (let i = 1; q.has(`pkg.die${i}.area`) || q.has(`pkg.die${i}.node`); i++) {
    const die = { name: q.get(`pkg.die${i}.name`) ?? '', area_mm2: NaN, count: 1, node: '', ...NO_SALVAGE };
    for (const f of SALVAGE_FIELDS) if (q.has(`pkg.die${i}.${f.link}`)) die[f.key] = read.number(`pkg.die${i}.${f.link}`, q.get(`pkg.die${i}.${f.link}`));
    for (const key of ['area', 'node']) if (!q.has(`pkg.die${i}.${key}`)) throw new Error(`"pkg.die${i}.${key}" is missing`);
    die.area_mm2 = read.number(`pkg.die${i}.area`, q.get(`pkg.die${i}.area`));
    if (q.has(`pkg.die${i}.count`)) die.count = read.number(`pkg.die${i}.count`, q.get(`pkg.die${i}.count`));
    die.node = q.get(`pkg.die${i}.node`);
    if (die.node === CUSTOM_NODE) {
      die.node = customNode();
      for (const f of NODE_FIELDS) {
        const key = `pkg.die${i}.${f.link}`;
        if (q.has(key)) die.node[f.key] = read.number(key, q.get(key));
      }
    } else {
      const stray = NODE_FIELDS.map((f) => `pkg.die${i}.${f.link}`).find((k) => q.has(k));
      if (stray) throw new Error(`"${stray}" is a setting of a custom wafer, and die ${i} is on the process node "${die.node}" (pkg.die${i}.node=custom for one)`);
    }
    p.dies.push(die);
  }
  const stray = pkgKeys.find((k) => /^pkg\.die(\d+)\./.test(k) && Number(k.match(/^pkg\.die(\d+)/)[1]) > p.dies.length);
  if (stray) throw new Error(`"${stray}" belongs to no die (dies are numbered from 1, each with an area and a node)`);
  if (p.dies.length === 0) throw new Error('"pkg" needs at least one die (pkg.die1.area and pkg.die1.node)');
  if (q.has('pkg.hbm')) {
    p.hbm = { stacks: 0, usd_per_stack: 0, area_mm2: 0 };
    for (const [key, field] of Object.entries(HBM_KEYS)) if (q.has(`pkg.${key}`)) p.hbm[field] = read.number(`pkg.${key}`, q.get(`pkg.${key}`));
  } else if (q.has('pkg.hbm_usd') || q.has('pkg.hbm_area')) {
    throw new Error('"pkg.hbm_usd" and "pkg.hbm_area" belong to the HBM stacks, which need "pkg.hbm"');
  }
  for (const [key, field] of Object.entries(PACKAGE_NUMBERS)) if (q.has(`pkg.${key}`)) p[field] = read.number(`pkg.${key}`, q.get(`pkg.${key}`));
  cost.package = p;
}

// ---- where the engine's errors go -------------------------------------------------------

// The form's input for a cost path (views/errors.js): cost.pue -> cost-pue,
// cost.package.dies[1].area_mm2 -> pkg-die-1-area_mm2, cost.package.hbm.stacks -> pkg-hbm-stacks,
// cost.package.dies[0].node.wafer_usd -> pkg-die-0-wafer_usd (a custom wafer's field).
export function costField(path) {
  const p = String(path ?? '');
  let m = p.match(/^cost\.(\w+)$/);
  if (m && m[1] !== 'package') return `cost-${m[1]}`;
  if (p === 'cost') return 'cost-pricing';
  m = p.match(/^cost\.package\.dies\[(\d+)\]\.node\.(\w+)$/);
  if (m) return `pkg-die-${m[1]}-${NODE_FIELDS.some((f) => f.key === m[2]) ? m[2] : 'node'}`;
  m = p.match(/^cost\.package\.dies\[(\d+)\](?:\.(\w+))?/);
  if (m) return `pkg-die-${m[1]}-${['count', 'node', 'name', ...SALVAGE_FIELDS.map((f) => f.key)].includes(m[2]) ? m[2] : 'area_mm2'}`;
  if (/^cost\.package\.dies/.test(p)) return 'pkg-die-0-area_mm2';
  m = p.match(/^cost\.package\.hbm(?:\.(\w+))?/);
  if (m) return `pkg-hbm-${['usd_per_stack', 'area_mm2'].includes(m[1]) ? m[1] : 'stacks'}`;
  m = p.match(/^cost\.package\.(\w+)/);
  if (m) return ['volume', 'test_usd', 'bridge_area_mm2', 'yield_model', ...WAFER_FIELDS.map((f) => f.key)].includes(m[1]) ? `pkg-${m[1]}` : 'pkg-kind';
  if (p === 'cost.package') return 'pkg-kind';
  return null;
}
