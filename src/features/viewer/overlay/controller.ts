/**
 * Runs the overlay of one viewer: sizes the canvas, redraws at most once per animation frame
 * when the viewport moves, and turns pointer events on the viewer element into hover and click
 * on zones, or hands them to a tool working on the image (the annotation tools). Plain
 * TypeScript; the React component only creates it and feeds it props.
 *
 * Touch reaches a tool only when the tool takes it (drawing with a finger); otherwise one finger
 * pans and two pinch, as everywhere on a tablet, while a pen or a mouse draws. Two fingers
 * always pan and zoom: a second finger ends what the first one began with the tool. A touch
 * while a pen is down is a resting palm and is ignored; a pen landing while a finger draws
 * shows that finger was a palm.
 */
import { applyMatrix, invert, matrixScale, multiply, scaling, type Matrix } from '@/lib/geometry';
import type { PointerTool, ToolPointer } from '@/lib/pointerTool';
import type { ViewerHandle } from '../viewerContext';
import type { Size } from '../zoom';
import { KeptZonesLayer } from './keptLayer';
import { drawOverlay, type OverlayScene } from './renderer';
import { hitTest } from './zoneSet';

/** How far from a thin line, in screen pixels, the pointer still picks it. */
export const HIT_TOLERANCE_PX = 3;
/** Pointer travel under which a press and release is a click, not a pan. */
export const CLICK_SLOP_PX = 4;
/**
 * A view that moved within this long of the previous frame is moving: the kept zones may serve
 * it scaled a little. This long after the last move the view is drawn sharp again.
 */
const SETTLE_MS = 150;

export interface OverlayCallbacks {
  /** The zone under the pointer changed (-1: none), with the pointer in element pixels. */
  onHover(index: number, x: number, y: number): void;
  /** A click (not a drag) on a zone, or on no zone (-1). */
  onSelect(index: number): void;
}

const nextFrame = (callback: () => void): (() => void) => {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(callback);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(callback, 16);
  return () => clearTimeout(id);
};

