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
// The parts of a training step (result.summary.breakdown), in stacking order: ten
// clearly different hues (blue, orange, pink, brown, yellow, purple, grey, green, teal, navy), so
// that neighbours never read as one part.
export const STEP_COLORS = {
  compute_s: '#2f6fd6', tp_s: '#e07b24', cp_s: '#c0508a', pp_s: '#7a5230', ep_s: '#ecd040', zero3_s: '#8a4fd1',
  bubble_s: '#aab3bf', dp_s: '#5a9e2f', optimizer_s: '#1e9e8a', offload_s: '#1d2f5c',
};
// Distinct hues for things without a colour of their own (the top operators of the
// latency split), after Tableau 10; OTHER is for the rest, grouped.
export const CATEGORICAL = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f'];
export const OTHER = '#5b6675';
// Forward and backward blocks of the pipeline timeline.
export const PASS_COLORS = { F: '#2f6fd6', B: '#1e9e8a' };
export const OVER = '#d43c3c';
export const AXIS = '#5b6675';
export const GRID = '#e6ebf2';
export const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

// Shades of one colour: the chunks of one pass in the pipeline timeline stay one hue.
export function shade(hex, index, count) {
  if (count <= 1) return hex;
  const n = parseInt(hex.slice(1), 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  const t = (index / (count - 1)) * 0.6 - 0.2; // from 20% darker to 40% lighter
  const mix = rgb.map((c) => Math.round(t < 0 ? c * (1 + t) : c + (255 - c) * t));
  return '#' + mix.map((c) => c.toString(16).padStart(2, '0')).join('');
}

// Ink for a label drawn on `hex`: white on dark colours, the page's ink on light ones.
export function labelInk(hex) {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 170 ? '#1d2733' : '#fff';
}
