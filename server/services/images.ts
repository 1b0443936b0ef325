/**
 * Images: local ones are converted once, at import, into a tiled pyramidal TIFF that the IIIF
 * server cuts regions from at any scale without decoding the whole picture; remote ones live on
 * an external IIIF server and are only referenced by their IIIF base URL.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import sharp, { type Metadata } from 'sharp';
import { nowIso } from '../clock';
import type { Db } from '../db';
import type { Image, User } from '../db/schema';
import { notFound, validationError } from '../errors';
import { jpegQuality } from '../iiif/jpegQuality';
import { closeStoredFile } from '../iiif/storedTiles';
import { noteRead } from '../cors';
import { bestLevel, groupLevel, projectLimit, rightsFor } from '../permissions';

export const TILE_SIZE = 512;
/**
 * The highest JPEG quality a pyramid is written at, whatever FOLIA_IIIF_JPEG_QUALITY says: from
 * 90 up libvips stops subsampling colour in JPEG tiles, which makes a 3.5 MB Q90 scan a
 * 13.5 MB pyramid instead of 4.7 MB, for a difference no one sees on a page.
 */
export const PYRAMID_QUALITY = 89;
/** The pyramid's quality when the caller does not say (config.iiifJpegQuality's default). */
const DEFAULT_QUALITY = 85;

/**
 * What the storage functions need: the app itself, or its database and data dir, with the JPEG
 * quality pyramids are stored at (config.iiifJpegQuality): the IIIF server sends whole stored
 * tiles as they are when they are no better than that quality.
 */
export type ImageContext =
  | { db: Db; dataDir: string; jpegQuality?: number }
  | { db: Db; config: { dataDir: string; iiifJpegQuality?: number } };

function dataDirOf(context: ImageContext): string {
  return 'config' in context ? context.config.dataDir : context.dataDir;
}

function qualityOf(context: ImageContext): number {
  const wanted = 'config' in context ? context.config.iiifJpegQuality : context.jpegQuality;
  return Math.min(PYRAMID_QUALITY, wanted ?? DEFAULT_QUALITY);
}

export function imagesDir(dataDir: string): string {
  return path.join(dataDir, 'images');
}

export function iiifCacheDir(dataDir: string, imageId?: string): string {
  const root = path.join(dataDir, 'iiif-cache');
  return imageId ? path.join(root, imageId) : root;
}

/** The absolute path of a local image's pyramid; null for remote images. */
export function imageFile(dataDir: string, image: Pick<Image, 'path'>): string | null {
  return image.path ? path.join(imagesDir(dataDir), image.path) : null;
}

const MIME: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  tiff: 'image/tiff',
  webp: 'image/webp',
};

const NOT_AN_IMAGE =
  'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';

// Scans above sharp's default 268 Mpx limit exist (large maps, plans); a pyramid is written
// tile by tile, so they are converted rather than refused.
const MAX_INPUT_PIXELS = 1_000_000_000;

export interface StoreImageInput {
  corpusId: string | null;
  sourcePath?: string;
  buffer?: Buffer;
  /** The uploaded or imported file's name, for messages. */
  filename?: string;
}

async function sha256(input: string | Buffer): Promise<string> {
  const hash = createHash('sha256');
  if (typeof input === 'string') await pipeline(fs.createReadStream(input), hash);
  else hash.update(input);
  return hash.digest('hex');
}

/**
 * Converts a JPEG, PNG, TIFF or WebP into a tiled pyramidal TIFF under
 * <dataDir>/images/<id[0:2]>/<id>.tif and records it. EXIF orientation is not applied: image
 * coordinates (PAGE XML, ALTO, Arkindex polygons) refer to the stored pixels as they are.
 */
