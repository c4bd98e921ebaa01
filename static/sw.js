// The service worker (served at /sw.js so that its scope is the whole site).
//
// It does one thing today: when the server cannot be reached, a page the browser
// opens (the lobby, a room, a replay) shows the offline page instead of the
// browser's error, and that page comes back to the game by itself once the server
// answers.  Nothing else is cached: the client's files are versioned by the server
// and must never be served stale from here.  Push notifications will join it
// (issue 32).
const CACHE = "krypkasino-offline-1";
const OFFLINE_PAGE = "/offline";
const OFFLINE_FILES = [OFFLINE_PAGE, "/static/css/offline.css", "/static/js/offline.js", "/static/img/icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(OFFLINE_FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("krypkasino-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_PAGE)));
  } else if (OFFLINE_FILES.includes(url.pathname)) {
    // the offline page's own files: fresh when the server answers, else the copy
    event.respondWith(fetch(request).catch(() => caches.match(url.pathname)));
  }
});
