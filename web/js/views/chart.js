// A thin wrapper over one ECharts instance: created on first use, resized with its box.
// The page keeps working (numbers, table) if the charting library failed to load.
import { h } from '../dom.js';

export function createChart(container) {
  let chart = null;
  return {
    render(option) {
      if (!window.echarts) {
        container.replaceChildren(h('p', { class: 'chart-missing', text: 'The charting library did not load; the numbers and table are unaffected.' }));
        return;
      }
      if (!chart) {
        chart = window.echarts.init(container, null, { renderer: 'canvas' });
        new ResizeObserver(() => chart.resize()).observe(container);
      }
      chart.setOption(option, { notMerge: true });
    },
  };
}
