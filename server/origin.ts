import type { FastifyRequest } from 'fastify';

/**
 * The origin public URLs are built from (mailed links, IIIF ids): FOLIA_PUBLIC_URL when set,
 * else the host the request came to. A public deployment should set it, so a forged Host
 * header cannot steer links elsewhere.
 */
export function requestOrigin(request: FastifyRequest): string {
  const configured = request.server.config.publicUrl;
  if (configured) return configured;
  return `${request.protocol}://${request.headers.host ?? 'localhost'}`;
}
