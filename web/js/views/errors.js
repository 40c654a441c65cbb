// Puts each problem next to the input it concerns. Engine errors carry a JSON path
// ("parallelism.tp", "system.network[1].link_gbps"); the field is the one mapped to that
// path or to its nearest mapped ancestor that is on the page (and shown: a path may name
// a field of each mode, as workload.precision does), else the message goes to the general
// error line.
import { h, $ } from '../dom.js';
import { ARCH_FIELDS } from '../scenario.js';
import { MOE_FIELDS } from '../moe.js';
import { MLA_FIELDS } from '../attention.js';
import { MAMBA_FIELDS } from '../mamba.js';
import { outOfRange, plainMessage } from './field-names.js';
import { costField } from '../cost.js';
import { hardwareField } from '../hardware-edit.js';
import { DISAGGREGATED_PATHS } from '../disaggregated.js';

const PATH_TO_FIELD = {
  model: 'model',
  ...Object.fromEntries(ARCH_FIELDS.map((f) => [`model.${f}`, `arch-${f}`])),
  // A mixture's fields sit under model.moe, except the flat form's dense_layers.
  'model.moe': 'arch-experts',
  ...Object.fromEntries(MOE_FIELDS.map((f) => [f === 'dense_layers' ? `model.${f}` : `model.moe.${f}`, `arch-${f}`])),
  // Latent attention's fields sit under model.mla.
  'model.mla': 'arch-kv_lora_rank',
  ...Object.fromEntries(MLA_FIELDS.map((f) => [`model.mla.${f}`, `arch-${f}`])),
  // The Mamba mixer's fields sit under model.mamba (its heads are the page's mamba_heads).
  'model.mamba': 'arch-d_inner',
  ...Object.fromEntries(MAMBA_FIELDS.map((f) => [`model.mamba.${f === 'mamba_heads' ? 'heads' : f}`, `arch-${f}`])),
  system: 'hardware',
  'system.chip': 'hardware',
  'system.count': 'chips',
  // The network as a whole: the chip count outgrew what its levels join.
  'system.network': 'chips',
  // tp × pp × dp against the chip count.
  parallelism: 'chips',
  'parallelism.tp': 'tp',
  'parallelism.pp': 'pp',
  'parallelism.ep': 'ep',
  'parallelism.dp': 'dp',
  'parallelism.micro_batches': 'micro_batches',
  'parallelism.sp': 'sp',
  'parallelism.cp': 'cp',
  'parallelism.zero': 'zero',
  'parallelism.schedule': 'schedule',
  'parallelism.virtual_stages': 'virtual_stages',
  'workload.parallelism': 'chips',
  'workload.parallelism.tp': 'tp',
  'workload.batch': 'batch',
  'workload.input_tokens': 'input',
  'workload.output_tokens': 'output',
  'workload.precision': ['weights', 'train_precision'],
  'workload.precision.weights': 'weights',
  'workload.precision.kv_cache': 'kv_cache',
  'workload.precision.activations': 'activations',
  'workload.flash_attention': ['flash', 'train_flash'],
  ...Object.fromEntries(['seq_len', 'global_batch', 'micro_batch', 'recompute', 'dropout', 'overlap_grad_reduce',
    'overlap_param_gather', 'tp_comm_overlap', 'train_tokens'].map((f) => [`workload.${f}`, f])),
  // Serving (serving.js): continuous batching and speculative decoding; an error inside
  // the draft model's document goes to the drafter.
  'workload.mode': 'serving',
  'workload.request_rate': 'request_rate',
  'workload.requests': 'request_rate',
  ...DISAGGREGATED_PATHS,
  'workload.speculative': 'spec',
  'workload.speculative.draft_tokens': 'draft_tokens',
  'workload.speculative.acceptance_rate': 'acceptance_rate',
  'workload.speculative.draft_model': 'draft_model',
  'workload.prefix_cache_hit': 'prefix_cache_hit',
  'workload.beams': 'beams',
  'workload.kv_offload': 'kv_offload',
  'workload.prefill_chunk': 'prefill_chunk',
  'workload.offload': 'offload_optimizer',
  'workload.offload.optimizer': 'offload_optimizer',
  'workload.offload.parameters': 'offload_parameters',
  engine: 'engine',
};

// A level's field in the network editor (network-editor.js names its inputs so):
// system.network[1].link_gbps → net-1-link_gbps, …in_network_reduction.efficiency →
// net-1-inr-efficiency, system.network[1] → its name.
function networkField(path) {
  const m = path.match(/^system\.network\[(\d+)\](?:\.(in_network_reduction)(?:\.(\w+))?|\.(\w+))?$/);
  if (!m) return null;
  const [, level, reduction, reductionField, field] = m;
  if (reduction) return `net-${level}-inr${reductionField ? `-${reductionField}` : ''}`;
  return `net-${level}-${field ?? 'name'}`;
}

// The fields for a path, nearest first: the path itself, then its ancestors.
export function fieldsForPath(path) {
  const out = [];
  let p = String(path ?? '');
  while (p) {
    const fields = [Object.hasOwn(PATH_TO_FIELD, p) ? PATH_TO_FIELD[p] : networkField(p) ?? costField(p) ?? hardwareField(p)].flat();
    for (const field of fields) if (field && !out.includes(field)) out.push(field);
    const parent = p.replace(/(\.[^.[\]]*|\[[^\]]*\])$/, '');
    if (parent === p) break;
    p = parent;
  }
  return out;
}

export const fieldForPath = (path) => fieldsForPath(path)[0] ?? null;

