// The colour theme: light, dark, or the system's (prefers-color-scheme), chosen with a
// switch in the header of each page (calculator, validation, methodology) and remembered
// in localStorage (which throws in a sandboxed iframe: then the choice lasts as long as
// the page). theme-boot.js applied the saved choice before the first paint; this module
// adds the switch and keeps <html data-theme> current. A change fires "envelope:theme" on
// the document (the charts redraw on it: views/chart.js).
import { h } from './dom.js';

const KEY = 'envelope-theme';
export const CHOICES = [['light', 'Light'], ['dark', 'Dark'], ['system', 'System']];

function saved() {
  try {
    const v = window.localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

function save(choice) {
  try {
    if (choice === 'system') window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, choice);
  } catch {
    // sandboxed: not remembered
  }
}

const systemDark = () => Boolean(window.matchMedia?.('(prefers-color-scheme: dark)').matches);

// Sets the resolved theme; fires the event when it changed.
export function applyTheme(choice) {
  const root = document.documentElement;
  const theme = choice === 'dark' || (choice === 'system' && systemDark()) ? 'dark' : 'light';
  root.dataset.themeChoice = choice;
  if (root.dataset.theme === theme) return;
  root.dataset.theme = theme;
  document.dispatchEvent(new CustomEvent('envelope:theme', { detail: { theme } }));
}

function themeSwitch(current, onPick) {
  const radios = CHOICES.map(([value, label]) => [
    h('input', { type: 'radio', name: 'theme', id: `theme-${value}`, value, checked: value === current, autocomplete: 'off',
      onchange: (e) => onPick(e.target.value) }),
    h('label', { for: `theme-${value}`, text: label }),
  ]);
  return h('fieldset', { class: 'segmented theme-switch', id: 'theme-switch' },
    h('legend', { text: 'Theme' }), ...radios.flat());
}

export function initTheme() {
  let choice = saved();
  applyTheme(choice);
  const header = document.querySelector('.site-header');
  if (header && !document.querySelector('#theme-switch')) {
    const box = themeSwitch(choice, (next) => {
      choice = next;
      save(next);
      applyTheme(next);
    });
    const version = header.querySelector('.engine-version');
    if (version) version.before(box);
    else header.append(box);
  }
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
    if (choice === 'system') applyTheme('system');
  });
}

if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', initTheme);
  else initTheme();
}
