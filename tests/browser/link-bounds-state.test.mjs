// Oversized links (pure; issue 17, defect 6): what a link may hold is bounded (web/js/link-bounds.js);
// what is over is left out with a short notice naming it, and the rest of the link is read.
// Before: 50,000 unknown keys took 35 s in Node (4.7 s in Chromium) and gave a 1.3 MB notice; a
// 1.9 MB model_name was kept and sent to the engine, which refused the whole scenario.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPresets } from '../support/presets.mjs';
import { fromHash } from '../../web/js/state.js';
import { LINK_BOUNDS } from '../../web/js/link-bounds.js';

const presets = loadPresets();

// 101 characters after the "#", 10 settings.
const LINK = '#model=llama-3-8b&chip=h100-sxm&chips=2&tp=2&pp=1&batch=4&input=1000&output=100&precision=fp8&flash=on';
const plain = fromHash(LINK, presets);

const timed = (hash) => {
  const start = performance.now();
  const out = fromHash(hash, presets);
  return { ...out, ms: performance.now() - start };
};

test('the bounds: 32,768 characters, 1,000 settings, 8,192 characters a value, a notice of at most 2,000', () => {
  assert.deepEqual(LINK_BOUNDS, { chars: 32768, keys: 1000, valueChars: 8192, keyChars: 64, noticeChars: 2000 });
});

test('50,000 unknown keys: read at once, the 1,000th setting on left out, a short notice', () => {
  const out = timed(LINK + Array.from({ length: 50000 }, (_, i) => `&k${i}=1`).join(''));
  assert.ok(out.ms < 1000, `${Math.round(out.ms)} ms`);
  // The link's own 10 settings and k0 … k989 make 1,000; 50,000 − 990 = 49,010 are left out.
  assert.match(out.error, /^This link holds more than the page reads, so part of it was left out: 49,010 settings from "k990" on: a scenario holds at most 1,000\. /);
  // Of the 990 read and unknown, six are named.
  assert.match(out.error, /Part of this link was ignored: unknown setting "k0"; unknown setting "k1"; .*unknown setting "k5" and 984 more\. Its other settings are shown\.$/);
  assert.ok(out.error.length <= 2000, `${out.error.length} characters`);
  assert.deepEqual(out.state, plain.state);
});

test('a 1.9 MB model_name is left out with a notice; the rest of the link is read', () => {
  const out = timed(`${LINK}&model_name=${'a'.repeat(1900000)}`);
  assert.ok(out.ms < 1000, `${Math.round(out.ms)} ms`);
  assert.equal(out.error, 'This link holds more than the page reads, so part of it was left out: '
    + '"model_name" (1,900,000 characters): a value holds at most 8,192 characters.');
  assert.equal(out.state.model.name, undefined);
  assert.deepEqual(out.state, plain.state);
  // A name of 8,192 characters is kept (a 5,000-digit number too: it gets its field's range error, adaptive.test.mjs).
  assert.equal(fromHash(`${LINK}&model_name=${'a'.repeat(8192)}`, presets).state.model.name.length, 8192);
});

test('a link over 32,768 characters is read up to there; the settings past it are named', () => {
  // Counted as each setting's "key=value" and its "&": the link's 101 + 1 = 102, then x1 … x8 at
  // 4,004 each (102 + 8 × 4,004 = 32,134 ≤ 32,768; a 9th makes 36,138). The link has
  // 101 + 9 × 4,004 + 4,005 (x10) = 40,142 characters.
  const long = Array.from({ length: 10 }, (_, i) => `&x${i + 1}=${'a'.repeat(4000)}`).join('');
  const out = fromHash(LINK + long, presets);
  assert.match(out.error, /^This link holds more than the page reads, so part of it was left out: 2 settings from "x9" on: a link is read up to 32,768 characters \(this one has 40,142\)\. /);
  assert.match(out.error, /unknown setting "x6" and 2 more\./); // x1 … x8 were read (and are unknown)
  assert.deepEqual(out.state, plain.state);
});

test('setting names over 64 characters and the notices of many bad values stay short', () => {
  const longKey = `&${'n'.repeat(65)}=1`;
  const out = fromHash(`${LINK}${longKey}${longKey.replace('=', 'm=')}`, presets);
  assert.match(out.error, /left out: 2 setting names over 64 characters\.$/);
  assert.deepEqual(out.state, plain.state);
  // 900 unknown keys of 64 characters: a notice of at most 2,000 characters.
  const many = Array.from({ length: 900 }, (_, i) => `&${String(i).padStart(64, 'k')}=${'v'.repeat(30)}`).join('');
  const bad = timed(LINK + many);
  assert.ok(bad.ms < 1000, `${Math.round(bad.ms)} ms`);
  assert.ok(bad.error.length <= 2000, `${bad.error.length} characters`);
  assert.match(bad.error, / and \d+ more/);
});

test('3,000 pins: the first 3 are read, the others left out at once and named in one line', () => {
  const pin = `&pin=${encodeURIComponent(LINK.slice(1).replace('batch=4', 'batch=8'))}`;
  const out = timed(LINK + pin.repeat(3000));
  assert.ok(out.ms < 1000, `${Math.round(out.ms)} ms`);
  assert.equal(out.pins.length, 3);
  assert.equal(out.pins[0].workload.batch, 8);
  // A pin is "pin=" and its settings encoded (101 characters, of which 9 "&" and 10 "=" become 3
  // each: 139) and its "&": 144. 102 + 226 × 144 = 32,646 ≤ 32,768 (a 227th makes 32,790), so
  // 226 pins are read from the link and 2,774 left out; of the 226, those after the 3rd go.
  assert.match(out.error, /2,774 settings from "pin" on: a link is read up to 32,768 characters/);
  assert.match(out.error, /Compare: pinned scenarios 4 to 226 were left out \(at most 3 are kept\)\.$/);
  assert.deepEqual(out.state, plain.state);
});
