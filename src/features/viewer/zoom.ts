/**
 * Zoom levels of spec 001 §9, as percentages of the zoom that fits the whole (rotated) image in
 * the viewer. OpenSeadragon's zoom is "viewer widths per image width"; these helpers convert.
 */
import { normalizeRotation, type BBox } from '@/lib/geometry';

export const ZOOM_LEVELS = [100, 133, 166, 200, 250, 350, 400, 500] as const;
export type ZoomLevel = (typeof ZOOM_LEVELS)[number];

export interface Size {
  width: number;
  height: number;
}

/**
 * The OpenSeadragon zoom at which the image, turned by `degrees`, fits the container. In
 * viewport units the image is 1 wide and height/width high; a zoom z shows 1/z units across.
 */
export function fitZoom(container: Size, image: Size, degrees: number): number {
  if (container.width <= 0 || container.height <= 0 || image.width <= 0 || image.height <= 0)
    return 1;
  const aspect = image.height / image.width;
  const sideways = normalizeRotation(degrees) % 180 !== 0;
  const shownWidth = sideways ? aspect : 1;
  const shownHeight = sideways ? 1 : aspect;
  return Math.min(1 / shownWidth, container.height / container.width / shownHeight);
}

export function zoomForLevel(level: number, fit: number): number {
  return (fit * level) / 100;
}

/** The current zoom as a percentage of the fit zoom. */
export function percentOfFit(zoom: number, fit: number): number {
  return fit > 0 ? (zoom / fit) * 100 : 100;
}

/** Index of the level nearest to a percentage (ratios compare better than differences). */
export function nearestLevelIndex(percent: number): number {
  let best = 0;
  let bestDistance = Infinity;
  ZOOM_LEVELS.forEach((level, index) => {
    const distance = Math.abs(Math.log(percent / level));
    if (distance < bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}

/**
 * The level one step in or out from a percentage that may sit between levels (after a wheel
 * zoom): the next level strictly beyond it, clamped to the ends.
 */
export function steppedLevel(percent: number, direction: 1 | -1): ZoomLevel {
  // A hair of slack so 133.0001 % counts as 133 %.
  const slack = 0.5;
  if (direction > 0) {
    return (
      ZOOM_LEVELS.find((level) => level > percent + slack) ?? ZOOM_LEVELS[ZOOM_LEVELS.length - 1]!
    );
  }
  return [...ZOOM_LEVELS].reverse().find((level) => level < percent - slack) ?? ZOOM_LEVELS[0];
}

/**
 * The rectangle to show for a zone: the zone with half its size around it, but never less than
 * a fifth of the image each way, which is about where the highest zoom level (500 %) stops.
 */
export function focusRect(
  box: BBox,
  image: { width: number; height: number },
): { x: number; y: number; width: number; height: number } {
  const width = Math.max((box.maxX - box.minX) * 2, image.width / 5);
  const height = Math.max((box.maxY - box.minY) * 2, image.height / 5);
  const cx = (box.minX + box.maxX) / 2;
  const cy = (box.minY + box.maxY) / 2;
  return { x: cx - width / 2, y: cy - height / 2, width, height };
}
