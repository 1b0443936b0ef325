/** Boxes between an element's zone, the crop Tesseract reads and the polygons sent back. */
import type { Box } from './tsv';

export type Point = [number, number];

export interface ImageJson {
  id: string;
  url: string;
  width: number;
  height: number;
}

export interface Crop extends Box {
  /** The IIIF region parameter: `full`, or `x,y,w,h`. */
  region: string;
}

/** The zone's bounding box on its image, in whole pixels inside the image. */
export function cropOf(polygon: Point[], image: Pick<ImageJson, 'width' | 'height'>): Crop {
  const xs = polygon.map(([x]) => x);
  const ys = polygon.map(([, y]) => y);
  const left = Math.max(0, Math.floor(Math.min(...xs)));
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const right = Math.min(image.width, Math.ceil(Math.max(...xs)));
  const bottom = Math.min(image.height, Math.ceil(Math.max(...ys)));
  const box = { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
  const whole = left === 0 && top === 0 && right === image.width && bottom === image.height;
  return { ...box, region: whole ? 'full' : `${left},${top},${box.width},${box.height}` };
}

/** The IIIF URL of a crop at full resolution, as PNG (lossless, as Tesseract should read). */
export function cropUrl(image: ImageJson, crop: Crop): string {
  return `${image.url.replace(/\/+$/, '')}/${crop.region}/full/0/default.png`;
}

/** Smallest side a stored polygon may have (the API's polygon rules). */
const MIN_SIDE = 2;

/**
 * A box found in the crop, as a rectangle on the image, or null when too thin to be stored.
 */
export function boxPolygon(box: Box, crop: Box): Point[] | null {
  const left = Math.max(crop.left, crop.left + box.left);
  const top = Math.max(crop.top, crop.top + box.top);
  const right = Math.min(crop.left + crop.width, crop.left + box.left + box.width);
  const bottom = Math.min(crop.top + crop.height, crop.top + box.top + box.height);
  if (right - left < MIN_SIDE || bottom - top < MIN_SIDE) return null;
  return [
    [left, top],
    [right, top],
    [right, bottom],
    [left, bottom],
  ];
}
