import { describe, expect, it } from 'vitest';
import {
  applyMatrix,
  bbox,
  bboxIntersects,
  distanceToSegment,
  flatPolygonArea,
  hitPolygon,
  invert,
  matrixFromPoints,
  matrixScale,
  mirrorX,
  multiply,
  normalizeRotation,
  openRing,
  orientationMatrix,
  orientedSize,
  pointInPolygon,
  polygonArea,
  rotation,
  scaling,
  translation,
  visibleImageBBox,
  type BBox,
  type Matrix,
  type Point,
} from '@/lib/geometry';

// A page-covering polygon as the API returns it (closed ring), and an L-shaped region.
const page: Point[] = [
  [0, 0],
  [0, 1500],
  [1000, 1500],
  [1000, 0],
  [0, 0],
];
const ell: Point[] = [
  [0, 0],
  [100, 0],
  [100, 40],
  [40, 40],
  [40, 100],
  [0, 100],
];

// -0 and 0 differ for toEqual; a transform may produce either.
const plain = (box: BBox): BBox => ({
  minX: box.minX + 0,
  minY: box.minY + 0,
  maxX: box.maxX + 0,
  maxY: box.maxY + 0,
});

const close = (actual: readonly number[], expected: readonly number[]) =>
  actual.forEach((value, index) => expect(value).toBeCloseTo(expected[index]!, 9));

describe('bounding boxes', () => {
  it('spans the extreme coordinates of a polygon', () => {
    expect(bbox(ell)).toEqual({ minX: 0, minY: 0, maxX: 100, maxY: 100 });
    expect(bbox([[5, 7]])).toEqual({ minX: 5, minY: 7, maxX: 5, maxY: 7 });
  });

  it('intersects when boxes overlap or touch, not when apart', () => {
    const a = { minX: 0, minY: 0, maxX: 10, maxY: 10 };
    expect(bboxIntersects(a, { minX: 5, minY: 5, maxX: 20, maxY: 20 })).toBe(true);
    expect(bboxIntersects(a, { minX: 10, minY: 0, maxX: 20, maxY: 10 })).toBe(true);
    expect(bboxIntersects(a, { minX: 10.5, minY: 0, maxX: 20, maxY: 10 })).toBe(false);
    expect(bboxIntersects(a, { minX: 0, minY: -20, maxX: 10, maxY: -0.1 })).toBe(false);
  });
});

describe('point in polygon', () => {
  it('tells inside from outside, concave corners included', () => {
    expect(pointInPolygon(20, 20, ell)).toBe(true);
    expect(pointInPolygon(80, 20, ell)).toBe(true);
    expect(pointInPolygon(20, 80, ell)).toBe(true);
    // The notch of the L.
    expect(pointInPolygon(80, 80, ell)).toBe(false);
    expect(pointInPolygon(-1, 50, ell)).toBe(false);
  });

  it('gives the same answer for a closed ring and its open form', () => {
    for (const [x, y] of [
      [500, 700],
      [1001, 10],
      [999, 1499],
    ] as const) {
      expect(pointInPolygon(x, y, page)).toBe(pointInPolygon(x, y, openRing(page)));
    }
    expect(openRing(page)).toHaveLength(4);
  });

  it('hits a thin line within the tolerance of its edge only', () => {
    const line: Point[] = [
      [0, 0],
      [200, 0],
      [200, 1],
      [0, 1],
    ];
    expect(hitPolygon(100, 3, line)).toBe(false);
    expect(hitPolygon(100, 3, line, 2.5)).toBe(true);
    expect(hitPolygon(100, 4, line, 2.5)).toBe(false);
  });

  it('measures distance to a segment, past its ends too', () => {
    expect(distanceToSegment(5, 3, 0, 0, 10, 0)).toBe(3);
    expect(distanceToSegment(13, 4, 0, 0, 10, 0)).toBe(5);
  });
});

describe('areas', () => {
  it('are positive whatever the winding', () => {
    expect(polygonArea(ell)).toBe(100 * 40 + 40 * 60);
    expect(polygonArea([...ell].reverse())).toBe(6400);
    expect(flatPolygonArea([0, 0, 10, 0, 10, 10, 0, 10])).toBe(100);
  });
});

