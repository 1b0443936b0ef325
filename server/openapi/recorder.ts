/**
 * Records what the API answers, route by route, so a test can check each answer against the
 * response schema the OpenAPI document declares for its route and status. Off unless a build
 * asks for it (BuildOptions.onApiResponse).
 */
import type { FastifyInstance } from 'fastify';
import { DOCS_PATH } from './plugin';

export interface RecordedResponse {
  method: string;
  /** The route's pattern as the document writes it: /api/v1/element/{id}/. */
  path: string;
  status: number;
  contentType: string | null;
  /** The body as sent; null when there was none or it was not text (a file, a stream). */
  body: string | null;
}

/**
 * A Fastify route pattern as the document writes it: /api/v1/element/{id}/, a wildcard as {*},
 * and the API's root (which Fastify also registers without its slash) with it.
 */
export function documentPath(route: string, prefix = '/api/v1'): string {
  if (route === prefix) return `${prefix}/`;
  return route.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');
}

export function recordApiResponses(
  app: FastifyInstance,
  prefix: string,
  sink: (response: RecordedResponse) => void,
): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    const api = route === prefix || route?.startsWith(`${prefix}/`);
    // The documentation page is not an API operation.
    const docs = route?.startsWith(`${prefix}${DOCS_PATH}`);
    if (api && !docs && route && request.method !== 'HEAD') {
      const contentType = reply.getHeader('content-type');
      sink({
        method: request.method,
        path: documentPath(route, prefix),
        status: reply.statusCode,
        contentType: typeof contentType === 'string' ? contentType : null,
        body: typeof payload === 'string' ? payload : null,
      });
    }
    return payload;
  });
}
