/**
 * The spec's polygon rules (spec 001 §5 "Polygons", §9): one copy for the API, the importer, the
 * annotation tools and their tests, so the app refuses exactly what the server refuses, with the
 * same words. Polygons are lists of [x, y] image coordinates; the API stores and answers closed
 * rings of integers.
 *
 * The server imports this file (its one exception to "the server does not import the app"), so
 * it imports nothing and uses neither the DOM nor Node: `tsconfig.shared.json` compiles it with
 * the bare ES library and ESLint refuses any import here.
 */
export type Point = [number, number];
/** What the rules read: the app's points may be read-only tuples. */
export type PointLike = readonly [number, number];

export const MAX_POLYGON_POINTS = 163;
export const MIN_POLYGON_SIZE = 2;

export const POLYGON_MESSAGES = {
  shape: 'A polygon must be a list of [x, y] points, each coordinate a number.',
  negative: 'A polygon cannot have negative coordinates.',
  tooFewPoints: 'This polygon does not have at least three unique points.',
  tooManyPoints: `This polygon has more than ${MAX_POLYGON_POINTS} distinct points.`,
  tooSmall: 'This polygon is too small.',
  outsideImage: 'A polygon must be inside its image.',
} as const;

/** A polygon the rules refuse; `message` is the spec's wording, shown to the user as is. */
export class PolygonError extends Error {
  override readonly name = 'PolygonError';
}

export interface Size {
  width: number;
  height: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function isPoint(value: unknown): value is Point {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    value.every((c) => typeof c === 'number' && Number.isFinite(c))
  );
}

/** Reads an untrusted value as a list of points, or throws the shape error. */
export function readPoints(value: unknown): Point[] {
  if (!Array.isArray(value) || !value.every(isPoint))
    throw new PolygonError(POLYGON_MESSAGES.shape);
  return value.map(([x, y]) => [x, y]);
}

// `|| 0` turns Math.round(-0.4) = -0 into 0, so rings compare equal in tests and JSON.
const round = (value: number): number => Math.round(value) || 0;

const samePoint = (a: PointLike, b: PointLike): boolean => a[0] === b[0] && a[1] === b[1];

export function dropConsecutiveDuplicates(points: readonly PointLike[]): Point[] {
  const out: Point[] = [];
  for (const point of points) {
    const last = out[out.length - 1];
    if (!last || !samePoint(last, point)) out.push([point[0], point[1]]);
  }
  return out;
}

/** The ring without its closing point (and without repeated points). */
export function openRing(points: readonly PointLike[]): Point[] {
  const open = dropConsecutiveDuplicates(points);
  while (open.length > 1 && samePoint(open[0]!, open[open.length - 1]!)) open.pop();
  return open;
}

/** Repeats the first point at the end unless it is already there. */
export function closeRing(points: readonly PointLike[]): Point[] {
  const ring = points.map(([x, y]): Point => [x, y]);
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (first && last && !samePoint(first, last)) ring.push([first[0], first[1]]);
  return ring;
}

export function boundingBox(points: readonly PointLike[]): Box {
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
  if (minX === Infinity) return { x: 0, y: 0, width: 0, height: 0 };
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

/** The closed ring covering a whole image, in the order Arkindex answers it. */
export function fullImagePolygon(size: Size): Point[] {
  return [
    [0, 0],
    [0, size.height],
    [size.width, size.height],
    [size.width, 0],
    [0, 0],
  ];
}

/**
 * Applies the rules in the spec's order and returns the closed integer ring, or throws a
 * PolygonError with the spec's message. With an image, the polygon must also lie inside it
 * (a point on the right or bottom edge is inside: a whole-page zone ends there).
 */
export function normalizePolygon(value: unknown, image?: Size | null): Point[] {
  const points = readPoints(value).map(([x, y]): Point => [round(x), round(y)]);
  if (points.some(([x, y]) => x < 0 || y < 0)) throw new PolygonError(POLYGON_MESSAGES.negative);
  const open = openRing(points);
  const distinct = new Set(open.map(([x, y]) => `${x},${y}`)).size;
  if (distinct < 3) throw new PolygonError(POLYGON_MESSAGES.tooFewPoints);
  if (distinct > MAX_POLYGON_POINTS) throw new PolygonError(POLYGON_MESSAGES.tooManyPoints);
  const box = boundingBox(open);
  if (box.width < MIN_POLYGON_SIZE || box.height < MIN_POLYGON_SIZE) {
    throw new PolygonError(POLYGON_MESSAGES.tooSmall);
  }
  if (image && (box.x + box.width > image.width || box.y + box.height > image.height)) {
    throw new PolygonError(POLYGON_MESSAGES.outsideImage);
  }
  return closeRing(open);
}

/** Distance from p to the segment a–b. */
function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const lengthSquared = dx * dx + dy * dy;
  let t = lengthSquared === 0 ? 0 : ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / lengthSquared;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** Douglas–Peucker on an open chain, keeping both ends; iterative, as outlines can be long. */
function simplifyChain(chain: readonly Point[], tolerance: number): Point[] {
  if (chain.length <= 2) return chain.slice();
  const keep = new Uint8Array(chain.length);
  keep[0] = 1;
  keep[chain.length - 1] = 1;
  const stack: [number, number][] = [[0, chain.length - 1]];
  while (stack.length) {
    const [start, end] = stack.pop()!;
    let farthest = -1;
    let distance = tolerance;
    for (let i = start + 1; i < end; i += 1) {
      const d = segmentDistance(chain[i]!, chain[start]!, chain[end]!);
      if (d > distance) {
        distance = d;
        farthest = i;
      }
    }
    if (farthest >= 0) {
      keep[farthest] = 1;
      stack.push([start, farthest], [farthest, end]);
    }
  }
  return chain.filter((_, i) => keep[i]);
}

/** One Douglas–Peucker pass over a ring, cut at its first point and the point farthest from it. */
function simplifyRing(open: readonly Point[], tolerance: number): Point[] {
  const first = open[0]!;
  let cut = 0;
  let best = -1;
  open.forEach((point, i) => {
    const d = Math.hypot(point[0] - first[0], point[1] - first[1]);
    if (d > best) {
      best = d;
      cut = i;
    }
  });
  const there = simplifyChain(open.slice(0, cut + 1), tolerance);
  const back = simplifyChain([...open.slice(cut), first], tolerance);
  return [...there, ...back.slice(1, -1)];
}

/**
 * Dense outlines (Aletheia writes one point per pixel of a region's border) exceed the
 * 163-point rule: Douglas–Peucker with a tolerance raised until at most `maxPoints` distinct
 * points remain, so the shape loses as little as it must. Returns a closed ring.
 */
export function simplifyPolygon(
  points: readonly PointLike[],
  maxPoints: number = MAX_POLYGON_POINTS,
): Point[] {
  if (maxPoints < 3) throw new RangeError('A polygon needs at least three points.');
  const open = openRing(points);
  if (open.length <= maxPoints) return closeRing(open);
  let tolerance = 0.5;
  let simplified = simplifyRing(open, tolerance);
  while (simplified.length > maxPoints) {
    tolerance *= 1.5;
    simplified = simplifyRing(open, tolerance);
  }
  return closeRing(simplified);
}
