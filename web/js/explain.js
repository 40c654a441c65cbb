// "How is this computed": for each headline number, the formula in plain words with the
// result's own values put in, the operators behind it, and the methodology section that
// explains it. Pure: everything is read from the engine's result JSON. A formula is shown
// with its values only when those values reproduce the headline the engine reported (to
// one part in a million); otherwise only its words are given, so that the page never
// shows a calculation that does not add up.
//   explain(id, result) -> { title, lines: [text], parts: [{name, text, share}],
//                           ops: {phase, list: [{name, share}]}, anchor } | null
import * as fmt from './format.js';

// Dollars, joules and watts at three significant digits ("$0.0388", "$148", "69.2 J").
const sig3 = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });
const usd = (x) => (Number.isFinite(x) ? `$${Math.abs(x) >= 1e4 ? fmt.compact(x) : sig3.format(x)}` : fmt.DASH);
const joules = (x) => (Number.isFinite(x) ? `${sig3.format(x)}\u00a0J` : fmt.DASH);
const kwh = (x) => (Number.isFinite(x) ? `${x >= 1e3 ? fmt.compact(x / 1e3) + '\u00a0MWh' : sig3.format(x) + '\u00a0kWh'}` : fmt.DASH);
const watts = (x) => (Number.isFinite(x) ? `${sig3.format(x)}\u00a0W` : fmt.DASH);

const ok = (x) => typeof x === 'number' && Number.isFinite(x);
// Whether `got` reproduces `want` (relative 1e-6; both finite).
export const agrees = (got, want) => ok(got) && ok(want) && Math.abs(got - want) <= 1e-6 * Math.max(Math.abs(want), 1e-300);

// Anchors of methodology.html (methodology-main.js slugs each heading: "15. Headline numbers"
// -> "headline-numbers"); tests/browser/explain-state.test.mjs checks that each one exists.
export const ANCHORS = {
  headline: 'headline-numbers',
  concurrency: 'continuous-batching-at-a-fixed-concurrency',
  speculative: 'speculative-decoding',
  memory: 'memory-per-chip',
  trainingResults: 'training-results-the-summary-the-breakdown-time-to-train-warnings',
  trainingFlops: 'training-flops-mfu-and-hfu',
  trainingMemory: 'training-memory-per-stage',
  cost: 'dollars-and-joules-per-token-per-step',
  price: 'price-per-chip-hour',
  server: 'serving-at-an-offered-request-rate-server-mode',
  disaggregated: 'disaggregated-serving-a-prefill-pool-a-decode-pool-the-kv-cache-between-them',
};
// The timing headlines, and what an open loop or disaggregated pools make of them: the
// engine's queueing and pool models (METHODOLOGY §15.5, §15.7), whose parts the Serving card
// lists, not one phase's time over a batch.
const TIMING_TITLES = { ttft: 'Time to first token', tpot: 'Time per output token', e2e: 'End-to-end latency',
  throughput: 'Output throughput', prefill: 'Prefill throughput' };

const TOP_OPS = 4;

// The operators of one or more phases summed per name (every stage, every variant), the
// largest first, each with its share of the phases' summed operator time.
export function topOps(result, phases, n = TOP_OPS) {
  const byName = new Map();
  let total = 0;
  for (const phase of phases) {
    for (const op of result.phases?.[phase]?.ops ?? []) {
      if (!ok(op.total_time_s)) continue;
      byName.set(op.name, (byName.get(op.name) ?? 0) + op.total_time_s);
      total += op.total_time_s;
    }
  }
  if (!(total > 0)) return [];
  return [...byName].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([name, seconds]) => ({ name, seconds, share: seconds / total }));
}

const ops = (result, phases) => ({ phase: phases.join(' and '), list: topOps(result, phases) });

// "A = words = values = result" when the values reproduce the result, else "A = words".
function line(name, words, values, computed, reported, show) {
  if (values && agrees(computed, reported)) return `${name} = ${words} = ${values} = ${show(reported)}`;
  return `${name} = ${words} = ${show(reported)}`;
}

const n = fmt.int;
const dur = fmt.duration;
const rate = (x) => `${fmt.compact(x)} tokens/s`;

// The inference cycle the cost is computed over (METHODOLOGY §36.5) and the time of its prefills.
function inferenceCycle(result) {
  const s = result.summary;
  const w = result.scenario.workload;
  const dp = result.scenario.parallelism?.dp ?? 1;
  const requests = dp * w.batch;
  const cycle = requests * w.output_tokens / s.output_tokens_per_s;
  const concurrency = w.mode === 'concurrency';
  const prefill = concurrency ? w.batch * result.phases.prefill.time_s : s.ttft_s;
  return { requests, cycle, prefill, concurrency };
}

