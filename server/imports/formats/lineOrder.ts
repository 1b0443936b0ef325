/**
 * The order of the lines within a region. A file's order is how a tool wrote them, not how they
 * read: Aletheia appends lines drawn late, so a title page's flow would jump down and back up.
 * An explicit order wins (a ReadingOrder that names the lines, an index on each line); else the
 * lines are read by their position, in the text's direction.
 */
import type { Point } from './types';

/** PAGE's readingDirection: how the text of a line runs. */
export type ReadingDirection =
  'left-to-right' | 'right-to-left' | 'top-to-bottom' | 'bottom-to-top';

/** PAGE's textLineOrder: where the next line is. */
export type TextLineOrder = ReadingDirection;

export interface TextFlow {
  readingDirection?: ReadingDirection;
  textLineOrder?: TextLineOrder;
}

const DIRECTIONS: readonly string[] = [
  'left-to-right',
  'right-to-left',
  'top-to-bottom',
  'bottom-to-top',
];

/** A PAGE direction attribute's value, or undefined when absent or unknown. */
export function readDirection(value: string | undefined): ReadingDirection | undefined {
  const trimmed = value?.trim();
  return trimmed && DIRECTIONS.includes(trimmed) ? (trimmed as ReadingDirection) : undefined;
}

const vertical = (direction: ReadingDirection) =>
  direction === 'top-to-bottom' || direction === 'bottom-to-top';

interface Box {
  min: [number, number];
  max: [number, number];
}

function boxOf(polygon: readonly Point[]): Box {
  const xs = polygon.map((point) => point[0]);
  const ys = polygon.map((point) => point[1]);
  return { min: [Math.min(...xs), Math.min(...ys)], max: [Math.max(...xs), Math.max(...ys)] };
}

/**
 * Lines by position: in bands along the line order (rows for horizontal text, top to bottom;
 * columns for vertical text, right to left unless the file says otherwise), and within a band
 * (a line cut in two, side by side) in the reading direction. Two lines share a band when they
 * overlap across it by at least half of the narrower one. Stable: lines at one place keep
 * their file order.
 */
export function orderByPosition<L extends { polygon: Point[] }>(
  lines: readonly L[],
  flow: TextFlow,
): L[] {
  const reading = flow.readingDirection ?? 'left-to-right';
  const next = flow.textLineOrder ?? (vertical(reading) ? 'right-to-left' : 'top-to-bottom');
  // Axis 1 is y, axis 0 is x; sign -1 reads the axis backwards.
  const across = vertical(next) ? 1 : 0;
  const acrossSign = next === 'bottom-to-top' || next === 'right-to-left' ? -1 : 1;
  const along = 1 - across;
  const alongSign = reading === 'right-to-left' || reading === 'bottom-to-top' ? -1 : 1;
  const alongMatches = vertical(reading) === (along === 1);

  const items = lines.map((line, index) => ({ line, index, box: boxOf(line.polygon) }));
  const centre = (box: Box, axis: number) => (box.min[axis]! + box.max[axis]!) / 2;
  items.sort(
    (a, b) => acrossSign * (centre(a.box, across) - centre(b.box, across)) || a.index - b.index,
  );

  const bands: (typeof items)[] = [];
  for (const item of items) {
    const band = bands.at(-1);
    const anchor = band?.[0];
    if (anchor) {
      const overlap =
        Math.min(anchor.box.max[across]!, item.box.max[across]!) -
        Math.max(anchor.box.min[across]!, item.box.min[across]!);
      const narrower = Math.min(
        anchor.box.max[across]! - anchor.box.min[across]!,
        item.box.max[across]! - item.box.min[across]!,
      );
      if (narrower > 0 && overlap >= narrower / 2) {
        band!.push(item);
        continue;
      }
    }
    bands.push([item]);
  }
  // Along a band, the reading direction when it runs that way, else its natural start.
  const sign = alongMatches ? alongSign : 1;
  return bands.flatMap((band) =>
    band
      .sort((a, b) => sign * (centre(a.box, along) - centre(b.box, along)) || a.index - b.index)
      .map((item) => item.line),
  );
}

/**
 * Lines by an explicit rank (a ReadingOrder place, an index), or null unless every line has
 * one: half an order says nothing about where the other lines go.
 */
export function orderByRank<L>(
  lines: readonly L[],
  rank: (line: L) => number | undefined,
): L[] | null {
  const ranked = lines.map((line, index) => ({ line, index, rank: rank(line) }));
  if (ranked.some((item) => item.rank === undefined)) return null;
  return ranked.sort((a, b) => a.rank! - b.rank! || a.index - b.index).map((item) => item.line);
}
