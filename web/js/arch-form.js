// The architecture editor in the form: one input per editable field of the model (which
// ones a preset shows: scenario.js modelFields), the mixture, latent-attention and Mamba
// subsections, the read-only layer groups, and the reset. Every edit is kept against the
// preset (the preset's own value is no edit), so the link carries only what differs.
import { h, $ } from './dom.js';
import { ARCH_FIELDS, BOOLEAN_FIELDS, MODEL_FIELDS, architecture, modelDocument, modelFields, presetValue } from './scenario.js';
import { MOE_FIELDS } from './moe.js';
import { MLA_FIELDS } from './attention.js';
import { MAMBA_FIELDS, hasMamba } from './mamba.js';
import { isGrouped, renderLayerGroups } from './layer-groups.js';

const LABELS = {
  layers: 'Layers',
  hidden: 'Hidden size',
  heads: 'Attention heads',
  kv_heads: 'KV heads',
  head_dim: 'Head dimension',
  sliding_window: 'Sliding window (tokens)',
  ffn: 'FFN size',
  vocab: 'Vocabulary',
  gated_ffn: 'Gated FFN (SwiGLU)',
  parallel_block: 'Parallel attention + MLP',
  // A mixture of experts (moe.js), shown only for a model that has one.
  experts: 'Experts',
  top_k: 'Experts per token',
  expert_ffn: 'Expert FFN size',
  shared_experts: 'Shared experts',
  imbalance: 'Routing imbalance',
  dense_layers: 'Dense layers first',
  // Multi-head latent attention (attention.js), shown only for a model that has it.
  q_lora_rank: 'Query latent rank',
  kv_lora_rank: 'KV latent rank',
  qk_rope_dim: 'RoPE part per head',
  qk_nope_dim: 'Non-RoPE part per head',
  v_head_dim: 'Value head dimension',
  // The Mamba mixer (mamba.js), in place of attention for a model of Mamba layers.
  d_inner: 'Inner width',
  d_state: 'State size',
  d_conv: 'Conv width',
  dt_rank: 'Δ rank',
  mamba_heads: 'Scan heads',
  n_groups: 'B/C groups',
};
// What a field means, on hover.
const TITLES = {
  experts: 'Routed experts in each mixture layer',
  top_k: 'Top-k: the experts the router picks for each token',
  expert_ffn: 'Inner width of one expert',
  shared_experts: 'Experts every token runs through (DeepSeekMoE), each of the expert FFN size',
  imbalance: 'Routing skew: with EP > 1 the busiest chip of the expert-parallel group gets this many times its mean share '
    + 'of routed tokens, and the group waits for it; 1 = balanced',
  dense_layers: 'The first layers keep the dense FFN (of the FFN size); the rest are mixtures',
  sliding_window: 'Each token attends to at most this many tokens, and the KV cache keeps only them; 0: full attention',
  parallel_block: 'Attention and the MLP read the same input side by side and are added to the residual once: '
    + 'one TP reduction per layer instead of two (GPT-J, Falcon)',
  q_lora_rank: 'Width of the query latent (q_lora_rank); 0: queries projected straight from the hidden state',
  kv_lora_rank: 'Width of the KV latent the cache keeps per token (kv_lora_rank)',
  qk_rope_dim: 'The decoupled RoPE part of each query head and of the shared key (qk_rope_head_dim)',
  qk_nope_dim: 'The rest of each query and key head (qk_nope_head_dim)',
  v_head_dim: 'Width of each value head',
  d_inner: 'd_inner: the channels of the scan, expand × hidden size (TP must divide it)',
  d_state: 'd_state: the state kept per channel; each sequence keeps d_inner × d_state of it instead of a KV cache',
  d_conv: 'd_conv: the taps of the causal depthwise convolution before the scan',
  dt_rank: 'dt_rank: the rank of the projection that gives Δ (Mamba-1)',
  mamba_heads: 'heads: the heads of the Mamba-2 scan (TP must divide them)',
  n_groups: 'n_groups: the groups of heads sharing B and C (Mamba-2); must divide the heads',
};
// Fields that may be 0 (the FFN size only for a Mamba model: render sets its minimum).
const ZERO_ALLOWED = ['shared_experts', 'dense_layers', 'sliding_window', 'q_lora_rank', 'qk_rope_dim'];
// Fields that take fractions, and their least value.
const DECIMAL_MIN = { imbalance: 1 };

