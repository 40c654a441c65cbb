// The preset documents as the page holds them ({models, chips, systems, engines, frameworks, scenarios},
// each key → its JSON), read from presets/ for the Node tests of the page's pure modules.
import { readdirSync, readFileSync } from 'node:fs';

function load(kind) {
  const dir = new URL(`../../presets/${kind}/`, import.meta.url);
  return Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.json'))
    .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(new URL(f, dir), 'utf8'))]));
}

export const loadPresets = () =>
  ({ models: load('models'), chips: load('chips'), systems: load('systems'), engines: load('engines'), frameworks: load('frameworks'), scenarios: load('scenarios') });
