// Atu's service worker (runtime/install.py): when the network is gone, a page load is
// answered with the offline page, kept here with what it shows. Nothing else is kept:
// no API answer, socket, table page or state is ever cached.
"use strict";
const CACHE = "atu-offline-{{ version }}";
const OFFLINE = {{ offline|safe }};
const KEPT = {{ assets|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // From the server itself, not the browser's HTTP cache.
      .then((cache) => cache.addAll(KEPT.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

// The pages open when it is first installed stay as they are (it does not claim
// them): it answers from their next load on.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((names) => Promise.all(names.filter((name) => name.startsWith("atu-") && name !== CACHE).map((name) => caches.delete(name)))),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  // The live state, its sockets and the API go to the network, and only there.
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  } else if (KEPT.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(request)));
  }
});
