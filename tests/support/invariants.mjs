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

export function checkResult(result) {
  assert.equal(result.ok, true);
  walk(result, 'result');
  for (const w of result.warnings) assert.doesNotMatch(w, /(^|[ (=])-[0-9]|\b(nan|inf)\b/i, `warning: ${w}`);
  const { summary, memory, phases } = result;
  const outputTokens = result.scenario.workload.output_tokens;
  for (const [k, v] of Object.entries(summary)) {
    if (k === 'tpot_s' && outputTokens === 1) assert.equal(v, null, 'tpot_s with one output token');
    else assert.equal(typeof v, 'number', `summary.${k} = ${v}`);
  }
  assert.ok(summary.ttft_s > 0, `ttft_s = ${summary.ttft_s}`);
  assert.ok(summary.e2e_latency_s >= summary.ttft_s, 'e2e < ttft');
  const parts = memory.weights_bytes + memory.kv_cache_bytes + memory.activation_bytes;
  assert.ok(Math.abs(parts - memory.total_bytes) <= 1e-9 * memory.total_bytes, 'memory parts do not sum to the total');
  assert.equal(phases.decode.steps, outputTokens - 1);
}