export async function storeImage(context: ImageContext, input: StoreImageInput): Promise<Image> {
  const source = input.sourcePath ?? input.buffer;
  if (source === undefined) throw new Error('storeImage needs sourcePath or buffer');
  const name = input.filename ?? (input.sourcePath ? path.basename(input.sourcePath) : 'image');

  let metadata: Metadata;
  try {
    metadata = await sharp(source, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw validationError('file', NOT_AN_IMAGE);
  }
  const mime = MIME[metadata.format ?? ''];
  if (!mime) {
    throw validationError(
      'file',
      `"${name}" is a ${metadata.format ?? 'unknown'} file: JPEG, PNG, TIFF or WebP expected.`,
    );
  }

  const id = randomUUID();
  const relative = path.join(id.slice(0, 2), `${id}.tif`);
  const target = path.join(imagesDir(dataDirOf(context)), relative);
  const temp = `${target}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  await fs.promises.mkdir(path.dirname(target), { recursive: true });

  // Never above the source's own quality: a higher one only makes the pyramid larger.
  const sourceQuality = metadata.format === 'jpeg' ? await jpegQuality(source) : null;
  const quality = Math.min(qualityOf(context), sourceQuality ?? 100);

  const [hashed, converted] = await Promise.allSettled([
    sha256(source),
    (async () => {
      let image = sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true });
      // JPEG-compressed TIFF tiles cannot carry alpha; white is the page's background.
      if (metadata.hasAlpha) image = image.flatten({ background: '#ffffff' });
      // 1-bit and grey scans stay one band (a third of the size, and still grey when shown);
      // the pyramid's averaged levels turn 1-bit text into anti-aliased grey, as it should.
      const bands = (metadata.channels ?? 3) - (metadata.hasAlpha ? 1 : 0);
      image = image.toColourspace(bands === 1 ? 'b-w' : 'srgb');
      // An image within one tile needs no pyramid, and libvips refuses to read back small
      // images tiled larger than themselves ("tile size out of range"): plain strips then.
      const small = (metadata.width ?? 0) <= TILE_SIZE && (metadata.height ?? 0) <= TILE_SIZE;
      try {
        await image
          .tiff(
            small
              ? { compression: 'jpeg', quality }
              : {
                  tile: true,
                  tileWidth: TILE_SIZE,
                  tileHeight: TILE_SIZE,
                  pyramid: true,
                  compression: 'jpeg',
                  quality,
                },
          )
          .toFile(temp);
      } catch {
        throw validationError('file', NOT_AN_IMAGE);
      }
    })(),
  ]);
  if (hashed.status === 'rejected' || converted.status === 'rejected') {
    await fs.promises.rm(temp, { force: true });
    throw hashed.status === 'rejected'
      ? hashed.reason
      : (converted as PromiseRejectedResult).reason;
  }
  const hash = hashed.value;

  try {
    const stored = await sharp(temp).metadata();
    await fs.promises.rename(temp, target);
    const row: Image = {
      id,
      corpus_id: input.corpusId,
      path: relative.split(path.sep).join('/'),
      url: null,
      width: stored.width ?? 0,
      height: stored.height ?? 0,
      status: 'checked',
      mime,
      hash,
      created: nowIso(),
    };
    await context.db.insertInto('images').values(row).execute();
    return row;
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    await fs.promises.rm(target, { force: true });
    throw error;
  }
}

export interface RemoteImageInput {
  corpusId: string | null;
  /** The image's IIIF base URL (its info.json is at `${url}/info.json`). */
  url: string;
  width: number;
  height: number;
}

/** Records an image served by an external IIIF server (Cantaloupe, IIPImage, …). */
export async function createRemoteImage(
  context: Pick<ImageContext, 'db'>,
  input: RemoteImageInput,
): Promise<Image> {
  let parsed: URL;
  try {
    parsed = new URL(input.url);
  } catch {
    throw validationError('url', 'Enter a valid URL.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw validationError('url', 'Enter a valid URL.');
  }
  for (const [attr, value] of [
    ['width', input.width],
    ['height', input.height],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw validationError(attr, 'Ensure this value is greater than or equal to 1.', 'min_value');
    }
  }
  const row: Image = {
    id: randomUUID(),
    corpus_id: input.corpusId,
    path: null,
    url: input.url.replace(/\/info\.json$/, '').replace(/\/+$/, ''),
    width: input.width,
    height: input.height,
    status: 'checked',
    mime: null,
    hash: null,
    created: nowIso(),
  };
  await context.db.insertInto('images').values(row).execute();
  return row;
}

export interface ImageServerJson {
  display_name: string;
  url: string;
  max_width: number | null;
  max_height: number | null;
}

export interface ImageJson {
  id: string;
  path: string;
  width: number;
  height: number;
  url: string;
  s3_url: null;
  status: Image['status'];
  server: ImageServerJson;
}

// Arkindex's own split of an image URL into server and path (doc.arkindex.org/images).
const SERVER_PREFIXES = ['/iiif/2/', '/iiif/', '/i3f/', '/iiif-img/'];

function splitRemoteUrl(url: string): { server: string; path: string } {
  const parsed = new URL(url);
  for (const prefix of SERVER_PREFIXES) {
    const at = parsed.pathname.indexOf(prefix);
    if (at >= 0) {
      const cut = parsed.origin.length + at + prefix.length - 1;
      return { server: url.slice(0, cut), path: url.slice(cut + 1) };
    }
  }
  const cut = url.lastIndexOf('/');
  return { server: url.slice(0, cut), path: url.slice(cut + 1) };
}

/**
 * The Arkindex image shape. `url` is the IIIF base URL, and `server.url + '/' + path` equals it,
 * as in Arkindex; a local image's path is therefore its id, not its storage path.
 */
export function imageJson(image: Image, origin: string): ImageJson {
  if (image.url) {
    const { server, path: imagePath } = splitRemoteUrl(image.url);
    return {
      id: image.id,
      path: imagePath,
      width: image.width,
      height: image.height,
      url: image.url,
      s3_url: null,
      status: image.status,
      server: {
        display_name: new URL(image.url).host,
        url: server,
        max_width: null,
        max_height: null,
      },
    };
  }
  return {
    id: image.id,
    path: image.id,
    width: image.width,
    height: image.height,
    url: `${origin}/iiif/${image.id}`,
    s3_url: null,
    status: image.status,
    server: { display_name: 'Folia', url: `${origin}/iiif`, max_width: null, max_height: null },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ReadableImage {
  image: Image;
  /** Whether anyone may see it (public image or public project), which caches may share. */
  isPublic: boolean;
}

/**
 * The image when the caller may read it, else null: unknown ids, non-UUID ids and images in
 * projects the caller cannot read look the same. One query, since every tile asks it.
 */
export async function findReadableImage(
  db: Db,
  user: User | null,
  id: string,
): Promise<ReadableImage | null> {
  if (!UUID.test(id)) return null;
  const row = await db
    .selectFrom('images')
    .leftJoin('corpora', 'corpora.id', 'images.corpus_id')
    .leftJoin('memberships', (join) =>
      join
        .onRef('memberships.corpus_id', '=', 'images.corpus_id')
        // Anonymous callers have no memberships; an empty id matches none.
        .on('memberships.user_id', '=', user?.id ?? ''),
    )
    .selectAll('images')
    .select(['corpora.public as corpus_public', 'memberships.level as member_level'])
    .select((eb) => groupLevel(eb, eb.ref('images.corpus_id'), user?.id ?? '').as('group_level'))
    .where('images.id', '=', id.toLowerCase())
    .executeTakeFirst();
  if (!row) return null;
  const { corpus_public: corpusPublic, member_level: own, group_level: group, ...image } = row;
  const level = bestLevel(own, group);
  noteRead(image.corpus_id === null || corpusPublic === 1);
  if (image.corpus_id === null) return { image, isPublic: true };
  // A task token reads images of its own project only.
  const limit = projectLimit(user);
  if (limit && image.corpus_id !== limit) return null;
  // A dangling corpus id cannot happen with the foreign key; treat it as private anyway.
  const isPublic = corpusPublic === 1;
  if (!rightsFor(user, level ?? null, { public: isPublic ? 1 : 0 }).includes('read')) return null;
  return { image, isPublic };
}

export async function requireReadableImage(
  db: Db,
  user: User | null,
  id: string,
): Promise<ReadableImage> {
  const found = await findReadableImage(db, user, id);
  if (!found) throw notFound();
  return found;
}

/** Removes a local image's pyramid and rendered outputs (the row is the caller's business). */
export async function deleteImageFiles(dataDir: string, image: Image): Promise<void> {
  const file = imageFile(dataDir, image);
  if (file) closeStoredFile(file);
  if (file) await fs.promises.rm(file, { force: true });
  await fs.promises.rm(iiifCacheDir(dataDir, image.id), { recursive: true, force: true });
}
