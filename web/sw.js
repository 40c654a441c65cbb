// The service worker: after a first visit, the whole site works without a network.
//
// sw-manifest.js (written by `dev.sh site`, web/build-precache.mjs) names the build and lists
// every file the pages load: the app shell, the content-hashed engine folder, the vendor
// libraries, the methodology and validation pages. Install puts them all in one cache named
// after the build; activate deletes the caches of other builds. A new build changes
// sw-manifest.js, which the browser's update check compares byte for byte, so a new worker
// installs in the background and the next load is the new build.
//
// Every answer comes from that one cache while it has the file (cache first), so a page is
// never a mix of two builds; anything else goes to the network as if there were no worker.
// Navigations are answered with the page they name whatever the query (?embed=1 is
// index.html), so a link opens offline as it does online.
/* global ENVELOPE_BUILD, ENVELOPE_PRECACHE */
importScripts('sw-manifest.js');

const PREFIX = 'envelope-';
const CACHE = PREFIX + ENVELOPE_BUILD;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // no-cache: revalidated with the server, so an old copy in the HTTP cache never lands
    // in a new build's cache.
    await cache.addAll(ENVELOPE_PRECACHE.map((path) => new Request(path, { cache: 'no-cache' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

// The cached file a request names: a folder is its index.html, a page ignores its query
// (and the fragment never reaches a worker).
function cacheKey(request) {
  const url = new URL(request.url);
  if (url.pathname.endsWith('/')) url.pathname += 'index.html';
  if (request.mode === 'navigate') url.search = '';
  return url.href;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(cacheKey(request));
    return hit ?? fetch(request);
  })());
});
