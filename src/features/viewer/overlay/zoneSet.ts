/**
 * The zones an overlay draws, packed once per list: every point in one Float64Array, one box
 * and one area per zone, a style index per zone and the grid over the boxes. Drawing and hit
 * testing then read typed arrays only.
 */
import { flatPolygonArea, hitFlatPolygon, openRing, type BBox, type Points } from '@/lib/geometry';
import { buildGrid, queryPoint, queryRect, type SpatialGrid } from './spatialGrid';

export interface OverlayZone {
  id: string;
  polygon: Points;
  /** Zones sharing a style key share a colour (the element type's). */
  styleKey: string;
}

export interface ZoneSet {
  readonly count: number;
  readonly ids: readonly string[];
  /** Point offsets: zone i has points offsets[i] .. offsets[i + 1] (excluded). */
  readonly offsets: Uint32Array;
  readonly coords: Float64Array;
  readonly areas: Float64Array;
  readonly styles: Uint16Array;
  readonly styleKeys: readonly string[];
  readonly grid: SpatialGrid;
  /** Scratch space for queries, one slot per zone. */
  readonly scratch: Uint32Array;
  indexOf(id: string): number;
}

export function buildZoneSet(zones: readonly OverlayZone[]): ZoneSet {
  const rings = zones.map((zone) => openRing(zone.polygon));
  const offsets = new Uint32Array(zones.length + 1);
  for (let i = 0; i < rings.length; i += 1) offsets[i + 1] = offsets[i]! + rings[i]!.length;
  const coords = new Float64Array(offsets[zones.length]! * 2);
  const boxes = new Float64Array(zones.length * 4);
  const areas = new Float64Array(zones.length);
  const styles = new Uint16Array(zones.length);
  const styleKeys: string[] = [];
  const styleIndex = new Map<string, number>();
  const byId = new Map<string, number>();

  rings.forEach((ring, i) => {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    let p = offsets[i]! * 2;
    for (const [x, y] of ring) {
      coords[p++] = x;
      coords[p++] = y;
      if (x < minX) minX = x;
      if (y < minY) minY = y;
      if (x > maxX) maxX = x;
      if (y > maxY) maxY = y;
    }
    // Fewer than three points is no area to draw or hit; an empty box keeps it out of the grid.
    if (ring.length < 3) {
      minX = Infinity;
      maxX = -Infinity;
    }
    boxes.set([minX, minY, maxX, maxY], i * 4);
    areas[i] = flatPolygonArea(coords, offsets[i]!, offsets[i + 1]!);
    const key = zones[i]!.styleKey;
    let style = styleIndex.get(key);
    if (style === undefined) {
      style = styleKeys.length;
      styleKeys.push(key);
      styleIndex.set(key, style);
    }
    styles[i] = style;
    byId.set(zones[i]!.id, i);
  });

  return {
    count: zones.length,
    ids: zones.map((zone) => zone.id),
    offsets,
    coords,
    areas,
    styles,
    styleKeys,
    grid: buildGrid(boxes, zones.length),
    scratch: new Uint32Array(zones.length),
    indexOf: (id) => byId.get(id) ?? -1,
  };
}

/** Zones whose box meets the rectangle, written to `zones.scratch`; returns how many. */
export function visibleZones(zones: ZoneSet, rect: BBox): number {
  return queryRect(zones.grid, rect, zones.scratch);
}

/**
 * The zone under an image point, or -1. Among overlapping hits the smallest wins, so a line
 * inside its region is what the pointer picks. `tolerance` (image units) lets thin lines be hit
 * near their edge.
 */
export function hitTest(zones: ZoneSet, x: number, y: number, tolerance = 0): number {
  const found = queryPoint(zones.grid, x, y, zones.scratch, tolerance);
  let best = -1;
  let bestArea = Infinity;
  for (let k = 0; k < found; k += 1) {
    const i = zones.scratch[k]!;
    if (!hitFlatPolygon(x, y, zones.coords, zones.offsets[i]!, zones.offsets[i + 1]!, tolerance))
      continue;
    const area = zones.areas[i]!;
    if (area < bestArea || (area === bestArea && i < best)) {
      best = i;
      bestArea = area;
    }
  }
  return best;
}
