// Human units for engine results (which are SI: seconds, bytes, FLOPs). Every formatter
// returns "—" for a missing or non-finite value, so NaN/Infinity never reach the page.
const NBSP = '\u00a0';
export const DASH = '—';

const ok = (x) => typeof x === 'number' && Number.isFinite(x);

const sig3 = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });
const compact3 = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 });
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function num(x) {
  return ok(x) ? sig3.format(x) : DASH;
}

export function int(x) {
  return ok(x) ? integer.format(x) : DASH;
}

// 24467 -> "24.5K", 68976648192 -> "69B"
export function compact(x) {
  return ok(x) ? compact3.format(x) : DASH;
}

// Scale x into the largest unit that keeps it >= 1, then round to 3 significant digits
// (re-checking the unit after rounding, so 999.7 ms becomes 1 s and not 1,000 ms).
function scaled(x, units, base) {
  if (!ok(x)) return { value: DASH, unit: '' };
  if (x === 0) return { value: '0', unit: base };
  const abs = Math.abs(x);
  let i = units.length - 1;
  while (i > 0 && abs < units[i][0]) i--;
  const [div, unit] = units[i];
  let v = Number((x / div).toPrecision(3));
  if (i + 1 < units.length && Math.abs(v) >= Math.round(units[i + 1][0] / div)) {
    return { value: sig3.format(x / units[i + 1][0]), unit: units[i + 1][1] };
  }
  return { value: sig3.format(v), unit };
}

const TIME = [[1e-9, 'ns'], [1e-6, 'µs'], [1e-3, 'ms'], [1, 's']];
const BYTES = [[1, 'B'], [1e3, 'kB'], [1e6, 'MB'], [1e9, 'GB'], [1e12, 'TB'], [1e15, 'PB']];
const FLOPS = [[1, 'FLOP'], [1e3, 'kFLOP'], [1e6, 'MFLOP'], [1e9, 'GFLOP'], [1e12, 'TFLOP'], [1e15, 'PFLOP'], [1e18, 'EFLOP']];

export const timeParts = (s) => scaled(s, TIME, 's');
export const bytesParts = (b) => scaled(b, BYTES, 'B');

const join = ({ value, unit }) => (value === DASH ? DASH : `${value}${NBSP}${unit}`);
export const time = (s) => join(timeParts(s));
export const bytes = (b) => join(bytesParts(b));
export const flops = (f) => join(scaled(f, FLOPS, 'FLOP'));

// A bare SI prefix, for columns whose header names the unit: 42.9e9 -> "42.9 G".
const SI = [[1, ''], [1e3, 'k'], [1e6, 'M'], [1e9, 'G'], [1e12, 'T'], [1e15, 'P'], [1e18, 'E']];
export const si = (x) => join(scaled(x, SI, '')).trimEnd();

// A duration in the unit a person would say: 820 µs, 1.2 s, 90 s, 42 min, 6.25 h, 27.4 days.
// Every headline time uses it (time to first token, end-to-end latency, the step, time to
// train), so that 22,500 s reads 6.25 h. -> { value, unit }
export function durationParts(s) {
  if (!ok(s) || Math.abs(s) < 120) return timeParts(s);
  const abs = Math.abs(s);
  // Rounded first, so that 7,199 s is "2 h" and not "120 min".
  const [div, unit] = abs < 7200 - 30 ? [60, 'min'] : abs < 172800 ? [3600, 'h'] : [86400, 'days'];
  return { value: sig3.format(s / div), unit };
}

export const duration = (s) => join(durationParts(s));

export function gb(b) {
  return ok(b) ? `${sig3.format(b / 1e9)}${NBSP}GB` : DASH;
}

export function percent(fraction) {
  if (!ok(fraction)) return DASH;
  const p = fraction * 100;
  if (p === 0) return '0%';
  if (p < 0.1) return '<0.1%';
  return `${p.toFixed(1)}%`;
}

// FLOPs per byte moved; "—" for an op that moves no bytes (collectives).
export function intensity(flopCount, byteCount) {
  if (!ok(flopCount) || !ok(byteCount) || byteCount <= 0) return DASH;
  return sig3.format(flopCount / byteCount);
}

// The engine's messages write numbers as C's %g does ("1.31e+04 GB", "[1e-09, 1e+07]"): each
// such number in a text, for people: 13,100 GB, [10⁻⁹, 10,000,000]. Others are left as written.
const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
const plain6 = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 });
export function plainNumbers(text) {
  return String(text).replace(/(?<![\w.])(-?\d+(?:\.\d+)?)e([+-]\d+)\b/g, (all, mantissa, exponent) => {
    const x = Number(all);
    const e = Number(exponent);
    if (!Number.isFinite(x)) return all;
    if (e >= -4 && e <= 12) return plain6.format(x);
    const power = `10${String(e).replace(/[-\d]/g, (c) => SUPERSCRIPT[c])}`;
    return Math.abs(Number(mantissa)) === 1 ? `${Number(mantissa) < 0 ? '−' : ''}${power}` : `${mantissa} × ${power}`;
  });
}
