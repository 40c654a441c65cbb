// "Import a Hugging Face config.json": a paste box, a file picker and a drop target in the
// model panel. The engine (core: io/hf_config.cpp, the same import as `envelope import-hf`)
// turns the config into a model document and notes; the page then holds that model the way
// it holds any edited model: a preset with the architecture fields changed over it (and
// the model's name), so the link carries it like any other edit.
import { h, $ } from './dom.js';
import { modelFields, presetValue } from './scenario.js';
import { flatModel, hasExperts } from './moe.js';

// A config.json is a few kilobytes; the engine refuses documents above 1 MiB anyway.
const MAX_BYTES = 1 << 20;

// Properties the editor may have no field for (modelFields decides): those stay the base
// preset's, and a note says so.
const KEPT = {
  tied_embeddings: (v) => (v ? 'tied embeddings' : 'untied embeddings'),
  norm: (v) => (v === 'layernorm' ? 'LayerNorm' : 'RMSNorm'),
  linear_bias: (v) => (v ? 'biases on the linear layers' : 'no biases on the linear layers'),
  sliding_window: (v) => (v ? `a sliding window of ${v} tokens` : 'full attention'),
};
const DEFAULTS = { norm: 'rmsnorm', sliding_window: 0 };

// Latent attention (DeepSeek's MLA) cannot be added or removed by edits: an imported model
// with it goes over a preset with it, one without over one without; where the editor has no
// fields for its sizes, they must be the preset's.
const MLA_FIELDS = ['q_lora_rank', 'kv_lora_rank', 'qk_rope_dim', 'qk_nope_dim', 'v_head_dim'];
const mlaValueOf = (doc, f) => (doc.mla ? doc.mla[f] ?? 0 : undefined);
const sameMla = (a, b) => MLA_FIELDS.every((f) => mlaValueOf(a, f) === mlaValueOf(b, f));

// A document's value of a KEPT property, with the schema's default when it leaves it out.
const kept = (doc, field) => doc[field] ?? DEFAULTS[field] ?? false;

// The preset the imported fields go over: one with experts for a mixture (the editor shows
// mixture fields only then), else a dense one; among those the one that shares most of the
// properties the editor cannot change, the current preset first on a tie.
function basePreset(model, presets, currentKey) {
  const moe = hasExperts(model);
  const score = (doc) => Object.keys(KEPT).filter((k) => kept(doc, k) === kept(model, k)).length
    + (sameMla(doc, model) ? 2 : 0) + (doc.max_seq_len === model.max_seq_len ? 0.5 : 0);
  let best = null;
  for (const key of [currentKey, ...Object.keys(presets.models)]) {
    const doc = presets.models[key];
    // Only a preset the editor's fields describe whole: the flat form (one kind of layer
    // after dense ones), and the model's own kind of attention (or Mamba mixer).
    if (!doc || hasExperts(doc) !== moe || Boolean(doc.mla) !== Boolean(model.mla) || Boolean(doc.mamba) !== Boolean(model.mamba)
      || doc.layer_groups) continue;
    if (best === null || score(doc) > score(presets.models[best])) best = key;
  }
  return best;
}