function inference(id, result) {
  const s = result.summary;
  const w = result.scenario.workload;
  const P = result.phases ?? {};
  const pre = P.prefill?.time_s;
  const dec = P.decode?.time_s;
  const O = w.output_tokens;
  const N = w.batch;
  const dp = result.scenario.parallelism?.dp ?? 1;
  const concurrency = w.mode === 'concurrency';
  const spec = Boolean(w.speculative);
  const anchor = concurrency ? ANCHORS.concurrency : spec ? ANCHORS.speculative : ANCHORS.headline;
  if ((result.open_loop || result.disaggregated) && id in TIMING_TITLES) {
    const what = result.disaggregated
      ? 'the steady state of the prefill and decode pools: the prefill queue, the prompt\'s own prefill, the KV cache\'s move and the decode worker\'s step at its running batch'
      : 'the steady state of the open loop at the offered rate: the M/D/1 wait for prefill, the request\'s own prefill, and the decode step at the running batch Little\'s law gives';
    return { title: TIMING_TITLES[id], lines: [`This number is ${what}; the Serving card lists its parts as the engine reports them.`],
      ops: ops(result, id === 'tpot' ? ['decode'] : ['prefill', 'decode']), anchor: result.disaggregated ? ANCHORS.disaggregated : ANCHORS.server };
  }
  const tDec = O > 1 ? dec / (O - 1) : NaN;
  switch (id) {
    case 'ttft': {
      const lines = concurrency
        ? [line('TTFT', 'one request’s prefill + half a decode step', `${dur(pre)} + ${dur(tDec)} ÷ 2`, pre + tDec / 2, s.ttft_s, dur),
          line('decode step', 'decode time ÷ (output − 1)', `${dur(dec)} ÷ ${n(O - 1)}`, tDec, tDec, dur)]
        : [line('TTFT', 'the prefill phase’s time', null, pre, s.ttft_s, dur),
          `The prefill computes ${n(N)} × ${n(w.input_tokens)} prompt tokens: ${fmt.flops(P.prefill?.flops)} and ${fmt.bytes(P.prefill?.bytes)} of memory traffic${(result.pipeline?.stages ?? 1) > 1 ? '' : ' per chip'}, with ${dur(P.prefill?.exposed_communication_s)} of communication not hidden behind compute.`];
      return { title: 'Time to first token', lines, ops: ops(result, ['prefill']), anchor };
    }
    case 'tpot': {
      if (s.tpot_s == null) return { title: 'Time per output token', lines: ['One output token: there is no decode step, so no time per output token.'], ops: ops(result, ['prefill']), anchor };
      const lines = concurrency
        ? [line('TPOT', 'decode step + (N − 1) × prefill ÷ (output − 1)', `${dur(tDec)} + ${n(N - 1)} × ${dur(pre)} ÷ ${n(O - 1)}`, tDec + (N - 1) * pre / (O - 1), s.tpot_s, dur)]
        : [line('TPOT', 'decode time ÷ (output − 1)', `${dur(dec)} ÷ ${n(O - 1)}`, dec / (O - 1), s.tpot_s, dur)];
      if (spec && ok(s.tokens_per_step)) lines.push(`Speculative decoding: each pass of the model yields E = ${fmt.num(s.tokens_per_step)} tokens on average.`);
      return { title: 'Time per output token', lines, ops: ops(result, ['decode']), anchor };
    }
    case 'e2e': {
      const lines = concurrency
        ? [line('E2E', 'TTFT + (output − 1) × TPOT', `${dur(s.ttft_s)} + ${n(O - 1)} × ${dur(s.tpot_s)}`, s.ttft_s + (O - 1) * s.tpot_s, s.e2e_latency_s, dur)]
        : [line('E2E', 'TTFT + decode time', `${dur(s.ttft_s)} + ${dur(dec)}`, s.ttft_s + dec, s.e2e_latency_s, dur)];
      return { title: 'End-to-end latency', lines, ops: ops(result, ['prefill', 'decode']), anchor };
    }
    case 'throughput': {
      const lines = [];
      if (concurrency) {
        const cycle = N * pre + (O - 1) * tDec;
        lines.push(line('cycle', 'N × prefill + (output − 1) × decode step', `${n(N)} × ${dur(pre)} + ${n(O - 1)} × ${dur(tDec)}`, cycle, cycle, dur));
        lines.push(line('throughput', 'replicas × N × output ÷ cycle', `${n(dp)} × ${n(N)} × ${n(O)} ÷ ${dur(cycle)}`, dp * N * O / cycle, s.output_tokens_per_s, rate));
      } else {
        lines.push(line('throughput', 'replicas × batch × output tokens ÷ E2E', `${n(dp)} × ${n(N)} × ${n(O)} ÷ ${dur(s.e2e_latency_s)}`, dp * N * O / s.e2e_latency_s, s.output_tokens_per_s, rate));
      }
      lines.push(line('per chip', 'throughput ÷ chips', `${rate(s.output_tokens_per_s)} ÷ ${n(s.chips)}`, s.output_tokens_per_s / s.chips, s.output_tokens_per_s_per_chip, rate));
      return { title: 'Output throughput', lines, ops: ops(result, ['prefill', 'decode']), anchor };
    }
    case 'prefill': {
      const lines = concurrency
        ? [line('prefill throughput', 'replicas × N × input ÷ cycle', null, NaN, s.prefill_tokens_per_s, rate)]
        : [line('prefill throughput', 'replicas × batch × input tokens ÷ TTFT', `${n(dp)} × ${n(N)} × ${n(w.input_tokens)} ÷ ${dur(s.ttft_s)}`, dp * N * w.input_tokens / s.ttft_s, s.prefill_tokens_per_s, rate)];
      return { title: 'Prefill throughput', lines, ops: ops(result, ['prefill']), anchor };
    }
    case 'memory':
      return memory(result, [['weights', 'weights_bytes'], ['KV cache', 'kv_cache_bytes'], ['activations', 'activation_bytes']], ANCHORS.memory);
    default:
      return null;
  }
}

