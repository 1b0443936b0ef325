import { describe, expect, it } from 'vitest';
import {
  NUDGE_SHIFT_STEP,
  NUDGE_STEP,
  imageDistance,
  insertPoint,
  isArrowKey,
  movePoint,
  nearestEdge,
  nearestVertex,
  nudgeDelta,
  nudgePolygon,
  nudgeVertex,
  orientedView,
  preparePolygon,
  projectOntoSegment,
  rectangleFrom,
  samePolygon,
  toImage,
  toScreen,
  translatePolygon,
  type ArrowKey,
  type Ring,
} from '@/features/annotation/geometry';
import { MAX_POLYGON_POINTS, normalizePolygon, type Point } from '@/lib/polygon';

// The spec's messages, written out: a change of wording must fail here, not pass silently.
const NEGATIVE = 'A polygon cannot have negative coordinates.';
const TOO_FEW = 'This polygon does not have at least three unique points.';
const TOO_MANY = 'This polygon has more than 163 distinct points.';
const TOO_SMALL = 'This polygon is too small.';
const SHAPE = 'A polygon must be a list of [x, y] points, each coordinate a number.';

// A portrait page, as most zone images are.
const image = { width: 1000, height: 1500 };

const square: Point[] = [
  [100, 100],
  [300, 100],
  [300, 200],
  [100, 200],
  [100, 100],
];

// -0 and 0 differ for toEqual; matrices and shifts may produce either.
const plain = (points: readonly (readonly number[])[]): number[][] =>
  points.map((point) => point.map((value) => value + 0));

const messageOf = (points: Ring) => {
  const result = preparePolygon(points, image);
  return result.ok ? null : result.message;
};

const polygonOf = (points: Ring) => {
  const result = preparePolygon(points, image);
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result.polygon;
};

/** n distinct integer points on a circle around the page's middle. */
function circle(n: number): Point[] {
  return Array.from({ length: n }, (_, i): Point => {
    const angle = (2 * Math.PI * i) / n;
    return [Math.round(500 + 400 * Math.cos(angle)), Math.round(700 + 400 * Math.sin(angle))];
  });
}

describe('preparePolygon: clamping', () => {
  it('brings every point back onto the image box', () => {
    expect(
      polygonOf([
        [-20, -5],
        [1200, 40],
        [500, 1600],
      ]),
    ).toEqual([
      [0, 0],
      [1000, 40],
      [500, 1500],
      [0, 0],
    ]);
  });

  it('keeps points on the right and bottom edges (a whole-page zone ends there)', () => {
    expect(
      polygonOf([
        [0, 0],
        [0, 1500],
        [1000, 1500],
        [1000, 0],
      ]),
    ).toEqual([
      [0, 0],
      [0, 1500],
      [1000, 1500],
      [1000, 0],
      [0, 0],
    ]);
  });

  it('refuses points that clamping collapses into fewer than three', () => {
    // Three points past the right border all land on x = 1000, two of them on the same spot.
    expect(
      messageOf([
        [1100, 10],
        [1200, 10],
        [1300, 20],
      ]),
    ).toBe(TOO_FEW);
  });

  it('refuses coordinates that are not finite numbers instead of clamping them', () => {
    expect(
      messageOf([
        [0, 0],
        [Infinity, 10],
        [10, 10],
      ]),
    ).toBe(SHAPE);
    expect(
      messageOf([
        [0, 0],
        [Number.NaN, 10],
        [10, 10],
      ]),
    ).toBe(SHAPE);
  });
});

describe('preparePolygon: rounding, duplicates and closing', () => {
  it('rounds to integers, -0.4 to a plain 0', () => {
    const polygon = polygonOf([
      [-0.4, 10.5],
      [20.49, 9.6],
      [20.2, 30.7],
    ]);
    expect(polygon).toEqual([
      [0, 11],
      [20, 10],
      [20, 31],
      [0, 11],
    ]);
    expect(Object.is(polygon[0]![0], 0)).toBe(true);
  });

  it('drops consecutive duplicates, those made by rounding included', () => {
    expect(
      polygonOf([
        [10, 10],
        [10, 10],
        [10.2, 9.8],
        [50, 10],
        [50, 50],
        [50.4, 50],
      ]),
    ).toEqual([
      [10, 10],
      [50, 10],
      [50, 50],
      [10, 10],
    ]);
  });

  it('closes an open ring and keeps a closed one closed once', () => {
    expect(polygonOf(square.slice(0, -1))).toEqual(square);
    expect(polygonOf(square)).toEqual(square);
    expect(polygonOf([...square, [100, 100]])).toEqual(square);
  });
});

