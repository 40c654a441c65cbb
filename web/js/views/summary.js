// The headline numbers: latency, throughput, memory and size of one evaluated scenario.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';
import { activeParams } from '../moe.js';
import { fitSummary } from '../inference-fit.js';

// Where each headline number is explained (anchors of methodology.html).
export const HOW = {
  ttft: 'headline-numbers',
  tpot: 'headline-numbers',
  e2e: 'headline-numbers',
  throughput: 'headline-numbers',
  prefill: 'headline-numbers',
  memory: 'memory-per-chip',
  params: 'operators',
  chips: 'the-parallel-mapping-and-placement',
  spec: 'speculative-decoding',
};

// extra: class, bar, trust (elements under the value), how (a methodology anchor other
// than HOW[id]; none: no link).
export function metric(id, label, { value, unit }, sub, extra = {}) {
  const how = 'how' in extra ? extra.how : HOW[id];
  return h('div', { class: `metric ${extra.class ?? ''}`.trim(), dataset: { metric: id } },
    h('div', { class: 'metric-label' }, label,
      how ? h('a', { class: 'how', href: `methodology.html#${how}`, title: `How is "${label}" computed?`, text: '?' }) : null),
    h('div', { class: 'metric-value' },
      h('span', { class: 'value', text: value }),
      unit && value !== fmt.DASH ? [' ', h('span', { class: 'unit', text: unit })] : null),
    extra.bar ?? null,
    h('div', { class: 'metric-sub', text: sub }),
    extra.trust ?? null);
}

// The roofline bound and the measured-error range beside an expected value. `band` holds
// ratios on time (measured / predicted, 80% of comparable cases inside); a rate takes
// their reciprocals. unvalidated: the result's regimes no scored case checks (its
// error_band.unvalidated: "chip …", "engine …", "framework …"), which leave it no band.
export function trust({ bound, expected, band, coverage, rate, show, unvalidated = [] }) {
  if (expected == null || !Number.isFinite(expected)) return null;
  const lines = [];
  if (bound != null && Math.abs(bound - expected) > 1e-3 * Math.abs(expected)) {
    lines.push(h('div', { class: 'metric-bound', text: `roofline bound ${show(bound)}` }));
  }
  if (band && band.cases > 0) {
    const [lo, hi] = rate ? [expected / band.high, expected / band.low] : [expected * band.low, expected * band.high];
    lines.push(h('div', {
      class: 'metric-band',
      title: `${Math.round(coverage * 100)}% of ${band.cases} published runs of other setups of this kind fell within this range of Envelope's prediction (its error on them, not a measurement of this setup)`,
      text: `if off like past runs: ${show(lo)} – ${show(hi)}`,
    }));
  } else if (band && band.cases === 0) {
    // No published run of this regime is scored: no band rather than a borrowed one.
    const which = unvalidated.length ? ` (${unvalidated.join(', ')})` : '';
    lines.push(h('div', {
      class: 'metric-band',
      title: `No published run of this kind of setup${which} is among the measured cases Envelope is scored on`,
      text: `unvalidated: no measured run of this kind${which}`,
    }));
  }
  return lines.length ? h('div', { class: 'metric-trust' }, lines) : null;
}

// "12.9B active · " for a mixture of experts (computed from the resolved model, moe.js),
// nothing for a dense model.
export function activeText(result) {
  const active = activeParams(result.scenario.model, result.summary.params);
  return active == null ? '' : `${fmt.compact(active)} active per token · `;
}

// "DP 4 · EP 4": the EP groups are carved out of the replicas, so EP is no factor of the chips.
export const epText = (par) => ((par.ep ?? 1) > 1 ? ` · EP ${fmt.int(par.ep)}` : '');

export const plural = (n, noun, many = `${noun}s`) => `${fmt.int(n)} ${n === 1 ? noun : many}`;

function tokensPerSecond(x) {
  return { value: fmt.compact(x), unit: 'tokens/s' };
}

export function memoryBar(used, capacity, fits) {
  const fraction = capacity > 0 ? Math.min(used / capacity, 1) : 0;
  const fill = h('div', { class: 'meter-fill' });
  fill.style.width = `${(fraction * 100).toFixed(1)}%`;
  return h('div', {
    class: `meter ${fits ? '' : 'meter-over'}`.trim(),
    role: 'meter',
    'aria-label': 'Memory used per chip',
    'aria-valuemin': 0,
    'aria-valuemax': Math.round(capacity / 1e9),
    'aria-valuenow': Math.round(used / 1e9),
  }, fill);
}

