/**
 * Renders IIIF outputs from a stored pyramidal TIFF. Each pyramid level is a TIFF page, half the
 * size of the one before; a request reads the smallest level that still has enough pixels, so a
 * low-zoom tile decodes a few tiles of a small page instead of the full-resolution image. A
 * request for exactly one stored tile is not rendered at all: storedTiles.ts sends its JPEG.
 *
 * sharp.concurrency() is left at its default (1 here, glibc without jemalloc): requests already
 * render in parallel on libuv's pool, and bench/iiif.bench.ts measured 4 cold tiles in flight at
 * 186 tiles/s with 1 libvips thread against 120/s with 2 (2 only helps a lone conversion).
 */
import sharp from 'sharp';
import type { Format, ImageRequest } from './params';
import { readStoredLevels, readStoredTile, storedTileIndex, type StoredLevel } from './storedTiles';

export interface Level {
  page: number;
  width: number;
  height: number;
}

/** Exposed for tests and benchmarks: how many outputs were rendered, how many sent as stored. */
export const renderStats = { renders: 0, stored: 0 };

const LEVEL_CACHE_SIZE = 1000;
interface Pyramid {
  mtimeMs: number;
  levels: Level[];
  /** By page; null when the file is not one whose tiles can be sent as they are. */
  stored: StoredLevel[] | null;
}
const pyramidCache = new Map<string, Pyramid>();

async function readPyramid(file: string, mtimeMs: number): Promise<Pyramid> {
  const known = pyramidCache.get(file);
  if (known && known.mtimeMs === mtimeMs) return known;
  const stored = await readStoredLevels(file).catch(() => null);
  let levels: Level[];
  if (stored) {
    levels = stored.map(({ width, height }, page) => ({ page, width, height }));
  } else {
    const pages = (await sharp(file).metadata()).pages ?? 1;
    levels = await Promise.all(
      Array.from({ length: pages }, async (_, page) => {
        const metadata = await sharp(file, { page }).metadata();
        return { page, width: metadata.width ?? 0, height: metadata.height ?? 0 };
      }),
    );
  }
  levels.sort((a, b) => b.width - a.width);
  if (pyramidCache.size >= LEVEL_CACHE_SIZE) {
    pyramidCache.delete(pyramidCache.keys().next().value as string);
  }
  const pyramid = { mtimeMs, levels, stored };
  pyramidCache.set(file, pyramid);
  return pyramid;
}

/** The pyramid's levels, largest first (page 0 is the full image). */
export async function readLevels(file: string, mtimeMs: number): Promise<Level[]> {
  return (await readPyramid(file, mtimeMs)).levels;
}

/**
 * The smallest level whose copy of the region is at least the output size. Levels are floored
 * halves (4180 → 2090 → 1045 → 522), so one pixel short still counts as enough: otherwise an
 * edge tile would read a level four times larger for a sub-pixel difference.
 */
export function chooseLevel(
  levels: Level[],
  image: { width: number; height: number },
  request: Pick<ImageRequest, 'region' | 'width' | 'height'>,
): Level {
  let chosen = levels[0]!;
  for (const level of levels) {
    const w = (request.region.w * level.width) / image.width;
    const h = (request.region.h * level.height) / image.height;
    if (w >= request.width - 1 && h >= request.height - 1) chosen = level;
    else break;
  }
  return chosen;
}

export const OUTPUT_MIME: Record<Format, string> = { jpg: 'image/jpeg', png: 'image/png' };

/** The request's region in the level's pixels, never empty, never past the level's edges. */
function levelRect(level: Level, image: { width: number; height: number }, request: ImageRequest) {
  const sx = level.width / image.width;
  const sy = level.height / image.height;
  const { x, y, w, h } = request.region;
  const left = Math.min(level.width - 1, Math.floor(x * sx));
  const top = Math.min(level.height - 1, Math.floor(y * sy));
  const right = Math.max(left + 1, Math.min(level.width, Math.ceil((x + w) * sx)));
  const bottom = Math.max(top + 1, Math.min(level.height, Math.ceil((y + h) * sy)));
  return { left, top, right, bottom };
}

/**
 * The stored tile that is exactly this request's answer, as a JPEG file, or null when the
 * output must be rendered: another crop or size, a rotation, grey or bitonal, PNG, or a pyramid
 * saved at a higher quality than `quality` (sending it would be larger than asked for).
 */
export async function storedOutput(
  file: string,
  mtimeMs: number,
  image: { width: number; height: number },
  request: ImageRequest,
  quality: number,
): Promise<Buffer | null> {
  if (request.format !== 'jpg' || request.quality !== 'default') return null;
  if (request.rotation !== 0 || request.mirror) return null;
  const { levels, stored } = await readPyramid(file, mtimeMs);
  if (!stored) return null;
  const level = chooseLevel(levels, image, request);
  const rect = levelRect(level, image, request);
  if (rect.right - rect.left !== request.width || rect.bottom - rect.top !== request.height) {
    return null;
  }
  const storedLevel = stored[level.page];
  // The estimate is within one step of the quality libvips was given.
  if (!storedLevel || storedLevel.quality > quality + 1) return null;
  const found = storedTileIndex(storedLevel, rect);
  if (!found) return null;
  const tile = await readStoredTile(file, mtimeMs, storedLevel, found.index);
  if (!tile) return null;
  renderStats.stored += 1;
  if (found.whole) return tile;
  // Cut by the edge: its padding cropped from the one tile's JPEG, which decodes far faster
  // than libvips opening the pyramid's page to read the same pixels (4× IIPImage's time).
  return sharp(tile)
    .extract({ left: 0, top: 0, width: request.width, height: request.height })
    .jpeg({ quality })
    .toBuffer();
}

export async function renderImage(
  file: string,
  levels: Level[],
  image: { width: number; height: number },
  request: ImageRequest,
  quality: number,
): Promise<Buffer> {
  const level = chooseLevel(levels, image, request);
  const { left, top, right, bottom } = levelRect(level, image, request);

  let output = sharp(file, { page: level.page });
  if (left > 0 || top > 0 || right < level.width || bottom < level.height) {
    output = output.extract({ left, top, width: right - left, height: bottom - top });
  }
  if (right - left !== request.width || bottom - top !== request.height) {
    output = output.resize(request.width, request.height, { fit: 'fill' });
  }
  // IIIF mirrors before rotating; sharp applies flop before rotate, and its rotate comes after
  // the resize above, so the resize takes the unrotated size.
  if (request.mirror) output = output.flop();
  if (request.rotation) output = output.rotate(request.rotation);
  // One band out, not grey pixels in three: smaller files, and what `gray` promises.
  if (request.quality === 'gray') output = output.toColourspace('b-w');
  if (request.quality === 'bitonal') output = output.threshold(128).toColourspace('b-w');
  output = request.format === 'png' ? output.png() : output.jpeg({ quality });
  renderStats.renders += 1;
  return output.toBuffer();
}
