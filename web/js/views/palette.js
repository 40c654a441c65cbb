// Colours shared by the charts, the table badges (css/style.css repeats the bound colours)
// and the legend text.
export const CLASS_COLORS = {
  matmul: '#2f6fd6',
  attention: '#8a4fd1',
  vector: '#1e9e8a',
  lookup: '#8d99a8',
  collective: '#e07b24',
  host: '#b58b00',
};
export const CLASS_LABELS = {
  matmul: 'Matmul',
  attention: 'Attention',
  vector: 'Elementwise',
  lookup: 'Embedding lookup',
  collective: 'Collective',
  host: 'Engine host time',
};
export const BOUND_COLORS = { compute: '#2f6fd6', memory: '#1e9e8a', network: '#e07b24', overhead: '#b58b00' };
export const BOUND_LABELS = {
  compute: 'Compute-bound', memory: 'Memory-bound', network: 'Network-bound', overhead: 'Fixed overhead',
};

export const MEMORY_COLORS = {
  weights: '#2f6fd6', kv_cache: '#8a4fd1', activations: '#1e9e8a', free: '#e6ebf2',
  gradients: '#b58b00', optimizer: '#8a4fd1', // training
};
// The parts of a training step (result.summary.breakdown), in stacking order.
export const STEP_COLORS = {
  compute_s: '#2f6fd6', tp_s: '#e07b24', cp_s: '#c0508a', pp_s: '#b58b00', zero3_s: '#8a4fd1',
  bubble_s: '#aab3bf', dp_s: '#d9822b', optimizer_s: '#1e9e8a',
};
// Forward and backward blocks of the pipeline timeline.
export const PASS_COLORS = { F: '#2f6fd6', B: '#1e9e8a' };
export const OVER = '#d43c3c';
export const AXIS = '#5b6675';
export const GRID = '#e6ebf2';
export const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

// Shades of a class colour for the per-operator split: ops of one class stay one hue.
export function shade(hex, index, count) {
  if (count <= 1) return hex;
  const n = parseInt(hex.slice(1), 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  const t = (index / (count - 1)) * 0.6 - 0.2; // from 20% darker to 40% lighter
  const mix = rgb.map((c) => Math.round(t < 0 ? c * (1 + t) : c + (255 - c) * t));
  return '#' + mix.map((c) => c.toString(16).padStart(2, '0')).join('');
}
