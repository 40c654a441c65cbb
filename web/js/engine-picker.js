// The serving engine and its release, as the engine picker offers them: current practice
// (no engine named: the "default" profile) first, then each engine the profiles describe
// (their `matches.name`, the name measured cases give) with its releases, from the presets
// the wasm module exposes. Pure: the form builds its select from engineChoices().
import { DEFAULT_ENGINE } from './scenario.js';

// How the page writes an engine's name (matches.name is the measured cases' spelling).
const ENGINE_NAMES = { vllm: 'vLLM', sglang: 'SGLang', 'tensorrt-llm': 'TensorRT-LLM', 'intel-gaudi-software': 'Intel Gaudi software' };
export const engineName = (family) => ENGINE_NAMES[family] ?? family;

// engines: presets.engines -> { unknown: {key, text}, groups: [{ engine, label, releases: [{key, text}] }] }
// (engines in order of their first profile, releases in preset order; a profile with no
// `matches` under "Other").
export function engineChoices(engines) {
  const groups = new Map();
  let unknown = null;
  for (const [key, doc] of Object.entries(engines ?? {})) {
    if (key === DEFAULT_ENGINE) {
      unknown = { key, text: `Unknown engine: ${doc.name}` };
      continue;
    }
    const family = doc.matches?.name ?? null;
    const label = family ? engineName(family) : 'Other';
    if (!groups.has(label)) groups.set(label, { engine: family, label, releases: [] });
    groups.get(label).releases.push({ key, text: doc.name });
  }
  return { unknown, groups: [...groups.values()] };
}

// The profile a result used, in words (its scenario echoes the resolved engine): its name,
// and that it is current practice when it is the profile a scenario naming none gets.
export function engineUsed(result, engines) {
  const name = result?.scenario?.engine?.name;
  if (!name) return null;
  return name === engines?.[DEFAULT_ENGINE]?.name ? `${name}, as no engine is named` : name;
}
