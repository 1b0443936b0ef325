import { describe, expect, it } from 'vitest';
import {
  MAX_POLYGON_POINTS,
  PolygonError,
  boundingBox,
  closeRing,
  fullImagePolygon,
  normalizePolygon,
  openRing,
  simplifyPolygon,
  type Point,
} from '../../../server/geometry/polygon';

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PolygonError);
    return (error as Error).message;
  }
  throw new Error('expected a PolygonError');
}

/** A regular polygon of n points around (500, 500), radius 400. */
function circle(n: number): Point[] {
  return Array.from({ length: n }, (_, i): Point => {
    const angle = (2 * Math.PI * i) / n;
    return [500 + 400 * Math.cos(angle), 500 + 400 * Math.sin(angle)];
  });
}

describe('normalizePolygon', () => {
  it('rounds coordinates and closes the ring', () => {
    expect(
      normalizePolygon([
        [0.4, 0.6],
        [10.5, 0],
        [10, 9.49],
      ]),
    ).toEqual([
      [0, 1],
      [11, 0],
      [10, 9],
      [0, 1],
    ]);
  });

  it('keeps a closed ring closed once, and drops consecutive duplicates', () => {
    expect(
      normalizePolygon([
        [0, 0],
        [0, 0],
        [10, 0],
        [10.2, 0.1],
        [10, 10],
        [0, 0],
        [0, 0],
      ]),
    ).toEqual([
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 0],
    ]);
  });

  it('accepts -0.4, which rounds to 0, and refuses negative coordinates', () => {
    expect(
      normalizePolygon([
        [-0.4, 0],
        [5, 0],
        [5, 5],
      ])[0],
    ).toEqual([0, 0]);
    expect(
      messageOf(() =>
        normalizePolygon([
          [-1, 0],
          [5, 0],
          [5, 5],
        ]),
      ),
    ).toBe('A polygon cannot have negative coordinates.');
  });

  it('needs three unique points', () => {
    expect(
      messageOf(() =>
        normalizePolygon([
          [0, 0],
          [10, 10],
          [0, 0],
          [10, 10],
        ]),
      ),
    ).toBe('This polygon does not have at least three unique points.');
    expect(messageOf(() => normalizePolygon([]))).toBe(
      'This polygon does not have at least three unique points.',
    );
  });

  it('allows 163 distinct points and refuses 164', () => {
    expect(normalizePolygon(circle(MAX_POLYGON_POINTS))).toHaveLength(MAX_POLYGON_POINTS + 1);
    expect(messageOf(() => normalizePolygon(circle(MAX_POLYGON_POINTS + 1)))).toBe(
      'This polygon has more than 163 distinct points.',
    );
  });

  it('needs a width and a height of at least 2', () => {
    expect(
      messageOf(() =>
        normalizePolygon([
          [0, 0],
          [1, 0],
          [1, 10],
          [0, 10],
        ]),
      ),
    ).toBe('This polygon is too small.');
    expect(
      messageOf(() =>
        normalizePolygon([
          [0, 0],
          [10, 1],
          [5, 0],
        ]),
      ),
    ).toBe('This polygon is too small.');
    expect(
      normalizePolygon([
        [0, 0],
        [2, 0],
        [2, 2],
      ]),
    ).toHaveLength(4);
  });

  it('keeps a polygon inside its image, edges included', () => {
    const image = { width: 100, height: 50 };
    expect(normalizePolygon(fullImagePolygon(image), image)).toEqual(fullImagePolygon(image));
    expect(
      messageOf(() =>
        normalizePolygon(
          [
            [0, 0],
            [101, 0],
            [101, 10],
          ],
          image,
        ),
      ),
    ).toBe('A polygon must be inside its image.');
    expect(
      messageOf(() =>
        normalizePolygon(
          [
            [0, 0],
            [10, 51],
            [20, 0],
          ],
          image,
        ),
      ),
    ).toBe('A polygon must be inside its image.');
  });

  it.each([
    ['a string', 'nope'],
    ['an object', { x: 1 }],
    [
      'points of three numbers',
      [
        [0, 0, 0],
        [1, 1, 1],
        [2, 2, 2],
      ],
    ],
    [
      'text coordinates',
      [
        ['0', '0'],
        ['5', '0'],
        ['5', '5'],
      ],
    ],
    [
      'a non-finite coordinate',
      [
        [0, 0],
        [Infinity, 0],
        [5, 5],
      ],
    ],
    ['null points', [null, [1, 1], [2, 2]]],
  ])('refuses %s as a shape', (_label, value) => {
    expect(messageOf(() => normalizePolygon(value))).toBe(
      'A polygon must be a list of [x, y] points, each coordinate a number.',
    );
  });
});

describe('ring helpers', () => {
  it('opens and closes rings', () => {
    const ring: Point[] = [
      [0, 0],
      [4, 0],
      [4, 3],
      [0, 0],
    ];
    expect(openRing(ring)).toEqual(ring.slice(0, 3));
    expect(closeRing(openRing(ring))).toEqual(ring);
    expect(closeRing(ring)).toEqual(ring);
    expect(boundingBox(ring)).toEqual({ x: 0, y: 0, width: 4, height: 3 });
  });
});

describe('simplifyPolygon', () => {
  it('leaves a small polygon as it is, closed', () => {
    const square: Point[] = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ];
    expect(simplifyPolygon(square, 163)).toEqual(closeRing(square));
  });

  it('brings a dense outline under the limit while keeping its extent', () => {
    // One point per pixel along the border of a 300 × 200 rectangle, as Aletheia writes them.
    const outline: Point[] = [];
    for (let x = 0; x < 300; x += 1) outline.push([x, 0]);
    for (let y = 0; y < 200; y += 1) outline.push([300, y]);
    for (let x = 300; x > 0; x -= 1) outline.push([x, 200]);
    for (let y = 200; y > 0; y -= 1) outline.push([0, y]);
    const simplified = simplifyPolygon(outline, 163);
    expect(new Set(openRing(simplified).map((p) => p.join())).size).toBeLessThanOrEqual(163);
    expect(simplified[0]).toEqual(simplified[simplified.length - 1]);
    // Straight sides collapse to their corners.
    expect(openRing(simplified)).toHaveLength(4);
    expect(boundingBox(simplified)).toEqual({ x: 0, y: 0, width: 300, height: 200 });
    expect(() => normalizePolygon(simplified)).not.toThrow();
  });

  it('raises the tolerance until a curved outline fits', () => {
    const dense = circle(2000);
    const simplified = simplifyPolygon(dense, 50);
    const distinct = openRing(simplified).length;
    expect(distinct).toBeLessThanOrEqual(50);
    expect(distinct).toBeGreaterThan(10);
    const box = boundingBox(simplified);
    expect(box.width).toBeGreaterThan(780);
    expect(box.height).toBeGreaterThan(780);
  });

  it('refuses a limit below three points', () => {
    expect(() => simplifyPolygon(circle(10), 2)).toThrow(RangeError);
  });
});
