// A classic (non-module) script that runs first, so it still works when the module code
// never does: a file of the app failed to load, or the browser has no ES modules. Then,
// instead of "Loading…" forever, the page says what went wrong. main.js marks a finished
// start (success or its own error message) with aria-busy="false" on #app.
(function () {
  var STALL_MS = 30000;
  var shown = false;

  // specific: the reason says all there is to say (the browser is not the problem).
  function show(reason, specific) {
    var app = document.getElementById('app');
    var box = document.getElementById('fatal');
    if (shown || !app || !box || app.getAttribute('aria-busy') === 'false') return;
    shown = true;
    app.setAttribute('aria-busy', 'false');
    document.getElementById('loading').hidden = true;
    var title = document.createElement('strong');
    title.textContent = 'Envelope could not start.';
    var body = document.createElement('p');
    body.textContent = specific ? 'Reason: ' + reason + '.'
      : 'This page needs a current browser with JavaScript modules and WebAssembly enabled ' +
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

  // Why a module script failed, as far as the page can tell: a local file, or a sandboxed
  // frame (an opaque origin, so every module is a cross-origin load that needs CORS).
  function loadFailure(src) {
    var what = 'a part of the page (' + src + ') failed to load';
    if (location.protocol === 'file:') {
      return [what + ': the page was opened as a local file, and browsers load JavaScript modules only from a web server', true];
    }
    if (window.origin === 'null') {
      return [what + ': the page runs in a sandboxed frame, so its scripts are cross-origin loads, and the server at ' +
        location.host + ' did not allow them (it must send Access-Control-Allow-Origin: *), or the network failed', true];
    }
    return [what + ' (the network failed, or the server no longer has it)', false];
  }

  // Load failures of <script> elements do not bubble, but they do pass the window in the capture phase.
  window.addEventListener('error', function (e) {
    var el = e.target;
    if (el && el.tagName === 'SCRIPT' && el.type === 'module') {
      var failure = loadFailure(el.getAttribute('src') || 'script');
      whenReady(function () { show(failure[0], failure[1]); });
    }
  }, true);

  whenReady(function () {
    setTimeout(function () { show('the page did not finish starting within ' + STALL_MS / 1000 + ' s'); }, STALL_MS);
  });
})();