describe('preparePolygon: the spec rules and messages', () => {
  it('needs three unique points', () => {
    expect(
      messageOf([
        [10, 10],
        [50, 50],
      ]),
    ).toBe(TOO_FEW);
    // A back-and-forth stroke repeats points without adding new ones.
    expect(
      messageOf([
        [10, 10],
        [50, 50],
        [10, 10],
        [50, 50],
      ]),
    ).toBe(TOO_FEW);
    expect(messageOf([])).toBe(TOO_FEW);
  });

  it(`accepts ${MAX_POLYGON_POINTS} distinct points and refuses one more`, () => {
    const most = circle(163);
    expect(new Set(most.map(String)).size).toBe(163);
    expect(polygonOf(most)).toHaveLength(164);
    // Closed, the ring has 164 entries but still 163 distinct points.
    expect(polygonOf([...most, most[0]!])).toHaveLength(164);
    const tooMany = circle(164);
    expect(new Set(tooMany.map(String)).size).toBe(164);
    expect(messageOf(tooMany)).toBe(TOO_MANY);
  });

  it('needs a width and a height of at least 2', () => {
    const narrow: Point[] = [
      [10, 10],
      [11, 10],
      [11, 50],
      [10, 50],
    ];
    const flat: Point[] = [
      [10, 10],
      [50, 10],
      [50, 11],
    ];
    expect(messageOf(narrow)).toBe(TOO_SMALL);
    expect(messageOf(flat)).toBe(TOO_SMALL);
    // Three points on one line have no height at all.
    expect(
      messageOf([
        [0, 0],
        [10, 0],
        [20, 0],
      ]),
    ).toBe(TOO_SMALL);
    expect(
      polygonOf([
        [10, 10],
        [12, 10],
        [12, 12],
      ]),
    ).toHaveLength(4);
  });

  it('applies the rules in the spec order', () => {
    // Two points are also too small: the unique-points rule speaks first.
    expect(
      messageOf([
        [0, 0],
        [1, 1],
      ]),
    ).toBe(TOO_FEW);
    // 164 points in a strip one pixel high: too many before too small.
    const strip = Array.from({ length: 164 }, (_, i): Point => [i, i % 2]);
    expect(messageOf(strip)).toBe(TOO_MANY);
  });

  it('shares the server rules: round first, then refuse negatives, before anything else', () => {
    // The tools clamp so they never meet this rule; imports and the API do.
    expect(
      normalizePolygon([
        [-0.4, 0],
        [10, 0],
        [10, 10],
      ])[0],
    ).toEqual([0, 0]);
    expect(() =>
      normalizePolygon([
        [-0.6, 0],
        [10, 0],
        [10, 10],
      ]),
    ).toThrow(NEGATIVE);
    expect(() =>
      normalizePolygon([
        [-5, -5],
        [-5, -5],
      ]),
    ).toThrow(NEGATIVE);
  });
});

describe('samePolygon', () => {
  it('ignores the closing point and repeated points', () => {
    expect(samePolygon(square, square.slice(0, -1))).toBe(true);
    expect(samePolygon(square, [[100, 100], ...square])).toBe(true);
  });

  it('sees a moved point, an added point and another starting point', () => {
    expect(samePolygon(square, movePoint(square, 1, [301, 100], image))).toBe(false);
    expect(samePolygon(square, insertPoint(square, 0, [200, 100]))).toBe(false);
    expect(samePolygon(square, [...square.slice(1, -1), square[1]!])).toBe(false);
  });
});

