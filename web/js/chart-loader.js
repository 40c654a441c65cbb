// The charting library (ECharts, ~215 KiB gzipped) loads on demand, so that it never holds
// up the first numbers: the page draws its headline and tables first, and the charts when
// the library has arrived. A page that includes it with a <script> tag (validation.html)
// has it already.
//   loadCharts() -> Promise<echarts | null>   null: it failed to load (the caller says so)
const SRC = 'vendor/echarts.common.min.js';
export const CHARTS_TIMEOUT_MS = 30000;

let pending = null;

export function chartsLoaded() {
  return typeof window !== 'undefined' && Boolean(window.echarts);
}

export function loadCharts() {
  if (chartsLoaded()) return Promise.resolve(window.echarts);
  pending ??= new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = new URL(SRC, document.baseURI).href;
    script.async = true;
    const timer = setTimeout(() => resolve(null), CHARTS_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve(window.echarts ?? null);
      // Tests and the share bar can tell "no charts" from "not yet".
      document.documentElement.dataset.charts = window.echarts ? 'ready' : 'failed';
    };
    script.addEventListener('load', done);
    script.addEventListener('error', done);
    // After the next paint: the numbers drawn just before go on screen first.
    let added = false;
    const add = () => {
      if (added) return;
      added = true;
      document.head.append(script);
    };
    requestAnimationFrame(() => setTimeout(add, 0));
    setTimeout(add, 300); // a hidden tab paints no frames
  });
  return pending;
}
