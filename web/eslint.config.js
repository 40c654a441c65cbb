// ESLint for the page's code (`npm run lint`, run by the README's test command): the
// recommended rules of @eslint/js; browser and worker globals for the page's modules, service
// worker globals for sw.js (a classic script), Node's for the build and serve scripts.
// Destructuring that drops a key into a named rest (`const { moe, ...dense } = layer`) is the
// page's way to omit a field, so a rest's siblings may go unused.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['node_modules/**', 'vendor/**'] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.node },
    rules: { 'no-unused-vars': ['error', { ignoreRestSiblings: true }] },
  },
  { files: ['js/**/*.js'], languageOptions: { globals: { ...globals.browser, ...globals.worker } } },
  { files: ['sw.js'], languageOptions: { sourceType: 'script', globals: globals.serviceworker } },
];
