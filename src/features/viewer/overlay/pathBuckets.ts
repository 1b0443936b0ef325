/**
 * The zones' outlines kept as Path2D objects in image coordinates, a few dozen zones per path,
 * for each zoom level (simplifiedLevels.ts): a frame then strokes the paths whose zones are in
 * view through the context's transform, instead of tracing every point from script each frame.
 * Strokes stay 1 CSS pixel wide (the width is divided by the view's scale), so only views that
 * scale both axes alike (turned or mirrored included) use them; the others draw point by point.
 */
import type { BBox, Matrix } from '@/lib/geometry';
import { FINEST_LEVEL, simplifyRing, toleranceOf } from './simplifiedLevels';
import type { ZoneSet } from './zoneSet';

/** Zones per path: as the batches drawn point by point (bench/viewer.bench.ts). */
const ZONES_PER_PATH = 32;

interface Buckets {
  count: number;
  /** minX, minY, maxX, maxY of each bucket's zones. */
  boxes: Float64Array;
  /** Zones of bucket k: members[starts[k] .. starts[k + 1]). */
  starts: Uint32Array;
  members: Uint32Array;
  /**
   * Per level: one path per bucket and style (null: no zone of that style), each bucket's made
   * when first in view (undefined until then), so no frame builds them all.
   */
  levels: Map<number, (Path2D | null | undefined)[]>;
  /** Scratch marks of the points a simplified ring keeps. */
  keep: Uint8Array;
}

declare const Path2D: { new (): Path2D } | undefined;
interface Path2D {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
}

export interface PathContext {
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  stroke(path?: never): void;
  strokeStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
}

const cache = new WeakMap<ZoneSet, Buckets>();

export function pathsAvailable(): boolean {
  return typeof Path2D === 'function';
}

/** The scale of a view that scales both axes alike; null for one that stretches or shears. */
export function uniformScale(m: Matrix): number | null {
  const [a, b, c, d] = m;
  const sx = Math.hypot(a, b);
  const sy = Math.hypot(c, d);
  if (Math.abs(sx - sy) > sx * 1e-9 || Math.abs(a * c + b * d) > sx * sy * 1e-9) return null;
  return sx;
}

/** Groups zones by where their box's centre falls on a coarse grid, about 32 per group. */
function bucketsOf(zones: ZoneSet): Buckets {
  const { grid, count } = zones;
  const boxes = grid.boxes;
  const cells = Math.max(1, Math.ceil(count / ZONES_PER_PATH));
  const width = Math.max(grid.cellWidth * grid.cols, 1);
  const height = Math.max(grid.cellHeight * grid.rows, 1);
  const side = Math.sqrt((width * height) / cells);
  const cols = Math.max(1, Math.ceil(width / side));
  const rows = Math.max(1, Math.ceil(height / side));
  const cellOf = new Int32Array(count).fill(-1);
  const sizes = new Uint32Array(cols * rows + 1);
  for (let i = 0; i < count; i += 1) {
    const o = i * 4;
    if (!(boxes[o]! <= boxes[o + 2]! && boxes[o + 1]! <= boxes[o + 3]!)) continue;
    const cx = (boxes[o]! + boxes[o + 2]!) / 2 - grid.originX;
    const cy = (boxes[o + 1]! + boxes[o + 3]!) / 2 - grid.originY;
    const col = Math.min(cols - 1, Math.max(0, Math.floor(cx / side)));
    const row = Math.min(rows - 1, Math.max(0, Math.floor(cy / side)));
    cellOf[i] = row * cols + col;
    sizes[row * cols + col + 1]! += 1;
  }
  for (let k = 1; k < sizes.length; k += 1) sizes[k]! += sizes[k - 1]!;
  const starts = Uint32Array.from(sizes);
  const fill = sizes.slice(0, -1);
  const members = new Uint32Array(starts[starts.length - 1]!);
  const bucketBoxes = new Float64Array(cols * rows * 4);
  for (let k = 0; k < cols * rows; k += 1)
    bucketBoxes.set([Infinity, Infinity, -Infinity, -Infinity], k * 4);
  for (let i = 0; i < count; i += 1) {
    const k = cellOf[i]!;
    if (k < 0) continue;
    members[fill[k]!++] = i;
    const o = i * 4;
    const b = k * 4;
    bucketBoxes[b] = Math.min(bucketBoxes[b]!, boxes[o]!);
    bucketBoxes[b + 1] = Math.min(bucketBoxes[b + 1]!, boxes[o + 1]!);
    bucketBoxes[b + 2] = Math.max(bucketBoxes[b + 2]!, boxes[o + 2]!);
    bucketBoxes[b + 3] = Math.max(bucketBoxes[b + 3]!, boxes[o + 3]!);
  }
  return {
    count: cols * rows,
    boxes: bucketBoxes,
    starts,
    members,
    levels: new Map(),
    keep: new Uint8Array(zones.coords.length / 2),
  };
}

