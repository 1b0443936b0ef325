/**
 * The annotation tools' geometry (spec 001 §4 "Annotation mode" and "Polygon", §5 "Polygons"):
 * pure functions in image coordinates, so each tool rule is tested without a viewer. The
 * validation itself is the server's (`@/lib/polygon`), so a shape the app accepts is one the
 * API accepts, refused with the same words.
 *
 * Rings are lists of [x, y] image points, closed (last point = first, as the API answers them)
 * or open (as a tool builds them). Editing functions return the ring in the form they were
 * given; vertex and edge indices count the vertices without the closing point, which is vertex 0
 * again.
 */
import {
  IDENTITY,
  applyMatrix,
  invert,
  matrixScale,
  multiply,
  orientationMatrix,
  scaling,
  translation,
  type Matrix,
} from '@/lib/geometry';
import {
  PolygonError,
  boundingBox,
  closeRing,
  normalizePolygon,
  openRing,
  readPoints,
  type Point,
  type PointLike,
  type Size,
} from '@/lib/polygon';

export type Ring = readonly PointLike[];

export type PreparedPolygon = { ok: true; polygon: Point[] } | { ok: false; message: string };

const clamp = (value: number, min: number, max: number): number =>
  Math.min(Math.max(value, min), max);

const samePoint = (a: PointLike, b: PointLike): boolean => a[0] === b[0] && a[1] === b[1];

export function clampToImage([x, y]: PointLike, imageSize: Size): Point {
  return [clamp(x, 0, imageSize.width), clamp(y, 0, imageSize.height)];
}

/**
 * What a tool saves: the points clamped to the image (spec §4: a drag past the border lands on
 * it), then the API's rules in the spec's order. Refusals carry the spec's message, which the
 * tool shows as is.
 */
export function preparePolygon(points: Ring, imageSize: Size): PreparedPolygon {
  try {
    // Read first: clamping would turn an infinite coordinate into a valid one.
    const clamped = readPoints(points).map((point) => clampToImage(point, imageSize));
    return { ok: true, polygon: normalizePolygon(clamped, imageSize) };
  } catch (error) {
    if (error instanceof PolygonError) return { ok: false, message: error.message };
    throw error;
  }
}

/** Whether saving `b` over `a` would change nothing (spec §4: an unchanged polygon is not saved). */
export function samePolygon(a: Ring, b: Ring): boolean {
  const left = openRing(a);
  const right = openRing(b);
  return left.length === right.length && left.every((point, i) => samePoint(point, right[i]!));
}

/** The closed ring a rectangle drag draws, in the order Arkindex answers whole-image zones. */
export function rectangleFrom(a: PointLike, b: PointLike): Point[] {
  const [left, right] = a[0] <= b[0] ? [a[0], b[0]] : [b[0], a[0]];
  const [top, bottom] = a[1] <= b[1] ? [a[1], b[1]] : [b[1], a[1]];
  return [
    [left, top],
    [left, bottom],
    [right, bottom],
    [right, top],
    [left, top],
  ];
}

// ---------------------------------------------------------------------------------------------
// Editing. Indices must stay stable while a tool holds them, so only the closing point is set
// aside here; duplicates are dropped when the ring is prepared for saving.

function isClosed(ring: Ring): boolean {
  return ring.length > 1 && samePoint(ring[0]!, ring[ring.length - 1]!);
}

function vertices(ring: Ring): Point[] {
  const open = isClosed(ring) ? ring.slice(0, -1) : ring;
  return open.map(([x, y]): Point => [x, y]);
}

function inFormOf(ring: Ring, edited: Point[]): Point[] {
  return isClosed(ring) ? closeRing(edited) : edited;
}

function vertexIndex(count: number, index: number): number {
  // The closing point of a closed ring is vertex 0 again.
  const at = index === count ? 0 : index;
  if (!Number.isInteger(at) || at < 0 || at >= count) {
    throw new RangeError(`No vertex ${index} in a ring of ${count}.`);
  }
  return at;
}

/** A vertex dragged to `to`, which stops at the image's border. */
export function movePoint(ring: Ring, index: number, to: PointLike, imageSize: Size): Point[] {
  const points = vertices(ring);
  points[vertexIndex(points.length, index)] = clampToImage(to, imageSize);
  return inFormOf(ring, points);
}

/** How far a span [start, start + length] may move by `delta` and stay within [0, room]. */
function allowedShift(delta: number, start: number, length: number, room: number): number {
  const min = -start;
  const max = room - (start + length);
  // A shape wider than the image has nowhere to go on that axis.
  return min > max ? 0 : clamp(delta, min, max);
}

/**
 * The whole shape moved by (dx, dy). At the border it stops rather than flattening against it,
 * so a move never deforms the shape.
 */
export function translatePolygon(ring: Ring, dx: number, dy: number, imageSize: Size): Point[] {
  const box = boundingBox(ring);
  const sx = allowedShift(dx, box.x, box.width, imageSize.width);
  const sy = allowedShift(dy, box.y, box.height, imageSize.height);
  return ring.map(([x, y]): Point => [x + sx, y + sy]);
}

/** The median tool's new point on edge `edgeIndex`, between that edge's two vertices. */
export function insertPoint(ring: Ring, edgeIndex: number, point: PointLike): Point[] {
  const points = vertices(ring);
  const at = vertexIndex(points.length, edgeIndex);
  points.splice(at + 1, 0, [point[0], point[1]]);
  return inFormOf(ring, points);
}

