// A classic (non-module) script that runs first, so it still works when the module code
// never does: a file of the app failed to load, or the browser has no ES modules. Then,
// instead of "Loading…" forever, the page says what went wrong. main.js marks a finished
// start (success or its own error message) with aria-busy="false" on #app.
(function () {
  var STALL_MS = 30000;
  var shown = false;

  function show(reason) {
    var app = document.getElementById('app');
    var box = document.getElementById('fatal');
    if (shown || !app || !box || app.getAttribute('aria-busy') === 'false') return;
    shown = true;
    app.setAttribute('aria-busy', 'false');
    document.getElementById('loading').hidden = true;
    var title = document.createElement('strong');
    title.textContent = 'Envelope could not start.';
    var body = document.createElement('p');
    body.textContent = 'This page needs a current browser with JavaScript modules and WebAssembly enabled ' +
      '(a recent Chrome, Edge, Firefox or Safari), opened from a web server. Reason: ' + reason + '.';
    box.textContent = '';
    box.appendChild(title);
    box.appendChild(body);
    box.hidden = false;
  }

  function whenReady(fn) {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', fn);
    else fn();
  }

  // Load failures of <script> elements do not bubble, but they do pass the window in the capture phase.
  window.addEventListener('error', function (e) {
    var el = e.target;
    if (el && el.tagName === 'SCRIPT' && el.type === 'module') {
      whenReady(function () { show('a part of the page (' + (el.getAttribute('src') || 'script') + ') failed to load'); });
    }
  }, true);

  whenReady(function () {
    setTimeout(function () { show('the page did not finish starting within ' + STALL_MS / 1000 + ' s'); }, STALL_MS);
  });
})();
