import { describe, expect, it } from 'vitest';
import { applyMatrix, mirrorX, multiply, rotation, type Matrix } from '@/lib/geometry';
import { osdOrientation, rotateBy } from '@/features/viewer/orientation';
import {
  ZOOM_LEVELS,
  fitZoom,
  focusRect,
  nearestLevelIndex,
  percentOfFit,
  steppedLevel,
  zoomForLevel,
} from '@/features/viewer/zoom';

describe('zoom levels', () => {
  it('are the spec list, relative to the fit zoom', () => {
    expect(ZOOM_LEVELS).toEqual([100, 133, 166, 200, 250, 350, 400, 500]);
    const fit = 0.6;
    expect(ZOOM_LEVELS.map((level) => zoomForLevel(level, fit))).toEqual(
      [0.6, 0.798, 0.996, 1.2, 1.5, 2.1, 2.4, 3].map((z) => expect.closeTo(z, 12)),
    );
    for (const level of ZOOM_LEVELS) {
      expect(percentOfFit(zoomForLevel(level, fit), fit)).toBeCloseTo(level, 10);
    }
  });

  it('fit a portrait page by its height and a landscape one by its width', () => {
    const container = { width: 800, height: 600 };
    // 1000×1500 shown 400 px wide at most (600 px high): zoom = 400 / 800 viewer widths.
    expect(fitZoom(container, { width: 1000, height: 1500 }, 0)).toBeCloseTo(0.5);
    // 2000×500: the width limits; the whole image is one viewer width.
    expect(fitZoom(container, { width: 2000, height: 500 }, 0)).toBeCloseTo(1);
  });

  it('fit the turned image when rotated a quarter turn', () => {
    const container = { width: 800, height: 600 };
    // Turned, the 1000×1500 page is 1500 wide and 1000 high on screen: 800 / 1500 of its
    // width fits, and its width (the zoom's unit) is then 800 × 1000 / 1500 px.
    const fit = fitZoom(container, { width: 1000, height: 1500 }, 90);
    expect(fit).toBeCloseTo(((800 / 1500) * 1000) / 800);
    expect(fitZoom(container, { width: 1000, height: 1500 }, 270)).toBeCloseTo(fit);
    expect(fitZoom(container, { width: 1000, height: 1500 }, 180)).toBeCloseTo(0.5);
  });

  it('show the nearest level for a zoom between levels', () => {
    expect(ZOOM_LEVELS[nearestLevelIndex(100)]).toBe(100);
    expect(ZOOM_LEVELS[nearestLevelIndex(140)]).toBe(133);
    expect(ZOOM_LEVELS[nearestLevelIndex(300)]).toBe(350);
    expect(ZOOM_LEVELS[nearestLevelIndex(80)]).toBe(100);
    expect(ZOOM_LEVELS[nearestLevelIndex(900)]).toBe(500);
  });

  it('step to the next level beyond the current zoom, clamped at both ends', () => {
    expect(steppedLevel(100, 1)).toBe(133);
    expect(steppedLevel(133.0001, 1)).toBe(166);
    expect(steppedLevel(140, 1)).toBe(166);
    expect(steppedLevel(140, -1)).toBe(133);
    expect(steppedLevel(500, 1)).toBe(500);
    expect(steppedLevel(100, -1)).toBe(100);
  });
});

describe('showing a zone on arrival', () => {
  const image = { width: 5680, height: 4180 };

  it('centres the zone with half its size around it', () => {
    const region = { minX: 1000, minY: 1000, maxX: 3000, maxY: 2000 };
    expect(focusRect(region, image)).toEqual({ x: 0, y: 500, width: 4000, height: 2000 });
  });

  it('never zooms past a fifth of the image, for a word or a thin line', () => {
    const word = { minX: 2000, minY: 3000, maxX: 2100, maxY: 3040 };
    expect(focusRect(word, image)).toEqual({
      x: 2050 - 568,
      y: 3020 - 418,
      width: 1136,
      height: 836,
    });
  });
});

describe('orientation for OpenSeadragon', () => {
  // Linear parts only: OpenSeadragon pans the result into view itself.
  const linear = (m: Matrix) => [m[0], m[1], m[2], m[3]].map((v) => Math.round(v) + 0);

  it('shows each API orientation (mirror, then rotate) with rotate-then-flip', () => {
    for (const degrees of [0, 90, 180, 270]) {
      for (const mirrored of [false, true]) {
        const api = multiply(rotation(degrees), mirrored ? mirrorX(0) : [1, 0, 0, 1, 0, 0]);
        const { rotation: osdDegrees, flip } = osdOrientation(degrees, mirrored);
        const osd = multiply(flip ? mirrorX(0) : [1, 0, 0, 1, 0, 0], rotation(osdDegrees));
        expect(linear(osd)).toEqual(linear(api));
      }
    }
  });

  it('turns a mirrored image the other way in OpenSeadragon', () => {
    expect(osdOrientation(90, false)).toEqual({ rotation: 90, flip: false });
    expect(osdOrientation(90, true)).toEqual({ rotation: 270, flip: true });
    // The image's x axis, mirrored then turned clockwise, points up on screen.
    const { rotation: r } = osdOrientation(90, true);
    expect(applyMatrix(multiply(mirrorX(0), rotation(r)), 1, 0).map((v) => v + 0)).toEqual([0, -1]);
  });

  it('rotates by quarter turns both ways', () => {
    expect(rotateBy(0, 90)).toBe(90);
    expect(rotateBy(270, 90)).toBe(0);
    expect(rotateBy(0, -90)).toBe(270);
  });
});
