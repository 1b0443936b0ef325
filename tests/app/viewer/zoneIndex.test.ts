import { describe, expect, it } from 'vitest';
import { bbox, bboxIntersects, type BBox, type Point } from '@/lib/geometry';
import { buildGrid, queryRect } from '@/features/viewer/overlay/spatialGrid';
import {
  buildZoneSet,
  hitTest,
  visibleZones,
  type OverlayZone,
} from '@/features/viewer/overlay/zoneSet';

function rect(x: number, y: number, w: number, h: number): Point[] {
  return [
    [x, y],
    [x, y + h],
    [x + w, y + h],
    [x + w, y],
    [x, y],
  ];
}

/** A deterministic page: `rows` lines of text in two columns, each inside its column region. */
function densePage(rows: number): OverlayZone[] {
  const zones: OverlayZone[] = [
    { id: 'left', polygon: rect(100, 100, 1300, rows * 20), styleKey: 'text_region' },
    { id: 'right', polygon: rect(1600, 100, 1300, rows * 20), styleKey: 'text_region' },
  ];
  for (let r = 0; r < rows; r += 1) {
    zones.push({
      id: `l${r}`,
      polygon: rect(120, 105 + r * 20, 1200 - (r % 7) * 50, 14),
      styleKey: 'text_line',
    });
    zones.push({
      id: `r${r}`,
      polygon: rect(1620, 105 + r * 20, 1100 + (r % 5) * 30, 14),
      styleKey: 'text_line',
    });
  }
  return zones;
}

function bruteForce(zones: OverlayZone[], view: BBox): string[] {
  return zones.filter((zone) => bboxIntersects(bbox(zone.polygon), view)).map((zone) => zone.id);
}

function idsOf(set: ReturnType<typeof buildZoneSet>, count: number): string[] {
  return Array.from(set.scratch.subarray(0, count), (i) => set.ids[i]!);
}

let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

describe('viewport culling', () => {
  const zones = densePage(2499);
  const set = buildZoneSet(zones);

  it('returns exactly the zones whose box meets the visible rectangle, each once', () => {
    for (let trial = 0; trial < 200; trial += 1) {
      const x = random() * 3200 - 100;
      const y = random() * 51000 - 100;
      const view = { minX: x, minY: y, maxX: x + random() * 1500, maxY: y + random() * 2000 };
      const found = idsOf(set, visibleZones(set, view));
      expect(new Set(found).size).toBe(found.length);
      expect([...found].sort()).toEqual(bruteForce(zones, view).sort());
    }
  });

  it('draws a small share of a dense page when zoomed in', () => {
    // 800×600 screen at 100 % image pixels, over the left column.
    const count = visibleZones(set, { minX: 0, minY: 5000, maxX: 800, maxY: 5600 });
    expect(count).toBeGreaterThan(25);
    expect(count).toBeLessThan(40);
    expect(set.count).toBe(5000);
  });

  it('finds nothing outside the page, nor in an empty rectangle', () => {
    expect(visibleZones(set, { minX: 5000, minY: 0, maxX: 6000, maxY: 100 })).toBe(0);
    expect(visibleZones(set, { minX: 10, minY: 10, maxX: 0, maxY: 0 })).toBe(0);
  });

  it('keeps degenerate zones (fewer than three points) out of every answer', () => {
    const odd = buildZoneSet([
      { id: 'dot', polygon: [[10, 10]], styleKey: 'x' },
      { id: 'box', polygon: rect(0, 0, 50, 50), styleKey: 'x' },
    ]);
    expect(idsOf(odd, visibleZones(odd, { minX: 0, minY: 0, maxX: 100, maxY: 100 }))).toEqual([
      'box',
    ]);
  });

  it('works on an empty list', () => {
    const empty = buildZoneSet([]);
    expect(visibleZones(empty, { minX: 0, minY: 0, maxX: 100, maxY: 100 })).toBe(0);
    expect(hitTest(empty, 5, 5)).toBe(-1);
  });
});

describe('grid over boxes', () => {
  it('reports a box spanning many cells once', () => {
    // One page-sized box over forty small ones along the diagonal.
    const values = [0, 0, 1000, 1000];
    for (let i = 0; i < 40; i += 1) values.push(i * 25, i * 25, i * 25 + 10, i * 25 + 10);
    const grid = buildGrid(new Float64Array(values), 41);
    expect(grid.cols * grid.rows).toBeGreaterThan(4);
    const out = new Uint32Array(41);
    const all = queryRect(grid, { minX: 0, minY: 0, maxX: 1000, maxY: 1000 }, out);
    expect([...out.subarray(0, all)].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 41 }, (_, i) => i),
    );
    const corner = queryRect(grid, { minX: 980, minY: 980, maxX: 990, maxY: 990 }, out);
    expect([...out.subarray(0, corner)].sort((a, b) => a - b)).toEqual([0, 40]);
  });
});

describe('hit testing', () => {
  const zones = densePage(100);
  const set = buildZoneSet(zones);

  it('picks the line rather than the region around it', () => {
    expect(set.ids[hitTest(set, 300, 112)]).toBe('l0');
    expect(set.ids[hitTest(set, 1700, 112 + 20 * 50)]).toBe('r50');
  });

  it('picks the region between its lines', () => {
    // Between line 3 (ends at y = 179) and line 4 (starts at y = 185).
    expect(set.ids[hitTest(set, 300, 182)]).toBe('left');
  });

  it('reaches a thin line near its edge only within the tolerance', () => {
    const thin = buildZoneSet([{ id: 'thin', polygon: rect(0, 100, 500, 1), styleKey: 'x' }]);
    expect(hitTest(thin, 250, 104)).toBe(-1);
    expect(thin.ids[hitTest(thin, 250, 104, 3.5)]).toBe('thin');
  });

  it('misses where there is no zone', () => {
    expect(hitTest(set, 1500, 300)).toBe(-1);
    expect(hitTest(set, 50, 50)).toBe(-1);
  });
});