function fillFields() {
  const boxes = [['#arch-fields', ARCH_FIELDS], ['#arch-moe-fields', MOE_FIELDS], ['#arch-mla-fields', MLA_FIELDS],
    ['#arch-mamba-fields', MAMBA_FIELDS]];
  for (const [box, fields] of boxes) {
    for (const field of fields) {
      const id = `arch-${field}`;
      const error = h('p', { class: 'field-error', id: `${id}-error`, role: 'alert', hidden: true });
      const label = h('label', { for: id, text: LABELS[field], title: TITLES[field] });
      const decimal = field in DECIMAL_MIN;
      $(box).append(BOOLEAN_FIELDS.includes(field)
        ? h('div', { class: 'field checkbox span-2', dataset: { field: id } },
          h('input', { id, type: 'checkbox', 'aria-describedby': `${id}-error` }), label, error)
        : h('div', { class: 'field', dataset: { field: id } }, label,
          h('input', { id, type: 'number', inputmode: decimal ? 'decimal' : 'numeric',
            min: decimal ? DECIMAL_MIN[field] : ZERO_ALLOWED.includes(field) ? 0 : 1, step: decimal ? 'any' : 1,
            'aria-describedby': `${id}-error` }),
          error));
    }
  }
}

// current() -> the page state; onChange(state); readNumber(el) -> a number input's value, or
// undefined after recording why it is not one (form.js).
export function createArchForm(presets, { current, onChange, readNumber }) {
  fillFields();

  $('#arch').addEventListener('input', (e) => {
    const field = e.target.id.replace(/^arch-/, '');
    if (!MODEL_FIELDS.includes(field)) return;
    const next = structuredClone(current());
    const value = BOOLEAN_FIELDS.includes(field) ? e.target.checked : readNumber(e.target);
    if (value !== undefined) {
      if (value === presetValue(presets.models[next.model.preset], field)) delete next.model.edits[field];
      else next.model.edits[field] = value;
    }
    onChange(next);
  });

  $('#arch-reset').addEventListener('click', () => {
    const next = structuredClone(current());
    next.model.edits = {};
    delete next.model.name; // an imported model's name goes with its fields
    onChange(next);
  });

  // set(el, value): writes a control unless the person is typing in it (form.js).
  function render(state, set) {
    const arch = architecture(state, presets);
    const preset = presets.models[state.model.preset];
    const shown = modelFields(preset);
    for (const field of MODEL_FIELDS) {
      const el = $(`#arch-${field}`);
      // A dense model's mixture fields (a model's fields it does not have) stay hidden and empty.
      set(el, shown.includes(field) ? arch[field] ?? '' : '');
      el.closest('.field').classList.toggle('edited', field in state.model.edits);
      el.closest('.field').hidden = !shown.includes(field);
    }
    // A Mamba block may have no MLP at all (ffn 0); a layer with attention needs one.
    const mamba = hasMamba(preset);
    $('#arch-ffn').min = mamba ? 0 : 1;
    $('label[for="arch-ffn"]').title = mamba ? '0: no MLP, the block is its Mamba mixer alone' : '';
    $('#arch-moe').hidden = !shown.includes('experts');
    $('#arch-mla').hidden = !shown.includes('kv_lora_rank');
    $('#arch-mamba').hidden = !shown.includes('d_inner');
    // A model of several layer groups: its groups, read-only (and, edits in, as computed).
    renderLayerGroups(modelDocument(state.model, presets), { grouped: isGrouped(preset) });
    const edits = Object.keys(state.model.edits).length;
    $('#arch-badge').hidden = edits === 0;
    $('#arch-badge').textContent = `${edits} edited`;
    $('#arch-reset').hidden = edits === 0 && state.model.name === undefined;
  }

  return { render };
}