function pathsOf(buckets: Buckets, level: number): (Path2D | null | undefined)[] {
  // Above the finest simplified level every level draws the whole rings: one set of paths.
  const key = Math.min(level, FINEST_LEVEL + 1);
  let paths = buckets.levels.get(key);
  if (!paths) {
    paths = [];
    buckets.levels.set(key, paths);
  }
  return paths;
}

/** Bucket k's paths at `level`, one per style, its zones simplified for the level. */
function buildBucket(
  zones: ZoneSet,
  buckets: Buckets,
  paths: (Path2D | null | undefined)[],
  k: number,
  level: number,
): void {
  const { coords, offsets } = zones;
  const styleCount = zones.styleKeys.length;
  const simplify = level <= FINEST_LEVEL;
  const tolerance = toleranceOf(level);
  const keep = buckets.keep;
  for (let style = 0; style < styleCount; style += 1) paths[k * styleCount + style] = null;
  for (let q = buckets.starts[k]!; q < buckets.starts[k + 1]!; q += 1) {
    const i = buckets.members[q]!;
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    if (end - start < 2) continue;
    if (simplify) simplifyRing(coords, start, end, tolerance, keep);
    const slot = k * styleCount + zones.styles[i]!;
    const path = (paths[slot] ??= new Path2D!());
    let first = true;
    for (let p = start; p < end; p += 1) {
      if (simplify && !keep[p]) continue;
      if (first) path.moveTo(coords[p * 2]!, coords[p * 2 + 1]!);
      else path.lineTo(coords[p * 2]!, coords[p * 2 + 1]!);
      first = false;
    }
    path.closePath();
  }
}

/**
 * Strokes every zone whose group meets `view` (image coordinates) with the kept paths of
 * `level`, through the device matrix `m` of scale `scale`, `width` device pixels wide.
 */
export function strokePaths(
  ctx: PathContext,
  zones: ZoneSet,
  level: number,
  view: BBox,
  m: Matrix,
  scale: number,
  width: number,
  colorOf: (style: number) => string,
): void {
  let buckets = cache.get(zones);
  if (!buckets) {
    buckets = bucketsOf(zones);
    cache.set(zones, buckets);
  }
  const paths = pathsOf(buckets, level);
  const styleCount = zones.styleKeys.length;
  const box = buckets.boxes;
  const inView = (k: number) =>
    box[k * 4]! <= view.maxX &&
    box[k * 4 + 2]! >= view.minX &&
    box[k * 4 + 1]! <= view.maxY &&
    box[k * 4 + 3]! >= view.minY;
  for (let k = 0; k < buckets.count; k += 1) {
    if (paths[k * styleCount] === undefined && inView(k))
      buildBucket(zones, buckets, paths, k, level);
  }
  ctx.setTransform(...m);
  ctx.lineWidth = width / scale;
  for (let style = 0; style < styleCount; style += 1) {
    ctx.strokeStyle = colorOf(style);
    for (let k = 0; k < buckets.count; k += 1) {
      const path = paths[k * styleCount + style];
      if (path && inView(k)) ctx.stroke(path as never);
    }
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
}
