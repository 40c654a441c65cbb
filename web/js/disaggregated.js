// Disaggregated serving in the page state, the scenario and the link: a prefill pool and a
// decode pool, each of identical workers with their own layout, the KV cache moved from one
// to the other (the scenario's top-level "disaggregated", core/io/disaggregated_json.cpp,
// METHODOLOGY §15.7). It needs continuous batching (workload.mode "concurrency"); the
// batch then counts the clients of the whole deployment, and the scenario has no top-level
// parallelism (each pool's layout is its own).
//
//   state.workload.disaggregated = null (aggregated) | {
//     prefill: { workers, tp, pp, ep, dp },
//     decode:  { workers, tp, pp, ep, dp, batch_per_rank (null: no limit beyond the KV cache) },
//     kv_transfer: "after_prefill" | "layerwise" }
// Link keys (inference only; on when prefill_workers is given):
//   &prefill_workers=1&prefill_tp=4[&prefill_pp=2][&prefill_ep=4][&prefill_dp=2]
//   &decode_workers=1&decode_tp=4[&decode_pp=…][&decode_ep=…][&decode_dp=…][&decode_batch_per_rank=64]
//   [&kv_transfer=layerwise]
export const POOLS = ['prefill', 'decode'];
export const KV_TRANSFERS = ['after_prefill', 'layerwise'];
// A worker's layout fields and the value the link and the scenario leave out (the engine's default).
export const POOL_LAYOUT = { tp: 1, pp: 1, ep: 1, dp: 1 };
const POOL_NUMBERS = ['workers', ...Object.keys(POOL_LAYOUT)];
export const DISAGGREGATED_KEYS = [...POOLS.flatMap((pool) => POOL_NUMBERS.map((f) => `${pool}_${f}`)),
  'decode_batch_per_rank', 'kv_transfer'];

// What turning disaggregation on starts from: one worker per pool, each with half the
// aggregated TP (so that both pools fit where the one replica did).
export function disaggregatedStart(parallelism) {
  const tp = Math.max(1, Math.floor((parallelism?.tp ?? 2) / 2));
  const pool = { workers: 1, ...POOL_LAYOUT, tp };
  return { prefill: { ...pool }, decode: { ...pool, batch_per_rank: null }, kv_transfer: 'after_prefill' };
}

// The scenario's "disaggregated" object -> the state's, or null. Throws on what the form
// cannot show.
export function disaggregatedFromDoc(doc) {
  if (doc == null) return null;
  const pool = (name) => {
    const p = doc[name] ?? {};
    const par = p.parallelism ?? {};
    for (const key of Object.keys(par)) {
      if (!(key in POOL_LAYOUT)) throw new Error(`the form cannot show disaggregated.${name}.parallelism.${key}`);
    }
    const out = { workers: p.workers, ...Object.fromEntries(Object.entries(POOL_LAYOUT).map(([k, none]) => [k, par[k] ?? none])) };
    if (name === 'decode') out.batch_per_rank = p.batch_per_rank ?? null;
    return out;
  };
  const kv = doc.kv_transfer ?? 'after_prefill';
  if (!KV_TRANSFERS.includes(kv)) throw new Error(`unknown kv_transfer ${JSON.stringify(kv)}`);
  return { prefill: pool('prefill'), decode: pool('decode'), kv_transfer: kv };
}

// The state's -> the scenario's "disaggregated" object (defaults left out, as the engine
// echoes them).
export function disaggregatedScenario(d) {
  const pool = (p) => {
    const parallelism = Object.fromEntries(Object.entries(POOL_LAYOUT).filter(([k, none]) => p[k] !== none || k === 'tp').map(([k]) => [k, p[k]]));
    return { workers: p.workers, parallelism, ...(p.batch_per_rank != null ? { batch_per_rank: p.batch_per_rank } : {}) };
  };
  return { prefill: pool(d.prefill), decode: pool(d.decode), ...(d.kv_transfer !== 'after_prefill' ? { kv_transfer: d.kv_transfer } : {}) };
}

// -> [[key, text]] in link order; `text` writes a number as the link keeps it.
export function disaggregatedParams(d, text) {
  if (!d) return [];
  const out = [];
  for (const pool of POOLS) {
    for (const f of POOL_NUMBERS) {
      if (f === 'workers' || f === 'tp' || d[pool][f] !== POOL_LAYOUT[f]) out.push([`${pool}_${f}`, text(d[pool][f])]);
    }
  }
  if (d.decode.batch_per_rank != null) out.push(['decode_batch_per_rank', text(d.decode.batch_per_rank)]);
  if (d.kv_transfer !== 'after_prefill') out.push(['kv_transfer', d.kv_transfer]);
  return out;
}

// Reads the link's disaggregation keys into `workload`. `read`: { number, choice }.
export function readDisaggregated(q, workload, read) {
  if (!q.has('prefill_workers')) {
    const stray = DISAGGREGATED_KEYS.find((key) => q.has(key));
    if (stray) throw new Error(`"${stray}" is a setting of disaggregated serving, which needs "prefill_workers"`);
    return;
  }
  const d = disaggregatedStart(null);
  for (const pool of POOLS) {
    for (const f of POOL_NUMBERS) if (q.has(`${pool}_${f}`)) d[pool][f] = read.number(`${pool}_${f}`, q.get(`${pool}_${f}`));
  }
  if (q.has('decode_batch_per_rank')) d.decode.batch_per_rank = read.number('decode_batch_per_rank', q.get('decode_batch_per_rank'));
  if (q.has('kv_transfer')) d.kv_transfer = read.choice('kv_transfer', q.get('kv_transfer'), KV_TRANSFERS);
  workload.disaggregated = d;
}

// Engine error paths -> the form's inputs (views/errors.js).
export const DISAGGREGATED_PATHS = {
  disaggregated: 'disagg',
  ...Object.fromEntries(POOLS.flatMap((pool) => [
    [`disaggregated.${pool}`, `${pool}_workers`],
    [`disaggregated.${pool}.workers`, `${pool}_workers`],
    [`disaggregated.${pool}.parallelism`, `${pool}_tp`],
    ...Object.keys(POOL_LAYOUT).map((f) => [`disaggregated.${pool}.parallelism.${f}`, `${pool}_${f}`]),
  ])),
  'disaggregated.decode.batch_per_rank': 'decode_batch_per_rank',
  'disaggregated.kv_transfer': 'kv_transfer',
};
