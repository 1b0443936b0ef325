/**
 * Coordinates as PAGE XML and ALTO write them. Folia stores closed rings of integers inside
 * the image; the files get open rings (the closing point is implied), clamped to the image and
 * rounded, since PAGE's pattern takes only non-negative integers.
 */
import type { Point } from '../polygon';

export interface Size {
  width: number;
  height: number;
}

function clamp(value: number, max: number): number {
  return Math.min(max, Math.max(0, Math.round(value) || 0));
}

/** The ring without its closing point, on the image. */
export function openRing(polygon: readonly Point[], image: Size): Point[] {
  const points = polygon.map(([x, y]): Point => [clamp(x, image.width), clamp(y, image.height)]);
  const first = points[0];
  const last = points[points.length - 1];
  if (points.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]) {
    points.pop();
  }
  return points;
}

/** A polyline (a baseline) on the image. */
export function onImage(points: readonly Point[], image: Size): Point[] {
  return points.map(([x, y]): Point => [clamp(x, image.width), clamp(y, image.height)]);
}

/** PAGE: "x,y x,y …". */
export function pagePoints(points: readonly Point[]): string {
  return points.map(([x, y]) => `${x},${y}`).join(' ');
}

/** ALTO: "x y x y …". */
export function altoPoints(points: readonly Point[]): string {
  return points.map(([x, y]) => `${x} ${y}`).join(' ');
}

/** HPOS, VPOS, WIDTH, HEIGHT of the points' bounding box. */
export function altoBox(points: readonly Point[]): {
  HPOS: number;
  VPOS: number;
  WIDTH: number;
  HEIGHT: number;
} {
  const xs = points.map((point) => point[0]);
  const ys = points.map((point) => point[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { HPOS: x, VPOS: y, WIDTH: Math.max(...xs) - x, HEIGHT: Math.max(...ys) - y };
}
