// Puts each problem next to the input it concerns. Engine errors carry a JSON path
// ("workload.parallelism.tp"); the field is the one mapped to that path or to its
// nearest mapped ancestor, else the message goes to the general error line.
import { $ } from '../dom.js';
import { ARCH_FIELDS } from '../scenario.js';

const PATH_TO_FIELD = {
  model: 'model',
  ...Object.fromEntries(ARCH_FIELDS.map((f) => [`model.${f}`, `arch-${f}`])),
  system: 'hardware',
  'system.chip': 'hardware',
  'system.count': 'chips',
  // The form never edits the network; it breaks only when the chip count outgrows it.
  'system.network': 'chips',
  'workload.parallelism': 'tp',
  'workload.parallelism.tp': 'tp',
  'workload.batch': 'batch',
  'workload.input_tokens': 'input',
  'workload.output_tokens': 'output',
  'workload.precision': 'weights',
  'workload.precision.weights': 'weights',
  'workload.precision.kv_cache': 'kv_cache',
  'workload.precision.activations': 'activations',
  'workload.flash_attention': 'flash',
  engine: 'engine',
};

export function fieldForPath(path) {
  let p = String(path ?? '');
  while (p) {
    if (Object.hasOwn(PATH_TO_FIELD, p)) return PATH_TO_FIELD[p];
    const parent = p.replace(/(\.[^.[\]]*|\[[^\]]*\])$/, '');
    if (parent === p) break;
    p = parent;
  }
  return null;
}

function labelOf(fieldId) {
  const label = document.querySelector(`label[for="${fieldId}"]`);
  return label ? label.textContent.trim() : fieldId;
}

function showAt(fieldId, message) {
  const box = $(`#${fieldId}-error`);
  const input = $(`#${fieldId}`);
  if (!box || !input) return false;
  box.textContent = message;
  box.hidden = false;
  input.setAttribute('aria-invalid', 'true');
  input.closest('.field')?.classList.add('has-error');
  // An architecture field is inside a collapsible section; open it so the error is seen.
  if (fieldId.startsWith('arch-')) $('#arch').open = true;
  return true;
}

// localErrors: Map(field id -> message); engineError: {path, message} or null;
// stale: whether older results stay on screen.
export function renderErrors({ localErrors, engineError, stale }) {
  for (const box of document.querySelectorAll('.field-error')) {
    box.hidden = true;
    box.textContent = '';
  }
  for (const el of document.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  for (const el of document.querySelectorAll('.field.has-error')) el.classList.remove('has-error');

  const general = $('#general-error');
  const lines = [];
  for (const [fieldId, message] of localErrors) {
    showAt(fieldId, message);
    lines.push(`${labelOf(fieldId)}: ${message}`);
  }
  if (engineError) {
    const message = String(engineError.message ?? 'unknown error');
    const fieldId = fieldForPath(engineError.path);
    if (fieldId && showAt(fieldId, message)) lines.push(`${message} (see “${labelOf(fieldId)}”)`);
    else lines.push(engineError.path ? `${engineError.path}: ${message}` : message);
  }
  general.hidden = lines.length === 0;
  general.textContent = lines.length
    ? `This scenario cannot be computed: ${lines.map((l) => l.replace(/\.$/, '')).join('; ')}.${stale ? ' The dimmed results are for the last valid inputs.' : ''}`
    : '';
}
