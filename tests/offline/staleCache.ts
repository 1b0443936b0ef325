import type { Fetcher } from '@/offline/transport';

/**
 * A cache between the app and the API that keeps GET answers carrying Last-Modified and serves
 * them again while they are "fresh" by the heuristic browsers use without Cache-Control: a
 * tenth of the data's age at the time of the answer (hours for a day-old page, days for a
 * month-old one). It stands for any older answer arriving after a fresher one (a proxy, a
 * browser cache, a slow response), so it ignores what the answer says about caching.
 */
export function heuristicCache(upstream: Fetcher, now: () => number = Date.now): Fetcher {
  const kept = new Map<string, { body: string; headers: Headers; status: number; until: number }>();
  return async (url, init) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (method === 'GET') {
      const hit = kept.get(url);
      if (hit && hit.until > now()) {
        return new Response(hit.body, { status: hit.status, headers: hit.headers });
      }
    }
    const response = await upstream(url, init);
    const modified = Date.parse(response.headers.get('last-modified') ?? '');
    if (method !== 'GET' || response.status !== 200 || Number.isNaN(modified)) return response;
    const served = Date.parse(response.headers.get('date') ?? '') || now();
    const body = await response.text();
    const headers = new Headers(response.headers);
    kept.set(url, { body, headers, status: 200, until: now() + (served - modified) / 10 });
    return new Response(body, { status: 200, headers });
  };
}
