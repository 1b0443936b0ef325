/** info.json of the IIIF Image API 2.1 (https://iiif.io/api/image/2.1/#image-information). */
import { TILE_SIZE } from '../services/images';
import { FORMATS, MAX_SIZE, QUALITIES } from './params';
import type { Level } from './render';

export const IIIF_CONTEXT = 'http://iiif.io/api/image/2/context.json';
export const IIIF_PROFILE = 'http://iiif.io/api/image/2/level2.json';

// Level 2 features plus the optional ones this server implements, spelled out for clients
// that read `supports` rather than the compliance level.
const SUPPORTS = [
  'baseUriRedirect',
  'canonicalLinkHeader',
  'cors',
  'jsonldMediaType',
  'mirroring',
  'profileLinkHeader',
  'regionByPct',
  'regionByPx',
  'regionSquare',
  'rotationBy90s',
  'sizeAboveFull',
  'sizeByConfinedWh',
  'sizeByDistortedWh',
  'sizeByH',
  'sizeByPct',
  'sizeByW',
  'sizeByWh',
];

/** 1, 2, 4, … up to the first factor at which the whole image fits in one tile. */
export function scaleFactors(width: number, height: number): number[] {
  const factors = [1];
  let factor = 1;
  while (Math.ceil(width / factor) > TILE_SIZE || Math.ceil(height / factor) > TILE_SIZE) {
    factor *= 2;
    factors.push(factor);
  }
  return factors;
}

export function infoJson(
  baseUrl: string,
  image: { width: number; height: number },
  levels: Level[],
): Record<string, unknown> {
  return {
    '@context': IIIF_CONTEXT,
    '@id': baseUrl,
    protocol: 'http://iiif.io/api/image',
    width: image.width,
    height: image.height,
    profile: [
      IIIF_PROFILE,
      {
        formats: [...FORMATS],
        qualities: [...QUALITIES],
        supports: SUPPORTS,
        maxWidth: MAX_SIZE,
        maxHeight: MAX_SIZE,
      },
    ],
    tiles: [{ width: TILE_SIZE, scaleFactors: scaleFactors(image.width, image.height) }],
    // The stored pyramid levels: whole-image requests at these sizes need no resampling.
    sizes: levels
      .filter((level) => level.width <= MAX_SIZE && level.height <= MAX_SIZE)
      .map((level) => ({ width: level.width, height: level.height }))
      .reverse(),
  };
}
