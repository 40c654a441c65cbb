// The engine's fit advice (result.memory.fit_advice, core: training/fit_advice.hpp) for a
// training step that does not fit: the smallest single change that makes it fit, as
// {settings: [{field: "parallelism.zero", value: 3}, ...], peak_bytes, capacity_bytes}.
// Here: the change in plain words, and the page state with the change applied.
import * as fmt from './format.js';

const TARGETS = { cpu: 'CPU memory', nvme: 'NVMe' };

// One setting in words; null for a field the page does not know.
function settingText({ field, value }) {
  switch (field) {
    case 'parallelism.zero': return `ZeRO stage ${value}`;
    case 'parallelism.tp': return `TP ${fmt.int(value)}`;
    case 'parallelism.pp': return `PP ${fmt.int(value)}`;
    case 'parallelism.dp': return `DP ${fmt.int(value)}`;
    case 'workload.recompute': return `${value} recomputation`;
    case 'workload.micro_batch': return `a micro-batch of ${fmt.int(value)} ${value === 1 ? 'sequence' : 'sequences'}`;
    case 'workload.offload.optimizer': return `the optimizer states offloaded to ${TARGETS[value] ?? value}`;
    case 'workload.offload.parameters': return `the parameters offloaded to ${TARGETS[value] ?? value}`;
    default: return null;
  }
}

// "Fits with ZeRO stage 3 (61 GB per chip)"; null when the advice names a field the page
// does not know (then it cannot be applied either).
export function adviceText(advice) {
  const words = (advice?.settings ?? []).map(settingText);
  if (!words.length || words.includes(null)) return null;
  return `Fits with ${words.join(' and ')} (${fmt.gb(advice.peak_bytes)} per chip)`;
}

// Where a scenario field lives in the page state (training.js): [part, key], or null.
function slotOf(field) {
  const offload = field.match(/^workload\.offload\.(optimizer|parameters)$/);
  if (offload) return ['workload', `offload_${offload[1]}`];
  const m = field.match(/^(parallelism|workload)\.(\w+)$/);
  return m ? [m[1], m[2]] : null;
}

// A copy of the training state with the advice's settings, or null if one of them has no
// place in the state.
export function applyAdvice(state, advice) {
  const settings = advice?.settings ?? [];
  if (!settings.length || settings.some(({ field }) => settingText({ field }) === null)) return null;
  const next = structuredClone(state);
  for (const { field, value } of settings) {
    const slot = slotOf(field);
    if (!slot || !(slot[1] in next[slot[0]])) return null;
    next[slot[0]][slot[1]] = value;
  }
  // Only the interleaved schedule takes more than one chunk per stage (training-form.js).
  const p = next.parallelism;
  if (p.schedule !== 'interleaved_1f1b') p.virtual_stages = 1;
  return next;
}
