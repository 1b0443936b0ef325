/**
 * Draws the zone overlay on a 2D canvas: only the zones whose box meets the visible part of the
 * image, stroked in batches per colour with the points that show at the zoom (kept as paths,
 * pathBuckets.ts, where the browser has Path2D), then the hovered and selected zones filled on
 * top and the element's own outline.
 */
import { matrixScale, visibleImageBBox, type BBox, type Matrix } from '@/lib/geometry';
import { levelOf, simplifiedZones } from './simplifiedLevels';
import { pathsAvailable, strokePaths, uniformScale } from './pathBuckets';
import { strokeByStyle, tracePolygon } from './strokeBatches';
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

/**
 * The zones' strokes for a view in device pixels (`m`, image to canvas pixels), for the zones
 * whose box meets `bbox` (image coordinates); `skip` zones are left to drawMarks (the point by
 * point batches only: kept paths stroke every zone and the marks' thicker strokes cover them).
 * Returns how many zones are in view.
 */
export function strokeZones(
  ctx: OverlayContext,
  scene: OverlayScene,
  m: Matrix,
  bbox: BBox,
  ratio: number,
  skip: (i: number) => boolean = () => false,
): number {
  const { zones, styles } = scene;
  ctx.lineJoin = 'round';
  ctx.globalAlpha = 1;
  ctx.lineWidth = ratio;
  ctx.setLineDash([]);
  const count = visibleZones(zones, bbox);
  // Ordinary zones are traced with the points that show at this zoom (half a pixel or more).
  // Translucent fills cost most of a frame on dense pages, so only the hovered and selected
  // zones get one (drawMarks).
  const scale = uniformScale(m);
  const level = levelOf(scale ?? matrixScale(m));
  const colorOf = (style: number) => (styles[style] ?? DEFAULT_STYLE).color;
  if (scale && pathsAvailable()) {
    strokePaths(ctx, zones, level, bbox, m, scale, ratio, colorOf);
  } else {
    strokeByStyle(ctx, zones, simplifiedZones(zones, level), count, m, PATH_BATCH, colorOf, skip);
  }
  return count;
}

/** The hovered and selected zones filled and stroked thicker, then the element's outline. */
export function drawMarks(
  ctx: OverlayContext,
  scene: OverlayScene,
  m: Matrix,
  ratio: number,
  hovered: number,
  selected: number,
): void {
  const { zones, styles } = scene;
  ctx.lineJoin = 'round';
  const emphasise = (i: number, alpha: number, width: number) => {
    if (i < 0 || i >= zones.count) return;
    ctx.beginPath();
    tracePolygon(ctx, m, zones.coords, zones.offsets[i]!, zones.offsets[i + 1]!);
    paint(ctx, (styles[zones.styles[i]!] ?? DEFAULT_STYLE).color, alpha, width * ratio);
  };
  if (hovered !== selected) emphasise(hovered, HOVER_FILL_ALPHA, 2);
  emphasise(selected, SELECTED_FILL_ALPHA, 3);

  if (scene.outline && scene.outline.length >= 6) {
    ctx.beginPath();
    tracePolygon(ctx, m, scene.outline, 0, scene.outline.length / 2);
    paint(ctx, OUTLINE_COLOR, 0, 2 * ratio, true);
  }
  ctx.setLineDash([]);
}

/** Image coordinates to canvas (device) pixels. */
export function deviceMatrix(frame: OverlayFrame): Matrix {
  const [a, b, c, d, e, f] = frame.imageToScreen;
  const ratio = frame.pixelRatio;
  return [a * ratio, b * ratio, c * ratio, d * ratio, e * ratio, f * ratio];
}

/** One frame drawn from scratch: every zone in view traced, then the marks. */
export function drawOverlay(
  ctx: OverlayContext,
  scene: OverlayScene,
  frame: OverlayFrame,
): DrawStats {
  const ratio = frame.pixelRatio;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, frame.width * ratio, frame.height * ratio);
  const m = deviceMatrix(frame);
  const bbox = visibleImageBBox(frame.imageToScreen, frame.width, frame.height);
  const drawn = strokeZones(
    ctx,
    scene,
    m,
    bbox,
    ratio,
    (i) => i === frame.hovered || i === frame.selected,
  );
  drawMarks(ctx, scene, m, ratio, frame.hovered, frame.selected);
  return { drawn };
}