describe('rectangleFrom', () => {
  const expected = [
    [10, 20],
    [10, 80],
    [50, 80],
    [50, 20],
    [10, 20],
  ];

  it('draws the same closed ring whichever way the drag goes', () => {
    expect(rectangleFrom([10, 20], [50, 80])).toEqual(expected);
    expect(rectangleFrom([50, 80], [10, 20])).toEqual(expected);
    expect(rectangleFrom([50, 20], [10, 80])).toEqual(expected);
    expect(rectangleFrom([10, 80], [50, 20])).toEqual(expected);
  });

  it('gives a click without travel to the too-small rule', () => {
    expect(messageOf(rectangleFrom([10, 20], [11, 20]))).toBe(TOO_FEW);
    expect(messageOf(rectangleFrom([10, 20], [11, 60]))).toBe(TOO_SMALL);
  });
});

describe('movePoint', () => {
  it('moves one vertex and stops it at the border', () => {
    expect(movePoint(square, 2, [2000, -30], image)).toEqual([
      [100, 100],
      [300, 100],
      [1000, 0],
      [100, 200],
      [100, 100],
    ]);
  });

  it('moves the closing point with the first one', () => {
    const moved = movePoint(square, 0, [90, 80], image);
    expect(moved).toEqual([
      [90, 80],
      [300, 100],
      [300, 200],
      [100, 200],
      [90, 80],
    ]);
    expect(movePoint(square, 4, [90, 80], image)).toEqual(moved);
  });

  it('keeps an open ring open', () => {
    expect(movePoint(square.slice(0, -1), 0, [90, 80], image)).toEqual([
      [90, 80],
      [300, 100],
      [300, 200],
      [100, 200],
    ]);
  });

  it('refuses a vertex the ring does not have', () => {
    expect(() => movePoint(square, 5, [0, 0], image)).toThrow(RangeError);
    expect(() => movePoint(square, -1, [0, 0], image)).toThrow(RangeError);
  });
});

describe('translatePolygon', () => {
  it('moves every point by the same amount', () => {
    expect(translatePolygon(square, 50, -20, image)).toEqual([
      [150, 80],
      [350, 80],
      [350, 180],
      [150, 180],
      [150, 80],
    ]);
  });

  it('stops the whole shape at the border without deforming it', () => {
    // 150 to the left would cross x = 0 by 50: the move stops at 100.
    expect(plain(translatePolygon(square, -150, 20, image))).toEqual([
      [0, 120],
      [200, 120],
      [200, 220],
      [0, 220],
      [0, 120],
    ]);
    // Far to the bottom right: the square's corner rests on the image's.
    expect(translatePolygon(square, 5000, 5000, image)).toEqual([
      [800, 1400],
      [1000, 1400],
      [1000, 1500],
      [800, 1500],
      [800, 1400],
    ]);
  });

  it('leaves an axis alone when the shape is as wide as the image', () => {
    const band: Point[] = [
      [0, 10],
      [1000, 10],
      [1000, 40],
      [0, 40],
    ];
    expect(plain(translatePolygon(band, 30, 5, image))).toEqual([
      [0, 15],
      [1000, 15],
      [1000, 45],
      [0, 45],
    ]);
  });
});

