/**
 * The IIIF URLs the image viewer asks for, computed from an image's info.json, so an offline
 * pack can fetch exactly those. The arithmetic is OpenSeadragon's (IIIFTileSource.getTileUrl,
 * version 6): a URL that differs by one pixel is a cache miss offline.
 */
import type { PackZoom } from './db';

/** The parts of a IIIF Image API 2 or 3 info.json that tiling reads. */
export interface IiifInfo {
  '@context'?: string | string[];
  '@id'?: string;
  id?: string;
  width: number;
  height: number;
  profile?: unknown;
  tiles?: { width: number; height?: number; scaleFactors: number[] }[];
  sizes?: { width: number; height: number }[];
  preferredFormats?: string[];
}

export interface TileRequest {
  url: string;
  /** Size of the image the URL answers, in pixels, for size estimates. */
  width: number;
  height: number;
}

/** The thumbnail choice keeps the `sizes` entry nearest this width, and the levels below it. */
export const THUMBNAIL_WIDTH = 400;
/** The screen choice stops at the first level this long on its longer side. */
export const DEFAULT_SCREEN_EDGE = 2048;

const LEVEL0_PROFILES = [
  'http://library.stanford.edu/iiif/image-api/compliance.html#level0',
  'http://library.stanford.edu/iiif/image-api/1.1/compliance.html#level0',
  'http://iiif.io/api/image/2/level0.json',
  'level0',
  'https://iiif.io/api/image/3/level0.json',
];
const FORMATS = ['jpg', 'jpeg', 'png', 'gif', 'webp'];

function versionOf(info: IiifInfo): 2 | 3 {
  const contexts = Array.isArray(info['@context']) ? info['@context'] : [info['@context']];
  return contexts.some((context) => context === 'http://iiif.io/api/image/3/context.json') ? 3 : 2;
}

function isLevel0(info: IiifInfo): boolean {
  const profile: unknown = Array.isArray(info.profile) ? info.profile[0] : info.profile;
  return typeof profile === 'string' && LEVEL0_PROFILES.includes(profile);
}

interface Level {
  /** 0 is the smallest. */
  level: number;
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  scale: number;
}

/** Whether arbitrary regions and sizes may be asked for (OpenSeadragon's canBeTiled). */
function canBeTiled(info: IiifInfo): boolean {
  if (!isLevel0(info)) return true;
  const extra = Array.isArray(info.profile) ? (info.profile[1] as { supports?: unknown }) : null;
  return Array.isArray(extra?.supports) && extra.supports.includes('sizeByW');
}

/**
 * OpenSeadragon's levels: one per power of two up to the largest scale factor. A server that
 * lists no tiles but can cut any region gets the largest of 256, 512 or 1024 px tiles that fits
 * the short side, and as many levels as OpenSeadragon 6 gives it: round(ln(longer side)).
 */
function levelsOf(info: IiifInfo): Level[] {
  const perFactor = new Map<number, { width: number; height: number }>();
  let fallback: { width: number; height: number };
  let factors: number[] | null;
  let maxLevel: number;
  if (info.tiles?.length) {
    for (const entry of info.tiles) {
      for (const factor of entry.scaleFactors) {
        perFactor.set(factor, { width: entry.width, height: entry.height ?? entry.width });
      }
    }
    const first = info.tiles[0]!;
    fallback = { width: first.width, height: first.height ?? first.width };
    factors = info.tiles.flatMap((entry) => entry.scaleFactors);
    maxLevel = Math.round(Math.log2(Math.max(...factors)));
  } else {
    const short = Math.min(info.width, info.height);
    const side = Math.max(...[256, 512, 1024].filter((size) => size <= short), 0) || short;
    fallback = { width: side, height: side };
    factors = null;
    maxLevel = Math.round(Math.log(Math.max(info.width, info.height)));
  }

  // The `sizes` stand in for the computed level sizes when they list every level exactly.
  let levelSizes: { width: number; height: number }[] | null = null;
  if (info.sizes?.length) {
    const sorted = [...info.sizes].sort((a, b) => a.width - b.width);
    const last = sorted.at(-1)!;
    if (last.width < info.width && last.height < info.height) {
      sorted.push({ width: info.width, height: info.height });
    }
    const matches =
      !factors ||
      factors.length !== sorted.length ||
      sorted.every((size, i) => {
        const factor = factors[sorted.length - i - 1]!;
        return (
          Math.round(info.width / size.width) === factor &&
          Math.round(info.height / size.height) === factor
        );
      });
    if (sorted.length === maxLevel + 1 && matches) levelSizes = sorted;
  }

  const levels: Level[] = [];
  for (let level = 0; level <= maxLevel; level += 1) {
    const scale = 0.5 ** (maxLevel - level);
    const tile = perFactor.get(2 ** (maxLevel - level)) ?? fallback;
    levels.push({
      level,
      width: levelSizes?.[level]?.width ?? Math.ceil(info.width * scale),
      height: levelSizes?.[level]?.height ?? Math.ceil(info.height * scale),
      tileWidth: tile.width,
      tileHeight: tile.height,
      scale,
    });
  }
  return levels;
}

