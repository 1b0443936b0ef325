import { describe, expect, it } from 'vitest';
import { multiply, scaling, translation, type Point } from '@/lib/geometry';
import { OUTLINE_COLOR, drawOverlay, type OverlayScene } from '@/features/viewer/overlay/renderer';
import { buildZoneSet } from '@/features/viewer/overlay/zoneSet';
import { createRecordingContext, square } from '../support/recordingCanvas';

function scene(): OverlayScene {
  const zones = buildZoneSet([
    { id: 'a', polygon: square(0, 0, 100), styleKey: 'text_line' },
    { id: 'b', polygon: square(200, 0, 100), styleKey: 'text_region' },
    // Far down the page: off screen in every frame below.
    { id: 'c', polygon: square(0, 5000, 100), styleKey: 'text_line' },
  ]);
  return {
    zones,
    styles: [{ color: '#aa00aa' }, { color: '#2f5a8a' }],
    outline: Float64Array.from([0, 0, 1000, 0, 1000, 1500, 0, 1500]),
  };
}

const frame = {
  imageToScreen: scaling(1),
  width: 800,
  height: 600,
  pixelRatio: 1,
  hovered: -1,
  selected: -1,
};

describe('overlay drawing', () => {
  it('draws the zones in view, in their type colour, and the element outline dashed', () => {
    const ctx = createRecordingContext();
    const stats = drawOverlay(ctx, scene(), frame);
    expect(stats.drawn).toBe(2);
    const solid = ctx.frame.filter((path) => !path.dashed);
    expect(solid.map((path) => [path.points[0], path.strokeStyle])).toEqual([
      [[0, 0], '#aa00aa'],
      [[200, 0], '#2f5a8a'],
    ]);
    // Closed rings lose their repeated last point.
    expect(solid[0]!.points).toHaveLength(4);
    const outline = ctx.frame.filter((path) => path.dashed);
    expect(outline).toHaveLength(1);
    expect(outline[0]!.strokeStyle).toBe(OUTLINE_COLOR);
  });

  it('follows the view: panned down the page, other zones are drawn', () => {
    const ctx = createRecordingContext();
    const panned = { ...frame, imageToScreen: translation(0, -4900) };
    expect(drawOverlay(ctx, scene(), panned).drawn).toBe(1);
    expect(ctx.frame.filter((path) => !path.dashed).map((path) => path.points[0])).toEqual([
      [0, 100],
    ]);
  });

  it('maps image pixels to device pixels through the view and the pixel ratio', () => {
    const ctx = createRecordingContext();
    const view = multiply(translation(10, 20), scaling(0.5));
    drawOverlay(ctx, scene(), { ...frame, imageToScreen: view, pixelRatio: 2 });
    const b = ctx.frame.find((path) => path.strokeStyle === '#2f5a8a')!;
    // Image (200, 0) → screen (110, 20) → device (220, 40); the lines stay 1 CSS pixel wide.
    expect(b.points[0]).toEqual([220, 40]);
    expect(b.points[2]).toEqual([320, 140]);
    expect(b.lineWidth).toBe(2);
  });

  it('draws the hovered and the selected zone on top with thicker lines', () => {
    const ctx = createRecordingContext();
    drawOverlay(ctx, scene(), { ...frame, hovered: 0, selected: 1 });
    const solid = ctx.frame.filter((path) => !path.dashed);
    expect(solid.map((path) => [path.points[0], path.lineWidth])).toEqual([
      [[0, 0], 2],
      [[200, 0], 3],
    ]);
  });

  it('clears the previous frame first', () => {
    const ctx = createRecordingContext();
    drawOverlay(ctx, scene(), frame);
    drawOverlay(ctx, scene(), { ...frame, imageToScreen: translation(0, -4900) });
    expect(ctx.frames).toBe(2);
    expect(ctx.frame.filter((path) => !path.dashed)).toHaveLength(1);
  });
});

describe('overlay drawing of dense pages seen from afar', () => {
  // A text line 1,000 pixels long and 40 high whose edges waver by at most 1 pixel, as line
  // segmenters draw them: 8 points along each edge.
  const wavy: Point[] = [];
  for (let k = 0; k < 8; k += 1) wavy.push([k * (1000 / 7), (k % 2) * 1]);
  for (let k = 7; k >= 0; k -= 1) wavy.push([k * (1000 / 7), 40 - (k % 2) * 1]);
  const line = (): OverlayScene => ({
    zones: buildZoneSet([{ id: 'line', polygon: wavy, styleKey: 'text_line' }]),
    styles: [{ color: '#aa00aa' }],
    outline: null,
  });

  it('leaves out the points that move the outline by less than half a pixel on screen', () => {
    const ctx = createRecordingContext();
    // A tenth of the image's size: the 1-pixel waves are a tenth of a screen pixel.
    drawOverlay(ctx, line(), { ...frame, imageToScreen: scaling(0.1) });
    const [drawn] = ctx.frame;
    expect(drawn!.points).toHaveLength(4);
    // The four corners: (1000, 1) and (1000, 39) end the wavering edges.
    expect(drawn!.points.map(([x, y]) => [x, Math.round(y * 10) / 10])).toEqual([
      [0, 0],
      [100, 0.1],
      [100, 3.9],
      [0, 4],
    ]);
  });

  it('draws every point once the view is close enough for them to show', () => {
    const ctx = createRecordingContext();
    drawOverlay(ctx, line(), { ...frame, imageToScreen: scaling(1) });
    expect(ctx.frame[0]!.points).toHaveLength(16);
  });
});
