// Loads the WebAssembly engine and wraps it in a small object API:
//   const engine = await loadEngine();  engine.presets;  engine.evaluate(scenario) -> result object
//   engine.collective(request) -> nccl-tests-like points;  engine.loadValidation() -> scored cases
//   engine.fit(scenario), engine.curve(scenario) -> an inference scenario's fit answer and
//     throughput–latency curve; engine.sweep(request) -> one scenario along one axis
//   engine.importHf(configText) -> {ok, model, notes} from a Hugging Face config.json
import { ENGINE_DIR } from './build-info.js';
import { scenarioText } from './scenario.js';

export const LOAD_TIMEOUT_MS = 20000;

export class EngineLoadError extends Error {}

function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new EngineLoadError(`the engine did not load within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// The engine's compiled WebAssembly module, kept so that the sweep worker can instantiate the
// same code without downloading and compiling it again (a Module can be posted to a worker).
let compiled = null;

async function compile(url) {
  const response = fetch(url);
  if (typeof WebAssembly.compileStreaming === 'function') {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch {
      // a server that sends another MIME type than application/wasm: compile from the bytes
    }
  }
  const bytes = await (await fetch(url)).arrayBuffer();
  return WebAssembly.compile(bytes);
}

// Emscripten's hook: instantiate an already compiled module with the imports it asks for.
export function fromModule(module) {
  return (imports, receive) => {
    WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module));
    return {};
  };
}

async function instantiate() {
  // ENGINE_DIR is relative to the page, not to this module.
  const dir = new URL(ENGINE_DIR, document.baseURI);
  const [{ default: createEnvelope }, module] = await Promise.all([
    import(new URL('envelope.mjs', dir).href),
    compile(new URL('envelope.wasm', dir).href),
  ]);
  compiled = module;
  return createEnvelope({ locateFile: (file) => new URL(file, dir).href, instantiateWasm: fromModule(module) });
}

export async function loadEngine({ timeoutMs = LOAD_TIMEOUT_MS } = {}) {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    throw new EngineLoadError('this browser has no WebAssembly support (or it is disabled)');
  }
  let mod;
  try {
    mod = await withTimeout(instantiate(), timeoutMs);
  } catch (e) {
    if (e instanceof EngineLoadError) throw e;
    // A sandboxed frame (an opaque origin) loads the engine cross-origin: say what it needs.
    const framed = globalThis.origin === 'null'
      ? ' (the page runs in a sandboxed frame, where the engine is a cross-origin load that fails unless its server sends Access-Control-Allow-Origin: *)' : '';
    throw new EngineLoadError(String(e?.message ?? e) + framed);
  }
  const presets = JSON.parse(mod.presets());
  let validation = null;
  let validationLoad = null;
  if (!presets.ok) throw new EngineLoadError('the engine could not list its presets');
  return {
    version: presets.version,
    presets,
    wasmModule: compiled,
    evaluate(scenario) {
      return JSON.parse(mod.evaluate(scenarioText(scenario)));
    },
    // Does an inference scenario fit, and what would: {ok, fits, largest_batch, longest_context,
    // fewest_chips: {tp, pp, chips} | null} (as `envelope fit`; tens of memory evaluations).
    fit(scenario) {
      return JSON.parse(mod.fit(scenarioText(scenario)));
    },
    // Up to 64 batches from 1 to the largest that fits, each evaluated whole: {ok, batch,
    // points: [{batch, output_tokens_per_s_per_chip, output_tokens_per_s_per_user, ttft_s,
    // tpot_s, fits}]} (as `envelope curve`; a few milliseconds, more for big models).
    curve(scenario) {
      return JSON.parse(mod.curve(scenarioText(scenario)));
    },
    // One inference scenario along one axis: request {scenario, axis, values | range} ->
    // {ok, axis, current, points} (as `envelope sweep --json`). The page runs it in the sweep
    // worker (sweep-client.js); this is its fallback where workers are missing.
    sweep(request) {
      return JSON.parse(mod.sweep(scenarioText(request)));
    },
    // A configuration search (as `envelope search`): the Search card runs it in its own worker
    // (search-client.js); this is its fallback where workers are missing.
    search(request) {
      return JSON.parse(mod.search(scenarioText(request)));
    },
    // One collective on a system, nccl-tests style: {system, op, chips, bytes | sweep}
    // (as `envelope collective --json`).
    collective(request) {
      return JSON.parse(mod.collective(scenarioText(request)));
    },
    // Designs around a scenario, one or two knobs (the package's HBM stacks, die area, chiplets,
    // process node; the scale-up bandwidth, chips per system), each point's performance and
    // cost and whether it is on the Pareto front (as `envelope tradeoff`).
    tradeoff(request) {
      return JSON.parse(mod.tradeoff(scenarioText(request)));
    },
    // The cost of one accelerator package (a scenario's cost.package block), part by part.
    packageCost(pkg) {
      return JSON.parse(mod.packageCost(scenarioText(pkg)));
    },
    // A Hugging Face config.json, as its text (what the person pasted or dropped), as a model
    // document and notes (as `envelope import-hf`); the name is the config's own.
    importHf(text) {
      return JSON.parse(mod.importHf(String(text), null));
    },
    // The model scored on the measured cases (as `envelope validate --json`), once
    // loadValidation() has fetched them (the module bundles none: they would double its size);
    // null before. Computed once: the cases do not change while the page is open.
    validation() {
      return validation;
    },
    // Fetches presets/measured/cases.json (served beside the page) once and scores it; resolves
    // to the report, or to {ok: false, error} when the file cannot be read.
    loadValidation() {
      validationLoad ??= fetch('presets/measured/cases.json')
        .then((response) => {
          if (!response.ok) throw new Error(`presets/measured/cases.json: HTTP ${response.status}`);
          return response.text();
        })
        .then((text) => {
          validation = JSON.parse(mod.validation(text));
          return validation;
        })
        .catch((error) => ({ ok: false, error: { message: `the measured cases could not be read (${error?.message ?? error})` } }));
      return validationLoad;
    },
  };
}
