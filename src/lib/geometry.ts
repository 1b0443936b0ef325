/**
 * Plane geometry for polygons in image coordinates: bounding boxes, containment, hit tests,
 * rectangle intersection and the affine transforms that map image pixels to the screen (zoom,
 * pan, rotation, mirroring). Pure functions over plain numbers, so the viewer, the annotation
 * tools and their tests share one definition.
 *
 * Polygons come as `[x, y][]` (the API's shape); hot paths also take flat coordinate arrays
 * (`x0, y0, x1, y1, …`) so thousands of polygons can live in one typed array.
 */

export type Point = readonly [number, number];
export type Points = readonly Point[];

/** An axis-aligned box; min and max are inclusive. */
export interface BBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** A read-only view of flat coordinates `x0, y0, x1, y1, …`. */
export type FlatCoords = ArrayLike<number>;

export const EMPTY_BBOX: BBox = Object.freeze({
  minX: Infinity,
  minY: Infinity,
  maxX: -Infinity,
  maxY: -Infinity,
});

export function bbox(points: Points): BBox {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of points) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}

/** Bounding box of the points between `start` and `end` (point indices, end excluded). */
export function flatBBox(coords: FlatCoords, start = 0, end = coords.length / 2): BBox {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = start * 2; i < end * 2; i += 2) {
    const x = coords[i]!;
    const y = coords[i + 1]!;
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}

export function isEmptyBBox(box: BBox): boolean {
  return !(box.minX <= box.maxX && box.minY <= box.maxY);
}

export function bboxWidth(box: BBox): number {
  return isEmptyBBox(box) ? 0 : box.maxX - box.minX;
}

export function bboxHeight(box: BBox): number {
  return isEmptyBBox(box) ? 0 : box.maxY - box.minY;
}

/** Whether two boxes share at least one point (touching edges count). */
export function bboxIntersects(a: BBox, b: BBox): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

export function bboxContainsPoint(box: BBox, x: number, y: number): boolean {
  return x >= box.minX && x <= box.maxX && y >= box.minY && y <= box.maxY;
}

export function bboxUnion(a: BBox, b: BBox): BBox {
  return {
    minX: Math.min(a.minX, b.minX),
    minY: Math.min(a.minY, b.minY),
    maxX: Math.max(a.maxX, b.maxX),
    maxY: Math.max(a.maxY, b.maxY),
  };
}

export function expandBBox(box: BBox, margin: number): BBox {
  return {
    minX: box.minX - margin,
    minY: box.minY - margin,
    maxX: box.maxX + margin,
    maxY: box.maxY + margin,
  };
}

/**
 * Even-odd containment (ray casting). Points exactly on an edge may fall either way; callers
 * that need edges to count use `hitPolygon` with a tolerance.
 */
