// Registers the service worker (sw.js at the site's root) that keeps the site usable without
// a network after the first visit. Where there can be none it does nothing, without an
// error: a sandboxed iframe (an opaque origin, where merely reading navigator.serviceWorker
// throws), a page opened as a file, a browser without service workers or one that refuses
// them (private windows, an automated browser that blocks them).
const WORKER = new URL('../sw.js', import.meta.url);

export function serviceWorkers() {
  try {
    if (!window.isSecureContext || !/^https?:$/.test(location.protocol)) return null;
    return navigator.serviceWorker ?? null;
  } catch {
    return null; // SecurityError: no service workers in an opaque origin
  }
}

// -> a promise of the registration, or of null where there is none.
export async function registerOffline() {
  const container = serviceWorkers();
  if (!container) return null;
  try {
    return await container.register(WORKER.href, { scope: new URL('./', WORKER).href });
  } catch (error) {
    // Refused (blocked, storage full): the page works as before, online only.
    console.info(`Envelope works online only here: ${error?.message ?? error}`);
    return null;
  }
}

// After the page has loaded, so that the first visit's downloads come first.
if (document.readyState === 'complete') registerOffline();
else window.addEventListener('load', () => { registerOffline(); }, { once: true });
