// What the Search card asks the engine for (engine search(); core/io/search_json.hpp,
// core/SCHEMA.md "Configuration search"), its inputs in the link, and how an answer's point
// becomes page state (Apply). Pure: state.js and the Node tests import it; the card itself
// (search-panel.js) loads only when it is opened.
//
// The card's choice (state.view.search): null (closed) or {chips, ttft_ms, tps_user, rank},
// each as typed (text; '' = the engine's default), kept in the link as
//   search=on[&search.chips=8+16+32][&search.ttft_ms=2000][&search.tps_user=20][&search.rank=mfu]
// chips: serving, the most chips a configuration may use; training, 1 to 16 chip counts.
// ttft_ms, tps_user: the serving SLO (TTFT at most, tokens/s per user at least); rank: training.
export const RANKS = { step_time: 'Step time', mfu: 'MFU', cost: 'Cost' };
export const SEARCH_FIELDS = ['chips', 'ttft_ms', 'tps_user', 'rank'];
export const SEARCH_KEYS = ['search', ...SEARCH_FIELDS.map((f) => `search.${f}`)];
export const TOP = 10;
const MAX_TEXT = 200;
const MAX_CHIP_COUNTS = 16;

export const emptyChoice = () => ({ chips: '', ttft_ms: '', tps_user: '', rank: 'step_time' });

const words = (text) => String(text).split(/[,;+\s]+/).filter(Boolean);
const quoted = (text) => `"${text.length > 48 ? `${text.slice(0, 47)}…` : text}"`;

// -> [[key, text]] in link order; none when the card is closed.
export function searchParams(choice) {
  if (!choice) return [];
  const out = [['search', 'on']];
  for (const f of ['chips', 'ttft_ms', 'tps_user']) {
    const text = String(choice[f] ?? '').trim();
    if (text) out.push([`search.${f}`, words(text).join(' ')]);
  }
  if (choice.rank && choice.rank !== 'step_time') out.push(['search.rank', choice.rank]);
  return out;
}

// get(key) -> the link's text or null. -> the choice, or null when the link has no search.
// Throws a sentence that starts with the key it is about. Values are kept as typed: the
// engine names what is out of range when the search runs.
export function readSearchChoice(get) {
  const on = get('search');
  if (on === null) {
    const stray = SEARCH_KEYS.slice(1).find((k) => get(k) !== null);
    if (stray) throw new Error(`"${stray}" is an input of the Search card, but the link does not open it (search=on)`);
    return null;
  }
  if (on !== 'on') throw new Error(`search = ${quoted(on)} should be "on"`);
  const choice = emptyChoice();
  for (const f of SEARCH_FIELDS) {
    const key = `search.${f}`;
    const text = get(key);
    if (text === null) continue;
    if (text.length > MAX_TEXT) throw new Error(`${key} = ${quoted(text)} is too long (${text.length} characters, at most ${MAX_TEXT})`);
    if (f === 'rank') {
      if (!(text in RANKS)) throw new Error(`search.rank = ${quoted(text)} should be one of ${Object.keys(RANKS).join(', ')}`);
      choice.rank = text;
    } else choice[f] = words(text).join(' ');
  }
  return choice;
}

// A typed number list: -> {values} or {error}. Empty text: {values: []}.
function numbers(text, field, { max = Infinity } = {}) {
  const ws = words(text ?? '');
  if (ws.length > max) return { error: `${field}: at most ${max} values (${ws.length} given)` };
  const values = ws.map(Number);
  const bad = ws.find((w, i) => !Number.isFinite(values[i]));
  return bad === undefined ? { values } : { error: `${field}: ${quoted(bad)} is not a number` };
}

// The request for the engine: -> {request} or {error: {field, message}} for what cannot be
// read as numbers (ranges are the engine's to check). scenario: the page's scenario as
// evaluated (its parallelism is replaced by each candidate's).
export function searchRequest(scenario, choice) {
  const c = choice ?? emptyChoice();
  const training = scenario?.workload?.kind === 'training';
  const chips = numbers(c.chips, 'chips', { max: training ? MAX_CHIP_COUNTS : 1 });
  if (chips.error) return { error: { field: 'chips', message: chips.error } };
  const request = { search: training ? 'training' : 'serving', scenario, top: TOP };
  if (training) {
    if (chips.values.length) request.chips = chips.values;
    request.rank = c.rank in RANKS ? c.rank : 'step_time';
    return { request };
  }
  if (chips.values.length) request.chips = chips.values[0];
  const slo = {};
  for (const [f, key] of [['ttft_ms', 'ttft_ms'], ['tps_user', 'tokens_per_s_per_user']]) {
    const read = numbers(c[f], f, { max: 1 });
    if (read.error) return { error: { field: f, message: read.error } };
    if (read.values.length) slo[key] = read.values[0];
  }
  if (Object.keys(slo).length) request.slo = slo;
  return { request };
}

// A point's layout in words: "TP 4 · PP 2 · DP 1 · mb 2 · selective" (training) or
// "TP 4 · EP 1 · DP 2 · batch 64 · fp8/fp8" (serving).
export function layoutText(point) {
  const s = point?.settings ?? {};
  const p = s.parallelism ?? {};
  const parts = [];
  for (const [k, label] of [['tp', 'TP'], ['pp', 'PP'], ['cp', 'CP'], ['ep', 'EP'], ['dp', 'DP'], ['moe_tp', 'MoE-TP']]) {
    if (p[k] != null && (p[k] !== 1 || k === 'tp' || k === 'dp')) parts.push(`${label} ${p[k]}`);
  }
  if (s.disaggregated) parts.push('prefill/decode pools');
  const w = s.workload ?? {};
  if (p.virtual_stages > 1) parts.push(`${p.virtual_stages} virtual stages`);
  if (p.schedule) parts.push(p.schedule);
  if (p.zero) parts.push(`ZeRO ${p.zero}`);
  if (p.sp) parts.push('SP');
  if (w.micro_batch != null) parts.push(`micro-batch ${w.micro_batch}`);
  if (w.recompute && w.recompute !== 'none') parts.push(`${w.recompute} recompute`);
  if (w.batch != null) parts.push(`batch ${w.batch}`);
  if (w.precision) parts.push(`${w.precision.weights}/${w.precision.kv_cache}`);
  return parts.join(' · ');
}

// A copy of the page state with a point's settings, or null when a setting has no place in
// the state (a disaggregated layout: the page's pools are set in their own form).
export function applyPoint(state, point) {
  const s = point?.settings;
  if (!s || s.disaggregated) return null;
  const next = structuredClone(state);
  const training = state.mode === 'training';
  const p = s.parallelism ?? {};
  for (const [k, v] of Object.entries(p)) {
    if (!(k in next.parallelism)) return null;
    next.parallelism[k] = k === 'sp' ? Boolean(v) : v; // the page keeps SP as on/off
  }
  const w = s.workload ?? {};
  for (const [k, v] of Object.entries(w)) {
    if (k === 'precision' && !training) {
      for (const role of Object.keys(v)) if (role in next.workload.precision) next.workload.precision[role] = v[role];
    } else if (k in next.workload) next.workload[k] = v;
    else return null;
  }
  if (training) {
    // The search's point uses its chips: the page's count follows (the system's size stays).
    if (Number.isFinite(point.chips)) next.machine.count = point.chips;
    if (next.parallelism.schedule !== 'interleaved_1f1b') next.parallelism.virtual_stages = 1;
  }
  return next;
}
