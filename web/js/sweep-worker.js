// The page's second engine, in a Web Worker: sweeps (and the throughput–latency curve) take
// tens to hundreds of evaluations, so they run here and typing never waits for them; the main
// thread keeps its own engine for the one synchronous evaluation per edit (main.js).
//
// Messages in:  {type: 'init', engineDir, module}   the absolute URL of the engine's folder, and
//                                                 the page's compiled WebAssembly.Module (or null)
//               {type: 'run', id, method: 'sweep' | 'curve' | 'tradeoff' | 'search', text}   the request as JSON text
//               (the Search card runs its own copy of this worker, which it ends to cancel: search-client.js)
// Messages out: {type: 'ready', version} | {type: 'failed', message}
//               {type: 'done', id, text, ms}   the engine's answer as JSON text, and the time it took
const METHODS = ['sweep', 'curve', 'tradeoff', 'search'];
let mod = null;

// Emscripten's hook: instantiate the page's compiled module instead of fetching the .wasm.
const fromModule = (module) => (imports, receive) => {
  WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module));
  return {};
};

async function init(engineDir, module) {
  try {
    const dir = new URL(engineDir);
    const { default: createEnvelope } = await import(new URL('envelope.mjs', dir).href);
    const options = { locateFile: (file) => new URL(file, dir).href };
    if (module instanceof WebAssembly.Module) options.instantiateWasm = fromModule(module);
    mod = await createEnvelope(options);
    self.postMessage({ type: 'ready', version: mod.version() });
  } catch (e) {
    self.postMessage({ type: 'failed', message: String(e?.message ?? e) });
  }
}

self.onmessage = (event) => {
  const msg = event.data ?? {};
  if (msg.type === 'init') {
    init(msg.engineDir, msg.module);
    return;
  }
  if (msg.type !== 'run') return;
  const t0 = performance.now();
  let text;
  if (!mod) text = JSON.stringify({ ok: false, error: { path: '', message: 'the sweep engine is not loaded' } });
  else if (!METHODS.includes(msg.method)) text = JSON.stringify({ ok: false, error: { path: '', message: `no method ${msg.method}` } });
  else text = mod[msg.method](String(msg.text));
  self.postMessage({ type: 'done', id: msg.id, text, ms: performance.now() - t0 });
};
