// The headline in a bar at the top of the screen, for the one-column layout (phone, tablet:
// adaptive.css), where the form lies under the headline: while the headline's
// first number is scrolled out of view, the bar shows the main numbers of the last result
// (step time and MFU in training, TTFT and TPOT in inference, and whether it fits), so an
// edit's effect shows beside the field. The bar is one button: it brings the results
// into view and moves the focus to their title. Not a live region: announce.js reads the
// changes once.
import { h, $ } from '../dom.js';
import * as fmt from '../format.js';

const join = ({ value, unit }) => (value === fmt.DASH || !unit ? value : `${value}\u00a0${unit}`);

// [label, value] pairs of a result's main numbers.
export function headlineNumbers(result) {
  const s = result.summary;
  if (result.workload === 'training') {
    return [['Step time', join(fmt.durationParts(s.step_time_s))], ['MFU', fmt.percent(s.mfu)]];
  }
  return [['TTFT', join(fmt.durationParts(s.ttft_s))], ['TPOT', join(fmt.durationParts(s.tpot_s))]];
}

export function createHeadlineBar() {
  const bar = $('#headline-bar');
  const button = $('#headline-bar-button');
  let result = null;
  let frame = 0;
  let edited = false; // a new result since the last placing: the field being edited is kept clear

  // Out of view: the headline's first value is above the bar's bottom edge, or below the screen.
  function place() {
    frame = 0;
    const keepField = edited;
    edited = false;
    const first = $('#summary .metric-value');
    let away = false;
    if (result && first && !$('#result-body').hidden) {
      const r = first.getBoundingClientRect();
      const edge = bar.hidden ? 56 : bar.getBoundingClientRect().height;
      away = r.height > 0 && (r.bottom < edge || r.top > window.innerHeight);
    }
    if (bar.hidden === away) bar.hidden = !away;
    const height = away ? Math.ceil(bar.getBoundingClientRect().height) : 0;
    if (height === 0) return; // hidden, or a wide screen (no bar: adaptive.css)
    // The scroll padding follows the bar's height (two lines when it says more); after an
    // edit, the field being edited (its label too) is moved clear of the bar if it came over it.
    document.documentElement.style.setProperty('--headline-bar-height', `${height}px`);
    const active = document.activeElement;
    const field = keepField && active?.closest?.('#inputs') ? (active.closest('.field') ?? active).getBoundingClientRect() : null;
    if (field && field.bottom > 0 && field.top < height + 8) window.scrollBy(0, field.top - height - 8);
  }
  const later = () => { frame ||= requestAnimationFrame(place); };
  window.addEventListener('scroll', later, { passive: true });
  window.addEventListener('resize', later);

  button.addEventListener('click', () => {
    const title = $('#scenario-title');
    title.focus({ preventScroll: true });
    title.scrollIntoView({ block: 'start' });
  });

  return {
    // result: the last good result (null: none); stale: the inputs now have an error, and
    // the numbers are those of the last inputs that computed.
    render(next, { stale = false } = {}) {
      result = next;
      if (!result) {
        bar.hidden = true;
        return;
      }
      const parts = headlineNumbers(result).map(([label, value]) =>
        h('span', { class: 'hb-item' }, h('span', { class: 'hb-label', text: label }), ' ', h('strong', { class: 'hb-value', text: value })));
      if (result.memory?.fits === false) parts.push(h('span', { class: 'hb-item hb-bad', text: 'does not fit' }));
      const lead = stale ? [h('span', { class: 'hb-stale', text: 'Last valid:' }), ' '] : [];
      const before = button.textContent;
      button.replaceChildren(...lead, ...parts.flatMap((p) => [p, ' ']),
        h('span', { class: 'hb-go' }, 'Results', h('span', { 'aria-hidden': 'true', text: ' ↑' })));
      // A new number flashes once (not for users who ask for less motion: adaptive.css).
      if (before && before !== button.textContent && !bar.hidden) {
        bar.classList.remove('hb-changed');
        void bar.offsetWidth;
        bar.classList.add('hb-changed');
      }
      edited = true;
      later();
    },
  };
}
