// The documentation's generated parts (tools/docs.mjs): every accuracy table the README and
// the methodology quote is what `envelope validate` gives today, and the methodology's
// contents are its headings; the page's one document links its sections to its own anchors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cli, root } from '../support/paths.mjs';
import { githubAnchor, headings, joinMethodology, pageAnchor, regions, withRegion } from '../../tools/docs.mjs';

const tool = path.join(root, 'tools/docs.mjs');

test('the docs quote the accuracy the model reaches today, and list the methodology as it is', () => {
  const r = spawnSync(process.execPath, [tool], { encoding: 'utf8', env: { ...process.env, ENVELOPE_BIN: cli } });
  assert.equal(r.status, 0, `${r.stderr}\nrun ./dev.sh docs and commit what it rewrites`);
});

test('anchors: GitHub drops punctuation and keeps the section number, the page drops the number', () => {
  assert.equal(githubAnchor('15.2 The closed loop: Little\'s law'), '152-the-closed-loop-littles-law');
  assert.equal(githubAnchor('What is not modelled (yet)'), 'what-is-not-modelled-yet');
  assert.equal(pageAnchor('15.2 The closed loop: Little\'s law'), 'the-closed-loop-little-s-law');
  assert.equal(pageAnchor('152-the-closed-loop'), 'the-closed-loop');
  assert.deepEqual(headings('## 1. A\n```\n## not a heading\n```\n### 1.1 B\n#### deeper'), [
    { level: 2, text: '1. A' }, { level: 3, text: '1.1 B' }]);
});

test('a region is replaced between its markers and nothing else; a missing one is an error', () => {
  const text = 'before\n<!-- generated: t -->\nold\n<!-- /generated -->\nafter\n';
  assert.equal(withRegion(text, 't', 'new'), 'before\n<!-- generated: t -->\nnew\n<!-- /generated -->\nafter\n');
  assert.throws(() => withRegion(text, 'other', 'x', 'F.md'), /F\.md: no region "other"/);
});

test('the tables format a hand-made validation: MAPE and median to 0.1 %, signed bias, whole worst', () => {
  const stats = (scored, mape, median, bias, worst) => ({
    scored, mape, median_ape: median, within_10: 0.5, within_25: 1, bias, worst,
  });
  const v = {
    summary: { ...stats(4, 0.30827, 0.2, -0.10421, 3.29), skipped: 1,
      by_kind: { training: stats(4, 0.30827, 0.2, -0.10421, 3.29) },
      by_metric: { 'training/step_time_s': stats(4, 0.30827, 0.2, -0.10421, 3.29) } },
    coverage: [
      { regime: 'training framework', value: 'nemo', cases: 4, validated: true, ...stats(4, 0.069, 0.062, 0.001, 0.28) },
      { regime: 'training chip', value: 'TPUv5p', cases: 8, scored: 0, validated: false },
    ],
    cases: [
      { id: 'dgxc_llama31_8b_x', error: -0.1 }, { id: 'dgxc_llama31_70b_x', error: 0.3 },
      { id: 'dgxc_gpt3_175b_x', error: 0.05 }, { id: 'other', error: 9 },
    ],
  };
  const byName = Object.fromEntries(regions(v).map(([, name, body]) => [name, body]));
  assert.match(byName['accuracy-summary'], /^On the 5 public cases .*: 4 scored, 1 skipped/);
  assert.match(byName['accuracy-summary'], /\| all \| 4 \| 30\.8 % \| 20\.0 % \| 50 % \| 100 % \| −10\.4 % \| 329 % \|/);
  assert.match(byName['accuracy-summary'], /\| training\/`step_time_s` \| 4 \|/);
  assert.match(byName['accuracy-coverage'], /\| training framework \| nemo \| 4 \| 4 \| 6\.9 % \| 6\.2 % \| \+0\.1 % \| 28 % \|/);
  assert.match(byName['accuracy-coverage'], /\| training chip \| TPUv5p \| 8 \| 0 \| unvalidated \|/);
  // The three NeMo dense runs: |−10| + |30| + |5| over 3 = 15.0 %, median +5 %, range −10 … +30 %.
  assert.match(byName['accuracy-training'], /\| NeMo on DGX Cloud H100, dense .* \| 3 \| 15\.0 % \| \+5\.0 % \| −10\.0 % … \+30\.0 % \|/);
});

test('the page gets every section once, in order, its links pointed at its own anchors', () => {
  const joined = joinMethodology();
  const parts = fs.readdirSync(path.join(root, 'core/methodology')).filter((f) => f.endsWith('.md')).sort();
  let at = -1;
  for (const part of parts) {
    const title = headings(fs.readFileSync(path.join(root, 'core/methodology', part), 'utf8'))[0].text;
    const here = joined.indexOf(`\n## ${title}\n`);
    assert.ok(here > at, `${part} is in the page after the one before it`);
    at = here;
  }
  assert.doesNotMatch(joined, /\]\((methodology\/)?\d\d-[^)]*\.md/);  // no link to a file the page does not have
  assert.doesNotMatch(joined, /## Contents/);                          // the page draws its own
  assert.match(joined, /\]\(#what-is-not-modelled-yet\)/);             // the introduction's link, relinked
});
