import { normalizePolygon, simplifyPolygon, type Point, type Size } from '../geometry/polygon';

/**
 * A zone from a layout file as the project stores it: scaled when the XML describes the page
 * at another size than the stored image (a layout made on a downscaled copy), points a pixel
 * or two outside the image pulled onto its edge, and dense outlines simplified to the
 * 163-point rule. Throws PolygonError when what is left is not a valid zone.
 */
export function pagePolygon(points: readonly Point[], described: Size, image: Size): Point[] {
  const sx = described.width > 0 ? image.width / described.width : 1;
  const sy = described.height > 0 ? image.height / described.height : 1;
  const fitted = points.map(([x, y]): Point => [
    Math.min(image.width, Math.max(0, Math.round(x * sx))),
    Math.min(image.height, Math.max(0, Math.round(y * sy))),
  ]);
  return normalizePolygon(simplifyPolygon(fitted), image);
}
