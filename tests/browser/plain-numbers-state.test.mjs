// The engine's %g numbers in the words the page shows (format.js plainNumbers), in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainNumbers } from '../../web/js/format.js';

test('engine numbers in scientific notation are written for people; other text is left alone', () => {
  assert.equal(plainNumbers('does not fit: 1.31e+04 GB needed per chip, 85.5 GB available'),
    'does not fit: 13,100 GB needed per chip, 85.5 GB available');
  assert.equal(plainNumbers('must be a number in [1e-09, 1e+07]'), 'must be a number in [10⁻⁹, 10,000,000]');
  assert.equal(plainNumbers('a die of 1e+05 mm² does not fit the wafer'), 'a die of 100,000 mm² does not fit the wafer');
  assert.equal(plainNumbers('tp × pp × dp is 1e+27 chips'), 'tp × pp × dp is 10²⁷ chips');
  assert.equal(plainNumbers('2.5e-05 s'), '2.5 × 10⁻⁵ s');
  assert.equal(plainNumbers('-1e+09'), '-1,000,000,000');
  assert.equal(plainNumbers('-1e+15'), '−10¹⁵');
  assert.equal(plainNumbers('a number beyond +1.8e308'), 'a number beyond +1.8e308');
  assert.equal(plainNumbers('llama-3-8b on h100-sxm, v1e+05'), 'llama-3-8b on h100-sxm, v1e+05');
});
