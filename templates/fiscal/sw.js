// Service worker of the offline verifier: keeps the app's own files so that it opens
// with no signal. Network first (updates arrive as soon as there is signal), the kept copy
// when the network fails or takes more than 3 s. The keys and the status list are kept by the
// page itself (app.js), which must know whether what it shows is fresh.
'use strict';

const SHELL = 'selo-fiscal-app-v2';
const FILES = [
  '/fiscal/',
  '/fiscal/app.js',
  '/fiscal/app.css',
  '/fiscal/vendor/jsQR.js',
  '/fiscal/manifest.webmanifest',
  '/fiscal/icon.svg',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('selo-fiscal-app-') && n !== SHELL).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

function within(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
  });
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith('/fiscal/')) return;
  event.respondWith(
    within(fetch(event.request), 3000)
      .then((res) => {
        if (res.ok) {
          const copy = res.clone();
          caches.open(SHELL).then((c) => c.put(event.request, copy));
        }
        return res;
      })
      .catch(() => caches.match(event.request, { ignoreSearch: true })
        .then((kept) => kept || new Response('Sem conexão e sem cópia guardada.', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }))),
  );
});
