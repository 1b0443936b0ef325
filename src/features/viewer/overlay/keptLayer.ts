/**
 * The zones drawn once onto a canvas a margin larger than the view, and kept while the view
 * moves: a frame of a pan or zoom then copies the kept strokes into place (one drawImage,
 * whatever the number of zones) and draws only the marks (hovered, selected, outline) itself.
 * The zones are drawn again when the view leaves the kept area, turns, zooms more than
 * ZOOM_SLACK away from the kept scale, or stops moving anywhere but on the kept pixels: a
 * still view is always sharp, a moving one may be scaled a little for a few frames.
 * bench/viewer.bench.ts measures both ways over 100 and 10,000 lines.
 */
import {
  applyMatrix,
  invert,
  multiply,
  translation,
  visibleImageBBox,
  type Matrix,
} from '@/lib/geometry';
import { uniformScale } from './pathBuckets';
import {
  deviceMatrix,
  drawMarks,
  drawOverlay,
  strokeZones,
  type OverlayContext,
  type OverlayFrame,
  type OverlayScene,
} from './renderer';

/** The kept canvas reaches this share of the view's size beyond each edge. */
const MARGIN = 0.25;
/**
 * Zones in view from which a copy of the kept strokes beats tracing them: a copy costs about
 * what 1,000 lines' strokes do in software-rendered Chromium (bench/viewer.bench.ts).
 */
export const KEEP_FROM_ZONES = 1000;
/** How far a moving view's scale may drift from the kept one before the zones are redrawn. */
const ZOOM_SLACK = 1.25;

/** The part of a canvas the layer uses: an HTML or offscreen canvas. */
export interface LayerCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): (OverlayContext & { drawImage?: unknown }) | null;
}

export type KeptDrawContext = OverlayContext & {
  drawImage(
    image: never,
    sx: number,
    sy: number,
    sw: number,
    sh: number,
    dx: number,
    dy: number,
    dw: number,
    dh: number,
  ): void;
};

export interface KeptDrawStats {
  /** Zones traced in this frame: 0 when the kept strokes served. */
  drawn: number;
  /** Whether the kept strokes were drawn again for this frame. */
  redrawn: boolean;
}

interface Kept {
  scene: OverlayScene;
  /** Image coordinates to the kept canvas' pixels. */
  matrix: Matrix;
  width: number;
  height: number;
  ratio: number;
}

const nearInteger = (value: number) => Math.abs(value - Math.round(value)) < 1e-6;

/**
 * Whether the kept strokes, drawn through `relative` (kept pixels to view pixels), can stand
 * for this frame: same orientation, scale within the slack (exactly 1 and whole-pixel shifts
 * for a still view) and the whole view inside the kept area.
 */
function fits(
  relative: Matrix,
  kept: Kept,
  width: number,
  height: number,
  moving: boolean,
): boolean {
  const scale = uniformScale(relative);
  const [a, b, c, d, e, f] = relative;
  if (scale === null || a <= 0 || d <= 0 || Math.abs(b) > 1e-9 * a || Math.abs(c) > 1e-9 * a) {
    return false;
  }
  if (moving) {
    if (scale > ZOOM_SLACK || scale < 1 / ZOOM_SLACK) return false;
  } else if (Math.abs(scale - 1) > 1e-9 || !nearInteger(e) || !nearInteger(f)) {
    return false;
  }
  const back = invert(relative);
  if (!back) return false;
  const corners = [applyMatrix(back, 0, 0), applyMatrix(back, width, height)];
  return corners.every(
    ([x, y]) => x >= -0.5 && y >= -0.5 && x <= kept.width + 0.5 && y <= kept.height + 0.5,
  );
}

export class KeptZonesLayer {
  private kept: Kept | null = null;
  private canvas: LayerCanvas | null | undefined;
  /** Zones in view at the last frame: few are drawn anew, cheaper than a copy. */
  private inView = 0;

  /**
   * `makeCanvas` gives the second canvas, or null where there is none (drawn directly then);
   * `keepFrom` is the number of zones in view from which they are kept.
   */
  constructor(
    private readonly makeCanvas: () => LayerCanvas | null,
    private readonly keepFrom = KEEP_FROM_ZONES,
  ) {}

