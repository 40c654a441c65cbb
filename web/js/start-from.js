// "Start from…": a native <select> cannot wrap its text, and the scenario presets have long
// names, so the chosen one was cut off at every width. The select stays (keyboard, screen
// readers and the phone's picker use it) but is made transparent over a face that shows the
// whole name, wrapped (css/adaptive.css). syncStartFrom() after every change of its value.
import { h } from './dom.js';

export function syncStartFrom(select = document.querySelector('#scenario-preset')) {
  if (!select) return;
  let face = select.parentElement?.classList.contains('select-face-wrap') ? select.previousElementSibling : null;
  if (!face) {
    const wrap = h('div', { class: 'select-face-wrap' });
    face = h('span', { class: 'select-face', 'aria-hidden': 'true' });
    select.replaceWith(wrap);
    wrap.append(face, select);
    select.addEventListener('change', () => syncStartFrom(select));
  }
  face.textContent = select.selectedOptions[0]?.textContent ?? '';
}
