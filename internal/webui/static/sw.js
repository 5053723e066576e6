// felt's service worker: it makes the UI an installable app and keeps its shell
// (the pages' look, scripts and icons) so that the app opens without a network.
// Play stays online: the API and the WebSocket are never cached, and every page
// and file is fetched from the house first, the cache serving only when the
// house cannot be reached.
const SHELL = "felt-shell-v1";
const FILES = [
  "/lobby", "/static/css/felt.css", "/static/js/app.js", "/static/js/prefs.js",
  "/static/favicon.svg", "/static/icon-192.png", "/static/icon-512.png", "/manifest.webmanifest",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) =>
    Promise.all(keys.filter((k) => k !== SHELL).map((k) => caches.delete(k)))));
  self.clients.claim();
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin ||
      url.pathname.startsWith("/api/") || url.pathname === "/ws") {
    return; // the network alone
  }
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok && (url.pathname.startsWith("/static/") || FILES.includes(url.pathname))) {
      const copy = response.clone();
      caches.open(SHELL).then((cache) => cache.put(event.request, copy));
    }
    return response;
  }).catch(() => caches.match(event.request).then((hit) =>
    hit || (event.request.mode === "navigate" ? caches.match("/lobby") : Response.error()))));
});