// Memory per chip: the parts that sum to the total, each with its share.
function memory(result, fields, anchor) {
  const m = result.memory;
  const present = fields.filter(([, key]) => ok(m[key]));
  const sum = present.reduce((a, [, key]) => a + m[key], 0);
  const words = present.map(([name]) => name).join(' + ');
  const values = present.map(([, key]) => fmt.gb(m[key])).join(' + ');
  const stage = (result.pipeline?.stages ?? 1) > 1 ? ` (pipeline stage ${m.stage}, the one that needs the most)` : '';
  const lines = [line(`memory per chip${stage}`, words, values, sum, m.total_bytes, fmt.gb),
    `Capacity: ${fmt.gb(m.capacity_bytes)} of HBM per chip, so ${fmt.percent(m.total_bytes / m.capacity_bytes)} is used.`];
  const parts = agrees(sum, m.total_bytes) ? present.map(([name, key]) => ({ name, text: fmt.gb(m[key]), share: m[key] / m.total_bytes })) : [];
  return { title: 'Memory per chip', lines, parts, ops: null, anchor };
}

const BREAKDOWN_NAMES = {
  compute_s: 'compute', tp_s: 'exposed TP communication', cp_s: 'exposed CP communication', pp_s: 'pipeline hand-offs',
  ep_s: 'exposed EP communication', zero3_s: 'exposed ZeRO-3 gathers', bubble_s: 'pipeline bubble',
  dp_s: 'exposed gradient synchronisation', optimizer_s: 'optimizer step', offload_s: 'offload transfers',
};

