// The engine's warnings (does not fit, idle chips, context beyond training length, ...).
import { h, $ } from '../dom.js';
import { plainNumbers } from '../format.js';

export function renderWarnings(result) {
  const list = $('#warnings');
  const warnings = Array.isArray(result.warnings) ? result.warnings : [];
  list.replaceChildren(...warnings.map((text) => h('li', { text: plainNumbers(text) })));
  list.hidden = warnings.length === 0;
}
