// Charts in the dark theme. The option builders write the light theme's colours (palette.js
// and a few of their own); in the dark theme the chart wrapper passes each option through
// themed(), which swaps the ink, axis and grid greys for ones that read on a dark card.
// Series colours stay: they are mid-tone hues that read on both.
const DARK = {
  '#1d2733': '#e4eaf1', // ink: titles, the current point
  '#5b6675': '#a9b4c2', // axis labels, legend text, "other operators"
  '#e6ebf2': '#394556', // grid lines, the free part of memory
  '#9aa3af': '#8a95a3', // dashed reference lines
  '#aab3bf': '#6c7785', // waiting on other stages
  '#b8c0ca': '#5f6a78', // curve points that do not fit
};

export const darkTheme = () => typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark';

function remap(value, depth) {
  if (typeof value === 'string') return DARK[value.toLowerCase()] ?? value;
  if (depth > 10 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => remap(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value; // DOM nodes, dates
  const out = {};
  for (const [k, v] of Object.entries(value)) out[k] = remap(v, depth + 1);
  return out;
}

// -> the option as drawn in the current theme (the same object in the light theme).
export function themed(option) {
  if (!darkTheme() || !option) return option;
  const out = remap(option, 0);
  out.backgroundColor = 'transparent';
  out.textStyle = { color: DARK['#5b6675'], ...(out.textStyle ?? {}) };
  return out;
}
