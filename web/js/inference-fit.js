// "Does it fit?" for an inference scenario: the engine's fit answer (engine.fit(), core:
// inference/fit.cpp, METHODOLOGY §15.3) {fits, largest_batch, longest_context,
// fewest_chips: {tp, pp, chips} | null, lower_precision: [{weights, kv_cache, fits,
// largest_batch}]} in words, and the page state with the fewest chips' layout, or the 8-bit
// formats, applied.
import * as fmt from './format.js';

// -> { fits, headline, detail, fewest, formats }: headline the verdict's line, detail the
// limits at this layout (null when nothing fits at it), fewest the layout to offer (only when
// the scenario does not fit and one exists), formats the engine's 8-bit options at this
// layout, each {weights, kv_cache, fits, text}. null for an answer that is not ok.
export function fitSummary(fit, { concurrency = false } = {}) {
  if (fit?.ok !== true) return null;
  const word = concurrency ? 'concurrency' : 'batch';
  const limits = `Largest ${word} that fits: ${fmt.int(fit.largest_batch)} · Longest context: ${fmt.int(fit.longest_context)} tokens`;
  if (fit.fits) return { fits: true, headline: limits, detail: null, fewest: null, formats: [] };
  const f = fit.fewest_chips;
  const headline = f
    ? `Fits on ${fmt.int(f.chips)} ${f.chips === 1 ? 'chip' : 'chips'} (TP ${fmt.int(f.tp)} × PP ${fmt.int(f.pp)})`
    : 'Does not fit on this system';
  const parts = [];
  if (fit.largest_batch > 0) parts.push(`${word} ${fmt.int(fit.largest_batch)} at this context`);
  if (fit.longest_context > 0) parts.push(`a context of ${fmt.int(fit.longest_context)} tokens at this ${word}`);
  const detail = parts.length ? `At this layout it fits up to ${parts.join(', or ')}.` : null;
  const formats = (fit.lower_precision ?? []).map((o) => {
    const what = o.weights === 'fp8' ? 'fp8 weights and KV cache' : 'an fp8 KV cache';
    const text = o.fits
      ? `With ${what} it fits here (${word} up to ${fmt.int(o.largest_batch)}).`
      : `With ${what} it still does not fit here.`;
    return { weights: o.weights, kv_cache: o.kv_cache, fits: o.fits, text };
  });
  return { fits: false, headline, detail, fewest: f ?? null, formats };
}

// The state with an 8-bit option's weight and KV-cache formats (the activations as they were).
export function applyFormats(state, option) {
  if (!option?.fits) return null;
  const next = structuredClone(state);
  next.workload.precision = { ...next.workload.precision, weights: option.weights, kv_cache: option.kv_cache };
  return next;
}

// The state with the fewest chips' layout: TP and PP as the engine found them, one replica.
export function applyFewestChips(state, fewest) {
  if (!fewest) return null;
  const next = structuredClone(state);
  next.parallelism.tp = fewest.tp;
  next.parallelism.pp = fewest.pp;
  next.parallelism.dp = 1;
  return next;
}