export function pointInPolygon(x: number, y: number, points: Points): boolean {
  let inside = false;
  const n = points.length;
  for (let i = 0, j = n - 1; i < n; j = i, i += 1) {
    const [xi, yi] = points[i]!;
    const [xj, yj] = points[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** `pointInPolygon` over flat coordinates, points `start` to `end` (excluded). */
export function pointInFlatPolygon(
  x: number,
  y: number,
  coords: FlatCoords,
  start = 0,
  end = coords.length / 2,
): boolean {
  let inside = false;
  for (let i = start, j = end - 1; i < end; j = i, i += 1) {
    const xi = coords[i * 2]!;
    const yi = coords[i * 2 + 1]!;
    const xj = coords[j * 2]!;
    const yj = coords[j * 2 + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function distanceToSegment(
  x: number,
  y: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const dx = bx - ax;
  const dy = by - ay;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : ((x - ax) * dx + (y - ay) * dy) / lengthSquared;
  const clamped = Math.max(0, Math.min(1, t));
  return Math.hypot(x - (ax + clamped * dx), y - (ay + clamped * dy));
}

/** Distance from a point to the nearest edge of the ring (closing edge included). */
export function distanceToFlatEdges(
  x: number,
  y: number,
  coords: FlatCoords,
  start = 0,
  end = coords.length / 2,
): number {
  let best = Infinity;
  for (let i = start, j = end - 1; i < end; j = i, i += 1) {
    const d = distanceToSegment(
      x,
      y,
      coords[j * 2]!,
      coords[j * 2 + 1]!,
      coords[i * 2]!,
      coords[i * 2 + 1]!,
    );
    if (d < best) best = d;
  }
  return best;
}

/**
 * Whether a pointer at (x, y) hits the polygon: inside it, or within `tolerance` of an edge, so
 * a line a pixel or two high on screen can still be picked.
 */
export function hitFlatPolygon(
  x: number,
  y: number,
  coords: FlatCoords,
  start = 0,
  end = coords.length / 2,
  tolerance = 0,
): boolean {
  if (pointInFlatPolygon(x, y, coords, start, end)) return true;
  return tolerance > 0 && distanceToFlatEdges(x, y, coords, start, end) <= tolerance;
}

export function hitPolygon(x: number, y: number, points: Points, tolerance = 0): boolean {
  return hitFlatPolygon(x, y, flatten(points), 0, points.length, tolerance);
}

/** Shoelace area, always positive whatever the winding. */
export function flatPolygonArea(coords: FlatCoords, start = 0, end = coords.length / 2): number {
  let twice = 0;
  for (let i = start, j = end - 1; i < end; j = i, i += 1) {
    twice += coords[j * 2]! * coords[i * 2 + 1]! - coords[i * 2]! * coords[j * 2 + 1]!;
  }
  return Math.abs(twice) / 2;
}

export function polygonArea(points: Points): number {
  return flatPolygonArea(flatten(points), 0, points.length);
}

export function flatten(points: Points): number[] {
  const out = new Array<number>(points.length * 2);
  for (let i = 0; i < points.length; i += 1) {
    out[i * 2] = points[i]![0];
    out[i * 2 + 1] = points[i]![1];
  }
  return out;
}

/**
 * The API closes rings (last point = first); drawing and hit tests do not need the repeat, and
 * dropping it keeps the point count honest.
 */
export function openRing(points: Points): Points {
  if (points.length > 1) {
    const first = points[0]!;
    const last = points[points.length - 1]!;
    if (first[0] === last[0] && first[1] === last[1]) return points.slice(0, -1);
  }
  return points;
}

// ---------------------------------------------------------------------------------------------
// Affine transforms, as the canvas names them: x' = a·x + c·y + e, y' = b·x + d·y + f.

export type Matrix = readonly [a: number, b: number, c: number, d: number, e: number, f: number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `multiply(m, n)` applies n first, then m. */
export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

export function applyMatrix(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

export function determinant(m: Matrix): number {
  return m[0] * m[3] - m[1] * m[2];
}

/** The inverse transform; null when the matrix is singular (nothing to invert). */
export function invert(m: Matrix): Matrix | null {
  const det = determinant(m);
  if (!det || !Number.isFinite(det)) return null;
  const [a, b, c, d, e, f] = m;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

export function translation(tx: number, ty: number): Matrix {
  return [1, 0, 0, 1, tx, ty];
}

export function scaling(sx: number, sy = sx): Matrix {
  return [sx, 0, 0, sy, 0, 0];
}

/** Clockwise on screen (y points down), in degrees. Quarter turns are exact. */
export function rotation(degrees: number): Matrix {
  const quarter = normalizeRotation(degrees);
  const exact: Record<number, [number, number]> = {
    0: [1, 0],
    90: [0, 1],
    180: [-1, 0],
    270: [0, -1],
  };
  const [cos, sin] =
    degrees % 90 === 0
      ? exact[quarter]!
      : [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  return [cos, sin, -sin, cos, 0, 0];
}

/** Mirror across the vertical line x = axis. */
export function mirrorX(axis: number): Matrix {
  return [-1, 0, 0, 1, 2 * axis, 0];
}

/**
 * The affine map fixed by three image points and where they land: the origin, (w, 0) and
 * (0, h). Measuring across the whole image keeps rounding in the source transform small.
 */
export function matrixFromPoints(
  origin: Point,
  alongX: Point,
  alongY: Point,
  width: number,
  height: number,
): Matrix {
  return [
    (alongX[0] - origin[0]) / width,
    (alongX[1] - origin[1]) / width,
    (alongY[0] - origin[0]) / height,
    (alongY[1] - origin[1]) / height,
    origin[0],
    origin[1],
  ];
}

/** How many screen units one image unit spans (the same in both directions for similarities). */
export function matrixScale(m: Matrix): number {
  return Math.sqrt(Math.abs(determinant(m)));
}

export function transformBBox(m: Matrix, box: BBox): BBox {
  const corners: Point[] = [
    applyMatrix(m, box.minX, box.minY),
    applyMatrix(m, box.maxX, box.minY),
    applyMatrix(m, box.maxX, box.maxY),
    applyMatrix(m, box.minX, box.maxY),
  ];
  return bbox(corners);
}

/**
 * The part of the image a screen rectangle shows: the box around the screen corners mapped back
 * through the inverse of `imageToScreen`. Rotated views make it larger than the exact quad,
 * which only costs a few extra polygons at the corners.
 */
export function visibleImageBBox(imageToScreen: Matrix, width: number, height: number): BBox {
  const inverse = invert(imageToScreen);
  if (!inverse) return EMPTY_BBOX;
  return transformBBox(inverse, { minX: 0, minY: 0, maxX: width, maxY: height });
}

/** 0, 90, 180 or 270 for any multiple of 90, negative ones included. */
export function normalizeRotation(degrees: number): number {
  const turned = Math.round(degrees / 90) * 90;
  return ((turned % 360) + 360) % 360;
}

export function orientedSize(
  width: number,
  height: number,
  degrees: number,
): { width: number; height: number } {
  return normalizeRotation(degrees) % 180 === 0
    ? { width, height }
    : { width: height, height: width };
}

/**
 * An element's orientation as the API defines it (api/arkindex-api.md §14): mirror the
 * unoriented image horizontally first, then rotate it clockwise, and keep the result in the
 * positive quadrant. Maps unoriented image coordinates to displayed ones.
 */
export function orientationMatrix(
  width: number,
  height: number,
  degrees: number,
  mirrored: boolean,
): Matrix {
  const quarter = normalizeRotation(degrees);
  const mirror = mirrored ? mirrorX(width / 2) : IDENTITY;
  const turned = multiply(rotation(quarter), mirror);
  // Rotating about the origin sends the image to another quadrant; move it back.
  const corner = transformBBox(turned, { minX: 0, minY: 0, maxX: width, maxY: height });
  return multiply(translation(-corner.minX, -corner.minY), turned);
}
