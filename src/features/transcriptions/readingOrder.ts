import type { ElementListItem } from '@/api/types';
import { bbox, openRing, pointInPolygon } from '@/lib/geometry';

/**
 * A page's lines in reading order. The page's zones come in one recursive list, ordered by depth
 * and then by the position of each zone in its own parent, so the lines of several regions are
 * interleaved there (every region's first line, then every second line…), and the list names no
 * parents. Each line is put back in the regions that hold its centre: lines follow the order of
 * those regions in the list (the outer ones first), then their own order in it.
 */
export function inReadingOrder<T extends { id: string }>(
  lines: readonly T[],
  zones: readonly ElementListItem[],
): T[] {
  const lineIds = new Set(lines.map((line) => line.id));
  const listed = new Map(zones.map((zone, index) => [zone.id, { zone, index }]));
  const regions = zones.flatMap((zone, index) =>
    zone.zone && !lineIds.has(zone.id) ? [{ index, polygon: openRing(zone.zone.polygon) }] : [],
  );
  const keyOf = (line: T): number[] => {
    const found = listed.get(line.id);
    if (!found?.zone.zone) return [Number.MAX_SAFE_INTEGER];
    const box = bbox(found.zone.zone.polygon);
    const [x, y] = [(box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2];
    const holders = regions.filter((region) => pointInPolygon(x, y, region.polygon));
    return [...holders.map((region) => region.index), found.index];
  };
  const keys = new Map(lines.map((line) => [line.id, keyOf(line)]));
  return [...lines].sort((a, b) => compareKeys(keys.get(a.id)!, keys.get(b.id)!));
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}