// The input for exactly this path (no ancestor's), or null: for naming it in a message.
function exactField(path) {
  const fields = [Object.hasOwn(PATH_TO_FIELD, path) ? PATH_TO_FIELD[path] : networkField(path) ?? costField(path) ?? hardwareField(path)].flat();
  return fields.find((id) => id && !document.querySelector(`#${id}`)?.closest('[hidden]')) ?? fields[0] ?? null;
}

function labelOf(fieldId) {
  const named = document.querySelector(`[data-field="${fieldId}"]`)?.dataset.label;
  const label = document.querySelector(`label[for="${fieldId}"]`);
  return named ?? (label ? label.textContent.trim() : fieldId);
}

// note: the page's own words after the engine's message, set apart from it.
function showAt(fieldId, message, note = null, path = null) {
  const box = $(`#${fieldId}-error`);
  const input = $(`#${fieldId}`);
  if (!box || !input || input.closest('[hidden]')) return false;
  box.replaceChildren(message, note ? h('span', { class: 'error-note', text: ` — ${note}` }) : '');
  if (path) box.title = `In a scenario file: ${path}`;
  box.hidden = false;
  input.setAttribute('aria-invalid', 'true');
  input.closest('.field')?.classList.add('has-error');
  // Architecture, network and framework fields are inside collapsible sections; open the
  // section so that the error is seen.
  const section = input.closest('details');
  if (section) section.open = true;
  return true;
}

const NO_HOST = 'pick a system whose preset describes its host, such as DGX H100';

// The system's host (system.host.*) is not on the form: what it lacks goes to the offload
// input that needs it: in inference the KV offload's, in training the offload select's (the
// NVMe bandwidth to the one set to NVMe, the host memory to the one set to CPU memory, the
// rest to the optimizer's when it is offloaded).
function hostError(path, state) {
  const w = state?.workload ?? {};
  if (state?.mode !== 'training') {
    return (w.kv_offload ?? 0) > 0 ? { path: 'workload.kv_offload', note: NO_HOST } : { path, note: null };
  }
  const on = ['offload_optimizer', 'offload_parameters'].filter((f) => (w[f] ?? 'none') !== 'none');
  const want = { 'system.host.nvme_gbps': 'nvme', 'system.host.memory_gb': 'cpu' }[path];
  const field = on.find((f) => !want || w[f] === want) ?? on[0];
  if (!field) return { path, note: null };
  const note = path === 'system.host.nvme_gbps'
    ? 'this system’s preset gives no NVMe bandwidth: offload to CPU memory instead'
    : NO_HOST;
  return { path: `workload.offload.${field.replace('offload_', '')}`, note };
}

// The engine's "tp × cp × dp × pp = 8 needs more chips than system.count = 4" names the
// parallelism as a whole. It goes to DP when the replicas were set (they are what asks for
// the chips), else to the chip count. Inference has no CP input, so the page adds which
// product it is. -> { path, note }
const CHIP_PRODUCT = /^tp × cp × dp × pp = (\d+) needs more chips than system\.count/;
export function placeEngineError(error, state) {
  const path = String(error?.path ?? '');
  if (path.startsWith('system.host')) return hostError(path, state);
  const m = String(error?.message ?? '').match(CHIP_PRODUCT);
  if (!m || (path !== 'parallelism' && path !== 'workload.parallelism')) return { path, note: null };
  const dpSet = state?.parallelism?.dp != null;
  const note = state?.mode === 'training' ? null : `TP × PP × DP = ${m[1]} chips needed.`;
  return { path: dpSet ? 'parallelism.dp' : path, note };
}

// localErrors: Map(field id -> message); engineError: {path, message} or null;
// stale: whether older results stay on screen; state: the inputs' state (where an
// engine error about several fields goes).
export function renderErrors({ localErrors, engineError, stale, state = null }) {
  // Only the form's fields: the result views keep their own errors.
  for (const box of document.querySelectorAll('#inputs .field-error')) {
    box.hidden = true;
    box.textContent = '';
    box.removeAttribute('title');
  }
  for (const el of document.querySelectorAll('#inputs [aria-invalid]')) el.removeAttribute('aria-invalid');
  for (const el of document.querySelectorAll('#inputs .field.has-error, #inputs .field.incomplete')) el.classList.remove('has-error', 'incomplete');

  const general = $('#general-error');
  const lines = [];
  // An entry that is not (yet) a number: only its field says so; the results stay as they
  // were, not dimmed, and the general line stays quiet (it is an entry being typed).
  for (const [fieldId, message] of localErrors) {
    if (showAt(fieldId, message)) $(`#${fieldId}`).closest('.field')?.classList.add('incomplete');
  }
  if (engineError) {
    const raw = String(engineError.message ?? 'unknown error');
    const range = outOfRange(raw);
    const message = (range ? 'Out of range: ' : '') + plainMessage(raw, exactField, labelOf);
    const { path, note } = placeEngineError(engineError, state);
    const fieldId = fieldsForPath(path).find((id) => showAt(id, message, note, engineError.path));
    const noted = note ? ` (${note.replace(/\.$/, '')})` : '';
    const said = range ? `the value is out of range, it ${message.replace(/^Out of range: /, '')}` : message;
    if (fieldId) lines.push(`${range ? `${labelOf(fieldId)}: ` : ''}${said}${noted} (see “${labelOf(fieldId)}”)`);
    else {
      const where = engineError.path ? exactField(engineError.path) : null;
      const name = where && document.querySelector(`#${where}`) ? labelOf(where) : engineError.path;
      lines.push(name ? `${name}: ${said}${noted}` : `${said}${noted}`);
    }
  }
  general.hidden = lines.length === 0;
  general.textContent = lines.length
    ? `This scenario cannot be computed: ${lines.map((l) => l.replace(/\.$/, '')).join('; ')}.${stale ? ' The dimmed results are for the last valid inputs.' : ''}`
    : '';
}