function levelTiles(info: IiifInfo, base: string, level: Level, suffix: string): TileRequest[] {
  const version = versionOf(info);
  const { width, height, tileWidth, tileHeight, scale } = level;
  if (width < tileWidth && height < tileHeight) {
    let size: string;
    if (version === 2 && width === info.width) size = 'full';
    else if (version === 3 && width === info.width && height === info.height) size = 'max';
    else if (version === 3) size = `${width},${height}`;
    else size = `${width},`;
    return [{ url: `${base}/full/${size}/0/${suffix}`, width, height }];
  }
  const regionWidth = Math.round(tileWidth / scale);
  const regionHeight = Math.round(tileHeight / scale);
  const columns = Math.ceil(width / tileWidth);
  const rows = Math.ceil(height / tileHeight);
  const requests: TileRequest[] = [];
  for (let y = 0; y < rows; y += 1) {
    for (let x = 0; x < columns; x += 1) {
      const left = x * regionWidth;
      const top = y * regionHeight;
      const w = Math.min(regionWidth, info.width - left);
      const h = Math.min(regionHeight, info.height - top);
      const region =
        x === 0 && y === 0 && w === info.width && h === info.height
          ? 'full'
          : `${left},${top},${w},${h}`;
      const sizeWidth = Math.min(tileWidth, width - x * tileWidth);
      const sizeHeight = Math.min(tileHeight, height - y * tileHeight);
      let size: string;
      if (version === 2 && sizeWidth === info.width) size = 'full';
      else if (version === 3 && sizeWidth === info.width && sizeHeight === info.height) {
        size = 'max';
      } else if (isLevel0(info) && version < 3) size = `${sizeWidth},`;
      else size = `${sizeWidth},${sizeHeight}`;
      requests.push({
        url: `${base}/${region}/${size}/0/${suffix}`,
        width: sizeWidth,
        height: sizeHeight,
      });
    }
  }
  return requests;
}

/** The `sizes` entry nearest THUMBNAIL_WIDTH wide, or null without sizes. */
export function thumbnailSize(info: IiifInfo): { width: number; height: number } | null {
  const sizes = info.sizes ?? [];
  let best: { width: number; height: number } | null = null;
  for (const size of sizes) {
    if (!best || Math.abs(size.width - THUMBNAIL_WIDTH) < Math.abs(best.width - THUMBNAIL_WIDTH)) {
      best = size;
    }
  }
  return best;
}

/** The image service's base URL, as the viewer builds tile URLs on it. */
export function serviceId(info: IiifInfo, infoUrl: string): string {
  return (info['@id'] ?? info.id ?? infoUrl.replace(/\/info\.json$/, '')).replace(/\/+$/, '');
}

/**
 * Every URL the viewer may ask for at a zoom choice: the thumbnail (the `sizes` entry nearest
 * 400 px wide) and the levels up to it; the levels up to the first one `screenEdge` pixels
 * long (an image fitted to a screen); or every level (full resolution). A level 0 server that
 * cannot cut tiles has its `sizes` shown one by one, by the viewer and here.
 */
export function iiifTileUrls(
  info: IiifInfo,
  infoUrl: string,
  zoom: PackZoom,
  screenEdge = DEFAULT_SCREEN_EDGE,
): TileRequest[] {
  const base = serviceId(info, infoUrl);
  const version = versionOf(info);
  const format = info.preferredFormats?.find((candidate) => FORMATS.includes(candidate)) ?? 'jpg';
  const suffix = `default.${format}`;
  const thumb = thumbnailSize(info);
  const thumbRequest = thumb && {
    url: `${base}/full/${thumb.width},${version === 3 ? thumb.height : ''}/0/${suffix}`,
    ...thumb,
  };

  // Chosen smallest first: up to the thumbnail, up to screen size, or all.
  const keep = <T extends { width: number; height: number }>(levels: T[]): T[] => {
    if (zoom === 'full') return levels;
    const limit = zoom === 'thumbnail' ? (thumb?.width ?? THUMBNAIL_WIDTH) : null;
    const kept: T[] = [];
    for (const level of levels) {
      if (limit !== null && level.width > limit && kept.length > 0) break;
      kept.push(level);
      if (limit === null && Math.max(level.width, level.height) >= screenEdge) break;
    }
    return kept;
  };

  let requests: TileRequest[];
  if (info.tiles?.length || canBeTiled(info)) {
    requests = keep(levelsOf(info)).flatMap((level) => levelTiles(info, base, level, suffix));
  } else {
    const sizes = [...(info.sizes ?? [])].sort((a, b) => a.width - b.width);
    requests = keep(sizes).map((size) => ({
      url: `${base}/full/${size.width},${version === 3 ? size.height : ''}/0/${suffix}`,
      ...size,
    }));
  }
  if (thumbRequest && zoom === 'thumbnail') requests.unshift(thumbRequest);
  const seen = new Set<string>();
  return requests.filter((request) => !seen.has(request.url) && seen.add(request.url));
}
