// What the throughput–latency card asks the engine for, by serving mode: the curve every
// serving benchmark draws is over concurrency, output tokens/s per chip against output
// tokens/s per user (engine.curve(), METHODOLOGY §15.3). A static batch, a closed loop and
// disaggregated pools take the curve of the scenario itself (an offline scenario already
// holds the largest batch that fits); an offered request rate is no concurrency, so its
// curve is the closed loop's at the same settings, and its own point comes from the engine's
// sweep of the server scenario at its own batch (one point, the numbers the engine reports).
// Pure: main.js runs the requests in the sweep worker.

// scenario: the inference scenario evaluated. -> { curve: the scenario for curve(),
// mark: a sweep request for the scenario's own point, or null (the curve marks its batch) }
export function curvePlan(scenario) {
  const w = scenario.workload;
  if (w.mode !== 'server') return { curve: scenario, mark: null };
  const { request_rate: _rate, requests: _requests, ...closed } = w;
  return {
    curve: { ...scenario, workload: { ...closed, mode: 'concurrency' } },
    mark: { scenario, axis: 'batch', values: [w.batch] },
  };
}

// The sweep's answer -> the chart's mark { x, y, label }, or null when it has none.
export function markOf(answer, label) {
  const p = answer?.ok ? answer.points?.[0] : null;
  if (!p?.ok) return null;
  return { x: p.output_tokens_per_s_per_user, y: p.output_tokens_per_s_per_chip, fits: p.fits, label };
}