describe('hit testing', () => {
  it('finds the vertex within the tolerance, the nearest of several', () => {
    expect(nearestVertex(square, 103, 98, 5)).toBe(0);
    expect(nearestVertex(square, 103, 98, 3)).toBeNull();
    expect(nearestVertex(square, 298, 199, 5)).toBe(2);
    // Two vertices 4 apart: the pointer at 1 from the second picks it.
    const close: Point[] = [
      [10, 10],
      [14, 10],
      [14, 50],
    ];
    expect(nearestVertex(close, 13, 10, 5)).toBe(1);
    expect(nearestVertex(close, 11, 10, 5)).toBe(0);
  });

  it('projects onto the nearest edge for the median tool', () => {
    expect(nearestEdge(square, 200, 104, 5)).toEqual({ index: 0, point: [200, 100] });
    expect(nearestEdge(square, 302, 150, 5)).toEqual({ index: 1, point: [300, 150] });
    // The closing edge, from the last vertex back to the first.
    expect(nearestEdge(square, 98, 130, 5)).toEqual({ index: 3, point: [100, 130] });
    // Near a corner both edges are within reach: the nearer one wins, whichever comes first.
    expect(nearestEdge(square, 296, 103, 5)).toEqual({ index: 0, point: [296, 100] });
    expect(nearestEdge(square, 297, 104, 5)).toEqual({ index: 1, point: [300, 104] });
    expect(nearestEdge(square, 200, 150, 5)).toBeNull();
    expect(nearestEdge([[5, 5]], 5, 5, 5)).toBeNull();
  });

  it('projects onto a slanted edge, and onto its end past it', () => {
    expect(projectOntoSegment(0, 10, [0, 0], [10, 10])).toEqual([5, 5]);
    expect(projectOntoSegment(20, 25, [0, 0], [10, 10])).toEqual([10, 10]);
    expect(projectOntoSegment(3, 4, [1, 1], [1, 1])).toEqual([1, 1]);
  });

  it('inserts the median point after the edge start, which is a change to save', () => {
    const hit = nearestEdge(square, 200, 103, 5)!;
    const edited = insertPoint(square, hit.index, hit.point);
    expect(edited).toEqual([
      [100, 100],
      [200, 100],
      [300, 100],
      [300, 200],
      [100, 200],
      [100, 100],
    ]);
    const saved = polygonOf(edited);
    expect(samePolygon(saved, square)).toBe(false);
  });

  it('inserts on the closing edge before the closing point', () => {
    expect(insertPoint(square, 3, [100, 150])).toEqual([
      [100, 100],
      [300, 100],
      [300, 200],
      [100, 200],
      [100, 150],
      [100, 100],
    ]);
  });

  it('turns a median click on a corner into no change at all', () => {
    const hit = nearestEdge(square, 301, 99, 5)!;
    expect(hit.point).toEqual([300, 100]);
    const saved = polygonOf(insertPoint(square, hit.index, hit.point));
    expect(samePolygon(saved, square)).toBe(true);
  });
});

describe('screen and image under rotation and mirroring', () => {
  const rotations = [0, 90, 180, 270] as const;
  const mirrors = [false, true] as const;

  // Where image point (100, 200) of the 1000 × 1500 page shows, unzoomed: mirror first
  // (x → 1000 - x), then turn clockwise.
  const shown: Record<string, Point> = {
    '0 false': [100, 200],
    '90 false': [1300, 100],
    '180 false': [900, 1300],
    '270 false': [200, 900],
    '0 true': [900, 200],
    '90 true': [1300, 900],
    '180 true': [100, 1300],
    '270 true': [200, 100],
  };

  it('shows an image point where each orientation puts it', () => {
    for (const degrees of rotations) {
      for (const mirrored of mirrors) {
        const view = orientedView(image, degrees, mirrored);
        expect(plain([toScreen(view, [100, 200])])).toEqual([shown[`${degrees} ${mirrored}`]]);
      }
    }
  });

  it('zooms, then pans', () => {
    const view = orientedView(image, 90, false, 0.5, [30, 40]);
    expect(plain([toScreen(view, [0, 0])])).toEqual([[780, 40]]);
    expect(plain([toImage(view, [780, 40])!])).toEqual([[0, 0]]);
  });

  it('comes back to the same image point for every rotation and mirroring', () => {
    const points: Point[] = [
      [0, 0],
      [1000, 0],
      [0, 1500],
      [1000, 1500],
      [123.25, 456.5],
    ];
    for (const degrees of rotations) {
      for (const mirrored of mirrors) {
        const view = orientedView(image, degrees, mirrored, 0.37, [12.5, -80]);
        for (const point of points) {
          const back = toImage(view, toScreen(view, point))!;
          expect(back[0]).toBeCloseTo(point[0], 9);
          expect(back[1]).toBeCloseTo(point[1], 9);
        }
      }
    }
  });

  it('draws the same image rectangle whatever the view', () => {
    for (const degrees of rotations) {
      for (const mirrored of mirrors) {
        const view = orientedView(image, degrees, mirrored, 0.5, [30, 40]);
        const from = toImage(view, toScreen(view, [100, 200]))!;
        const to = toImage(view, toScreen(view, [400, 600]))!;
        expect(polygonOf(rectangleFrom(from, to))).toEqual([
          [100, 200],
          [100, 600],
          [400, 600],
          [400, 200],
          [100, 200],
        ]);
      }
    }
  });

  it('has no image point under the screen when the view is collapsed', () => {
    expect(toImage([0, 0, 0, 0, 10, 10], [10, 10])).toBeNull();
  });

  it('turns a screen tolerance into image pixels at any orientation', () => {
    for (const degrees of rotations) {
      expect(imageDistance(orientedView(image, degrees, true, 0.5), 6)).toBeCloseTo(12, 9);
    }
    expect(imageDistance(orientedView(image, 0, false, 4), 6)).toBeCloseTo(1.5, 9);
  });
});