function training(id, result) {
  const s = result.summary;
  const w = result.scenario.workload;
  const both = ['forward', 'backward'];
  switch (id) {
    case 'step': {
      const b = s.breakdown ?? {};
      const used = Object.keys(BREAKDOWN_NAMES).filter((k) => ok(b[k]) && b[k] > 0);
      const sum = used.reduce((a, k) => a + b[k], 0);
      const lines = [line('step time', used.map((k) => BREAKDOWN_NAMES[k]).join(' + '), used.map((k) => dur(b[k])).join(' + '), sum, s.step_time_s, dur)];
      const parts = agrees(sum, s.step_time_s) ? used.map((k) => ({ name: BREAKDOWN_NAMES[k], text: dur(b[k]), share: b[k] / s.step_time_s })) : [];
      return { title: 'Step time', lines, parts, ops: ops(result, both), anchor: ANCHORS.trainingResults };
    }
    case 'tokens':
      return { title: 'Training throughput', lines: [
        line('throughput', 'tokens per step ÷ step time', `${fmt.compact(s.tokens_per_step)} ÷ ${dur(s.step_time_s)}`, s.tokens_per_step / s.step_time_s, s.tokens_per_s, rate),
        line('per chip', 'throughput ÷ chips', `${rate(s.tokens_per_s)} ÷ ${n(s.chips)}`, s.tokens_per_s / s.chips, s.tokens_per_s_per_chip, rate)],
      ops: ops(result, both), anchor: ANCHORS.trainingResults };
    case 'tflops':
    case 'mfu': {
      const tflops = line('model TFLOP/s per chip', 'model FLOPs per step ÷ step time ÷ chips',
        `${fmt.flops(s.model_flops_per_step)} ÷ ${dur(s.step_time_s)} ÷ ${n(s.chips)}`,
        s.model_flops_per_step / s.step_time_s / s.chips / 1e12, s.model_tflops_per_chip, (x) => `${fmt.num(x)} TFLOP/s`);
      const precision = w.precision;
      const peak = result.scenario.system?.chip?.peak_tflops?.[precision];
      const lines = [tflops];
      lines.push(line('MFU', `model TFLOP/s per chip ÷ the chip’s dense ${precision} peak`, ok(peak) ? `${fmt.num(s.model_tflops_per_chip)} ÷ ${fmt.num(peak)} TFLOP/s` : null,
        s.model_tflops_per_chip / peak, s.mfu, fmt.percent));
      lines.push(line('HFU', 'hardware TFLOP/s per chip (what the kernels run: the causal attention halved, recomputation included) ÷ the same peak', ok(peak) ? `${fmt.num(s.hardware_tflops_per_chip)} ÷ ${fmt.num(peak)} TFLOP/s` : null,
        s.hardware_tflops_per_chip / peak, s.hfu, fmt.percent));
      return { title: id === 'mfu' ? 'MFU' : 'Model TFLOP/s per chip', lines, ops: ops(result, both), anchor: ANCHORS.trainingFlops };
    }
    case 'memory':
      return memory(result, [['weights', 'weights_bytes'], ['gradients', 'gradient_bytes'], ['optimizer states', 'optimizer_bytes'], ['activations', 'activation_bytes']], ANCHORS.trainingMemory);
    default:
      return null;
  }
}