// Chips used and how they split: TP × PP × DP, the replicas, and the pipeline when pp > 1.
function layoutMetric(result) {
  const s = result.summary;
  const par = result.scenario.parallelism;
  const pipe = result.pipeline;
  const pools = result.disaggregated;
  if (!par && pools) {
    // Disaggregated: the two pools' chips (the Serving card has their layouts).
    return metric('chips', 'Chips in use', { value: fmt.int(s.chips), unit: s.chips === 1 ? 'chip' : 'chips' },
      `prefill ${plural(pools.prefill.chips, 'chip')} + decode ${plural(pools.decode.chips, 'chip')}`);
  }
  const product = [`TP ${fmt.int(par.tp)}`, `PP ${fmt.int(par.pp)}`, `DP ${fmt.int(par.dp)}`].join(' × ') + epText(par);
  const lines = [];
  if (pipe && pipe.stages > 1) {
    lines.push(h('div', {
      class: 'metric-pipeline',
      text: `${plural(pipe.stages, 'pipeline stage')} of ${pipe.stage_layers.map(fmt.int).join(' + ')} layers · ` +
        `${plural(pipe.micro_batches, 'micro-batch', 'micro-batches')} of ${plural(pipe.micro_batch, 'sequence')}`,
    }));
  }
  const idle = result.scenario.system.count - s.chips;
  if (idle > 0) lines.push(h('div', { class: 'metric-idle', text: `${plural(idle, 'chip')} of the system idle` }));
  return metric('chips', 'Chips in use', { value: fmt.int(s.chips), unit: s.chips === 1 ? 'chip' : 'chips' },
    `${product} · ${plural(s.replicas, 'replica')} of ${plural(s.chips_per_replica, 'chip')}`,
    { trust: lines.length ? h('div', { class: 'metric-trust' }, lines) : null });
}

// The offloaded share of the KV cache (workload.kv_offload): its bytes per chip in the
// host's memory (memory.host_kv_bytes), the host's memory per chip, and whether they fit
// (the engine warns when not). null: nothing offloaded.
function hostKv(result) {
  const used = result.memory.host_kv_bytes ?? 0;
  if (!(used > 0)) return null;
  const capacity = (result.scenario.system.host?.memory_gb ?? 0) * 1e9;
  return { used, capacity, fits: !(capacity > 0) || used <= capacity, share: result.scenario.workload.kv_offload ?? 0 };
}

// That line under the memory verdict.
function hostKvText({ used, capacity, fits, share }) {
  const of = capacity > 0 ? ` of ${fmt.gb(capacity)}` : '';
  return fits ? `KV cache on the host: ${fmt.gb(used)}${of} per chip (${fmt.percent(share)} of it)`
    : `Does not fit in host memory: the offloaded KV cache needs ${fmt.gb(used)}${of} per chip`;
}

// The engine's fit answer under the memory verdict (inference-fit.js), with an Apply
// button for the fewest chips that hold the scenario and one for each 8-bit option that
// fits at this layout. [] : nothing to say.
function fitLines(fit, concurrency, onApplyFit, onApplyFormats) {
  const answer = fitSummary(fit, { concurrency });
  if (!answer) return [];
  const apply = answer.fewest && onApplyFit
    ? h('button', { type: 'button', class: 'apply-advice', title: 'Set TP and PP in the form, with one replica', onclick: () => onApplyFit(answer.fewest), text: 'Apply' })
    : null;
  const formats = answer.formats.map((o) => h('div', { class: 'metric-fit-detail', dataset: { formats: `${o.weights}+${o.kv_cache}` } },
    h('span', { text: o.text }),
    o.fits && onApplyFormats
      ? [' ', h('button', { type: 'button', class: 'apply-advice', title: 'Set the weight and KV-cache formats in the form', onclick: () => onApplyFormats(o), text: 'Apply' })]
      : null));
  return [
    h('div', { class: 'metric-fit', dataset: { fit: answer.fits ? 'fits' : answer.fewest ? 'chips' : 'none' } },
      h('span', { text: answer.headline }), apply ? [' ', apply] : null),
    answer.detail ? h('div', { class: 'metric-fit-detail', text: answer.detail }) : null,
    ...formats,
  ].filter(Boolean);
}

// Speculative decoding: E, the tokens one pass of the model yields (METHODOLOGY §15.1).
function speculativeMetric(result) {
  const spec = result.scenario.workload.speculative;
  const e = result.summary.tokens_per_step;
  if (!spec || e == null) return null;
  const drafter = spec.draft_model ? `drafted by ${spec.draft_model.name ?? spec.draft_model}` : 'drafted by a one-layer head';
  return metric('spec', 'Tokens per model pass', { value: fmt.num(e), unit: '' },
    `E with ${plural(spec.draft_tokens, 'draft token')} at acceptance ${fmt.num(spec.acceptance_rate)}, ${drafter}`);
}

