/**
 * The IIIF Image API 2.1 server at /iiif/{id}/… (registered at the root, outside /api/v1) and
 * RetrieveImage at /api/v1/image/{id}/. Access follows the image's project: callers who cannot
 * read it get the same 404 as for an unknown id.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { requestOrigin } from '../origin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors';
import { RenderCache } from '../iiif/cache';
import { IIIF_CONTEXT, IIIF_PROFILE, infoJson } from '../iiif/info';
import { canonicalRequest, parseImageRequest, type RawParams } from '../iiif/params';
import { OUTPUT_MIME, readLevels, renderImage } from '../iiif/render';
import {
  iiifCacheDir,
  imageFile,
  imageJson,
  requireReadableImage,
  type ReadableImage,
} from '../services/images';

const IMAGE_MAX_AGE = 31536000;
// info.json embeds the origin it was asked through, so it is kept for a shorter time.
const INFO_MAX_AGE = 86400;

type IdParams = { Params: { id: string } };
type ImageParams = { Params: { id: string } & RawParams };

function digest(...parts: (string | number)[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 32);
}

/** Adds a header value to a comma-separated one (Vary) without repeating it. */
function appendHeader(reply: FastifyReply, name: string, value: string): void {
  const current = reply.getHeader(name);
  const values = current ? String(current).split(/\s*,\s*/) : [];
  if (!values.some((v) => v.toLowerCase() === value.toLowerCase())) values.push(value);
  reply.header(name, values.join(', '));
}

/**
 * Credentialed CORS for any origin: the service worker and viewers on other origins read tiles
 * as non-opaque responses. Session cookies are SameSite=Lax, so another site's page cannot make
 * a browser send them along, and private images stay private.
 */
function cors(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (origin) {
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    reply.header('access-control-expose-headers', 'ETag, Link');
  }
  appendHeader(reply, 'vary', 'Origin');
}

function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

// Shared caches may keep what anyone may see; a private project's tiles stay in the browser.
function cacheControl(readable: ReadableImage, maxAge: number, immutable: boolean): string {
  return `${readable.isPublic ? 'public' : 'private'}, max-age=${maxAge}${immutable ? ', immutable' : ''}`;
}

async function localFile(
  app: FastifyInstance,
  request: FastifyRequest,
  readable: ReadableImage,
): Promise<{ file: string; mtimeMs: number }> {
  const file = imageFile(app.config.dataDir, readable.image);
  const stat = file ? await fs.promises.stat(file).catch(() => null) : null;
  if (!file || !stat) {
    request.log.warn(`image ${readable.image.id}: stored file ${file ?? '(none)'} is missing`);
    throw notFound('The image file is missing.');
  }
  return { file, mtimeMs: stat.mtimeMs };
}

export async function iiifRoutes(app: FastifyInstance): Promise<void> {
  const cache = new RenderCache(iiifCacheDir(app.config.dataDir), (error) =>
    app.log.warn({ err: error }, 'could not write an IIIF cache entry'),
  );
  const baseUrl = (request: FastifyRequest, id: string) => `${requestOrigin(request)}/iiif/${id}`;

  // Errors too carry CORS headers, so a cross-origin client can read their status and body.
  app.addHook('onSend', async (request, reply, payload) => {
    cors(request, reply);
    return payload;
  });

  app.options('/iiif/*', async (request, reply) => {
    const headers = request.headers['access-control-request-headers'];
    reply.header('access-control-allow-methods', 'GET, HEAD, OPTIONS');
    if (headers) reply.header('access-control-allow-headers', headers);
    reply.header('access-control-max-age', '86400');
    return reply.code(204).send();
  });

  const redirect = async (request: FastifyRequest<IdParams>, reply: FastifyReply) => {
    const { image } = await requireReadableImage(app.db, request.user, request.params.id);
    const base = image.url ?? baseUrl(request, image.id);
    return reply.code(303).header('location', `${base}/info.json`).send();
  };
  app.get<IdParams>('/iiif/:id', redirect);
  app.get<IdParams>('/iiif/:id/', redirect);

  app.get<IdParams>('/iiif/:id/info.json', async (request, reply) => {
    const readable = await requireReadableImage(app.db, request.user, request.params.id);
    const { image } = readable;
    if (image.url) return reply.code(303).header('location', `${image.url}/info.json`).send();
    const { file, mtimeMs } = await localFile(app, request, readable);
    const base = baseUrl(request, image.id);
    const ld = /application\/ld\+json/.test(request.headers.accept ?? '');
    const etag = `"${digest('info', image.id, mtimeMs, base, ld ? 'ld' : 'json')}"`;
    reply
      .header('etag', etag)
      .header('cache-control', cacheControl(readable, INFO_MAX_AGE, false))
      .header('link', `<${IIIF_PROFILE}>;rel="profile"`);
    appendHeader(reply, 'vary', 'Accept');
    if (matchesEtag(request, etag)) return reply.code(304).send();
    const body = infoJson(base, image, await readLevels(file, mtimeMs));
    return reply
      .type(ld ? `application/ld+json;profile="${IIIF_CONTEXT}"` : 'application/json')
      .send(JSON.stringify(body));
  });

  app.get<ImageParams>('/iiif/:id/:region/:size/:rotation/:file', async (request, reply) => {
    const readable = await requireReadableImage(app.db, request.user, request.params.id);
    const { image } = readable;
    const { region, size, rotation, file: name } = request.params;
    if (image.url) {
      const segments = [region, size, rotation, name].map((segment) =>
        encodeURIComponent(segment).replace(/%2C/gi, ',').replace(/%3A/gi, ':'),
      );
      const target = `${image.url}/${segments.join('/')}`;
      return reply.code(303).header('location', target).send();
    }
    const imageRequest = parseImageRequest({ region, size, rotation, file: name }, image);
    const { file, mtimeMs } = await localFile(app, request, readable);
    const key = digest(image.id, mtimeMs, canonicalRequest(imageRequest));
    const etag = `"${key}"`;
    reply
      .header('etag', etag)
      .header('cache-control', cacheControl(readable, IMAGE_MAX_AGE, true))
      .header('link', `<${IIIF_PROFILE}>;rel="profile"`);
    if (matchesEtag(request, etag)) return reply.code(304).send();
    const data = await cache.get(image.id, key, imageRequest.format, async () =>
      renderImage(file, await readLevels(file, mtimeMs), image, imageRequest),
    );
    return reply.type(OUTPUT_MIME[imageRequest.format]).send(data);
  });

  // Anything else under /iiif/ is a structured 404, never the app shell.
  app.get('/iiif/*', async () => {
    throw notFound();
  });
}

/** RetrieveImage, registered under /api/v1. */
export async function imageApiRoutes(app: FastifyInstance): Promise<void> {
  app.get<IdParams>('/image/:id/', async (request) => {
    const { image } = await requireReadableImage(app.db, request.user, request.params.id);
    return imageJson(image, requestOrigin(request));
  });
}
