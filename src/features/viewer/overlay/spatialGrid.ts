/**
 * A uniform grid over bounding boxes, stored in flat typed arrays (compressed rows: one offset
 * per cell into one list of item indices). Dense pages hold thousands of lines of similar size,
 * the case where a grid beats a tree: a rectangle query touches a few cells and a point query
 * one, with no allocation per query.
 */
import type { BBox } from '@/lib/geometry';

export interface SpatialGrid {
  readonly count: number;
  /** minX, minY, maxX, maxY per item. */
  readonly boxes: Float64Array;
  readonly originX: number;
  readonly originY: number;
  readonly cellWidth: number;
  readonly cellHeight: number;
  readonly cols: number;
  readonly rows: number;
  /** Items of cell k are cellItems[cellStart[k] .. cellStart[k + 1]). */
  readonly cellStart: Uint32Array;
  readonly cellItems: Uint32Array;
  /** Per-item stamp of the last query that returned it, to report items spanning cells once. */
  readonly seen: Uint32Array;
  stamp: number;
}

/** About this many items per cell; small enough that a point query checks a handful. */
const ITEMS_PER_CELL = 4;
const MAX_SIDE = 512;

/**
 * Builds the grid over `count` boxes (4 numbers each). Empty boxes (min > max) are kept out of
 * every cell so they are never returned.
 */
export function buildGrid(boxes: Float64Array, count: number): SpatialGrid {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < count; i += 1) {
    const o = i * 4;
    if (!(boxes[o]! <= boxes[o + 2]! && boxes[o + 1]! <= boxes[o + 3]!)) continue;
    minX = Math.min(minX, boxes[o]!);
    minY = Math.min(minY, boxes[o + 1]!);
    maxX = Math.max(maxX, boxes[o + 2]!);
    maxY = Math.max(maxY, boxes[o + 3]!);
  }
  if (minX > maxX) {
    minX = 0;
    minY = 0;
    maxX = 1;
    maxY = 1;
  }
  const width = Math.max(maxX - minX, 1);
  const height = Math.max(maxY - minY, 1);
  // Square-ish cells whose number follows the item count.
  const cells = Math.max(1, Math.ceil(count / ITEMS_PER_CELL));
  const side = Math.sqrt((width * height) / cells);
  const cols = Math.min(MAX_SIDE, Math.max(1, Math.ceil(width / side)));
  const rows = Math.min(MAX_SIDE, Math.max(1, Math.ceil(height / side)));
  const cellWidth = width / cols;
  const cellHeight = height / rows;

  const colOf = (x: number) => Math.min(cols - 1, Math.max(0, Math.floor((x - minX) / cellWidth)));
  const rowOf = (y: number) => Math.min(rows - 1, Math.max(0, Math.floor((y - minY) / cellHeight)));

  // Two passes: count per cell, then fill, so the lists sit in one array.
  const cellStart = new Uint32Array(cols * rows + 1);
  const valid = (o: number) => boxes[o]! <= boxes[o + 2]! && boxes[o + 1]! <= boxes[o + 3]!;
  for (let i = 0; i < count; i += 1) {
    const o = i * 4;
    if (!valid(o)) continue;
    const c0 = colOf(boxes[o]!);
    const c1 = colOf(boxes[o + 2]!);
    const r0 = rowOf(boxes[o + 1]!);
    const r1 = rowOf(boxes[o + 3]!);
    for (let r = r0; r <= r1; r += 1)
      for (let c = c0; c <= c1; c += 1) cellStart[r * cols + c + 1]! += 1;
  }
  for (let k = 1; k < cellStart.length; k += 1) cellStart[k]! += cellStart[k - 1]!;
  const cellItems = new Uint32Array(cellStart[cellStart.length - 1]!);
  const fill = cellStart.slice(0, -1);
  for (let i = 0; i < count; i += 1) {
    const o = i * 4;
    if (!valid(o)) continue;
    const c0 = colOf(boxes[o]!);
    const c1 = colOf(boxes[o + 2]!);
    const r0 = rowOf(boxes[o + 1]!);
    const r1 = rowOf(boxes[o + 3]!);
    for (let r = r0; r <= r1; r += 1)
      for (let c = c0; c <= c1; c += 1) cellItems[fill[r * cols + c]!++] = i;
  }

  return {
    count,
    boxes,
    originX: minX,
    originY: minY,
    cellWidth,
    cellHeight,
    cols,
    rows,
    cellStart,
    cellItems,
    seen: new Uint32Array(count),
    stamp: 0,
  };
}

function nextStamp(grid: SpatialGrid): number {
  grid.stamp += 1;
  if (grid.stamp === 0xffffffff) {
    grid.seen.fill(0);
    grid.stamp = 1;
  }
  return grid.stamp;
}

/**
 * Writes the indices of the items whose box intersects `rect` into `out` (in index order per
 * cell, each once) and returns how many there are. `out` must hold `grid.count` entries.
 */
export function queryRect(grid: SpatialGrid, rect: BBox, out: Uint32Array): number {
  const { boxes, cols, rows, originX, originY, cellWidth, cellHeight } = grid;
  if (
    grid.count === 0 ||
    rect.maxX < originX ||
    rect.maxY < originY ||
    rect.minX > originX + cols * cellWidth ||
    rect.minY > originY + rows * cellHeight ||
    !(rect.minX <= rect.maxX && rect.minY <= rect.maxY)
  ) {
    return 0;
  }
  const c0 = Math.max(0, Math.floor((rect.minX - originX) / cellWidth));
  const c1 = Math.min(cols - 1, Math.floor((rect.maxX - originX) / cellWidth));
  const r0 = Math.max(0, Math.floor((rect.minY - originY) / cellHeight));
  const r1 = Math.min(rows - 1, Math.floor((rect.maxY - originY) / cellHeight));
  const stamp = nextStamp(grid);
  let found = 0;
  for (let r = r0; r <= r1; r += 1) {
    for (let c = c0; c <= c1; c += 1) {
      const cell = r * cols + c;
      for (let k = grid.cellStart[cell]!; k < grid.cellStart[cell + 1]!; k += 1) {
        const i = grid.cellItems[k]!;
        if (grid.seen[i] === stamp) continue;
        grid.seen[i] = stamp;
        const o = i * 4;
        if (
          boxes[o]! <= rect.maxX &&
          rect.minX <= boxes[o + 2]! &&
          boxes[o + 1]! <= rect.maxY &&
          rect.minY <= boxes[o + 3]!
        ) {
          out[found++] = i;
        }
      }
    }
  }
  return found;
}

/** Items whose box holds the point, padded by `margin` on every side. */
export function queryPoint(
  grid: SpatialGrid,
  x: number,
  y: number,
  out: Uint32Array,
  margin = 0,
): number {
  return queryRect(
    grid,
    { minX: x - margin, minY: y - margin, maxX: x + margin, maxY: y + margin },
    out,
  );
}
