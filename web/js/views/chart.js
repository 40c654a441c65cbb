// A thin wrapper over one ECharts instance: created on first use, resized with its box.
// The page keeps working (numbers, table) if the charting library failed to load.
//
// render() takes an option, or a function of the box's width in px that returns
// { option, height }: such a chart is laid out for its width (legend rows, label room,
// axis ticks) and laid out again when the width changes (a phone turned, a window resized).
//
// The charting library loads lazily (chart-loader.js): until it has arrived a chart keeps
// its option and draws when it comes. The canvas is hidden from screen readers; with
// `table: { format, title, corner }` the chart keeps a "Show as table" of its numbers
// (chart-table.js) up to date, drawn even before the library arrives. In the dark theme
// each option is recoloured (chart-theme.js), and a change of theme redraws every chart.
import { h } from '../dom.js';
import { FONT } from './palette.js';
import { chartsLoaded, loadCharts } from '../chart-loader.js';
import { chartTable, fillTable, tableBox } from './chart-table.js';
import { themed } from './chart-theme.js';

const drawn = new Set(); // redraw() of every chart, for a change of theme
if (typeof document !== 'undefined') {
  document.addEventListener('envelope:theme', () => { for (const redraw of drawn) redraw(); });
}

export function createChart(container, { table = null } = {}) {
  let chart = null;
  let build = null;
  let width = 0;
  let waiting = false;
  const tableEl = table ? tableBox(container, table.title ?? 'The chart\'s numbers') : null;
  container.setAttribute('aria-hidden', 'true');

  const layout = (w) => (typeof build === 'function' ? build(w || 640) : { option: build });

  function fill(out) {
    if (tableEl) fillTable(tableEl, chartTable(out.option, table.format), table.corner ?? '');
  }

  function draw() {
    width = container.clientWidth;
    const out = layout(width);
    fill(out);
    const height = out.height ? `${Math.round(out.height)}px` : container.style.height;
    const resized = height !== container.style.height;
    container.style.height = height;
    chart.setOption(themed(out.option), { notMerge: true });
    if (resized) chart.resize();
  }

  function start() {
    if (!chart) {
      chart = window.echarts.init(container, null, { renderer: 'canvas' });
      new ResizeObserver(() => {
        if (typeof build === 'function' && container.clientWidth > 0 && container.clientWidth !== width) draw();
        else chart.resize();
      }).observe(container);
      drawn.add(() => { if (build) draw(); });
    }
    draw();
  }

  function missing() {
    container.replaceChildren(h('p', { class: 'chart-missing', text: 'The charting library did not load; the numbers and table are unaffected.' }));
    container.removeAttribute('aria-hidden');
  }

  return {
    // The chart as a PNG data URL (twice the pixels, on the page's card colour); null when
    // it is not drawn (no library, or not rendered yet).
    dataURL() {
      if (!chart) return null;
      const backgroundColor = getComputedStyle(container).getPropertyValue('--panel').trim() || '#fff';
      return chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor });
    },
    // The chart as SVG text: its option drawn once more by ECharts' SVG renderer, server-side
    // style (no DOM), at the chart's size and on the card colour; null when it is not drawn.
    svgText() {
      if (!chart) return null;
      const backgroundColor = getComputedStyle(container).getPropertyValue('--panel').trim() || '#fff';
      const copy = window.echarts.init(null, null, {
        renderer: 'svg', ssr: true, width: chart.getWidth(), height: chart.getHeight(),
      });
      try {
        copy.setOption({ ...chart.getOption(), backgroundColor, animation: false });
        return copy.renderToSVGString();
      } finally {
        copy.dispose();
      }
    },
    render(option) {
      build = option;
      if (chartsLoaded()) {
        start();
        return;
      }
      // The numbers (the table) now, the picture when the library comes.
      if (tableEl) fill(layout(container.clientWidth));
      if (waiting) return;
      waiting = true;
      loadCharts().then((lib) => {
        waiting = false;
        if (lib) start();
        else missing();
      });
    },
  };
}

// ---- layout helpers: how much room text takes, measured as ECharts will draw it -------

let measure = null;
export function textWidth(text, size = 12, weight = 400) {
  // Outside a browser (the Node tests of the option builders): an average glyph width.
  if (typeof document === 'undefined') return String(text).length * size * 0.56;
  measure ??= document.createElement('canvas').getContext('2d');
  measure.font = `${weight} ${size}px ${FONT}`;
  return measure.measureText(String(text)).width;
}

// A plain (unpaged) legend wraps its items onto rows of `width` px; this is how many rows
// and how tall it is (ECharts: items of icon + 5 px + text, `gap` apart, 5 px padding).
export const LEGEND = { itemWidth: 12, itemHeight: 12, gap: 10, rowHeight: 14 };
export function legendLayout(labels, width) {
  let rows = 1;
  let x = 0;
  const room = Math.max(width - 10, 40);
  for (const label of labels) {
    const w = LEGEND.itemWidth + 5 + textWidth(label);
    if (x > 0 && x + w > room) {
      rows += 1;
      x = 0;
    }
    x += w + LEGEND.gap;
  }
  return { rows, height: 10 + rows * LEGEND.rowHeight + (rows - 1) * LEGEND.gap };
}

// An unpaged legend that wraps, for placing under the plot at `top`.
export function wrappingLegend(top, labels, color) {
  return {
    type: 'plain', top, left: 0, right: 0, itemGap: LEGEND.gap,
    itemWidth: LEGEND.itemWidth, itemHeight: LEGEND.itemHeight, textStyle: { color },
    ...(labels ? { data: labels } : {}),
  };
}

// Whether a value label fits inside a bar segment `px` wide.
export const labelFits = (text, px) => px >= textWidth(text) + 8;
