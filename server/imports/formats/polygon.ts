/**
 * Point lists as PAGE ("x,y x,y"), ALTO ("x y x y") and older exports write them, turned into the
 * integer, closed rings the element API stores. The spec's own polygon rules (163 points, minimum
 * size, no negative coordinates) are checked later, at import; this only refuses shapes that
 * cannot be a polygon at all.
 */
import type { Point } from './types';

export class PointListError extends Error {
  override readonly name = 'PointListError';
}

const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

function toNumber(token: string): number {
  // Number() alone would accept '', '0x1F' and 'Infinity'.
  if (!NUMBER.test(token)) throw new PointListError(`"${token}" is not a number`);
  return Number(token);
}

/**
 * Reads "x,y x,y …" (PAGE) or "x y x y …" (ALTO). A list with commas is read as pairs when every
 * whitespace-separated token is one "x,y" pair; otherwise all numbers are paired in order, which
 * also covers "x,y,x,y" and "x, y x, y".
 */
export function parsePointList(text: string): Point[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const tokens = trimmed.split(/\s+/);
  if (tokens.every((token) => /^[^,]+,[^,]+$/.test(token))) {
    return tokens.map((token) => {
      const [x = '', y = ''] = token.split(',');
      return [toNumber(x), toNumber(y)];
    });
  }
  const numbers = trimmed
    .split(/[\s,]+/)
    .filter((token) => token !== '')
    .map(toNumber);
  if (numbers.length % 2 !== 0) {
    throw new PointListError(`odd number of coordinates (${numbers.length})`);
  }
  const points: Point[] = [];
  for (let i = 0; i < numbers.length; i += 2) points.push([numbers[i]!, numbers[i + 1]!]);
  return points;
}

// `|| 0` turns Math.round(-0.4) = -0 into 0, so rounded rings compare equal with toEqual.
const round = (value: number): number => Math.round(value) || 0;

export function roundPoints(points: readonly Point[]): Point[] {
  return points.map(([x, y]) => [round(x), round(y)]);
}

export function scalePoints(points: readonly Point[], sx: number, sy: number): Point[] {
  return points.map(([x, y]) => [x * sx, y * sy]);
}

export function dropConsecutiveDuplicates(points: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (const point of points) {
    const last = out[out.length - 1];
    if (!last || last[0] !== point[0] || last[1] !== point[1]) out.push([point[0], point[1]]);
  }
  return out;
}

/** Repeats the first point at the end unless it is already there. */
export function closeRing(points: readonly Point[]): Point[] {
  const ring = points.map(([x, y]): Point => [x, y]);
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (first && last && (first[0] !== last[0] || first[1] !== last[1]))
    ring.push([first[0], first[1]]);
  return ring;
}

/** Twice the signed area (shoelace); an open or closed ring gives the same value. */
function doubleArea(points: readonly Point[]): number {
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    const [x1, y1] = points[i]!;
    const [x2, y2] = points[(i + 1) % points.length]!;
    sum += x1 * y2 - x2 * y1;
  }
  return sum;
}

/**
 * Rounds, drops repeated points and closes the ring; null when what is left has fewer than three
 * distinct points or no area (all points on one line), which no image zone can be made of.
 */
export function toClosedRing(points: readonly Point[]): Point[] | null {
  const open = dropConsecutiveDuplicates(roundPoints(points));
  const first = open[0];
  const last = open[open.length - 1];
  if (open.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]) open.pop();
  const distinct = new Set(open.map(([x, y]) => `${x},${y}`));
  if (distinct.size < 3 || doubleArea(open) === 0) return null;
  return closeRing(open);
}

/** A baseline: rounded, without repeated points; null unless two distinct points remain. */
export function toPolyline(points: readonly Point[]): Point[] | null {
  const line = dropConsecutiveDuplicates(roundPoints(points));
  return line.length >= 2 ? line : null;
}

/** The closed ring of an axis-aligned box, clockwise from the top-left corner. */
export function rectangle(x: number, y: number, width: number, height: number): Point[] {
  return [
    [x, y],
    [x + width, y],
    [x + width, y + height],
    [x, y + height],
    [x, y],
  ];
}

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export function boundingBox(points: readonly Point[]): Box | null {
  if (points.length === 0) return null;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of points) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  return { minX, minY, maxX, maxY };
}
