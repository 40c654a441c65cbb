// The title line: what the numbers on screen were computed for (the resolved scenario
// of the result, which may be the last valid one while the inputs have an error).
import { $ } from '../dom.js';
import * as fmt from '../format.js';
import { sameArchitecture } from '../layer-groups.js';

// EP is not a factor of the chip count: its groups are carved out of the DP replicas.
const epText = (par) => ((par.ep ?? 1) > 1 ? `EP ${fmt.int(par.ep)}` : false);

function trainingDescription(par, w, framework) {
  const dims = [`TP ${fmt.int(par.tp)}${par.sp ? ' with SP' : ''}`, par.cp > 1 && `CP ${fmt.int(par.cp)}`,
    par.pp > 1 && `PP ${fmt.int(par.pp)}${par.virtual_stages > 1 ? ` (${fmt.int(par.virtual_stages)} chunks)` : ''}`,
    par.dp > 1 && `DP ${fmt.int(par.dp)}`].filter(Boolean).join(' × ');
  return [
    `training · ${[dims, epText(par)].filter(Boolean).join(' · ')}${par.zero > 0 ? ` · ZeRO ${par.zero}` : ''}`,
    `global batch ${fmt.int(w.global_batch)} × ${fmt.int(w.seq_len)} tokens, micro-batch ${fmt.int(w.micro_batch)}`,
    `recomputation ${w.recompute}`,
    w.precision,
    w.flash_attention ? 'FlashAttention' : 'no FlashAttention',
    framework && `framework: ${framework}`,
  ].filter(Boolean).join(' · ');
}

export function renderHeading(result, presets) {
  const { model, system, parallelism: par, workload: w } = result.scenario;
  const chip = system.chip?.name ?? 'chip';
  const preset = Object.values(presets.models).find((doc) => doc.name === model.name);
  // The engine writes a model with dense layers first as layer groups: compared layer by layer.
  const edited = preset && !sameArchitecture(preset, model) ? ' (modified)' : '';
  const used = result.summary.chips;
  const idle = used < system.count ? ` (${fmt.int(used)} in use)` : '';
  $('#scenario-title').textContent = `${model.name ?? 'Custom model'}${edited} on ${fmt.int(system.count)} × ${chip}${idle}`;
  if (result.workload === 'training') {
    $('#scenario-desc').textContent = trainingDescription(par, w, result.summary.framework);
    return;
  }
  const p = w.precision;
  const precision = p.weights === p.kv_cache && p.kv_cache === p.activations
    ? p.weights
    : `weights ${p.weights}, KV cache ${p.kv_cache}, activations ${p.activations}`;
  // Disaggregated: each pool has its own layout, and the scenario none of its own.
  const pools = result.scenario.disaggregated;
  const layout = (p) => [`TP ${fmt.int(p.tp ?? 1)}`, (p.pp ?? 1) > 1 && `PP ${fmt.int(p.pp)}`, (p.dp ?? 1) > 1 && `DP ${fmt.int(p.dp)}`]
    .filter(Boolean).join(' × ');
  const pool = (name, p) => `${name} ${fmt.int(p.workers)} × (${[layout(p.parallelism ?? {}), epText(p.parallelism ?? {})].filter(Boolean).join(' · ')})`;
  $('#scenario-desc').textContent = [
    pools ? `disaggregated: ${pool('prefill', pools.prefill)}, ${pool('decode', pools.decode)}` : layout(par),
    !pools && epText(par),
    w.mode === 'server' ? `${fmt.num(w.request_rate)} requests/s offered, at most ${fmt.int(w.batch)} running`
      : w.mode === 'concurrency' ? `continuous batching of ${fmt.int(w.batch)} concurrent requests` : `batch ${fmt.int(w.batch)}`,
    `${fmt.int(w.input_tokens)} input + ${fmt.int(w.output_tokens)} output tokens`,
    w.prefix_cache_hit > 0 && `prefix cache hit ${fmt.percent(w.prefix_cache_hit)}`,
    (w.beams ?? 1) > 1 && `beam search, ${fmt.int(w.beams)} beams`,
    w.kv_offload > 0 && `${fmt.percent(w.kv_offload)} of the KV cache on the host`,
    precision,
    w.flash_attention ? 'FlashAttention' : 'no FlashAttention',
    w.speculative && `speculative decoding (${fmt.int(w.speculative.draft_tokens)} drafts at ${fmt.num(w.speculative.acceptance_rate)} acceptance)`,
    result.scenario.engine?.name && `engine: ${result.scenario.engine.name}`,
  ].filter(Boolean).join(' · ');
}
