import type { ElementListItem, TextOrientation } from '@/api/types';
import { bbox, openRing, pointInPolygon, type BBox } from '@/lib/geometry';

/**
 * A page's lines in reading order. The page's zones come in one recursive list, ordered by depth
 * and then by the position of each zone in its own parent, so the lines of several regions are
 * interleaved there (every region's first line, then every second line…), and the list names no
 * parents. Each line is put back in the regions that hold its centre: lines follow the order of
 * those regions in the list (the outer ones first).
 *
 * Within a region the lines follow their place on the image, in the direction their text is
 * written: a line's position in the list is the order it was imported or drawn in (an XML
 * file's order, a line drawn late), which the API cannot tell from an order someone chose.
 * Lines that no region holds keep their places among the regions, and among themselves follow
 * the image too.
 */
export function inReadingOrder<T extends { id: string }>(
  lines: readonly T[],
  zones: readonly ElementListItem[],
  orientationOf: (id: string) => TextOrientation | undefined = () => undefined,
): T[] {
  const lineIds = new Set(lines.map((line) => line.id));
  const listed = new Map(zones.map((zone, index) => [zone.id, { zone, index }]));
  const regions = zones.flatMap((zone, index) =>
    zone.zone && !lineIds.has(zone.id) ? [{ index, polygon: openRing(zone.zone.polygon) }] : [],
  );

  // Lines grouped by the regions that hold them; a group's lines share its places in the list.
  const groups = new Map<string, { holders: number[]; members: Placed<T>[] }>();
  const unplaced: T[] = [];
  for (const line of lines) {
    const found = listed.get(line.id);
    if (!found?.zone.zone) {
      unplaced.push(line);
      continue;
    }
    const box = bbox(found.zone.zone.polygon);
    const [x, y] = [(box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2];
    const holders = regions
      .filter((region) => pointInPolygon(x, y, region.polygon))
      .map((region) => region.index);
    const key = holders.join(',');
    const group = groups.get(key) ?? { holders, members: [] };
    group.members.push({ item: line, box, index: found.index });
    groups.set(key, group);
  }

  const keyed: { line: T; key: number[] }[] = [];
  for (const { holders, members } of groups.values()) {
    const slots = members.map((member) => member.index).sort((a, b) => a - b);
    const flow = dominantFlow(members.map((member) => orientationOf(member.item.id)));
    onImage(members, flow).forEach((member, i) => {
      keyed.push({ line: member.item, key: [...holders, slots[i]!] });
    });
  }
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  return [...keyed.map((entry) => entry.line), ...unplaced];
}

interface Placed<T> {
  item: T;
  box: BBox;
  index: number;
}

/** The way most of a region's lines are written; left to right when none says. */
function dominantFlow(orientations: readonly (TextOrientation | undefined)[]): TextOrientation {
  const counts = new Map<TextOrientation, number>();
  for (const orientation of orientations) {
    if (orientation) counts.set(orientation, (counts.get(orientation) ?? 0) + 1);
  }
  let best: TextOrientation = 'horizontal-lr';
  let most = 0;
  for (const [orientation, count] of counts) {
    if (count > most) [best, most] = [orientation, count];
  }
  return best;
}

/**
 * Horizontal text reads row by row from the top, each row left to right (right to left for
 * right-to-left text); vertical text column by column from the left (from the right for
 * vertical-rl), each column from the top. Lines whose centre falls within a row's (column's)
 * extent are side by side in it.
 */
function onImage<T>(members: Placed<T>[], flow: TextOrientation): Placed<T>[] {
  const vertical = flow.startsWith('vertical');
  const backwards = flow.endsWith('-rl');
  const across = (box: BBox) => (vertical ? [box.minX, box.maxX] : [box.minY, box.maxY]);
  const along = (box: BBox) => (vertical ? box.minY + box.maxY : box.minX + box.maxX);
  const centre = (box: BBox) => {
    const [start, end] = across(box);
    return start! + end!;
  };
  const bandOrder = vertical && backwards ? -1 : 1;
  const byBand = [...members].sort((a, b) => bandOrder * (centre(a.box) - centre(b.box)));

  const bands: { start: number; end: number; members: Placed<T>[] }[] = [];
  for (const member of byBand) {
    const [start, end] = across(member.box) as [number, number];
    const middle = (start + end) / 2;
    const band = bands.at(-1);
    if (band && middle >= band.start && middle <= band.end) {
      band.members.push(member);
      band.start = Math.min(band.start, start);
      band.end = Math.max(band.end, end);
    } else {
      bands.push({ start, end, members: [member] });
    }
  }
  const inBandOrder = !vertical && backwards ? -1 : 1;
  return bands.flatMap((band) =>
    band.members.sort((a, b) => inBandOrder * (along(a.box) - along(b.box))),
  );
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}
