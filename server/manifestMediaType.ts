/**
 * IIIF manifests as JSON-LD when asked for: the Presentation API 2.1 (§ "Responses") serves
 * `application/json` unless the client's Accept header asks for `application/ld+json`, which
 * then comes with the Presentation 2 context as its profile. The manifest route itself only
 * builds the JSON (services/elements/manifest.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PRESENTATION_CONTEXT } from './services/elements/manifest';

export const MANIFEST_ROUTE = '/iiif/:id/manifest/';
export const JSON_LD_TYPE = `application/ld+json;profile="${PRESENTATION_CONTEXT}"`;

/** The quality (q) an Accept header gives a media type, named exactly; 0 when not named. */
function quality(accept: string, type: string): number {
  let best = 0;
  for (const range of accept.split(',')) {
    const [name, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    if (name !== type) continue;
    const q = params.find((param) => param.startsWith('q='));
    const value = q ? Number(q.slice(2)) : 1;
    if (Number.isFinite(value)) best = Math.max(best, value);
  }
  return best;
}

/** True when the Accept header asks for JSON-LD at least as much as for plain JSON. */
export function wantsJsonLd(accept: string | undefined): boolean {
  if (!accept) return false;
  const jsonLd = quality(accept, 'application/ld+json');
  return jsonLd > 0 && jsonLd >= quality(accept, 'application/json');
}

function vary(reply: FastifyReply, header: string): void {
  const current = reply.getHeader('vary');
  const values = current ? String(current).split(/\s*,\s*/) : [];
  if (!values.some((value) => value.toLowerCase() === header.toLowerCase())) values.push(header);
  reply.header('vary', values.join(', '));
}

export function manifestMediaType(app: FastifyInstance, prefix: string): void {
  const route = `${prefix}${MANIFEST_ROUTE}`;
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.url !== route || reply.statusCode >= 400) return payload;
    vary(reply, 'Accept');
    if (wantsJsonLd(request.headers.accept)) reply.header('content-type', JSON_LD_TYPE);
    return payload;
  });
}
