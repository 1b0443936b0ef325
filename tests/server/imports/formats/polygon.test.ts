import { describe, expect, it } from 'vitest';
import {
  PointListError,
  boundingBox,
  closeRing,
  dropConsecutiveDuplicates,
  parsePointList,
  rectangle,
  roundPoints,
  scalePoints,
  toClosedRing,
  toPolyline,
} from '../../../../server/imports/formats/polygon';

describe('parsePointList', () => {
  it('reads PAGE "x,y x,y" lists', () => {
    expect(parsePointList('442,3694 442,223 2905,223')).toEqual([
      [442, 3694],
      [442, 223],
      [2905, 223],
    ]);
  });

  it('reads ALTO "x y x y" lists, with any whitespace between numbers', () => {
    expect(parsePointList(' 442 3694\n442\t223  2905 223 ')).toEqual([
      [442, 3694],
      [442, 223],
      [2905, 223],
    ]);
  });

  it('reads pairs written "x, y" or all numbers separated by commas', () => {
    expect(parsePointList('1, 2 3, 4')).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(parsePointList('1,2,3,4')).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('keeps fractions and exponents for the caller to scale and round', () => {
    expect(parsePointList('1.5,2.25 -3,1e2')).toEqual([
      [1.5, 2.25],
      [-3, 100],
    ]);
  });

  it('gives an empty list for an empty attribute', () => {
    expect(parsePointList('   ')).toEqual([]);
  });

  it('refuses an odd number of coordinates and anything that is not a number', () => {
    expect(() => parsePointList('1 2 3')).toThrow(PointListError);
    expect(() => parsePointList('1 2 3')).toThrow('odd number of coordinates (3)');
    expect(() => parsePointList('1,2 3,x')).toThrow('"x" is not a number');
    expect(() => parsePointList('0x10 4')).toThrow(PointListError);
    expect(() => parsePointList('Infinity 4')).toThrow(PointListError);
  });
});

describe('rounding, scaling and closing', () => {
  it('rounds half up and never yields -0', () => {
    const rounded = roundPoints([
      [1.5, 2.4],
      [-0.4, 2.6],
    ]);
    expect(rounded).toEqual([
      [2, 2],
      [0, 3],
    ]);
    expect(Object.is(rounded[1]![0], 0)).toBe(true);
  });

  it('scales each axis by its own factor', () => {
    expect(scalePoints([[254, 127]], 300 / 254, 2)).toEqual([[300, 254]]);
  });

  it('drops repeated neighbours only', () => {
    expect(
      dropConsecutiveDuplicates([
        [1, 1],
        [1, 1],
        [2, 2],
        [1, 1],
      ]),
    ).toEqual([
      [1, 1],
      [2, 2],
      [1, 1],
    ]);
  });

  it('closes an open ring once and leaves a closed one alone', () => {
    const open: [number, number][] = [
      [0, 0],
      [4, 0],
      [4, 3],
    ];
    expect(closeRing(open)).toEqual([...open, [0, 0]]);
    expect(closeRing(closeRing(open))).toEqual([...open, [0, 0]]);
    expect(open).toHaveLength(3);
  });
});

describe('toClosedRing', () => {
  it('rounds, removes repeats and closes', () => {
    expect(
      toClosedRing([
        [0.2, 0.4],
        [10.6, 0],
        [10.6, 0.1],
        [10, 5.5],
      ]),
    ).toEqual([
      [0, 0],
      [11, 0],
      [10, 6],
      [0, 0],
    ]);
  });

  it('does not double the closing point of an already closed ring', () => {
    expect(
      toClosedRing([
        [0, 0],
        [4, 0],
        [4, 4],
        [0, 0],
      ]),
    ).toEqual([
      [0, 0],
      [4, 0],
      [4, 4],
      [0, 0],
    ]);
  });

  it('gives null for fewer than three distinct points or no area', () => {
    expect(
      toClosedRing([
        [1, 1],
        [5, 5],
      ]),
    ).toBeNull();
    expect(
      toClosedRing([
        [1, 1],
        [1.2, 1.1],
        [5, 5],
      ]),
    ).toBeNull();
    expect(
      toClosedRing([
        [0, 0],
        [5, 5],
        [10, 10],
      ]),
    ).toBeNull();
    expect(toClosedRing([])).toBeNull();
  });
});

describe('toPolyline', () => {
  it('keeps an open line of at least two distinct points', () => {
    expect(
      toPolyline([
        [1226.4, 498],
        [2327, 454],
      ]),
    ).toEqual([
      [1226, 498],
      [2327, 454],
    ]);
    expect(
      toPolyline([
        [3, 3],
        [3.2, 3],
      ]),
    ).toBeNull();
  });
});

describe('rectangle and boundingBox', () => {
  it('makes a closed box ring', () => {
    expect(rectangle(10, 20, 5, 2)).toEqual([
      [10, 20],
      [15, 20],
      [15, 22],
      [10, 22],
      [10, 20],
    ]);
  });

  it('boxes a point set', () => {
    expect(
      boundingBox([
        [3, 9],
        [-1, 4],
        [7, 2],
      ]),
    ).toEqual({ minX: -1, minY: 2, maxX: 7, maxY: 9 });
    expect(boundingBox([])).toBeNull();
  });
});
