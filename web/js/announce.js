// Tells a screen reader what changed: after an edit, once typing has paused, a polite live
// region reads the first headline numbers ("Time to first token 82.3 ms, …"). Only a
// change is read (the same numbers again are not), and not the page's first result, which
// the reader meets in the page itself.
import { h } from './dom.js';

export const ANNOUNCE_DELAY_MS = 1000;
const READ = 4; // headline numbers read out

let region = null;
let timer = 0;
let last = null; // the text last read, or that the first result showed

function liveRegion() {
  region ??= document.querySelector('#results-announcer');
  if (!region) {
    region = h('div', { id: 'results-announcer', class: 'visually-hidden', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    document.body.append(region);
  }
  return region;
}

// "Time to first token 82.3 ms; …" from the headline as drawn.
export function headlineText(root = document) {
  return [...root.querySelectorAll('#summary .metric, #training-summary .metric')].slice(0, READ).map((m) => {
    const label = m.querySelector('.metric-label')?.firstChild?.textContent?.trim() ?? '';
    const value = m.querySelector('.metric-value')?.textContent.replace(/\s+/g, ' ').trim() ?? '';
    return `${label} ${value}`;
  }).filter((t) => t.trim()).join('; ');
}

// After each successful evaluation: reads the new numbers once the edits pause.
export function announceResults() {
  liveRegion();
  clearTimeout(timer);
  timer = setTimeout(() => {
    const text = headlineText();
    if (!text) return;
    if (last === null) {
      last = text; // the first result: not read out
      return;
    }
    if (text === last) return;
    last = text;
    region.textContent = `Updated: ${text}.`;
  }, ANNOUNCE_DELAY_MS);
}