// ---------------------------------------------------------------------------------------------
// Hit tests. Tolerances are image distances: a tool turns its screen tolerance into one with
// `imageDistance`, so grabbing a point feels the same at every zoom.

/** The vertex within `tolerance` of (x, y), the nearest if several are; null if none is. */
export function nearestVertex(ring: Ring, x: number, y: number, tolerance: number): number | null {
  const points = vertices(ring);
  let best: number | null = null;
  let bestDistance = Infinity;
  for (let i = 0; i < points.length; i += 1) {
    const [vx, vy] = points[i]!;
    const distance = Math.hypot(vx - x, vy - y);
    if (distance <= tolerance && distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  }
  return best;
}

/** The point of segment a–b nearest to (x, y). */
export function projectOntoSegment(x: number, y: number, a: PointLike, b: PointLike): Point {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : ((x - a[0]) * dx + (y - a[1]) * dy) / lengthSquared;
  const along = clamp(t, 0, 1);
  return [a[0] + along * dx, a[1] + along * dy];
}

export interface EdgeHit {
  /** Edge i joins vertex i to vertex i + 1; the last one closes the ring. */
  index: number;
  /** Where the pointer projects onto the edge: the median tool's new point. */
  point: Point;
}

/** The edge within `tolerance` of (x, y), the nearest if several are; null if none is. */
export function nearestEdge(ring: Ring, x: number, y: number, tolerance: number): EdgeHit | null {
  const points = vertices(ring);
  if (points.length < 2) return null;
  let best: EdgeHit | null = null;
  let bestDistance = Infinity;
  for (let i = 0; i < points.length; i += 1) {
    const point = projectOntoSegment(x, y, points[i]!, points[(i + 1) % points.length]!);
    const distance = Math.hypot(point[0] - x, point[1] - y);
    if (distance <= tolerance && distance < bestDistance) {
      best = { index: i, point };
      bestDistance = distance;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Screen and image. The viewer hands tools an image-to-screen matrix that already holds zoom,
// pan, rotation and mirroring; tools convert once and then work in image pixels.

/**
 * Image pixels to screen pixels for an element shown with its orientation (mirror first, then
 * rotate clockwise, as the API defines it), zoomed and panned.
 */
export function orientedView(
  imageSize: Size,
  degrees: number,
  mirrored: boolean,
  zoom = 1,
  pan: PointLike = [0, 0],
): Matrix {
  const orientation = orientationMatrix(imageSize.width, imageSize.height, degrees, mirrored);
  return multiply(translation(pan[0], pan[1]), multiply(scaling(zoom), orientation));
}

export function toScreen(imageToScreen: Matrix, [x, y]: PointLike): Point {
  return applyMatrix(imageToScreen, x, y);
}

/** The image point under a screen point; null when the view collapses the image (zoom 0). */
export function toImage(imageToScreen: Matrix, [x, y]: PointLike): Point | null {
  const inverse = invert(imageToScreen);
  return inverse && applyMatrix(inverse, x, y);
}

/** A screen distance (a grab tolerance) in image pixels. */
export function imageDistance(imageToScreen: Matrix, screenDistance: number): number {
  return screenDistance / matrixScale(imageToScreen);
}

// ---------------------------------------------------------------------------------------------
// Arrow keys: one image pixel, ten with Shift, in the direction the arrow shows on screen.

export type ArrowKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';

export const NUDGE_STEP = 1;
export const NUDGE_SHIFT_STEP = 10;

const ARROWS: Record<ArrowKey, PointLike> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

export function isArrowKey(key: string): key is ArrowKey {
  return Object.hasOwn(ARROWS, key);
}

/**
 * The image move of an arrow key. In a rotated or mirrored view, "right" on screen is another
 * image direction; the move follows the screen so the shape goes where the arrow points.
 */
export function nudgeDelta(key: ArrowKey, shift: boolean, imageToScreen = IDENTITY): Point {
  const [sx, sy] = ARROWS[key];
  const inverse = invert(imageToScreen) ?? IDENTITY;
  // Directions ignore the pan: only the linear part of the inverse applies.
  const x = inverse[0] * sx + inverse[2] * sy;
  const y = inverse[1] * sx + inverse[3] * sy;
  const step = shift ? NUDGE_SHIFT_STEP : NUDGE_STEP;
  // Quarter turns keep arrows on an image axis; snapping drops the matrices' rounding noise.
  return Math.abs(x) >= Math.abs(y) ? [Math.sign(x) * step, 0] : [0, Math.sign(y) * step];
}

export function nudgePolygon(
  ring: Ring,
  key: ArrowKey,
  shift: boolean,
  imageSize: Size,
  imageToScreen = IDENTITY,
): Point[] {
  const [dx, dy] = nudgeDelta(key, shift, imageToScreen);
  return translatePolygon(ring, dx, dy, imageSize);
}

export function nudgeVertex(
  ring: Ring,
  index: number,
  key: ArrowKey,
  shift: boolean,
  imageSize: Size,
  imageToScreen = IDENTITY,
): Point[] {
  const [dx, dy] = nudgeDelta(key, shift, imageToScreen);
  const points = vertices(ring);
  const [x, y] = points[vertexIndex(points.length, index)]!;
  return movePoint(ring, index, [x + dx, y + dy], imageSize);
}
