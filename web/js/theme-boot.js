// A classic script in <head>, before the first paint: sets <html data-theme="light|dark">
// from the saved choice (theme.js: "light", "dark" or "system", in localStorage) or, for
// "system" and no choice, from prefers-color-scheme, so that a dark page never flashes
// white. localStorage throws in a sandboxed iframe: then the system's choice applies.
(function () {
  var choice = 'system';
  try {
    var saved = window.localStorage.getItem('envelope-theme');
    if (saved === 'light' || saved === 'dark') choice = saved;
  } catch {
    // no storage: follow the system
  }
  var dark = choice === 'dark' ||
    (choice === 'system' && !!window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  document.documentElement.dataset.themeChoice = choice;
})();
