import { afterEach, describe, expect, it, vi } from 'vitest';
import { multiply, scaling, translation, type Matrix, type Point } from '@/lib/geometry';
import { drawOverlay, type OverlayScene } from '@/features/viewer/overlay/renderer';
import { buildZoneSet } from '@/features/viewer/overlay/zoneSet';
import { createRecordingContext, type RecordingContext } from '../support/recordingCanvas';

/** A Path2D that keeps its subpaths, as a browser's does. */
class RecordingPath {
  subpaths: Point[][] = [];
  moveTo(x: number, y: number) {
    this.subpaths.push([[x, y]]);
  }
  lineTo(x: number, y: number) {
    this.subpaths[this.subpaths.length - 1]!.push([x, y]);
  }
  closePath() {}
}

/**
 * The recording context, also stroking kept paths through its transform as a browser does: the
 * points and the line width land in device pixels.
 */
function contextWithPaths(): RecordingContext {
  const ctx = createRecordingContext();
  let m: Matrix = [1, 0, 0, 1, 0, 0];
  const strokeCurrent = ctx.stroke.bind(ctx);
  return Object.assign(ctx, {
    setTransform(a: number, b: number, c: number, d: number, e: number, f: number) {
      m = [a, b, c, d, e, f];
    },
    stroke(path?: RecordingPath) {
      if (!path) return strokeCurrent();
      for (const points of path.subpaths) {
        ctx.frame.push({
          points: points.map(([x, y]) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]),
          strokeStyle: String(ctx.strokeStyle),
          lineWidth: ctx.lineWidth * Math.hypot(m[0], m[1]),
          dashed: false,
        });
      }
    },
  });
}

const square = (x: number, y: number, size: number): Point[] => [
  [x, y],
  [x, y + size],
  [x + size, y + size],
  [x + size, y],
];

/** 400 squares in 20 rows, two colours, as a dense page. */
function page(): OverlayScene {
  const zones = [];
  for (let i = 0; i < 400; i += 1) {
    const styleKey = i % 2 ? 'text_line' : 'text_region';
    zones.push({
      id: `z${i}`,
      polygon: square((i % 20) * 100, Math.floor(i / 20) * 100, 50),
      styleKey,
    });
  }
  return {
    zones: buildZoneSet(zones),
    styles: [{ color: '#2f5a8a' }, { color: '#aa00aa' }],
    outline: null,
  };
}

const frame = { width: 800, height: 600, pixelRatio: 2, hovered: -1, selected: -1 };

const drawn = (ctx: RecordingContext) =>
  ctx.frame
    .map((path) => `${path.strokeStyle} ${path.lineWidth} ${JSON.stringify(path.points)}`)
    .sort();

describe('overlay drawing through kept paths (browsers with Path2D)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('draws in view what drawing point by point draws: same places, colours and widths', () => {
    const scene = page();
    for (const view of [
      multiply(translation(-300, -200), scaling(1.5)),
      multiply(translation(10, 20), scaling(0.3)),
    ]) {
      vi.unstubAllGlobals();
      const direct = createRecordingContext();
      drawOverlay(direct, scene, { ...frame, imageToScreen: view });
      vi.stubGlobal('Path2D', RecordingPath);
      const kept = contextWithPaths();
      drawOverlay(kept, scene, { ...frame, imageToScreen: view });
      // Kept paths group zones by area: a few just out of view may come along, none is lost.
      const expected = drawn(direct);
      expect(expected.length).toBeGreaterThan(0);
      expect(drawn(kept)).toEqual(expect.arrayContaining(expected));
      expect(kept.frame.every((path) => Math.abs(path.lineWidth - 2) < 1e-9)).toBe(true);
    }
  });

  it('strokes only the groups of zones in view', () => {
    vi.stubGlobal('Path2D', RecordingPath);
    const kept = contextWithPaths();
    // The top-left corner of the page at twice its size: a few of the 400 squares.
    drawOverlay(kept, page(), { ...frame, imageToScreen: scaling(2) });
    expect(kept.frame.length).toBeGreaterThan(0);
    expect(kept.frame.length).toBeLessThan(100);
  });
});