  /** Forgets the kept strokes (zones, colours or the page changed). */
  reset(): void {
    this.kept = null;
  }

  draw(
    ctx: KeptDrawContext,
    scene: OverlayScene,
    frame: OverlayFrame,
    moving: boolean,
  ): KeptDrawStats {
    if (this.canvas === undefined) this.canvas = this.makeCanvas();
    const layerCtx = this.canvas?.getContext('2d') ?? null;
    if (!this.canvas || !layerCtx) {
      return { ...drawOverlay(ctx, scene, frame), redrawn: true };
    }
    if (this.inView < this.keepFrom && !(this.kept && this.kept.scene === scene)) {
      // Few zones in view: tracing them costs less than copying a canvas (bench/viewer).
      const stats = drawOverlay(ctx, scene, frame);
      this.inView = stats.drawn;
      if (stats.drawn < this.keepFrom) return { ...stats, redrawn: true };
    }
    const ratio = frame.pixelRatio;
    const width = frame.width * ratio;
    const height = frame.height * ratio;
    const m = deviceMatrix(frame);

    let drawn = 0;
    let relative = this.relative(m, scene, ratio);
    const reuse =
      relative !== null && this.kept !== null && fits(relative, this.kept, width, height, moving);
    if (!reuse) {
      const margin: [number, number] = [Math.round(width * MARGIN), Math.round(height * MARGIN)];
      const keptWidth = Math.ceil(width) + 2 * margin[0];
      const keptHeight = Math.ceil(height) + 2 * margin[1];
      if (this.canvas.width !== keptWidth) this.canvas.width = keptWidth;
      if (this.canvas.height !== keptHeight) this.canvas.height = keptHeight;
      const matrix = multiply(translation(margin[0], margin[1]), m);
      layerCtx.setTransform(1, 0, 0, 1, 0, 0);
      layerCtx.clearRect(0, 0, keptWidth, keptHeight);
      drawn = strokeZones(
        layerCtx,
        scene,
        matrix,
        visibleImageBBox(matrix, keptWidth, keptHeight),
        ratio,
      );
      this.kept = { scene, matrix, width: keptWidth, height: keptHeight, ratio };
      // The kept area is about twice the view's: about half its zones are in view.
      this.inView = drawn / 2;
      relative = translation(-margin[0], -margin[1]);
    }

    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.setTransform(...relative!);
    // Only the kept pixels under the view are copied: resampling the margins too would cost
    // twice the time for pixels the canvas clips anyway.
    const [x, y, w, h] = this.sourceRect(relative!, width, height);
    if (w > 0 && h > 0) ctx.drawImage(this.canvas as never, x, y, w, h, x, y, w, h);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    drawMarks(ctx, scene, m, ratio, frame.hovered, frame.selected);
    // Too few zones left in view to be worth keeping: the next frames trace them.
    if (this.inView < this.keepFrom) this.kept = null;
    return { drawn, redrawn: !reuse };
  }

  /** The kept canvas' part under the view, whole pixels, inside the canvas. */
  private sourceRect(
    relative: Matrix,
    width: number,
    height: number,
  ): [number, number, number, number] {
    const back = invert(relative);
    const kept = this.kept!;
    if (!back) return [0, 0, kept.width, kept.height];
    const [x0, y0] = applyMatrix(back, 0, 0);
    const [x1, y1] = applyMatrix(back, width, height);
    const left = Math.max(0, Math.floor(Math.min(x0, x1)) - 1);
    const top = Math.max(0, Math.floor(Math.min(y0, y1)) - 1);
    const right = Math.min(kept.width, Math.ceil(Math.max(x0, x1)) + 1);
    const bottom = Math.min(kept.height, Math.ceil(Math.max(y0, y1)) + 1);
    return [left, top, right - left, bottom - top];
  }

  /** Kept pixels to this frame's pixels; null when nothing usable is kept. */
  private relative(m: Matrix, scene: OverlayScene, ratio: number): Matrix | null {
    const kept = this.kept;
    if (!kept || kept.scene !== scene || kept.ratio !== ratio) return null;
    const back = invert(kept.matrix);
    return back && multiply(m, back);
  }
}
