// <envelope-calc>: Envelope on another site, in one script.
//
//   <script type="module" src="https://HOST/PATH/envelope-calc.js"></script>
//   <envelope-calc scenario="llama3-8b-h100-batch64-fp8"></envelope-calc>
//
// Attributes:
//   scenario  a scenario preset id ("llama2-70b-dgx-h100-tp8"), or a link's hash as the page's
//             Copy link writes it ("#v=1&model=…", or the whole link); none: the default scenario
//   src       the Envelope site to show (default: where this script came from)
//   height    a fixed height in CSS px; none (or "auto"): the frame takes the height of its
//             content, which the embedded page reports as it changes
//
// The element holds an iframe of the site's compact view (?embed=1), sandboxed: scripts run
// there and "Open in Envelope" may open a tab, but the frame has an opaque origin, so it
// reads nothing of the host page, its storage or its cookies. The frame's height follows its
// { type: 'envelope:height', height } messages, from that frame only.
// Self-contained (it is copied to the site's root): no imports.

const HEIGHT_MESSAGE = 'envelope:height';
const INITIAL_HEIGHT = 480; // px, until the frame reports its own
const MAX_HEIGHT = 20000; // px: a reported height beyond this is someone else's mistake
const SANDBOX = 'allow-scripts allow-popups allow-popups-to-escape-sandbox';

// This script's folder: the site it belongs to (the copy at the root, or js/ inside it).
const HERE = new URL(/\/js\/envelope-calc\.js$/.test(new URL(import.meta.url).pathname) ? '../' : './', import.meta.url);

// -> the iframe's address for a site (a folder URL; a missing final slash is added) and a
// scenario attribute.
export function embedUrl(scenario, src = HERE.href, base = document.baseURI) {
  const site = new URL(src, base);
  if (!site.pathname.endsWith('/') && !/\.html?$/.test(site.pathname)) site.pathname += '/';
  site.search = '?embed=1';
  site.hash = '';
  const text = (scenario ?? '').trim();
  if (!text) return site.href;
  const hashAt = text.indexOf('#');
  if (hashAt >= 0) site.hash = text.slice(hashAt);
  else if (text.includes('=')) site.hash = text; // a hash without its '#'
  else site.searchParams.set('scenario', text);
  return site.href;
}

// -> a height in px from the height attribute, or null for "follow the content".
function fixedHeight(value) {
  if (value == null || value.trim() === '' || value.trim() === 'auto') return null;
  const px = Number.parseFloat(value);
  return Number.isFinite(px) && px > 0 ? px : null;
}

export class EnvelopeCalc extends HTMLElement {
  static get observedAttributes() { return ['scenario', 'src', 'height']; }

  constructor() {
    super();
    this.frame = document.createElement('iframe');
    this.frame.setAttribute('sandbox', SANDBOX);
    this.frame.setAttribute('title', 'Envelope: LLM performance calculator');
    this.frame.setAttribute('loading', 'lazy');
    // Styles through the CSSOM, which a host's Content-Security-Policy allows.
    Object.assign(this.frame.style, { display: 'block', width: '100%', border: '0', height: `${INITIAL_HEIGHT}px` });
    this.onMessage = (event) => {
      if (event.source !== this.frame.contentWindow || event.data?.type !== HEIGHT_MESSAGE) return;
      const height = Number(event.data.height);
      if (fixedHeight(this.getAttribute('height')) !== null || !Number.isFinite(height) || height <= 0) return;
      this.frame.style.height = `${Math.min(Math.ceil(height), MAX_HEIGHT)}px`;
    };
    this.attachShadow({ mode: 'open' }).append(this.frame);
  }

  connectedCallback() {
    if (!this.style.display) this.style.display = 'block';
    window.addEventListener('message', this.onMessage);
    this.update();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this.onMessage);
  }

  attributeChangedCallback() {
    if (this.isConnected) this.update();
  }

  update() {
    const fixed = fixedHeight(this.getAttribute('height'));
    if (fixed !== null) this.frame.style.height = `${fixed}px`;
    const url = embedUrl(this.getAttribute('scenario'), this.getAttribute('src') ?? HERE.href);
    if (this.frame.getAttribute('src') !== url) this.frame.setAttribute('src', url);
  }
}

if (!customElements.get('envelope-calc')) customElements.define('envelope-calc', EnvelopeCalc);
