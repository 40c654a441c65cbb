// The main thread's side of the sweep worker (sweep-worker.js): run(method, request) -> a
// promise of the engine's answer. Each channel keeps only its latest request: one asked while
// another is computing replaces any that waits, and a replaced request resolves to null, so a
// burst of edits costs one sweep, not one per keystroke. Without workers (or when the worker's
// engine fails to load) the same calls run on the main thread's engine, after a yield.
import { ENGINE_DIR } from './build-info.js';
import { scenarioText } from './scenario.js';

export function createSweeper(engine) {
  const waiting = new Map(); // channel -> {method, text, resolve}
  const running = new Set(); // channels with a request in the worker
  const pending = new Map(); // id -> {channel, resolve, t0}
  let nextId = 1;
  let worker = null;
  let ready = null; // a promise: true when the worker's engine loaded, false otherwise
  // Each channel's last answer's timings, for the page's note and the tests: engine ms (in the
  // worker) and round trip ms (posted to answered), and where it ran.
  const stats = new Map();

  try {
    worker = new Worker(new URL('./sweep-worker.js', import.meta.url), { type: 'module' });
    ready = new Promise((resolve) => {
      worker.addEventListener('message', function first(event) {
        if (event.data?.type !== 'ready' && event.data?.type !== 'failed') return;
        worker.removeEventListener('message', first);
        resolve(event.data.type === 'ready');
      });
      worker.addEventListener('error', () => resolve(false));
    });
    worker.addEventListener('message', onDone);
    // The main thread's compiled engine goes along: the worker instantiates it, no second download.
    worker.postMessage({ type: 'init', engineDir: new URL(ENGINE_DIR, document.baseURI).href, module: engine?.wasmModule ?? null });
  } catch {
    ready = Promise.resolve(false);
  }

  function onDone(event) {
    const msg = event.data;
    if (msg?.type !== 'done' || !pending.has(msg.id)) return;
    const { channel, resolve, t0 } = pending.get(msg.id);
    pending.delete(msg.id);
    running.delete(channel);
    stats.set(channel, { engineMs: msg.ms, roundTripMs: performance.now() - t0, where: 'worker' });
    resolve(JSON.parse(msg.text));
    pump(channel);
  }

  async function pump(channel) {
    if (running.has(channel) || !waiting.has(channel)) return;
    const job = waiting.get(channel);
    waiting.delete(channel);
    running.add(channel);
    if (await ready) {
      const id = nextId++;
      pending.set(id, { channel, resolve: job.resolve, t0: performance.now() });
      worker.postMessage({ type: 'run', id, method: job.method, text: job.text });
      return;
    }
    // No worker: the main thread's engine, after a yield so that the edit paints first.
    await new Promise((r) => setTimeout(r, 0));
    const t0 = performance.now();
    const answer = engine[job.method](JSON.parse(job.text));
    const ms = performance.now() - t0;
    stats.set(channel, { engineMs: ms, roundTripMs: ms, where: 'main thread' });
    running.delete(channel);
    job.resolve(answer);
    pump(channel);
  }

  return {
    // -> {engineMs, roundTripMs, where} of the channel's last answer, or null.
    timing: (channel) => stats.get(channel) ?? null,
    // -> a promise of the answer object, or of null when a later request on the channel replaced it.
    run(channel, method, request) {
      return new Promise((resolve) => {
        waiting.get(channel)?.resolve(null);
        waiting.set(channel, { method, text: scenarioText(request), resolve });
        pump(channel);
      });
    },
  };
}
