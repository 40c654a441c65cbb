// The methodology view: core/METHODOLOGY.md (copied into the site as methodology.md)
// rendered with marked, a table of contents, and an anchor on every heading so that each
// number on the calculator can link to the section that explains it.
import { marked } from '../vendor/marked.esm.js';
import { h, $ } from './dom.js';

// "10. Headline numbers" → "headline-numbers": stable across renumbering.
export function slug(text) {
  return text.toLowerCase().replace(/^[\d.\s]+/, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

async function start() {
  const doc = $('#doc');
  let text;
  try {
    const response = await fetch('methodology.md');
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (error) {
    doc.replaceChildren(h('p', { class: 'fatal', text: `The methodology could not be loaded: ${error.message}.` }));
    return;
  }
  // The Markdown is the project's own file, not user input.
  doc.innerHTML = marked.parse(text, { gfm: true });
  // Code blocks and tables scroll sideways when wide (css/style.css .doc): focusable, so
  // that a keyboard can scroll them too.
  for (const box of doc.querySelectorAll('pre, table')) box.tabIndex = 0;
  const toc = [];
  const used = new Set();
  for (const heading of doc.querySelectorAll('h2, h3')) {
    let id = slug(heading.textContent);
    while (used.has(id)) id += '-';
    used.add(id);
    heading.id = id;
    if (heading.tagName === 'H2') toc.push(h('a', { href: `#${id}`, text: heading.textContent }));
  }
  $('#toc').replaceChildren(...toc);
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}

start();
