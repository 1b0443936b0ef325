/**
 * The zones' polygons simplified for a zoom level: a point that moves its ring by less than half
 * a device pixel at that zoom is left out (Douglas–Peucker), so a page of ten thousand lines
 * seen whole is traced with a few points per line, and what is drawn differs from the full
 * polygons by less than half a pixel. Levels are powers of two of the device pixels per image
 * pixel, computed once per zone set and level when first drawn.
 */
import type { ZoneSet } from './zoneSet';

export interface SimplifiedZones {
  readonly coords: Float64Array;
  readonly offsets: Uint32Array;
}

/** Half a device pixel: the most a simplified ring strays from the polygon on screen. */
const TOLERANCE_PX = 0.5;
/** Above this zoom level the rings are drawn whole: simplifying would leave out next to nothing. */
const FINEST_LEVEL = 0;

const cache = new WeakMap<ZoneSet, Map<number, SimplifiedZones>>();

/** The level for a scale: the power of two at or above it, so the error stays under tolerance. */
export { FINEST_LEVEL };

export function levelOf(devicePerImage: number): number {
  return Math.ceil(Math.log2(Math.max(devicePerImage, 1e-6)));
}

/** The zones as drawn at `level`: the zone set's own arrays at fine levels. */
export function simplifiedZones(zones: ZoneSet, level: number): SimplifiedZones {
  if (level > FINEST_LEVEL) return zones;
  let levels = cache.get(zones);
  if (!levels) {
    levels = new Map();
    cache.set(zones, levels);
  }
  let found = levels.get(level);
  if (!found) {
    found = simplify(zones, toleranceOf(level));
    levels.set(level, found);
  }
  return found;
}

/** The tolerance of `level` in image pixels. */
export function toleranceOf(level: number): number {
  return TOLERANCE_PX / 2 ** level;
}

/**
 * Marks in `keep` (one slot per point of `coords`) the points of the ring start..end (excluded)
 * that stray `tolerance` or more from the simplified ring; answers how many.
 */
export function simplifyRing(
  coords: Float64Array,
  start: number,
  end: number,
  tolerance: number,
  keep: Uint8Array,
): number {
  const n = end - start;
  if (n <= 4) {
    for (let p = start; p < end; p += 1) keep[p] = 1;
    return n;
  }
  // A ring: split at its first point and the point farthest from it, then simplify each half.
  let far = start;
  let farthest = -1;
  for (let p = start + 1; p < end; p += 1) {
    const dx = coords[p * 2]! - coords[start * 2]!;
    const dy = coords[p * 2 + 1]! - coords[start * 2 + 1]!;
    const d = dx * dx + dy * dy;
    if (d > farthest) {
      farthest = d;
      far = p;
    }
  }
  for (let p = start; p < end; p += 1) keep[p] = 0;
  keep[start] = 1;
  keep[far] = 1;
  const squared = tolerance * tolerance;
  const stack = [start, far, far, end]; // `end` stands for the first point again
  while (stack.length) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    const bx = coords[(b === end ? start : b) * 2]!;
    const by = coords[(b === end ? start : b) * 2 + 1]!;
    const ax = coords[a * 2]!;
    const ay = coords[a * 2 + 1]!;
    const dx = bx - ax;
    const dy = by - ay;
    const length = dx * dx + dy * dy;
    let worst = -1;
    let worstDistance = squared;
    for (let p = a + 1; p < b; p += 1) {
      const px = coords[p * 2]! - ax;
      const py = coords[p * 2 + 1]! - ay;
      // Squared distance to the segment a–b.
      const t = length > 0 ? Math.max(0, Math.min(1, (px * dx + py * dy) / length)) : 0;
      const ex = px - t * dx;
      const ey = py - t * dy;
      const d = ex * ex + ey * ey;
      if (d > worstDistance) {
        worstDistance = d;
        worst = p;
      }
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push(a, worst, worst, b);
    }
  }
  let kept = 0;
  for (let p = start; p < end; p += 1) kept += keep[p]!;
  return kept;
}

function simplify(zones: ZoneSet, tolerance: number): SimplifiedZones {
  const { coords, offsets, count } = zones;
  const keep = new Uint8Array(coords.length / 2);
  let kept = 0;
  for (let i = 0; i < count; i += 1) {
    kept += simplifyRing(coords, offsets[i]!, offsets[i + 1]!, tolerance, keep);
  }
  const out = new Float64Array(kept * 2);
  const outOffsets = new Uint32Array(count + 1);
  let q = 0;
  for (let i = 0; i < count; i += 1) {
    for (let p = offsets[i]!; p < offsets[i + 1]!; p += 1) {
      if (!keep[p]) continue;
      out[q * 2] = coords[p * 2]!;
      out[q * 2 + 1] = coords[p * 2 + 1]!;
      q += 1;
    }
    outOffsets[i + 1] = q;
  }
  return { coords: out, offsets: outOffsets };
}
