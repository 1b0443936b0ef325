/// <reference lib="WebWorker" />
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { clientsClaim } from 'workbox-core';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

// The app shell: every built file, so the app opens with no network at all.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
clientsClaim();

// A new version waits until the user accepts the update prompt; then the page asks us to take over.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Every client-side route is the shell; the API and IIIF are never answered with it.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/iiif\//],
  }),
);

// IIIF info.json and tiles never change for a given URL: cache-first, capped and expiring.
// Requests are made in CORS mode by the viewer, so responses are not opaque (opaque ones cost
// about 7 MB of quota each in Chromium).
registerRoute(
  ({ url }) =>
    url.pathname.startsWith('/iiif/') ||
    /\/info\.json$/.test(url.pathname) ||
    /\/full\/[^/]+\/\d+\/default\.(jpg|png)$/.test(url.pathname),
  new CacheFirst({
    cacheName: 'iiif-tiles',
    plugins: [
      new ExpirationPlugin({
        maxEntries: 5000,
        maxAgeSeconds: 30 * 24 * 3600,
        purgeOnQuotaError: true,
      }),
    ],
  }),
);

// Background Sync: the browser says the network is back, perhaps before the page noticed.
// The page replays its outbox itself (it has the session's CSRF token; this worker has not),
// so the worker only wakes the open tabs.
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}
self.addEventListener('sync', ((event: SyncEvent) => {
  if (event.tag !== 'folia-outbox') return;
  event.waitUntil(
    self.clients
      .matchAll({ type: 'window' })
      .then((clients) => clients.forEach((client) => client.postMessage({ type: 'SYNC_OUTBOX' }))),
  );
}) as EventListener);
