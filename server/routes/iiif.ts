/**
 * The IIIF Image API 2.1 server at /iiif/{id}/… (registered at the root, outside /api/v1) and
 * RetrieveImage at /api/v1/image/{id}/. Access follows the image's project: callers who cannot
 * read it get the same 404 as for an unknown id.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CallerCache } from '../auth/callerCache';
import { appendHeader, noteRead } from '../cors';
import { requestOrigin } from '../origin';
import { errors, idParams, image as imageSchema } from '../openapi/schemas';
import { notFound } from '../errors';
import { projectLimit } from '../permissions';
import { RenderCache } from '../iiif/cache';
import { MemoryTiles } from '../iiif/memoryTiles';
import { IIIF_CONTEXT, IIIF_PROFILE, infoJson } from '../iiif/info';
import { canonicalPath, canonicalRequest, parseImageRequest, type RawParams } from '../iiif/params';
import { OUTPUT_MIME, readLevels, renderImage, storedOutput } from '../iiif/render';
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

/**
 * A stored file's mtime, looked at again after STAT_MS: it keys every cached output, yet a
 * pyramid is written once under a new id, so a stat on every warm tile (a trip through libuv's
 * pool, 7 % of a warm tile's time in a profile) would only ever find the same answer.
 */
const STAT_MS = 2000;
const STAT_ENTRIES = 10_000;
const stats = new Map<string, { mtimeMs: number; at: number }>();

async function mtimeOf(file: string): Promise<number | null> {
  const now = Date.now();
  const known = stats.get(file);
  if (known && now - known.at < STAT_MS) return known.mtimeMs;
  const stat = await fs.promises.stat(file).catch(() => null);
  stats.delete(file);
  if (!stat) return null;
  if (stats.size >= STAT_ENTRIES) stats.delete(stats.keys().next().value as string);
  stats.set(file, { mtimeMs: stat.mtimeMs, at: now });
  return stat.mtimeMs;
}

async function localFile(
  app: FastifyInstance,
  request: FastifyRequest,
  readable: ReadableImage,
): Promise<{ file: string; mtimeMs: number }> {
  const file = imageFile(app.config.dataDir, readable.image);
  const mtimeMs = file ? await mtimeOf(file) : null;
  if (!file || mtimeMs === null) {
    request.log.warn(`image ${readable.image.id}: stored file ${file ?? '(none)'} is missing`);
    throw notFound('The image file is missing.');
  }
  return { file, mtimeMs };
}

export async function iiifRoutes(app: FastifyInstance): Promise<void> {
  const memoryBytes = app.config.iiifMemoryMb * 1024 * 1024;
  const cache = new RenderCache(
    iiifCacheDir(app.config.dataDir),
    (error) => app.log.warn({ err: error }, 'could not write an IIIF cache entry'),
    memoryBytes > 0 ? new MemoryTiles(memoryBytes) : null,
  );
  const baseUrl = (request: FastifyRequest, id: string) => `${requestOrigin(request)}/iiif/${id}`;

  // A viewer asks for dozens of tiles of one image at once: whether the caller may read it is
  // decided once for all of them, and decided again after any write (see callerCache.ts).
  const readableImages = new CallerCache<ReadableImage>();
  app.callerCaches.add(readableImages);
  const readableImage = async (request: FastifyRequest, id: string): Promise<ReadableImage> => {
    const { user } = request;
    const key = `${user?.id ?? ''} ${projectLimit(user) ?? ''} ${id.toLowerCase()}`;
    const kept = readableImages.get(key);
    if (kept) {
      noteRead(kept.isPublic);
      return kept;
    }
    const readable = await requireReadableImage(app.db, user, id);
    readableImages.set(key, readable);
    return readable;
  };

  const redirect = async (request: FastifyRequest<IdParams>, reply: FastifyReply) => {
    const { image } = await readableImage(request, request.params.id);
    const base = image.url ?? baseUrl(request, image.id);
    return reply.code(303).header('location', `${base}/info.json`).send();
  };
  app.get<IdParams>('/iiif/:id', redirect);
  app.get<IdParams>('/iiif/:id/', redirect);

  app.get<IdParams>('/iiif/:id/info.json', async (request, reply) => {
    const readable = await readableImage(request, request.params.id);
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
    const readable = await readableImage(request, request.params.id);
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
    const canonical = `${baseUrl(request, image.id)}/${canonicalPath(imageRequest, image)}`;
    reply
      .header('etag', etag)
      .header('cache-control', cacheControl(readable, IMAGE_MAX_AGE, true))
      .header('link', `<${IIIF_PROFILE}>;rel="profile", <${canonical}>;rel="canonical"`);
    if (matchesEtag(request, etag)) return reply.code(304).send();
    const quality = app.config.iiifJpegQuality;
    const data = await cache.get(
      image.id,
      key,
      imageRequest.format,
      async () => renderImage(file, await readLevels(file, mtimeMs), image, imageRequest, quality),
      () => storedOutput(file, mtimeMs, image, imageRequest, quality),
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
  const schema = {
    operationId: 'RetrieveImage',
    tags: ['images'],
    params: idParams,
    response: { 200: imageSchema, ...errors(400, 404) },
  };
  app.get<IdParams>('/image/:id/', { schema }, async (request) => {
    const { image } = await requireReadableImage(app.db, request.user, request.params.id);
    return imageJson(image, requestOrigin(request));
  });
}
