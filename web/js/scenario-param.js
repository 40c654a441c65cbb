// `?scenario=ID`: open the page at a scenario preset, by its id (as `envelope evaluate
// presets/scenarios/ID.json` and the "Start from…" list). <envelope-calc scenario="ID">
// uses it, so a docs page names a scenario without spelling out its link.
//
// The preset becomes the page's link (the hash), and the parameter leaves the address, so
// that the address is the state as everywhere else. A hash given with it wins: it is the
// more specific of the two (and it is what a reload of an edited page carries).
import { fromScenario } from './scenario.js';
import { defaultState, toLink } from './state.js';

// -> null, or a sentence for the reader when the id names no preset.
export function applyScenarioParam(presets) {
  const url = new URL(location.href);
  const id = url.searchParams.get('scenario');
  if (id === null) return null;
  url.searchParams.delete('scenario');
  const known = Object.hasOwn(presets.scenarios, id);
  if (known && url.hash.length <= 1) {
    const state = { ...fromScenario(presets.scenarios[id], presets), view: defaultState(presets).view };
    url.hash = toLink(state, presets);
  }
  try {
    history.replaceState(null, '', url.href);
  } catch {
    // A browser that lets an opaque origin (a sandboxed frame) change only the hash.
    if (known) history.replaceState(null, '', url.hash);
  }
  if (known) return null;
  return `There is no scenario preset "${id}", so ${url.hash.length > 1 ? "this link's settings are" : 'the default scenario is'} shown instead.`;
}
