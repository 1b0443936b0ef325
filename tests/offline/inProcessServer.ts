import type { FastifyInstance } from 'fastify';
import type { Fetcher } from '@/offline/transport';

export type Fault = 'none' | 'unreachable' | 'lost-response' | 'unavailable';

/**
 * A fetch that reaches the in-process API server as a signed-in user, with faults injected on
 * the way: `unreachable` never reaches the server, `lost-response` reaches it and loses the
 * answer (the case idempotency keys exist for), `unavailable` answers 503 without applying.
 */
export function inProcessFetcher(
  app: FastifyInstance,
  token: string,
  faults: () => Fault = () => 'none',
): Fetcher & { requests: { method: string; url: string }[] } {
  const requests: { method: string; url: string }[] = [];
  const fetcher = async (url: string, init: RequestInit): Promise<Response> => {
    const fault = faults();
    if (fault === 'unreachable') throw new TypeError('Failed to fetch');
    if (fault === 'unavailable') {
      return new Response('{"type":"server_error","errors":[]}', {
        status: 503,
        headers: { 'content-type': 'application/json' },
      });
    }
    requests.push({ method: init.method ?? 'GET', url });
    const response = await app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url,
      headers: { ...(init.headers as Record<string, string>), authorization: `Token ${token}` },
      payload: typeof init.body === 'string' ? init.body : undefined,
    });
    if (fault === 'lost-response') throw new TypeError('Failed to fetch');
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers.set(name, String(value));
    }
    const empty = response.statusCode === 204 || response.statusCode === 304;
    return new Response(empty ? null : response.body, { status: response.statusCode, headers });
  };
  return Object.assign(fetcher, { requests });
}