// The cost numbers (result.cost; METHODOLOGY §36.4–36.5), by the cost field's name.
function cost(id, result) {
  const c = result.cost;
  if (!c) return null;
  const perHour = c.usd_per_chip_hour;
  const usd4 = (x) => usd(x);
  if (id === 'usd_per_chip_hour') {
    const lines = c.pricing === 'owned' && ok(c.capex_usd_per_chip_hour) && ok(c.energy_usd_per_chip_hour)
      ? [line('$ per chip-hour', 'capital per hour + electricity per hour', `${usd(c.capex_usd_per_chip_hour)} + ${usd(c.energy_usd_per_chip_hour)}`, c.capex_usd_per_chip_hour + c.energy_usd_per_chip_hour, perHour, usd4)]
      : [`$ per chip-hour = ${usd(perHour)}: a cloud price per chip-hour, power included.`];
    return { title: 'Price per chip-hour', lines, ops: null, anchor: ANCHORS.price };
  }
  if (result.workload === 'training') {
    const s = result.summary;
    const step = c.chips * perHour * s.step_time_s / 3600;
    const lines = {
      usd_per_step: [line('$ per step', 'chips × $ per chip-hour × step time ÷ 3600 s', `${n(c.chips)} × ${usd(perHour)} × ${dur(s.step_time_s)} ÷ 3600`, step, c.usd_per_step, usd4)],
      usd_total: [line('$ in all', '$ per step × steps', `${usd(c.usd_per_step)} × ${fmt.compact(c.steps)}`, c.usd_per_step * c.steps, c.usd_total, usd4)],
      chip_hours: [line('chip-hours', 'chips × step time × steps ÷ 3600 s', `${n(c.chips)} × ${dur(s.step_time_s)} × ${fmt.compact(c.steps)} ÷ 3600`, c.chips * s.step_time_s * c.steps / 3600, c.chip_hours, fmt.compact)],
      facility_energy_kwh: [
        line('energy at the servers (IT)', 'energy per step × steps', `${kwh(c.energy_kwh_per_step)} × ${fmt.compact(c.steps)}`, c.energy_kwh_per_step * c.steps, c.energy_kwh, kwh),
        line('energy at the facility', 'IT energy × PUE', `${kwh(c.energy_kwh)} × ${fmt.num(result.scenario.cost?.pue)}`, c.energy_kwh * result.scenario.cost?.pue, c.facility_energy_kwh, kwh)],
      tokens_per_usd: [line('tokens per $', 'tokens per step ÷ $ per step', `${fmt.compact(s.tokens_per_step)} ÷ ${usd(c.usd_per_step)}`, s.tokens_per_step / c.usd_per_step, c.tokens_per_usd, fmt.compact)],
    }[id];
    return lines ? { title: 'Cost', lines, ops: null, anchor: ANCHORS.cost } : null;
  }
  const { requests, cycle, prefill } = inferenceCycle(result);
  const w = result.scenario.workload;
  const C = c.chips * perHour / 3600 * cycle;
  const share = prefill / cycle;
  const base = [line('cycle', 'requests × output tokens ÷ output throughput', `${n(requests)} × ${n(w.output_tokens)} ÷ ${rate(result.summary.output_tokens_per_s)}`, cycle, cycle, dur)];
  if (id !== 'joules_per_output_token') {
    if (!ok(perHour)) return { title: 'Cost', lines: ['No price per chip-hour is known for this chip, so there is no cost to compute: choose a pricing under Cost.'], ops: null, anchor: ANCHORS.price };
    base.push(line('C, the cycle’s cost', 'chips × $ per chip-hour × cycle ÷ 3600 s', `${n(c.chips)} × ${usd(perHour)} × ${dur(cycle)} ÷ 3600`, C, C, usd4));
  }
  const own = {
    usd_per_request: line('$ per request', 'C ÷ requests', `${usd(C)} ÷ ${n(requests)}`, C / requests, c.usd_per_request, usd4),
    usd_per_m_input_tokens: line('$ per million input tokens', 'C × prefill share of the cycle ÷ (requests × input tokens) × 10⁶',
      `${usd(C)} × ${fmt.percent(share)} ÷ (${n(requests)} × ${n(w.input_tokens)}) × 10⁶`, C * share / (requests * w.input_tokens) * 1e6, c.usd_per_m_input_tokens, usd4),
    usd_per_m_output_tokens: line('$ per million output tokens', 'C × (1 − prefill share) ÷ (requests × (output − 1)) × 10⁶',
      `${usd(C)} × (1 − ${fmt.percent(share)}) ÷ (${n(requests)} × ${n(w.output_tokens - 1)}) × 10⁶`, C * (1 - share) / (requests * (w.output_tokens - 1)) * 1e6, c.usd_per_m_output_tokens, usd4),
    output_tokens_per_usd: line('output tokens per $', 'requests × output tokens ÷ C', `${n(requests)} × ${n(w.output_tokens)} ÷ ${usd(C)}`, requests * w.output_tokens / C, c.output_tokens_per_usd, fmt.compact),
    joules_per_output_token: line('J per output token', 'chips × IT power per chip × cycle ÷ (requests × output tokens)',
      `${n(c.chips)} × ${watts(c.power_w_per_chip?.it)} × ${dur(cycle)} ÷ (${n(requests)} × ${n(w.output_tokens)})`,
      c.chips * c.power_w_per_chip?.it * cycle / (requests * w.output_tokens), c.joules_per_output_token, joules),
  }[id];
  if (!own) return null;
  return { title: 'Cost', lines: [...base, own], ops: ops(result, ['prefill', 'decode']), anchor: ANCHORS.cost };
}

// The Cost card's metrics (views/cost-view.js) and the result.cost field each shows; any
// other id is read as a field's name ("usd-per-request" -> usd_per_request).
const COST_METRICS = {
  'cost-output': 'usd_per_m_output_tokens', 'cost-input': 'usd_per_m_input_tokens', 'cost-request': 'usd_per_request',
  'cost-step': 'usd_per_step', 'cost-total': 'usd_total', 'cost-chip-hours': 'chip_hours',
};
export function costFieldOf(id, result) {
  if (id === 'cost-energy') return result?.workload === 'training' ? 'facility_energy_kwh' : 'joules_per_output_token';
  return COST_METRICS[id] ?? String(id).replace(/^cost[-_]/, '').replaceAll('-', '_');
}

export function explain(id, result) {
  if (!result?.ok || !result.summary) return null;
  try {
    const found = result.workload === 'training' ? training(id, result) : inference(id, result);
    return found ?? cost(costFieldOf(id, result), result);
  } catch {
    return null; // a result without the fields a formula reads: no panel rather than a wrong one
  }
}
