// The pinned scenarios (Compare): the page states a person pinned, each evaluated once (on the
// main thread: one evaluation each, microseconds to milliseconds), and the Compare card drawn
// from them and the current result (views/compare-view.js). main.js keeps the link: the pins
// go into it (state.js toLink) and come back from it (fromHash). A pin's name, when the person
// gave it one, is its state's `label` (compare.js cleanLabel); else it is "Pin 1", "Pin 2"….
import { $ } from './dom.js';
import { toScenario } from './scenario.js';
import { createChart } from './views/chart.js';
import { createCompareView } from './views/compare-view.js';
import { MAX_PINS, cleanLabel, pinName } from './compare.js';

// onChange(): the pins changed (the link and the views follow); scenarioOf(state): the
// scenario the engine evaluates for a state (main.js: offline takes the largest batch that fits).
export function createPins(engine, { onChange, scenarioOf = toScenario }) {
  let pins = [];
  let current = null; // the state shown now
  const results = new Map(); // scenario text -> {result, error, scenario}
  const chart = createChart($('#compare-chart'));
  const view = createCompareView({
    onPin: () => {
      if (!current || pins.length >= MAX_PINS) return;
      pins = [...pins, structuredClone(current)];
      onChange();
    },
    onUnpin: (i) => {
      pins = pins.filter((_, j) => j !== i);
      onChange();
    },
    onClear: () => {
      pins = [];
      onChange();
    },
    // A name typed for pin i (empty, or its automatic name: back to that).
    onRename: (i, text) => {
      if (!pins[i]) return;
      const typed = cleanLabel(text);
      const label = typed === pinName({}, i) ? null : typed;
      pins = pins.map((pin, j) => {
        if (j !== i) return pin;
        const next = { ...pin };
        if (label) next.label = label;
        else delete next.label;
        return next;
      });
      onChange();
    },
  });

  function evaluated(pin) {
    const scenario = scenarioOf(pin);
    const key = JSON.stringify(scenario);
    if (!results.has(key)) {
      const r = engine.evaluate(scenario);
      results.set(key, r.ok ? { result: r, error: null, scenario } : { result: null, error: r.error?.message ?? 'no result', scenario });
    }
    return results.get(key);
  }

  return {
    chart,
    list: () => pins,
    set(list) {
      pins = (list ?? []).slice(0, MAX_PINS);
    },
    // The pinned scenarios that evaluated, for the sweep's overlays: [{label, scenario}].
    scenarios: () => pins.map((pin, i) => ({ label: pinName(pin, i), ...evaluated(pin) }))
      .filter((p) => p.result).map(({ label, scenario }) => ({ label, scenario })),
    // state: the current page state; result: the shown result (null before one); stale: the
    // current inputs have an error.
    render(state, result, { stale = false } = {}) {
      current = stale ? null : state;
      view.render(pins.map((pin, i) => ({ ...evaluated(pin), name: pinName(pin, i), named: cleanLabel(pin.label) !== null })),
        result, chart, { stale });
    },
  };
}