describe('affine transforms', () => {
  it('compose right to left and invert', () => {
    const m = multiply(translation(10, 20), scaling(2));
    expect(applyMatrix(m, 3, 4)).toEqual([16, 28]);
    const back = invert(m)!;
    close(applyMatrix(back, 16, 28), [3, 4]);
    expect(invert([0, 0, 0, 0, 1, 1])).toBeNull();
  });

  it('rotates clockwise on screen by exact quarter turns', () => {
    expect(applyMatrix(rotation(90), 10, 0)).toEqual([0, 10]);
    expect(applyMatrix(rotation(180), 10, 5)).toEqual([-10, -5]);
    expect(applyMatrix(rotation(-90), 10, 0)).toEqual([0, -10]);
    close(applyMatrix(rotation(45), 10, 0), [Math.SQRT1_2 * 10, Math.SQRT1_2 * 10]);
  });

  it('recovers a transform from where three points land', () => {
    const truth: Matrix = multiply(translation(-40, 300), multiply(rotation(90), scaling(0.25)));
    const at = (x: number, y: number) => applyMatrix(truth, x, y);
    const m = matrixFromPoints(at(0, 0), at(1000, 0), at(0, 1500), 1000, 1500);
    close(m, truth);
    expect(matrixScale(m)).toBeCloseTo(0.25, 12);
  });

  it('mirrors across a vertical line', () => {
    expect(applyMatrix(mirrorX(400), 100, 7)).toEqual([700, 7]);
  });

  it('normalizes rotations to a quarter turn in 0..270', () => {
    expect([0, 90, 360, 450, -90, -180, 720].map(normalizeRotation)).toEqual([
      0, 90, 0, 90, 270, 180, 0,
    ]);
    expect(orientedSize(1000, 1500, 90)).toEqual({ width: 1500, height: 1000 });
    expect(orientedSize(1000, 1500, 180)).toEqual({ width: 1000, height: 1500 });
  });
});

describe('element orientation (mirror first, then rotate clockwise)', () => {
  const w = 1000;
  const h = 1500;
  const corner = (m: Matrix, x: number, y: number) => applyMatrix(m, x, y).map((v) => v + 0);

  it('keeps the image in the positive quadrant for every choice', () => {
    for (const degrees of [0, 90, 180, 270]) {
      for (const mirrored of [false, true]) {
        const m = orientationMatrix(w, h, degrees, mirrored);
        const size = orientedSize(w, h, degrees);
        const box = bbox([
          applyMatrix(m, 0, 0),
          applyMatrix(m, w, 0),
          applyMatrix(m, w, h),
          applyMatrix(m, 0, h),
        ]);
        expect(plain(box)).toEqual({ minX: 0, minY: 0, maxX: size.width, maxY: size.height });
      }
    }
  });

  it('sends the top-left corner where each orientation shows it', () => {
    expect(corner(orientationMatrix(w, h, 0, false), 0, 0)).toEqual([0, 0]);
    // A quarter turn clockwise brings the top-left corner to the top right.
    expect(corner(orientationMatrix(w, h, 90, false), 0, 0)).toEqual([h, 0]);
    expect(corner(orientationMatrix(w, h, 180, false), 0, 0)).toEqual([w, h]);
    expect(corner(orientationMatrix(w, h, 270, false), 0, 0)).toEqual([0, w]);
    // Mirrored: the top-left corner is first sent to the top right, then turned.
    expect(corner(orientationMatrix(w, h, 0, true), 0, 0)).toEqual([w, 0]);
    expect(corner(orientationMatrix(w, h, 90, true), 0, 0)).toEqual([h, w]);
  });
});

describe('visible part of the image', () => {
  it('is the screen rectangle mapped back into image pixels', () => {
    // Zoomed to 0.5 and panned so image (200, 100) sits at the screen's top-left.
    const view = multiply(scaling(0.5), translation(-200, -100));
    expect(plain(visibleImageBBox(view, 800, 600))).toEqual({
      minX: 200,
      minY: 100,
      maxX: 1800,
      maxY: 1300,
    });
  });

  it('covers the rotated view', () => {
    // Quarter turn: screen x follows image y.
    const view = multiply(translation(600, 0), rotation(90));
    const box = visibleImageBBox(view, 600, 400);
    expect(box.minX).toBeCloseTo(0);
    expect(box.maxX).toBeCloseTo(400);
    expect(box.minY).toBeCloseTo(0);
    expect(box.maxY).toBeCloseTo(600);
  });
});
