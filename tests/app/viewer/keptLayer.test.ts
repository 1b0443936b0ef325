import { describe, expect, it } from 'vitest';
import { multiply, rotation, scaling, translation, type Matrix } from '@/lib/geometry';
import { KeptZonesLayer, type KeptDrawContext } from '@/features/viewer/overlay/keptLayer';
import { drawOverlay, type OverlayScene } from '@/features/viewer/overlay/renderer';
import { buildZoneSet } from '@/features/viewer/overlay/zoneSet';
import {
  createRecordingContext,
  createRecordingLayer,
  type RecordingContext,
  square,
} from '../support/recordingCanvas';

/** A column of 40 lines down a 1000 × 4000 page. */
function scene(): OverlayScene {
  const zones = buildZoneSet(
    Array.from({ length: 40 }, (_, i) => ({
      id: `line-${i}`,
      polygon: square(50, 100 * i, 60),
      styleKey: 'text_line',
    })),
  );
  return { zones, styles: [{ color: '#aa00aa' }], outline: null };
}

const frameAt = (imageToScreen: Matrix) => ({
  imageToScreen,
  width: 800,
  height: 600,
  pixelRatio: 1,
  hovered: -1,
  selected: -1,
});

/** What the canvas shows: the paths meeting the 800 × 600 view, rounded, in drawing order. */
function shown(ctx: RecordingContext): [number, number][][] {
  return ctx.frame
    .filter((path) => path.points.some(([x, y]) => x >= 0 && x <= 800 && y >= 0 && y <= 600))
    .map((path) =>
      path.points.map(([x, y]): [number, number] => [
        Math.round(x * 1000) / 1000,
        Math.round(y * 1000) / 1000,
      ]),
    )
    .sort((a, b) => a[0]![1] - b[0]![1]);
}

function direct(s: OverlayScene, m: Matrix) {
  const ctx = createRecordingContext();
  drawOverlay(ctx, s, frameAt(m));
  return shown(ctx);
}

function setup() {
  const layer = createRecordingLayer();
  // Kept whatever their number: these pages are small.
  const kept = new KeptZonesLayer(() => layer, 0);
  const ctx = createRecordingContext() as RecordingContext & KeptDrawContext;
  return { kept, ctx, layer };
}

describe('the kept zones layer', () => {
  it('serves a pan from the kept strokes, showing what drawing anew shows', () => {
    const s = scene();
    const { kept, ctx } = setup();
    expect(kept.draw(ctx, s, frameAt(translation(0, 0)), false)).toMatchObject({ redrawn: true });
    const panned = translation(-30.5, -120.25);
    const stats = kept.draw(ctx, s, frameAt(panned), true);
    expect(stats).toEqual({ drawn: 0, redrawn: false });
    expect(shown(ctx)).toEqual(direct(s, panned));
    expect(shown(ctx).length).toBeGreaterThan(0);
  });

  it('draws again once the view is still between pixels, so a still view is sharp', () => {
    const s = scene();
    const { kept, ctx } = setup();
    kept.draw(ctx, s, frameAt(translation(0, 0)), false);
    expect(kept.draw(ctx, s, frameAt(translation(0, -40.5)), false).redrawn).toBe(true);
    // Whole pixels away and still: the kept pixels are exact.
    expect(kept.draw(ctx, s, frameAt(translation(0, -60.5)), false).redrawn).toBe(false);
    expect(shown(ctx)).toEqual(direct(s, translation(0, -60.5)));
  });

  it('scales the kept strokes a little while zooming, and draws again past the slack', () => {
    const s = scene();
    const { kept, ctx } = setup();
    kept.draw(ctx, s, frameAt(scaling(0.5)), false);
    const closer = multiply(translation(-10, -10), scaling(0.55));
    expect(kept.draw(ctx, s, frameAt(closer), true).redrawn).toBe(false);
    expect(shown(ctx)).toEqual(direct(s, closer));
    expect(kept.draw(ctx, s, frameAt(scaling(0.8)), true).redrawn).toBe(true);
  });

  it('draws again when the view leaves the kept margin, turns, or the zones change', () => {
    const s = scene();
    const { kept, ctx } = setup();
    kept.draw(ctx, s, frameAt(translation(0, 0)), false);
    expect(kept.draw(ctx, s, frameAt(translation(0, -100)), true).redrawn).toBe(false);
    // The margin is a quarter of the view (150 px of 600) beyond the last drawing.
    expect(kept.draw(ctx, s, frameAt(translation(0, -400)), true).redrawn).toBe(true);
    const turned = multiply(translation(700, 0), multiply(rotation(90), translation(0, -400)));
    expect(kept.draw(ctx, s, frameAt(turned), true).redrawn).toBe(true);
    expect(shown(ctx)).toEqual(direct(s, turned));
    expect(kept.draw(ctx, scene(), frameAt(turned), true).redrawn).toBe(true);
  });

  it('keeps the hovered and selected zones on top, drawn each frame', () => {
    const s = scene();
    const { kept, ctx } = setup();
    kept.draw(ctx, s, frameAt(translation(0, 0)), false);
    const stats = kept.draw(
      ctx,
      s,
      { ...frameAt(translation(0, 0)), hovered: 1, selected: 2 },
      false,
    );
    expect(stats.redrawn).toBe(false);
    const thick = ctx.frame.filter((path) => path.lineWidth > 1);
    expect(thick.map((path) => [path.points[0], path.lineWidth])).toEqual([
      [[50, 100], 2],
      [[50, 200], 3],
    ]);
  });

  it('draws few zones anew every frame, cheaper than a copy, and keeps many', () => {
    const s = scene();
    const layer = createRecordingLayer();
    const few = new KeptZonesLayer(() => layer, 10);
    const ctx = createRecordingContext() as RecordingContext & KeptDrawContext;
    // Six lines in view at 100 %.
    few.draw(ctx, s, frameAt(translation(0, 0)), false);
    expect(few.draw(ctx, s, frameAt(translation(0, -30)), true)).toMatchObject({ redrawn: true });
    expect(shown(ctx)).toEqual(direct(s, translation(0, -30)));
    // Zoomed out, all forty lines in view: they are kept from then on.
    few.draw(ctx, s, frameAt(scaling(0.15)), true);
    expect(few.draw(ctx, s, frameAt(scaling(0.16)), true)).toEqual({ drawn: 0, redrawn: false });
    expect(shown(ctx)).toEqual(direct(s, scaling(0.16)));
    // Zoomed in past the slack onto a few lines: drawn once more on the layer, then let go.
    const close = translation(0, -30);
    expect(few.draw(ctx, s, frameAt(close), true).redrawn).toBe(true);
    expect(shown(ctx)).toEqual(direct(s, close));
    expect(few.draw(ctx, s, frameAt(close), true)).toMatchObject({ redrawn: true });
    expect(shown(ctx)).toEqual(direct(s, close));
  });

  it('draws directly where the browser gives no second canvas', () => {
    const s = scene();
    const kept = new KeptZonesLayer(() => null);
    const ctx = createRecordingContext() as RecordingContext & KeptDrawContext;
    const m = translation(0, -50);
    expect(kept.draw(ctx, s, frameAt(m), true)).toMatchObject({ redrawn: true });
    expect(kept.draw(ctx, s, frameAt(m), true)).toMatchObject({ redrawn: true });
    expect(shown(ctx)).toEqual(direct(s, m));
  });
});
