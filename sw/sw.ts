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

// Offline packs (src/offline/packs.ts) keep the tiles the user chose in their own cache, read
// first and never expired; the tiles browsing meets go to a capped, expiring one.
const PACK_CACHE = 'iiif-packs';
const tiles = new CacheFirst({
  cacheName: 'iiif-tiles',
  plugins: [
    new ExpirationPlugin({
      maxEntries: 5000,
      maxAgeSeconds: 30 * 24 * 3600,
      purgeOnQuotaError: true,
    }),
  ],
});

/** info.json, and image requests: {region}/{size}/{rotation}/{quality}.{format}. */
const IIIF_IMAGE =
  /\/(full|square|\d+,\d+,\d+,\d+|pct:[^/]+)\/[^/]+\/!?[\d.]+\/\w+\.(jpe?g|png|webp|gif)$/;

// IIIF info.json and tiles never change for a given URL: cache-first. Requests are made in CORS
// mode by the viewer, so responses are not opaque (opaque ones cost about 7 MB of quota each in
// Chromium). A pack's own downloads (cache 'no-store') go straight to the network: the pack
// stores them itself, and they would otherwise be stored twice.
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' &&
    request.cache !== 'no-store' &&
    (url.pathname.startsWith('/iiif/') ||
      /\/info\.json$/.test(url.pathname) ||
      IIIF_IMAGE.test(url.pathname)),
  async (options) => {
    // Across origins the request carries an Origin header the stored one lacks (Vary: Origin).
    const packed = await caches.match(options.request, {
      cacheName: PACK_CACHE,
      ignoreVary: true,
    });
    return packed ?? tiles.handle(options);
  },
);
