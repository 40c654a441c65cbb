// What the Sweep view asks the engine for: the four charts it offers, each an axis of the core's
// sweep (core/inference/sweep.hpp; SCHEMA.md "Sweeps") and the values along it, chosen from the
// scenario and its fit answer (engine.fit()) so that the curve reaches past what fits. Pure:
// the Node tests import it.

// view.sweep: which chart. axis: the core's sweep axis.
export const SWEEP_CHARTS = {
  throughput: { axis: 'batch', label: 'Throughput vs batch' },
  context: { axis: 'input_tokens', label: 'TTFT and TPOT vs context' },
  latency: { axis: 'batch', label: 'Latency vs throughput' },
  memory: { axis: 'input_tokens', label: 'Memory vs context' },
};
export const SWEEP_CHOICES = Object.keys(SWEEP_CHARTS);

// The engine evaluates at most 128 values in one sweep; the page asks for 64.
export const SWEEP_POINTS = 64;
const MAX_BATCH = 65536;
const MAX_CONTEXT = 1_000_000;

// `points` integers from `from` to `to`, geometric, rounded, ascending, without repeats, with
// `own` among them (replacing the nearest when the list is full).
export function geometricValues(from, to, points, own = null) {
  const lo = Math.max(1, Math.round(from));
  const hi = Math.max(lo, Math.round(to));
  const set = new Set();
  const n = Math.max(2, points);
  for (let i = 0; i < n; i++) set.add(Math.min(hi, Math.max(lo, Math.round(lo * (hi / lo) ** (i / (n - 1))))));
  let values = [...set];
  if (Number.isInteger(own) && own >= 1 && !set.has(own)) {
    if (values.length >= points) {
      // Drop the neighbour nearest to it (never an end of the range).
      let drop = -1;
      for (let i = 1; i < values.length - 1; i++) {
        if (drop < 0 || Math.abs(Math.log(values[i] / own)) < Math.abs(Math.log(values[drop] / own))) drop = i;
      }
      if (drop >= 0) values.splice(drop, 1);
    }
    values.push(own);
  }
  values.sort((a, b) => a - b);
  return values;
}

// -> the sweep request {scenario, axis, values} of chart `choice` for an inference scenario,
// or null (a training scenario has no sweep here). fit: engine.fit()'s answer or null.
export function sweepRequest(scenario, choice, fit = null) {
  if (!scenario || scenario.workload?.kind === 'training') return null;
  const chart = SWEEP_CHARTS[choice] ?? SWEEP_CHARTS.throughput;
  const w = scenario.workload;
  if (chart.axis === 'batch') {
    const own = Math.round(Number(w.batch) || 1);
    const largest = fit?.ok ? fit.largest_batch : 0;
    const top = Math.min(MAX_BATCH, Math.max(64, own * 4, largest * 2));
    return { scenario, axis: 'batch', values: geometricValues(1, top, SWEEP_POINTS, own) };
  }
  const own = Math.round(Number(w.input_tokens) || 1);
  const longest = fit?.ok ? fit.longest_context : 0;
  const top = Math.min(MAX_CONTEXT, Math.max(8192, own * 4, Math.round(longest * 1.5)));
  return { scenario, axis: 'input_tokens', values: geometricValues(Math.min(128, own), top, SWEEP_POINTS, own) };
}

// The sweep answer's point at the scenario's own value, or null.
export const ownPoint = (answer) => answer?.points?.find((p) => p.value === answer.current) ?? null;
