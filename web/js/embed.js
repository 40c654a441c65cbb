// Embedding: the page inside another site's iframe.
//
// `?embed=1` is the compact view (css/embed.css): the results first, no site header or
// footer, the inputs folded behind a button, and an "Open in Envelope" link to the full page
// with the same scenario (the link of the moment: the hash main.js keeps in step with the state).
//
// In any frame, embed or not, the page tells its parent how tall it is whenever that changes:
//   parent.postMessage({ type: 'envelope:height', height }, '*')   (height in CSS px)
// so the host can size the iframe to fit (<envelope-calc> does, js/envelope-calc.js). The
// message says nothing about the scenario, so it goes to any parent.
//
// Nothing here needs storage, the clipboard or a service worker, so it works in an
// <iframe sandbox="allow-scripts"> (an opaque origin).
import { h } from './dom.js';

export const HEIGHT_MESSAGE = 'envelope:height';

// The `embed` parameter of a query string: 1 (or true, on) asks for the compact view.
export function isEmbed(search = location.search) {
  return ['1', 'true', 'on'].includes(new URLSearchParams(search).get('embed'));
}

// The full page with the scenario the frame shows now: this address without the embed
// parameters, with its hash.
export function fullPageUrl(href = location.href) {
  const url = new URL(href);
  url.searchParams.delete('embed');
  url.searchParams.delete('scenario');
  return url.href;
}

function framed() {
  try {
    return window.parent !== window;
  } catch {
    return true;
  }
}

// Posts the height of the document to the parent each time it changes.
function postHeights() {
  let last = -1;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    try {
      window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
    } catch {
      // a parent that went away
    }
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}

// The bar above the results: the link out and the button that unfolds the inputs.
function embedBar() {
  const open = h('a', { class: 'embed-open', href: fullPageUrl(), target: '_blank', rel: 'noopener', text: 'Open in Envelope ↗' });
  // The link follows the state: brought up to date whenever someone may use it, and on
  // each change of the address where the browser reports them (the Navigation API).
  const refresh = () => { open.href = fullPageUrl(); };
  for (const type of ['pointerenter', 'focus', 'mousedown', 'touchstart', 'contextmenu']) open.addEventListener(type, refresh);
  window.addEventListener('hashchange', refresh);
  globalThis.navigation?.addEventListener?.('currententrychange', refresh);

  const toggle = h('button', { type: 'button', class: 'embed-inputs-toggle', 'aria-expanded': 'false', 'aria-controls': 'inputs', text: 'Edit inputs' });
  toggle.addEventListener('click', () => {
    const shown = document.documentElement.classList.toggle('embed-inputs');
    toggle.setAttribute('aria-expanded', String(shown));
    toggle.textContent = shown ? 'Hide inputs' : 'Edit inputs';
  });
  return h('div', { class: 'embed-bar' }, [h('span', { class: 'embed-brand', text: 'Envelope' }), toggle, open]);
}

// In the compact view a link to another page (a "?" to the methodology) opens a tab: the
// frame keeps the calculation.
function linksOut(event) {
  const a = event.target.closest?.('a[href]');
  if (!a || a.target || a.getAttribute('href').startsWith('#')) return;
  a.target = '_blank';
  a.rel = 'noopener';
}

function start() {
  if (isEmbed()) {
    document.documentElement.classList.add('embed');
    document.querySelector('#results')?.prepend(embedBar());
    document.addEventListener('click', linksOut, true);
  }
  if (framed() && typeof ResizeObserver === 'function') postHeights();
}

// The class first (before the layout is drawn, where the module runs that early), the rest
// once the page's elements exist.
if (isEmbed()) document.documentElement.classList.add('embed');
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
