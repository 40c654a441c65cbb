// The Search card's worker: a copy of the sweep worker (sweep-worker.js) of its own, so that
// Cancel can end it (terminate) without touching the sweeps and curves of the other cards.
// run(request) -> a promise of {answer, ms, where}, or of null when cancelled; cancel() ends the
// running search (the next run starts a fresh worker). Without workers the search runs on the
// main thread's engine after a yield (and cannot be cancelled).
import { ENGINE_DIR } from './build-info.js';
import { scenarioText } from './scenario.js';

export function createSearchRunner(engine) {
  let worker = null;
  let ready = null; // a promise: true when the worker's engine loaded
  let current = null; // {id, resolve, t0}
  let nextId = 1;

  function start() {
    try {
      worker = new Worker(new URL('./sweep-worker.js', import.meta.url), { type: 'module' });
    } catch {
      worker = null;
      ready = Promise.resolve(false);
      return;
    }
    const w = worker;
    ready = new Promise((resolve) => {
      w.addEventListener('message', function first(event) {
        if (event.data?.type !== 'ready' && event.data?.type !== 'failed') return;
        w.removeEventListener('message', first);
        resolve(event.data.type === 'ready');
      });
      w.addEventListener('error', () => resolve(false));
    });
    w.addEventListener('message', (event) => {
      const msg = event.data;
      if (msg?.type !== 'done' || !current || msg.id !== current.id) return;
      const { resolve, t0 } = current;
      current = null;
      resolve({ answer: JSON.parse(msg.text), ms: msg.ms, roundTripMs: performance.now() - t0, where: 'worker' });
    });
    w.postMessage({ type: 'init', engineDir: new URL(ENGINE_DIR, document.baseURI).href, module: engine?.wasmModule ?? null });
  }

  function cancel() {
    if (!current) return false;
    current.resolve(null);
    current = null;
    worker?.terminate();
    worker = null;
    ready = null;
    return true;
  }

  return {
    cancel,
    running: () => current !== null,
    async run(request) {
      cancel();
      if (!worker) start();
      const text = scenarioText(request);
      return new Promise((resolve) => {
        const id = nextId++;
        current = { id, resolve, t0: performance.now() };
        ready.then(async (ok) => {
          if (current?.id !== id) return;
          if (ok) {
            worker.postMessage({ type: 'run', id, method: 'search', text });
            return;
          }
          await new Promise((r) => setTimeout(r, 0));
          if (current?.id !== id) return;
          const t0 = performance.now();
          const answer = engine.search(JSON.parse(text));
          current = null;
          resolve({ answer, ms: performance.now() - t0, roundTripMs: performance.now() - t0, where: 'main thread' });
        });
      });
    },
  };
}
