// What every successful result must satisfy, whatever the scenario: the properties the
// fuzzer (tests/fuzz) checks natively, here for the Node tests of the CLI and wasm module.
import assert from 'node:assert/strict';

// Walks the whole result: every number finite and non-negative. JSON has no NaN or
// infinity (nlohmann writes them as null), so a null where a number belongs is caught by
// the checks of the summary below.
function walk(value, where) {
  if (typeof value === 'number') {
    assert.ok(Number.isFinite(value), `${where} = ${value}`);
    assert.ok(value >= 0, `${where} = ${value} is negative`);
  } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}[${i}]`));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${where}.${k}`);
}

// The expected numbers, and the roofline bound beside them: no null but TPOT with one
// output token; E2E ≥ TTFT > 0; the bound never slower than the expected value.
function checkInference(result) {
  const { summary, memory, phases } = result;
  const outputTokens = result.scenario.workload.output_tokens;
  const numbers = (obj, where) => {
    for (const [k, v] of Object.entries(obj)) {
      if (k === 'roofline' || k === 'error_band') continue;
      if (k === 'tpot_s' && outputTokens === 1) assert.equal(v, null, `${where}.tpot_s with one output token`);
      else assert.equal(typeof v, 'number', `${where}.${k} = ${v}`);
    }
    assert.ok(obj.ttft_s > 0, `${where}.ttft_s = ${obj.ttft_s}`);
    assert.ok(obj.e2e_latency_s >= obj.ttft_s, `${where}: e2e < ttft`);
  };
  numbers(summary, 'summary');
  numbers(summary.roofline, 'summary.roofline');
  const band = summary.error_band;
  for (const family of ['ttft', 'generation']) {
    const b = band[family];
    assert.ok(b.cases === 0 || (b.low > 0 && b.low <= b.high), `error_band.${family}`);
  }
  const slack = (a, b) => a <= b * (1 + 1e-9);
  assert.ok(slack(summary.roofline.ttft_s, summary.ttft_s), 'the bound TTFT exceeds the expected one');
  assert.ok(slack(summary.roofline.e2e_latency_s, summary.e2e_latency_s), 'the bound E2E exceeds the expected one');
  const parts = memory.weights_bytes + memory.kv_cache_bytes + memory.activation_bytes;
  assert.ok(Math.abs(parts - memory.total_bytes) <= 1e-9 * memory.total_bytes, 'memory parts do not sum to the total');
  // The phases are the longest request's (a mean length: METHODOLOGY §15.6): ⌈max⌉ − 1 steps.
  const spread = result.scenario.workload.length_distribution;
  const ratio = spread ? spread.range_ratio : 1;
  const longest = Number.isInteger(outputTokens) && ratio === 1 ? outputTokens : Math.ceil(2 * outputTokens / (1 + ratio) - 1e-9);
  assert.equal(phases.decode.steps, longest - 1);
}

// A positive step whose breakdown adds up to it; memory parts that add up on every stage.
function checkTraining(result) {
  const { summary, memory } = result;
  for (const [k, v] of Object.entries(summary)) {
    if (k === 'breakdown' || k === 'error_band') continue;
    if (k === 'train_time_s' || k === 'chip_hours') assert.ok(v === null || typeof v === 'number', `summary.${k}`);
    else if (k === 'framework') assert.ok(typeof v === 'string' && v.length > 0, 'summary.framework names the profile used');
    else assert.equal(typeof v, 'number', `summary.${k} = ${v}`);
  }
  assert.ok(summary.step_time_s > 0, `summary.step_time_s = ${summary.step_time_s}`);
  const parts = Object.values(summary.breakdown).reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(parts - summary.step_time_s) <= 1e-6 * summary.step_time_s, 'the breakdown does not add up');
  for (const m of memory.stages) {
    const sum = m.weights_bytes + m.gradient_bytes + m.optimizer_bytes + m.activation_bytes;
    assert.ok(Math.abs(sum - m.total_bytes) <= 1e-9 * m.total_bytes, `stage ${m.stage} memory parts`);
  }
}

// A band only where scored cases check the regime (METHODOLOGY §20.5): `unvalidated`, when
// there, names at least one regime, and then no family has a band.
function checkBand(band) {
  if (!('unvalidated' in band)) return;
  assert.ok(Array.isArray(band.unvalidated) && band.unvalidated.length > 0, 'error_band.unvalidated names a regime');
  for (const name of band.unvalidated) assert.ok(typeof name === 'string' && name.length > 0, 'error_band.unvalidated');
  for (const [family, b] of Object.entries(band)) {
    if (b && typeof b === 'object' && !Array.isArray(b)) assert.equal(b.cases, 0, `error_band.${family} of an unvalidated regime`);
  }
}

export function checkResult(result) {
  assert.equal(result.ok, true);
  walk(result, 'result');
  checkBand(result.summary.error_band);
  for (const w of result.warnings) assert.doesNotMatch(w, /(^|[ (=])-[0-9]|\b(nan|inf)\b/i, `warning: ${w}`);
  if (result.workload === 'training') checkTraining(result);
  else checkInference(result);
  // The mapping: every chip used counted once, every layer in one stage, every group's
  // spans multiplying to its size.
  const par = result.scenario.parallelism;
  assert.equal(result.summary.chips, par.tp * par.cp * par.dp * par.pp);
  assert.ok(result.summary.chips <= result.scenario.system.count, 'more chips used than the system has');
  assert.equal(result.pipeline.stages, par.pp);
  const model = result.scenario.model;
  const layers = model.layers ?? model.layer_groups.reduce((n, g) => n + g.count, 0);
  assert.equal(result.pipeline.stage_layers.reduce((a, b) => a + b, 0), layers);
  for (const d of result.network) {
    assert.ok(d.levels.reduce((p, l) => p * l.size, 1) >= d.size, `spans of ${d.dimension}`);
  }
}
