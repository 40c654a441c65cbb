#!/usr/bin/env node
// The documentation's generated parts, written from their one source so that no copy drifts:
// the methodology's table of contents (from the headings of core/methodology/*.md) and every
// accuracy table (from `envelope validate --json presets/measured/cases.json`).
//
//   node tools/docs.mjs              check: exit 1 naming each generated region that is stale
//   node tools/docs.mjs --write      rewrite the stale regions in place (./dev.sh docs)
//   node tools/docs.mjs --join OUT   the methodology as one document, for the site's page
//
// A region is the text between `<!-- generated: NAME -->` and `<!-- /generated -->`; what is
// outside is hand-written and left alone. ENVELOPE_BIN names the CLI (build/native/envelope).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const METHODOLOGY = join(ROOT, 'core/METHODOLOGY.md');
const PARTS = join(ROOT, 'core/methodology');
const README = join(ROOT, 'README.md');
const VALIDATION = join(PARTS, '20-validation-against-measured-runs.md');
const TRAINING = join(PARTS, '35-validation-of-training.md');

// ---- headings --------------------------------------------------------------------------

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
export function githubAnchor(text) {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

// The page's anchor for the same heading (web/js/methodology-main.js `slug`): numbers dropped,
// so that links survive a renumbering.
export function pageAnchor(text) {
  return text.toLowerCase().replace(/^[\d.\s]+/, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

// The `##` and `###` headings of a Markdown text, outside code blocks.
export function headings(text) {
  const out = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^(#{2,3}) (.*)$/.exec(line);
    if (m) out.push({ level: m[1].length, text: m[2] });
  }
  return out;
}

function partFiles() {
  return readdirSync(PARTS).filter((f) => /^\d\d-.*\.md$/.test(f)).sort();
}

function tocRegion() {
  const lines = [];
  for (const file of partFiles()) {
    for (const hd of headings(readFileSync(join(PARTS, file), 'utf8'))) {
      const link = `methodology/${file}${hd.level === 2 ? '' : `#${githubAnchor(hd.text)}`}`;
      lines.push(`${hd.level === 2 ? '' : '  '}- [${hd.text}](${link})`);
    }
  }
  return lines.join('\n');
}

// The methodology as the page shows it: the index's introduction, then every part in order,
// links between parts pointed at the page's own anchors.
export function joinMethodology() {
  const index = readFileSync(METHODOLOGY, 'utf8');
  const intro = index.slice(0, index.indexOf('\n## Contents')).trimEnd();
  const titles = new Map();
  for (const file of partFiles()) titles.set(file, headings(readFileSync(join(PARTS, file), 'utf8'))[0].text);
  const relink = (text) => text.replace(/\]\((?:methodology\/)?(\d\d-[^)#\s]*\.md)(?:#([^)\s]*))?\)/g, (all, file, anchor) => {
    if (!titles.has(file)) return all;
    return `](#${pageAnchor(anchor ?? titles.get(file))})`;
  });
  const parts = partFiles().map((f) => relink(readFileSync(join(PARTS, f), 'utf8')).trimEnd());
  return `${relink(intro)}\n\n---\n\n${parts.join('\n\n---\n\n')}\n`;
}

// ---- accuracy tables -------------------------------------------------------------------

const pct = (x, digits = 1) => `${(100 * x).toFixed(digits)} %`;
const signed = (x) => `${x < 0 ? '−' : '+'}${Math.abs(100 * x).toFixed(1)} %`;
const whole = (x) => `${Math.round(100 * x)} %`;

// One row of statistics (validation/validate.hpp): n, MAPE, median, within 10 and 25 %, bias, worst.
function statsCells(s, { within = true } = {}) {
  const cells = [String(s.scored), pct(s.mape), pct(s.median_ape)];
  if (within) cells.push(whole(s.within_10), whole(s.within_25));
  cells.push(signed(s.bias), whole(s.worst));
  return cells;
}

function table(header, rows) {
  const line = (cells) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const STATS = ['n', 'MAPE', 'median', '≤10 %', '≤25 %', 'bias', 'worst'];
const metricLabel = (key) => key.replace(/\/(.*)$/, '/`$1`');

function summaryRegion(v) {
  const s = v.summary;
  const rows = [['all', ...statsCells(s)]];
  for (const [kind, k] of Object.entries(s.by_kind)) {
    rows.push([kind, ...statsCells(k)]);
    for (const [metric, m] of Object.entries(s.by_metric)) {
      if (metric.startsWith(`${kind}/`)) rows.push([metricLabel(metric), ...statsCells(m)]);
    }
  }
  const cases = s.scored + s.skipped;
  return `On the ${cases} public cases (\`envelope validate presets/measured/cases.json\`): ${s.scored} scored, ` +
    `${s.skipped} skipped, each with its reason.\n\n${table(['Cases', ...STATS], rows)}`;
}

function coverageRow(c) {
  if (!c.validated) return [c.regime, c.value, String(c.cases), '0', 'unvalidated', '', '', ''];
  return [c.regime, c.value, String(c.cases), ...statsCells(c, { within: false })];
}

function coverageRegion(v, keep = () => true) {
  const rows = v.coverage.filter(keep).map(coverageRow);
  return table(['Regime', 'Value', 'cases', 'n', 'MAPE', 'median', 'bias', 'worst'], rows);
}

// The training cases by the layout family of their source, read from the case ids.
const FAMILIES = [
  ['Megatron-LM 2021, A100, full recomputation: Table 1 (1.7B–1T, PTD-P)', /^megatron21_t1_/],
  ['Megatron-LM 2021 §5.2: PTD-P comparison runs (175B, 530B)', /^megatron21_t2_(6|8|9|10|11)$/],
  ['Megatron-LM 2021 §5.2: ZeRO-3 runs (DeepSpeed 0.3, no model parallelism)', /^megatron21_t2_(0|1|3|4|5)$/],
  ['Korthikanti et al. 2022, A100 step times (full, and SP + selective)', /^korthikanti22_.*_(full|seqsel)$/],
  ['Korthikanti et al. 2022, first-stage activations', /^korthikanti22_.*_memory$/],
  ['NeMo on DGX Cloud H100, dense (GPT-3, Llama 3.1, Nemotron-4)', /^dgxc_(gpt3|llama31|nemotron4)_/],
  ['NeMo on DGX Cloud H100, Grok-1 mixture of experts', /^dgxc_grok1_/],
  ['MaxText on DGX Cloud H100 (Llama 2 70B)', /^dgxc_maxtext_/],
  ['Megatron-Core H100 weak scaling (1.7B–462B)', /^megatron_core_h100_weak_/],
  ['MLPerf Training (every submitter and round)', /^mlperf_train_/],
  ['Megatron-Core mixtures of experts (Qwen3, DeepSeek-V3)', /^mcore(moe)?_/],
  ['NeMo AutoModel, LoRA fine-tuning', /^automodel_lora_/],
  ['NeMo AutoModel, full training (mixtures of experts, Llama 3.1 70B)', /^automodel_(?!lora_)/],
];

function familyRegion(v) {
  const rows = [];
  for (const [label, pattern] of FAMILIES) {
    const errors = v.cases.filter((c) => pattern.test(c.id)).map((c) => c.error).sort((a, b) => a - b);
    if (errors.length === 0) continue;
    const mape = errors.reduce((a, e) => a + Math.abs(e), 0) / errors.length;
    const median = errors[Math.floor((errors.length - 1) / 2)] / 2 + errors[Math.ceil((errors.length - 1) / 2)] / 2;
    const range = errors.length === 1 ? signed(errors[0]) : `${signed(errors[0])} … ${signed(errors.at(-1))}`;
    rows.push([label, String(errors.length), pct(mape), signed(median), range]);
  }
  return `${table(['Family', 'n', 'MAPE', 'median error', 'range'], rows)}\n\n(Families are read from the case ids; ` +
    'a family none of whose cases is scored is left out.)';
}

function trainingRegion(v) {
  const s = v.summary;
  const rows = [];
  for (const kind of ['training', 'memory']) {
    if (s.by_kind[kind]) rows.push([kind, ...statsCells(s.by_kind[kind])]);
    for (const [metric, m] of Object.entries(s.by_metric)) {
      if (metric.startsWith(`${kind}/`)) rows.push([metricLabel(metric), ...statsCells(m)]);
    }
  }
  const keep = (c) => c.regime.startsWith('training ') || c.regime.startsWith('memory ');
  return `${table(['Cases', ...STATS], rows)}\n\nBy regime:\n\n${coverageRegion(v, keep)}\n\nBy family:\n\n${familyRegion(v)}`;
}

// README: the headline regimes, one line each.
function readmeRegion(v) {
  const s = v.summary;
  const cov = (regime, value) => v.coverage.find((c) => c.regime === regime && c.value === value);
  const stat = (label, x) => (x && (x.validated ?? true) && x.scored > 0
    ? [label, String(x.scored), pct(x.mape), pct(x.median_ape), signed(x.bias)]
    : [label, '0', 'unvalidated', '', '']);
  const rows = [
    stat('all', s),
    stat('inference, all', s.by_kind.inference),
    stat('… static batches', cov('inference mode', 'static')),
    stat('… offline maximum throughput', cov('inference mode', 'offline_max_throughput')),
    stat('… closed loop of clients, aggregated', cov('inference mode', 'concurrency')),
    stat('… disaggregated prefill and decode pools', cov('inference mode', 'disaggregated')),
    stat('… `server` mode (an offered request rate)', cov('inference mode', 'server')),
    stat('… TTFT, all modes', s.by_metric['inference/ttft_ms']),
    stat('… TPOT, all modes', s.by_metric['inference/tpot_ms']),
    stat('… output tokens/s', s.by_metric['inference/output_tokens_per_s']),
    stat('training, all', s.by_kind.training),
    stat('… step time', s.by_metric['training/step_time_s']),
    stat('… TFLOP/s per GPU', s.by_metric['training/tflops_per_gpu']),
    stat('… LoRA fine-tuning', cov('training fine-tuning', 'lora')),
    stat('training activation memory', s.by_kind.memory),
    stat('collectives inside one node', cov('collective scope', 'one node')),
    stat('collectives across nodes', cov('collective scope', 'across nodes')),
    stat('GEMMs', s.by_kind.gemm),
  ];
  return `${s.scored} of ${s.scored + s.skipped} cases scored (the rest skipped, each with its reason):\n\n` +
    table(['Cases', 'n', 'MAPE', 'median', 'bias'], rows);
}

function readmeCollectivesRegion(v) {
  const rows = v.coverage.filter((c) => c.regime === 'collective chip' && c.validated)
    .map((c) => [c.value, String(c.scored), pct(c.mape), whole(c.worst)]);
  return table(['Chip', 'n', 'MAPE', 'worst'], rows);
}

// ---- regions ---------------------------------------------------------------------------

function validation() {
  const bin = process.env.ENVELOPE_BIN ?? join(ROOT, 'build/native/envelope');
  const out = execFileSync(bin, ['validate', '--json', join(ROOT, 'presets/measured/cases.json')], {
    encoding: 'utf8', maxBuffer: 1 << 30,
  });
  return JSON.parse(out);
}

// Every generated region: its file, its name, and what it holds now.
export function regions(v = validation()) {
  return [
    [METHODOLOGY, 'toc', tocRegion()],
    [VALIDATION, 'accuracy-summary', summaryRegion(v)],
    [VALIDATION, 'accuracy-coverage', coverageRegion(v)],
    [TRAINING, 'accuracy-training', trainingRegion(v)],
    [README, 'accuracy', readmeRegion(v)],
    [README, 'accuracy-collectives', readmeCollectivesRegion(v)],
  ];
}

// `text` with region `name` holding `body`; throws when the file has no such region.
export function withRegion(text, name, body, file = '') {
  const open = `<!-- generated: ${name} -->`;
  const start = text.indexOf(open);
  const end = start < 0 ? -1 : text.indexOf('<!-- /generated -->', start);
  if (end < 0) throw new Error(`${file}: no region "${name}" (${open} … <!-- /generated -->)`);
  return `${text.slice(0, start + open.length)}\n${body}\n${text.slice(end)}`;
}

function main(args) {
  if (args[0] === '--join') {
    writeFileSync(args[1], joinMethodology());
    return 0;
  }
  const write = args[0] === '--write';
  const texts = new Map();
  const stale = [];
  for (const [file, name, body] of regions()) {
    const text = texts.get(file) ?? readFileSync(file, 'utf8');
    const next = withRegion(text, name, body, file);
    if (next !== text) stale.push(`${file.slice(ROOT.length + 1)}: ${name}`);
    texts.set(file, next);
  }
  if (write) {
    for (const [file, text] of texts) writeFileSync(file, text);
    return 0;
  }
  if (stale.length > 0) {
    console.error(`out of date (./dev.sh docs rewrites them):\n  ${stale.join('\n  ')}`);
    return 1;
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
