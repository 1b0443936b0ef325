/**
 * Draws the zone overlay on a 2D canvas: only the zones whose box meets the visible part of the
 * image, stroked in batches per colour, then the hovered and selected zones filled on top and
 * the element's own outline. Points are mapped to device
 * pixels here rather than through the context's transform, so line widths and dashes stay in
 * screen pixels whatever the zoom.
 */
import { visibleImageBBox, type Matrix } from '@/lib/geometry';
import { visibleZones, type ZoneSet } from './zoneSet';

/** The part of CanvasRenderingContext2D the overlay uses; tests and benchmarks can fake it. */
export type OverlayContext = Pick<
  CanvasRenderingContext2D,
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'closePath'
  | 'fill'
  | 'stroke'
  | 'clearRect'
  | 'setTransform'
  | 'setLineDash'
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'lineJoin'
  | 'globalAlpha'
>;

export interface ZoneStyle {
  /** CSS colour of the stroke and (translucent) fill. */
  color: string;
}

export interface OverlayScene {
  zones: ZoneSet;
  /** One style per style key of the zone set, same order; missing ones use DEFAULT_STYLE. */
  styles: readonly ZoneStyle[];
  /** The element's own polygon, as flat coordinates; drawn as a dashed outline. */
  outline: Float64Array | null;
}

export interface OverlayFrame {
  /** Image pixels to canvas CSS pixels. */
  imageToScreen: Matrix;
  /** Canvas size in CSS pixels. */
  width: number;
  height: number;
  pixelRatio: number;
  hovered: number;
  selected: number;
}

export const DEFAULT_STYLE: ZoneStyle = { color: '#2563eb' };
export const OUTLINE_COLOR = '#f59e0b';

/** Polygons per path; measured in bench/viewer.bench.ts (16 to 64 do about as well). */
const PATH_BATCH = 32;
const HOVER_FILL_ALPHA = 0.3;
const SELECTED_FILL_ALPHA = 0.35;

export interface DrawStats {
  /** Zones traced in this frame (after culling). */
  drawn: number;
}

function tracePolygon(
  ctx: OverlayContext,
  m: Matrix,
  coords: Float64Array,
  start: number,
  end: number,
): void {
  if (end - start < 2) return;
  const [a, b, c, d, e, f] = m;
  let x = coords[start * 2]!;
  let y = coords[start * 2 + 1]!;
  ctx.moveTo(a * x + c * y + e, b * x + d * y + f);
  for (let i = start + 1; i < end; i += 1) {
    x = coords[i * 2]!;
    y = coords[i * 2 + 1]!;
    ctx.lineTo(a * x + c * y + e, b * x + d * y + f);
  }
  ctx.closePath();
}

function paint(
  ctx: OverlayContext,
  color: string,
  fillAlpha: number,
  lineWidth: number,
  dashed = false,
): void {
  if (fillAlpha > 0) {
    ctx.globalAlpha = fillAlpha;
    ctx.fillStyle = color;
    ctx.fill();
  }
  ctx.globalAlpha = 1;
  ctx.strokeStyle = color;
  ctx.lineWidth = lineWidth;
  ctx.setLineDash(dashed ? [6 * (lineWidth / 1.5), 4 * (lineWidth / 1.5)] : []);
  ctx.stroke();
}

export function drawOverlay(
  ctx: OverlayContext,
  scene: OverlayScene,
  frame: OverlayFrame,
): DrawStats {
  const { zones, styles } = scene;
  const ratio = frame.pixelRatio;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, frame.width * ratio, frame.height * ratio);
  ctx.lineJoin = 'round';
  const [a, b, c, d, e, f] = frame.imageToScreen;
  const m: Matrix = [a * ratio, b * ratio, c * ratio, d * ratio, e * ratio, f * ratio];

  const count = visibleZones(
    zones,
    visibleImageBBox(frame.imageToScreen, frame.width, frame.height),
  );
  const visible = zones.scratch;
  const styleCount = zones.styleKeys.length;
  const { coords, offsets } = zones;

  // Ordinary zones are stroked in short batches per colour: one path per polygon costs a
  // call each, while one path for thousands of polygons rasterises superlinearly (Chromium's
  // software canvas took 10× longer). Translucent fills cost most of a frame on dense pages,
  // so only the hovered and selected zones get one.
  ctx.globalAlpha = 1;
  ctx.lineWidth = ratio;
  ctx.setLineDash([]);
  for (let style = 0; style < styleCount; style += 1) {
    ctx.strokeStyle = (styles[style] ?? DEFAULT_STYLE).color;
    let batched = 0;
    ctx.beginPath();
    for (let k = 0; k < count; k += 1) {
      const i = visible[k]!;
      if (zones.styles[i] !== style || i === frame.hovered || i === frame.selected) continue;
      tracePolygon(ctx, m, coords, offsets[i]!, offsets[i + 1]!);
      batched += 1;
      if (batched === PATH_BATCH) {
        ctx.stroke();
        ctx.beginPath();
        batched = 0;
      }
    }
    if (batched) ctx.stroke();
  }

  const emphasise = (i: number, alpha: number, width: number) => {
    if (i < 0 || i >= zones.count) return;
    ctx.beginPath();
    tracePolygon(ctx, m, coords, offsets[i]!, offsets[i + 1]!);
    paint(ctx, (styles[zones.styles[i]!] ?? DEFAULT_STYLE).color, alpha, width * ratio);
  };
  if (frame.hovered !== frame.selected) emphasise(frame.hovered, HOVER_FILL_ALPHA, 2);
  emphasise(frame.selected, SELECTED_FILL_ALPHA, 3);

  if (scene.outline && scene.outline.length >= 6) {
    ctx.beginPath();
    tracePolygon(ctx, m, scene.outline, 0, scene.outline.length / 2);
    paint(ctx, OUTLINE_COLOR, 0, 2 * ratio, true);
  }
  ctx.setLineDash([]);
  return { drawn: count };
}
