// Placeholder for development. `./dev.sh build` writes the real one into build/site/js/,
// pointing at the content-hashed folder that holds the wasm engine.
export const ENGINE_DIR = './engine/dev/';
