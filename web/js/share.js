// Share and export, all in the page: copy the link; download the scenario and its result as
// JSON, the operator table as CSV, a chart as PNG or SVG. Nothing leaves the browser (no request is
// made; downloads are blob: or data: links), so the page's CSP needs nothing new.
import { h, $ } from './dom.js';

export const EXPORT_FORMAT = 'envelope-export';
export const EXPORT_VERSION = 1;

// -> the JSON document of one evaluation: the link, the scenario the engine read, its result.
export function exportDocument({ link, scenario, result, engineVersion }) {
  return { format: EXPORT_FORMAT, version: EXPORT_VERSION, engine: engineVersion, link, scenario, result };
}

const CSV_COLUMNS = [
  ['phase', null], ['stage', (op) => op.stage ?? 0], ['operator', (op) => op.name], ['variant', (op) => op.variant ?? ''],
  ['class', (op) => op.class], ['count', (op) => op.count], ['flops', (op) => op.flops],
  ['bytes_read', (op) => op.bytes_read], ['bytes_written', (op) => op.bytes_written],
  ['network_bytes', (op) => op.network_bytes], ['time_s', (op) => op.time_s],
  ['total_time_s', (op) => op.total_time_s], ['bound', (op) => op.bound],
];

// A CSV field: quoted when it holds a comma, quote or line break; a leading =, +, - or @
// of text is prefixed with ' so that a spreadsheet does not run it as a formula.
export function csvField(value) {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = String(value ?? '');
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

// -> the operators of one phase as CSV, one row per operator and stage, SI units (s, bytes).
export function opsCsv(result, phaseName) {
  const ops = result.phases?.[phaseName]?.ops ?? [];
  const lines = [CSV_COLUMNS.map(([name]) => name).join(',')];
  for (const op of ops) lines.push(CSV_COLUMNS.map(([, get]) => csvField(get ? get(op) : phaseName)).join(','));
  return lines.join('\r\n') + '\r\n';
}

// -> points (a sweep's or a trade-off's answer) as CSV, one row a point, the engine's own field
// names and SI units; a nested object's fields under dotted names (setting.hbm_stacks,
// error.message), the columns in the order they first appear.
export function pointsCsv(points) {
  const flat = (point, prefix = '', out = {}) => {
    for (const [key, value] of Object.entries(point ?? {})) {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) flat(value, `${prefix}${key}.`, out);
      else out[`${prefix}${key}`] = Array.isArray(value) ? JSON.stringify(value) : value;
    }
    return out;
  };
  const rows = points.map((p) => flat(p));
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const lines = [columns.map(csvField).join(',')];
  for (const r of rows) lines.push(columns.map((c) => csvField(typeof r[c] === 'boolean' ? String(r[c]) : r[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}

// A file name from the scenario: "envelope-llama-2-70b-dgx-h100.json".
export function fileName(scenario, suffix) {
  const model = typeof scenario?.model === 'string' ? scenario.model : scenario?.model?.preset ?? 'model';
  const sys = scenario?.system;
  const machine = typeof sys === 'string' ? sys : sys?.preset ?? sys?.chip ?? 'system';
  const slug = `${model}-${machine}`.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-|-$/g, '');
  return `envelope-${slug}${suffix}`;
}

function download(name, href) {
  const a = h('a', { href, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
}

export function downloadText(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  download(name, url);
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// A card's Download CSV: saves the points of shown() ({scenario, points} or null) as
// envelope-MODEL-SYSTEM{suffix}.csv (suffix may depend on what is shown).
export function pointsCsvButton(button, shown, suffix) {
  button.addEventListener('click', () => {
    const now = shown();
    if (now) downloadText(fileName(now.scenario, `${suffix(now)}.csv`), pointsCsv(now.points), 'text/csv');
  });
}

// Copies `text`; where the Clipboard API is missing or refused (an iframe without
// clipboard-write, a page not focused) the link is shown in a field, selected, for Ctrl+C.
// -> 'copied' | 'selected'
export async function copyText(text, field) {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
    // A refused write may also never settle: a second is long enough for a granted one.
    await Promise.race([navigator.clipboard.writeText(text),
      new Promise((resolve, reject) => { setTimeout(() => reject(new Error('no answer')), 1000); })]);
    field.hidden = true;
    return 'copied';
  } catch {
    field.value = text;
    field.hidden = false;
    field.focus();
    field.select();
    let copied = false;
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
    return copied ? 'copied' : 'selected';
  }
}

// Wires the share bar. `current()` -> { state, scenario, result, phase } of the shown result
// (null before the first); charts: [[name, chart]] whose chart has dataURL().
export function createShareBar({ current, link, engineVersion, charts }) {
  const status = $('#share-status');
  const field = $('#share-link');
  const say = (text) => { status.textContent = text; };
  $('#copy-link').addEventListener('click', async () => {
    const how = await copyText(link(), field);
    say(how === 'copied' ? 'Link copied.' : 'Copying is blocked here: the link is selected, press Ctrl+C (⌘C).');
  });
  $('#export-json').addEventListener('click', () => {
    const now = current();
    if (!now) return;
    const doc = exportDocument({ link: link(), scenario: now.scenario, result: now.result, engineVersion });
    downloadText(fileName(now.scenario, '.json'), JSON.stringify(doc, null, 2) + '\n', 'application/json');
    say('Scenario and result saved as JSON.');
  });
  $('#export-csv').addEventListener('click', () => {
    const now = current();
    if (!now) return;
    downloadText(fileName(now.scenario, `-${now.phase}-operators.csv`), opsCsv(now.result, now.phase), 'text/csv');
    say(`Operators of the ${now.phase} phase saved as CSV.`);
  });
  for (const [name, chart, container] of charts) {
    const button = h('button', { type: 'button', class: 'link-button chart-png', text: 'PNG', 'aria-label': `Save the ${name} chart as PNG` });
    button.addEventListener('click', () => {
      const url = chart.dataURL();
      if (!url) return say('The chart is not drawn, so there is nothing to save.');
      download(fileName(current()?.scenario, `-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.png`), url);
      say(`The ${name} chart saved as PNG.`);
    });
    const svgButton = h('button', { type: 'button', class: 'link-button chart-svg', text: 'SVG', 'aria-label': `Save the ${name} chart as SVG` });
    svgButton.addEventListener('click', () => {
      const text = chart.svgText?.();
      if (!text) return say('The chart is not drawn, so there is nothing to save.');
      downloadText(fileName(current()?.scenario, `-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.svg`), text, 'image/svg+xml');
      say(`The ${name} chart saved as SVG.`);
    });
    container.closest('.card')?.querySelector('.card-head')?.append(button, svgButton);
  }
}
