import type { FastifyInstance } from 'fastify';

/**
 * Every API answer says how it may be cached. Without Cache-Control, a browser caches an
 * answer that carries Last-Modified heuristically (a tenth of the data's age: hours for a
 * day-old page), so a page renamed since would keep showing its old name, even after a reload.
 * API data is per user and changes at any time: `private, no-cache` (keep it, but ask first)
 * unless a route said otherwise (immutable answers set their own).
 */
export function apiCacheControl(app: FastifyInstance, prefix: string): void {
  // On the app, not the API's scope: refusals made before a route is found (unknown path, bad
  // URL) are API answers too.
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.url;
    const api = url.startsWith(prefix) && /^($|[/?])/.test(url.slice(prefix.length));
    if (api && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'private, no-cache');
    return payload;
  });
}

/** The API's routes as registered (method and URL pattern), for checks over all of them. */
export interface ApiRoute {
  method: string;
  url: string;
}

export function recordRoutes(api: FastifyInstance, into: ApiRoute[]): void {
  api.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') into.push({ method, url: route.url });
  });
}