export class OverlayController {
  private scene: OverlayScene;
  private imageSize: Size;
  private selected = -1;
  private hovered = -1;
  private pending: (() => void) | null = null;
  private down: { x: number; y: number } | null = null;
  /** Where the pointer last was over the viewer, to re-pick after the view moves under it. */
  private pointer: { x: number; y: number } | null = null;
  private tool: PointerTool | null = null;
  private toolCleanup: (() => void) | null = null;
  /** The pointer whose gesture the tool took, until its release. */
  private toolGesture: number | null = null;
  /** That pointer is a finger: OpenSeadragon follows it too, so a second finger can pinch. */
  private toolGestureTouch = false;
  private layerCache: { canvas: HTMLCanvasElement; key: number[]; scene: OverlayScene } | null =
    null;
  private readonly cleanups: (() => void)[] = [];
  /** The zones kept a margin beyond the view, copied into place while it pans and zooms. */
  private readonly kept = new KeptZonesLayer(() =>
    typeof document === 'undefined' ? null : document.createElement('canvas'),
  );
  private lastView: { matrix: Matrix; at: number } | null = null;
  private settle: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly viewer: ViewerHandle,
    private readonly canvas: HTMLCanvasElement,
    scene: OverlayScene,
    imageSize: Size,
    private readonly callbacks: OverlayCallbacks,
  ) {
    this.scene = scene;
    this.imageSize = imageSize;
    this.cleanups.push(
      viewer.subscribe((event) => {
        if (event.type !== 'open' && event.type !== 'viewport') return;
        // A wheel zoom moves the zones under a still pointer.
        if (this.pointer && !this.down)
          this.setHovered(
            this.pick(this.pointer.x, this.pointer.y),
            this.pointer.x,
            this.pointer.y,
          );
        this.schedule();
      }),
    );
    const element = viewer.element;
    const listen = <K extends keyof HTMLElementEventMap>(
      type: K,
      handler: (event: HTMLElementEventMap[K]) => void,
    ) => {
      // Capture phase: OpenSeadragon's own handlers on the canvas must not hide the events.
      element.addEventListener(type, handler, true);
      this.cleanups.push(() => element.removeEventListener(type, handler, true));
    };
    listen('pointermove', (event) => this.onMove(event));
    listen('pointerleave', () => {
      this.pointer = null;
      this.setHovered(-1, 0, 0);
      this.tool?.hover(null);
    });
    listen('pointerdown', (event) => this.onDown(event));
    listen('pointerup', (event) => this.onUp(event));
    listen('pointercancel', (event) => this.onCancel(event));
    listen('lostpointercapture', (event) => this.onCancel(event));
    listen('dblclick', (event) => {
      const point = this.toolPointer(event, 'mouse');
      if (point && this.tool?.doubleClick(point)) {
        event.stopPropagation();
        event.preventDefault();
      }
    });
    this.schedule();
  }

  /** Hands pointer input to a tool (null: back to hover and select). */
  setTool(tool: PointerTool | null): void {
    if (tool === this.tool) return;
    this.toolCleanup?.();
    this.toolCleanup = null;
    if (this.toolGesture !== null) this.tool?.cancel();
    this.toolGesture = null;
    this.toolGestureTouch = false;
    this.tool = tool;
    if (tool) this.toolCleanup = tool.subscribe(() => this.schedule());
    this.holdTouch(false);
    this.viewer.element.style.cursor =
      tool?.cursor(this.hovered) ?? (this.hovered >= 0 ? 'pointer' : '');
    this.schedule();
  }

  setScene(scene: OverlayScene, imageSize: Size): void {
    if (scene === this.scene && imageSize === this.imageSize) return;
    this.scene = scene;
    this.imageSize = imageSize;
    this.hovered = -1;
    this.schedule();
  }

  setSelected(index: number): void {
    if (index === this.selected) return;
    this.selected = index;
    this.schedule();
  }

  destroy(): void {
    this.toolCleanup?.();
    this.toolCleanup = null;
    this.layerCache = null;
    this.kept.reset();
    if (this.settle) clearTimeout(this.settle);
    this.settle = null;
    this.pending?.();
    this.pending = null;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.viewer.element.style.cursor = '';
  }

  /** Image (zone) coordinates to element pixels; null until the image is open. */
  imageToScreen(): Matrix | null {
    const source = this.viewer.sourceSize();
    if (!source) return null;
    // The viewer works in the server's pixels; zones are in the recorded image size.
    const { width, height } = this.imageSize;
    return multiply(
      this.viewer.imageToScreen(),
      scaling(source.width / width, source.height / height),
    );
  }

  /** The zone under an element pixel, or -1. */
  pick(x: number, y: number): number {
    const m = this.imageToScreen();
    const inverse = m && invert(m);
    if (!m || !inverse) return -1;
    const [ix, iy] = applyMatrix(inverse, x, y);
    return hitTest(this.scene.zones, ix, iy, HIT_TOLERANCE_PX / matrixScale(m));
  }

  schedule(): void {
    if (this.pending) return;
    this.pending = nextFrame(() => {
      this.pending = null;
      this.draw();
    });
  }

  draw(): void {
    const m = this.imageToScreen();
    if (!m) return;
    const { width, height } = this.viewer.containerSize();
    const ratio = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
    const pixelWidth = Math.round(width * ratio);
    const pixelHeight = Math.round(height * ratio);
    if (this.canvas.width !== pixelWidth) this.canvas.width = pixelWidth;
    if (this.canvas.height !== pixelHeight) this.canvas.height = pixelHeight;
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const frame = {
      imageToScreen: m,
      width,
      height,
      pixelRatio: ratio,
      hovered: this.hovered,
      selected: this.selected,
    };
    const layer = this.tool ? this.zonesLayer(frame, pixelWidth, pixelHeight) : null;
    if (layer) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, pixelWidth, pixelHeight);
      ctx.drawImage(layer, 0, 0);
    } else {
      this.kept.draw(ctx, this.scene, frame, this.moving(m));
    }
    this.tool?.draw(ctx, m, ratio);
  }

  /**
   * Whether the view moved since a frame drawn moments ago (a pan or zoom under way); a moving
   * view is drawn sharp again once it has been still for SETTLE_MS.
   */
  private moving(m: Matrix): boolean {
    const now = performance.now();
    const last = this.lastView;
    this.lastView = { matrix: m, at: now };
    const moved = !last || m.some((value, i) => value !== last.matrix[i]);
    if (!moved) return false;
    if (this.settle) clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      this.settle = null;
      this.schedule();
    }, SETTLE_MS);
    return last !== null && now - last.at < SETTLE_MS;
  }

  /**
   * The zones drawn once and kept while only a tool's shapes change: dragging a point over
   * 5,000 lines then costs one copy per frame, not 5,000 polygons (bench/annotation.bench.ts).
   * Null where the browser gives no second canvas; the zones are then drawn directly.
   */
  private zonesLayer(
    frame: Parameters<typeof drawOverlay>[2],
    pixelWidth: number,
    pixelHeight: number,
  ): HTMLCanvasElement | null {
    const key = [...frame.imageToScreen, pixelWidth, pixelHeight, frame.hovered, frame.selected];
    const cached = this.layerCache;
    if (cached && cached.scene === this.scene && key.every((value, i) => value === cached.key[i])) {
      return cached.canvas;
    }
    const canvas = cached?.canvas ?? document.createElement('canvas');
    canvas.width = pixelWidth;
    canvas.height = pixelHeight;
    const layerCtx = canvas.getContext('2d');
    if (!layerCtx) return null;
    drawOverlay(layerCtx, this.scene, frame);
    this.layerCache = { canvas, key, scene: this.scene };
    return canvas;
  }

  /** The pointer in image coordinates, as tools take it; null until the image is open. */
  private toolPointer(event: MouseEvent, pointerType: string): ToolPointer | null {
    const m = this.imageToScreen();
    const inverse = m && invert(m);
    if (!m || !inverse) return null;
    const { x, y } = this.local(event);
    const [ix, iy] = applyMatrix(inverse, x, y);
    return {
      x: ix,
      y: iy,
      screenX: x,
      screenY: y,
      imagePerScreen: 1 / matrixScale(m),
      pointerType,
      shiftKey: event.shiftKey,
    };
  }

  private onDown(event: PointerEvent): void {
    const touch = event.pointerType === 'touch';
    if (this.toolGesture !== null) {
      if (event.pointerId === this.toolGesture) return;
      if (!this.toolGestureTouch) {
        // A palm landing while the pen draws: neither a second gesture nor a pan.
        event.stopPropagation();
        event.preventDefault();
        return;
      }
      // A second finger makes a pinch or a pan of the first; a pen shows it was a palm.
      this.endToolGesture();
      this.tool?.cancel();
      if (touch) return;
    }
    if (event.button !== 0) return;
    if (touch) this.holdTouch(false);
    const point = this.reachesTool(event) ? this.toolPointer(event, event.pointerType) : null;
    if (this.tool && point) {
      const zone = this.pick(point.screenX, point.screenY);
      if (this.tool.down(point, zone)) {
        this.toolGesture = event.pointerId;
        this.toolGestureTouch = touch;
        this.holdTouch(true);
        this.setHovered(-1, 0, 0);
        // OpenSeadragon keeps following a finger (not panning with it) for a pinch to come.
        if (touch) return;
        event.stopPropagation();
        event.preventDefault();
        try {
          this.viewer.element.setPointerCapture(event.pointerId);
        } catch {
          // Synthetic events (tests) have no capturable pointer; the gesture works without.
        }
        return;
      }
    }
    this.down = this.local(event);
    // The label would stay behind while the image pans away under it.
    this.setHovered(-1, 0, 0);
  }

  /** Whether this pointer works the tool: a finger only when the tool takes fingers. */
  private reachesTool(event: PointerEvent): boolean {
    return event.pointerType !== 'touch' || (this.tool?.takesTouch() ?? false);
  }

  /**
   * While a tool has a gesture, one finger (a palm, or the finger drawing) must not move the
   * view. While fingers draw at all, two quick taps are two points, not a zoom, and a stroke
   * released fast must not send the view gliding.
   */
  private holdTouch(held: boolean): void {
    const fingersDraw = this.tool?.takesTouch() ?? false;
    this.viewer.setTouchGestures({
      dragToPan: !held,
      flickEnabled: !held && !fingersDraw,
      dblClickToZoom: !held && !fingersDraw,
    });
  }

  private endToolGesture(): void {
    this.toolGesture = null;
    this.toolGestureTouch = false;
    this.holdTouch(false);
  }

  private onCancel(event: PointerEvent): void {
    if (this.toolGesture === null || event.pointerId !== this.toolGesture) return;
    this.endToolGesture();
    this.tool?.cancel();
  }

  private local(event: MouseEvent): { x: number; y: number } {
    const rect = this.viewer.element.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  private onMove(event: PointerEvent): void {
    if (this.toolGesture !== null) {
      if (!this.toolGestureTouch) event.stopPropagation();
      if (event.pointerId !== this.toolGesture) return;
      const point = this.toolPointer(event, event.pointerType);
      if (point) this.tool?.move(point);
      return;
    }
    this.pointer = this.local(event);
    // While a button is down the user pans; hovering would only flicker.
    if (this.down) return;
    const hidden = this.tool?.hidesHover() ?? false;
    const index = hidden ? -1 : this.pick(this.pointer.x, this.pointer.y);
    this.setHovered(index, this.pointer.x, this.pointer.y);
    if (this.tool && event.pointerType !== 'touch') {
      this.tool.hover(this.toolPointer(event, event.pointerType));
    }
  }

  private onUp(event: PointerEvent): void {
    if (this.toolGesture !== null) {
      if (!this.toolGestureTouch) event.stopPropagation();
      if (event.pointerId !== this.toolGesture) return;
      this.endToolGesture();
      const point = this.toolPointer(event, event.pointerType);
      if (point) this.tool?.up(point);
      else this.tool?.cancel();
      return;
    }
    const start = this.down;
    this.down = null;
    if (!start || event.button !== 0) return;
    const { x, y } = this.local(event);
    this.pointer = { x, y };
    const index = this.pick(x, y);
    this.setHovered(index, x, y);
    if (Math.hypot(x - start.x, y - start.y) > CLICK_SLOP_PX) return;
    const point = this.reachesTool(event) ? this.toolPointer(event, event.pointerType) : null;
    if (this.tool && point && this.tool.click(point, index)) return;
    this.callbacks.onSelect(index);
  }

  private setHovered(index: number, x: number, y: number): void {
    if (index !== this.hovered) {
      this.hovered = index;
      this.viewer.element.style.cursor = this.tool?.cursor(index) ?? (index >= 0 ? 'pointer' : '');
      this.schedule();
    }
    this.callbacks.onHover(index, x, y);
  }
}
