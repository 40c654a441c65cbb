// The "How?" button of each headline number and the small panel it opens: the formula with
// the result's values (explain.js), the parts or the operators behind it, and a link to the
// methodology section. A button with aria-expanded, so it works by keyboard, mouse and touch
// alike; Escape closes an open panel and gives the focus back to its button.
//
// watchExplanations(roots, current): every time a root's cards are drawn again (the summary
// and the cost card replace their children on each evaluation), the cards with an explanation
// get their button again, and the panels that were open stay open with the new numbers.
import { h } from '../dom.js';
import * as fmt from '../format.js';
import { explain } from '../explain.js';

const opened = new Set(); // "rootId:metricId" of the panels left open

function labelOf(card, fallback) {
  const label = card.querySelector('.metric-label');
  const text = label ? [...label.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('').trim() : '';
  return text || fallback;
}

function panelBody(info) {
  const body = [h('div', { class: 'explain-lines' }, info.lines.map((text) => h('p', { text })))];
  if (info.parts?.length) {
    body.push(h('ul', { class: 'explain-parts', 'aria-label': 'Its parts' },
      info.parts.map((p) => h('li', { text: `${p.name}: ${p.text} (${fmt.percent(p.share)})` }))));
  }
  if (info.ops?.list.length) {
    body.push(h('p', { class: 'explain-ops-title', text: `The operators that take the most of the ${info.ops.phase} time:` }),
      h('ol', { class: 'explain-ops' }, info.ops.list.map((op) => h('li', {},
        h('code', { text: op.name }), ` ${fmt.duration(op.seconds)} (${fmt.percent(op.share)})`))));
  }
  body.push(h('p', { class: 'explain-more' },
    h('a', { href: `methodology.html#${info.anchor}`, text: 'The methodology of this number' })));
  return body;
}

function toggle(button, panel, key, show) {
  button.setAttribute('aria-expanded', String(show));
  panel.hidden = !show;
  if (show) opened.add(key);
  else opened.delete(key);
}

// Adds the button and the (closed or kept open) panel to each card of `root` that has an
// explanation for `result`.
export function decorateMetrics(root, result) {
  if (!root || !result) return;
  for (const card of root.querySelectorAll('[data-metric]')) {
    if (card.querySelector('.explain-toggle')) continue;
    const id = card.dataset.metric;
    const info = explain(id, result);
    if (!info) continue;
    const key = `${root.id}:${id}`;
    const panelId = `explain-${root.id}-${id}`;
    const label = labelOf(card, info.title);
    const button = h('button', {
      type: 'button', class: 'explain-toggle', 'aria-expanded': 'false', 'aria-controls': panelId,
      'aria-label': `How is ${label} computed?`, text: 'How?',
    });
    const panel = h('div', { class: 'explain-panel', id: panelId, hidden: true },
      h('p', { class: 'explain-title', text: `${label}: how it is computed` }), panelBody(info));
    button.addEventListener('click', () => toggle(button, panel, key, panel.hidden));
    card.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || panel.hidden) return;
      toggle(button, panel, key, false);
      button.focus();
    });
    (card.querySelector('.metric-label') ?? card).append(button);
    card.append(panel);
    if (opened.has(key)) toggle(button, panel, key, true);
  }
}

// roots: containers of metric cards (missing ones are skipped); current() -> the result shown.
export function watchExplanations(roots, current) {
  for (const root of roots.filter(Boolean)) {
    new MutationObserver(() => decorateMetrics(root, current())).observe(root, { childList: true });
  }
}