// The engine's answer ({model, notes}) as the page's model state: {preset, edits, name}
// and the notes, the page's own added (what the editor keeps from the preset). Throws an
// Error with a sentence for a model the editor cannot hold.
export function importedModel(result, presets, currentKey) {
  const flat = flatModel(result.model);
  if (!flat) {
    throw new Error(`${result.model.name} has ${result.model.layer_groups.length} groups of layers of different shapes `
      + '(mixture and dense layers in turn, or sliding-window and full-attention ones), and the editor holds one kind '
      + 'of layer after optional dense layers. Save the model that envelope import-hf prints and use it in a scenario file.');
  }
  const key = basePreset(flat, presets, currentKey);
  if (!key) {
    throw new Error(`there is no preset of its kind (${flat.mla ? 'latent attention' : 'plain attention'}, `
      + `${hasExperts(flat) ? 'a mixture of experts' : 'dense'}) for the editor to start from`);
  }
  const base = presets.models[key];
  const fields = modelFields(base);
  if (flat.mla && !MLA_FIELDS.every((f) => fields.includes(f)) && !sameMla(flat, base)) {
    throw new Error(`${result.model.name} has multi-head latent attention unlike any preset's, and the editor has no `
      + 'fields for it. Save the model that envelope import-hf prints and use it in a scenario file.');
  }
  const edits = {};
  for (const field of fields) {
    const value = presetValue(flat, field);
    if (value !== undefined && value !== presetValue(base, field)) edits[field] = value;
  }
  const notes = [...result.notes];
  for (const [field, text] of Object.entries(KEPT)) {
    if (!fields.includes(field) && kept(flat, field) !== kept(base, field)) {
      notes.push(`The editor has no field for ${field}: this page computes with ${base.name}'s ${text(kept(base, field))}, `
        + `not the config's ${text(kept(flat, field))} (the model that envelope import-hf prints has them).`);
    }
  }
  if (flat.max_seq_len !== base.max_seq_len) {
    notes.push(`The trained context stays ${base.name}'s ${base.max_seq_len} tokens (the config says ${flat.max_seq_len}); `
      + 'only the long-context warning reads it.');
  }
  const model = { preset: key, edits };
  if (flat.name !== base.name) model.name = flat.name;
  return { model, notes };
}

// importHf(text) -> the engine's answer; current() -> the page state; onChange(state).
export function createHfImport(presets, { importHf, current, onChange }) {
  const box = $('#hf-config');
  const error = $('#hf-error');
  const notesList = $('#hf-notes');
  const status = $('#hf-status');

  // (The form's error rendering clears every field's error when the state changes: an
  // import error stays until the next import or the next edit of anything.)
  function showError(message) {
    error.hidden = !message;
    error.textContent = message ?? '';
    if (message) box.setAttribute('aria-invalid', 'true');
    else box.removeAttribute('aria-invalid');
    box.closest('.field').classList.toggle('has-error', Boolean(message));
  }

  function showNotes(notes) {
    notesList.replaceChildren(...notes.map((n) => h('li', { text: n })));
    notesList.hidden = notes.length === 0;
  }

  const count = (n) => (n === 0 ? 'nothing approximated' : n === 1 ? '1 note below' : `${n} notes below`);

  // A failed import leaves the model, and the notes of the import that made it, as they were.
  function run(text, origin) {
    if (!text.trim()) {
      showError('Paste the contents of a config.json first, or choose the file.');
      return;
    }
    const result = importHf(text);
    if (!result.ok) {
      const where = result.error.path ? `${result.error.path}: ` : '';
      showError(`${origin} could not be imported: ${where}${result.error.message}`);
      return;
    }
    let imported;
    try {
      imported = importedModel(result, presets, current().model.preset);
    } catch (e) {
      showError(`${origin} could not be imported: ${e.message}`);
      return;
    }
    showError(null);
    const next = structuredClone(current());
    next.model = imported.model;
    // Expert parallelism is for a model with experts: a dense model starts again from EP 1.
    if (!hasExperts(presets.models[imported.model.preset])) next.parallelism.ep = 1;
    const base = presets.models[imported.model.preset].name;
    status.textContent = `Imported ${result.model.name}: the architecture fields hold it, over ${base}'s preset`
      + ` (${count(imported.notes.length)}).`;
    showNotes(imported.notes);
    $('#arch').open = true;
    onChange(next);
  }
  async function readFile(file) {
    if (!file) return;
    if (file.size > MAX_BYTES) {
      showError(`${file.name} is ${Math.round(file.size / 1024)} KiB; a config.json is a few kilobytes (at most 1 MiB).`);
      return;
    }
    const text = await file.text();
    box.value = text;
    run(text, file.name);
  }

  $('#hf-import-button').addEventListener('click', () => run(box.value, 'The pasted text'));
  $('#hf-file').addEventListener('change', (e) => {
    readFile(e.target.files[0]);
    e.target.value = ''; // choosing the same file again imports it again
  });
  const zone = $('#hf-import');
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('dropping');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dropping'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dropping');
    zone.open = true;
    readFile(e.dataTransfer?.files?.[0]);
  });
  // Another preset chosen: the notes belonged to the import.
  $('#model').addEventListener('change', () => {
    showNotes([]);
    status.textContent = '';
    showError(null);
  });
}