describe('arrow keys', () => {
  it('knows the arrows and nothing else', () => {
    expect(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].every(isArrowKey)).toBe(true);
    expect(isArrowKey('Enter')).toBe(false);
    expect(isArrowKey('toString')).toBe(false);
  });

  it('moves one image pixel, ten with Shift, in an upright view', () => {
    expect(NUDGE_STEP).toBe(1);
    expect(NUDGE_SHIFT_STEP).toBe(10);
    expect(plain([nudgeDelta('ArrowRight', false)])).toEqual([[1, 0]]);
    expect(plain([nudgeDelta('ArrowLeft', true)])).toEqual([[-10, 0]]);
    expect(plain([nudgeDelta('ArrowUp', true)])).toEqual([[0, -10]]);
    expect(plain([nudgeDelta('ArrowDown', false)])).toEqual([[0, 1]]);
  });

  it('follows the screen in turned and mirrored views, at any zoom', () => {
    const right = (degrees: number, mirrored: boolean) =>
      plain([nudgeDelta('ArrowRight', false, orientedView(image, degrees, mirrored, 3))])[0];
    const down = (degrees: number, mirrored: boolean) =>
      plain([nudgeDelta('ArrowDown', false, orientedView(image, degrees, mirrored, 3))])[0];
    // A quarter turn clockwise shows the image's top edge on the right: right is image up.
    expect(right(90, false)).toEqual([0, -1]);
    expect(down(90, false)).toEqual([1, 0]);
    expect(right(180, false)).toEqual([-1, 0]);
    expect(right(270, false)).toEqual([0, 1]);
    expect(right(0, true)).toEqual([-1, 0]);
    expect(down(0, true)).toEqual([0, 1]);
    expect(right(90, true)).toEqual([0, -1]);
    expect(down(90, true)).toEqual([-1, 0]);
  });

  it('moves the shape the way the arrow points on screen, for every orientation', () => {
    const arrows: [ArrowKey, Point][] = [
      ['ArrowLeft', [-1, 0]],
      ['ArrowRight', [1, 0]],
      ['ArrowUp', [0, -1]],
      ['ArrowDown', [0, 1]],
    ];
    for (const degrees of [0, 90, 180, 270]) {
      for (const mirrored of [false, true]) {
        const view = orientedView(image, degrees, mirrored, 2);
        for (const [key, [sx, sy]] of arrows) {
          const [dx, dy] = nudgeDelta(key, true, view);
          const before = toScreen(view, [500, 500]);
          const after = toScreen(view, [500 + dx, 500 + dy]);
          // Ten image pixels at zoom 2 are twenty screen pixels along the arrow.
          expect(after[0] - before[0]).toBeCloseTo(sx * 20, 9);
          expect(after[1] - before[1]).toBeCloseTo(sy * 20, 9);
        }
      }
    }
  });

  it('nudges the whole shape, never past the border', () => {
    expect(nudgePolygon(square, 'ArrowDown', true, image)).toEqual([
      [100, 110],
      [300, 110],
      [300, 210],
      [100, 210],
      [100, 110],
    ]);
    const atLeft = translatePolygon(square, -100, 0, image);
    expect(plain(nudgePolygon(atLeft, 'ArrowLeft', false, image))).toEqual(plain(atLeft));
  });

  it('nudges one vertex, never past the border', () => {
    expect(nudgeVertex(square, 1, 'ArrowRight', true, image)).toEqual([
      [100, 100],
      [310, 100],
      [300, 200],
      [100, 200],
      [100, 100],
    ]);
    const turned = orientedView(image, 90, false);
    // Right on a quarter-turned screen is image up; the top vertex is 100 from the border.
    expect(nudgeVertex(square, 0, 'ArrowRight', true, image, turned)[0]).toEqual([100, 90]);
    const corner = movePoint(square, 0, [0, 0], image);
    expect(plain(nudgeVertex(corner, 0, 'ArrowUp', true, image))).toEqual(plain(corner));
  });
});
