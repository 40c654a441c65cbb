// Where the Node tests find the built artifacts. ENVELOPE_BUILD overrides the build
// folder (default: build/ at the repository root, as dev.sh makes it).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const build = path.resolve(root, process.env.ENVELOPE_BUILD ?? 'build');
export const cli = path.join(build, 'native/envelope');
export const wasmDir = path.join(build, 'wasm/wasm');
export const site = path.join(build, 'site');
export const scenariosDir = path.join(root, 'presets/scenarios');