// fit: engine.fit()'s answer for the same scenario (or null); onApplyFit(fewest): applies
// its fewest chips' layout to the form; onApplyFormats(option): an 8-bit option's formats.
export function renderSummary(result, { fit = null, onApplyFit = null, onApplyFormats = null } = {}) {
  const s = result.summary;
  const m = result.memory;
  const w = result.scenario.workload;
  const stages = result.pipeline?.stages ?? 1;
  const steps = w.output_tokens - 1;
  // Continuous batching (METHODOLOGY §15.2): the steady state of `batch` clients.
  const concurrency = w.mode === 'concurrency';
  const server = w.mode === 'server'; // an open loop at an offered rate (§15.5)
  // Prefix caching: prefill computes only the part of each prompt not in the KV cache.
  const cached = w.prefix_cache_hit > 0 ? `, ${fmt.percent(w.prefix_cache_hit)} of it cached` : '';
  // Beam search: a decode step runs batch × beams sequences; a request returns one of them.
  const beams = w.beams ?? 1;
  const beamText = beams > 1 ? ` · ${plural(beams, 'beam')} per request` : '';

  const fits = m.fits === true;
  const host = hostKv(result);
  const memoryLines = [
    host && h('div', { class: `metric-host${host.fits ? '' : ' metric-host-over'}`, dataset: { hostKvBytes: String(host.used) }, text: hostKvText(host) }),
    ...fitLines(fit, concurrency, onApplyFit, onApplyFormats),
  ].filter(Boolean);
  const memoryValue = { value: fmt.num(m.total_bytes / 1e9), unit: `of ${fmt.gb(m.capacity_bytes)}` };
  const onStage = stages > 1 ? ` · stage ${m.stage}, the fullest` : '';
  // The engine's one verdict (memory.fits, METHODOLOGY §16): within HBM is not enough when
  // the KV cache is beyond what the engine's memory fraction and runtime reserve leave it.
  const memorySub = (fits
    ? `fits · ${fmt.percent(m.total_bytes / m.capacity_bytes)} of HBM`
    : m.total_bytes > m.capacity_bytes
      ? `does not fit · ${fmt.gb(m.total_bytes - m.capacity_bytes)} over capacity`
      : `does not fit · ${fmt.percent(m.total_bytes / m.capacity_bytes)} of HBM, more KV cache than the engine leaves room for`) + onStage;

  const r = s.roofline ?? {};
  const bands = s.error_band ?? {};
  const coverage = bands.coverage ?? 0.8;
  const unvalidated = bands.unvalidated ?? [];
  const time = (key, band) => ({ bound: r[key], expected: s[key], band, coverage, unvalidated, show: fmt.duration });
  const rate = (key, band) => ({ bound: r[key], expected: s[key], band, coverage, unvalidated, rate: true,
    show: (x) => `${fmt.compact(x)} tokens/s` });
  $('#summary').replaceChildren(...[
    metric('ttft', 'Time to first token', fmt.durationParts(s.ttft_s),
      server ? `the mean wait for prefill, one request's prefill of ${fmt.num(w.input_tokens)} tokens${cached}, and half a step`
        : result.disaggregated ? `the prefill queue, the prefill of ${fmt.num(w.input_tokens)} tokens${cached}, the KV move and joining decode`
        : concurrency
        ? `one request's prefill of ${fmt.int(w.input_tokens)} tokens${cached}, and half a decode step`
        : `prefill of ${fmt.int(w.batch)} × ${fmt.int(w.input_tokens)} tokens${cached}`,
      { trust: trust(time('ttft_s', bands.ttft)) }),
    metric('tpot', 'Time per output token', fmt.durationParts(s.tpot_s),
      s.tpot_s == null ? 'no decode step: one output token'
        : server ? `the decode step at the running batch the offered rate gives, prompts included${beamText}`
        : result.disaggregated ? `a decode worker's step at its running batch${beamText}`
        : concurrency ? `steady state of ${plural(w.batch, 'concurrent request')}, the others' prefills included${beamText}`
          : `mean over ${plural(steps, 'decode step')}${beamText}`,
      { trust: trust(time('tpot_s', bands.generation)) }),
    metric('e2e', 'End-to-end latency', fmt.durationParts(s.e2e_latency_s),
      `${plural(w.output_tokens, 'output token')} per ${beams > 1 ? 'request, the best of its beams' : 'sequence'}`,
      { trust: trust(time('e2e_latency_s', bands.generation)) }),
    metric('throughput', 'Output throughput', tokensPerSecond(s.output_tokens_per_s),
      `${s.replicas > 1 ? `all ${fmt.int(s.replicas)} replicas · ` : ''}${fmt.compact(s.output_tokens_per_s_per_chip)} tokens/s per chip`,
      { trust: trust(rate('output_tokens_per_s', bands.generation)) }),
    metric('prefill', 'Prefill throughput', tokensPerSecond(s.prefill_tokens_per_s),
      'prompt tokens per second'),
    metric('memory', 'Memory per chip', memoryValue, memorySub,
      { class: fits && (!host || host.fits) ? '' : 'metric-bad',
        bar: memoryBar(m.total_bytes, m.capacity_bytes, fits),
        trust: memoryLines.length ? h('div', { class: 'metric-trust' }, memoryLines) : null }),
    speculativeMetric(result),
    metric('params', 'Parameters', { value: fmt.compact(s.params), unit: '' },
      `${activeText(result)}split over ${plural(s.chips_per_replica, 'chip')} per replica`),
    layoutMetric(result),
  ].filter(Boolean));
}
