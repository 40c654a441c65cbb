// Dollars, energy and power as the Cost card and the trade-off write them: three significant
// digits ("$148", "$0.0388", "$1.98M"), "—" for a missing value (no price known, no decode).
const ok = (x) => typeof x === 'number' && Number.isFinite(x);
const sig3 = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });
const compact3 = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 });
export const DASH = '—';

// -> the number part, without the $: "148", "0.0388", "1.98M".
export function usdValue(x) {
  if (!ok(x)) return DASH;
  return Math.abs(x) >= 1e4 ? compact3.format(x) : sig3.format(x);
}
export const usd = (x) => (ok(x) ? `$${usdValue(x)}` : DASH);

// A quantity with an SI prefix on `unit`: 69.2 J, 17.7 kJ, 1.22 kW, 391 MWh (from kWh: x1e3).
const PREFIXES = [[1e-3, 'm'], [1, ''], [1e3, 'k'], [1e6, 'M'], [1e9, 'G'], [1e12, 'T']];
export function siParts(x, unit) {
  if (!ok(x)) return { value: DASH, unit: '' };
  if (x === 0) return { value: '0', unit };
  let i = PREFIXES.length - 1;
  while (i > 0 && Math.abs(x) < PREFIXES[i][0]) i--;
  let v = Number((x / PREFIXES[i][0]).toPrecision(3));
  if (i + 1 < PREFIXES.length && Math.abs(v) >= 1000) {
    i += 1;
    v = x / PREFIXES[i][0];
  }
  return { value: sig3.format(v), unit: `${PREFIXES[i][1]}${unit}` };
}
export const siText = (x, unit) => {
  const { value, unit: u } = siParts(x, unit);
  return value === DASH ? DASH : `${value}\u00a0${u}`;
};
export const joules = (j) => siText(j, 'J');
export const watts = (w) => siText(w, 'W');
export const kwh = (k) => siText(ok(k) ? k * 1e3 : k, 'Wh');
