// Inputs for property tests: a seeded random generator, valid random scenarios built from
// the presets, and hostile mutations of a scenario document.
import fs from 'node:fs';
import path from 'node:path';
import { root } from './paths.mjs';

// mulberry32: a small seeded generator, so every run tests the same inputs.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const presetKeys = (kind) => fs.readdirSync(path.join(root, 'presets', kind)).map((f) => f.replace(/\.json$/, ''));

// A scenario that is valid most of the time: preset model and chip, a TP that divides the
// heads, sizes from 1 to thousands, formats the chip mostly has.
export function randomScenario(next) {
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const tp = pick([1, 1, 2, 4, 8]);
  const pp = pick([1, 1, 1, 2, 4]);
  const format = pick(['bf16', 'bf16', 'fp16', 'fp8', 'int8']);
  return {
    model: pick(presetKeys('models')),
    system: { chip: pick(presetKeys('chips')), count: tp * pp * pick([1, 1, 2]) },
    parallelism: next() < 0.5 ? { tp, pp } : { tp, pp, dp: 1 },
    workload: {
      batch: pick([1, int(1, 16), int(1, 512), int(1, 4096)]),
      input_tokens: pick([1, int(1, 256), int(1, 8192)]),
      output_tokens: pick([1, int(1, 256), int(1, 4096)]),
      precision: next() < 0.5 ? format : { weights: pick(['bf16', 'fp8', 'int4', 'int8']), kv_cache: pick(['bf16', 'fp8']), activations: format },
      flash_attention: next() < 0.8,
      ...(next() < 0.25 ? { mode: 'concurrency' } : {}),
    },
  };
}

// A training step that is valid most of the time: a preset model on a preset system, a layout of
// TP × PP × CP × DP, any ZeRO stage, schedule, recomputation and overlap flag.
export function randomTrainingScenario(next) {
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const tp = pick([1, 2, 4, 8]);
  const pp = pick([1, 1, 2, 4]);
  const cp = pick([1, 1, 2]);
  const dp = pick([1, 2, 4, 8]);
  const micro = pick([1, 1, 2]);
  const schedule = pp > 1 ? pick(['1f1b', 'gpipe', 'zb_h1', 'interleaved_1f1b']) : '1f1b';
  return {
    model: pick(presetKeys('models')),
    system: { preset: pick(presetKeys('systems')), count: tp * pp * cp * dp },
    parallelism: {
      tp, pp, cp, dp, zero: pick([0, 1, 2, 3]), sp: tp > 1 && next() < 0.5, schedule,
      ...(schedule === 'interleaved_1f1b' ? { virtual_stages: 2 } : {}),
    },
    workload: {
      kind: 'training',
      seq_len: pick([1024, 2048, 4096, 8192]),
      global_batch: micro * dp * pick([1, 4, 8, 16]),
      micro_batch: micro,
      recompute: pick(['none', 'selective', 'full']),
      precision: pick(['bf16', 'bf16', 'fp8']),
      flash_attention: next() < 0.8,
      overlap_grad_reduce: next() < 0.5,
      overlap_param_gather: next() < 0.5,
      tp_comm_overlap: next() < 0.5,
    },
  };
}

// Every path to a value in a document: [['model'], ['workload', 'batch'], ...].
function paths(value, prefix = []) {
  if (!value || typeof value !== 'object') return [prefix];
  const out = prefix.length ? [prefix] : [];
  for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, Array.isArray(value) ? Number(k) : k]));
  return out;
}

function edited(doc, where, change) {
  const copy = structuredClone(doc);
  let parent = copy;
  for (const key of where.slice(0, -1)) parent = parent[key];
  change(parent, where[where.length - 1]);
  return copy;
}

// Hostile variants of one scenario: each field deleted, retyped, negated, zeroed, made huge
// or beyond double range; unknown keys; the text truncated, or with garbage around it.
export function mutations(doc, text) {
  const out = [];
  for (const where of paths(doc)) {
    const value = where.reduce((o, k) => o[k], doc);
    const json = (d) => JSON.stringify(d);
    out.push(json(edited(doc, where, (p, k) => { if (Array.isArray(p)) p.splice(k, 1); else delete p[k]; })));
    for (const retyped of ['x', true, null, [], {}, [1], { preset: 'h100-sxm' }]) {
      out.push(json(edited(doc, where, (p, k) => { p[k] = retyped; })));
    }
    if (typeof value === 'number') {
      for (const n of [-value, 0, 1e18, 1e300, -1e300, 2 ** 63, 1.5, 1e-300]) {
        out.push(json(edited(doc, where, (p, k) => { p[k] = n; })));
      }
      // Beyond double range, which JSON.stringify cannot write: swap in the literal.
      out.push(json(edited(doc, where, (p, k) => { p[k] = 'BEYOND'; })).replace('"BEYOND"', '1e999'));
      out.push(json(edited(doc, where, (p, k) => { p[k] = 'BEYOND'; })).replace('"BEYOND"', '-1e999'));
    }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      out.push(json(edited(doc, where, (p, k) => { p[k] = { ...p[k], unknown_field: 1 }; })));
    }
  }
  out.push(JSON.stringify({ ...doc, unknown_field: 1 }));
  for (let cut = 0; cut < text.length; cut += Math.max(1, Math.floor(text.length / 40))) out.push(text.slice(0, cut));
  out.push(`${text}garbage`, `garbage${text}`, `${text}\u0000`, `${text}${text}`, text.replaceAll('"', "'"));
  return out;
}
