/**
 * Runs the overlay of one viewer: sizes the canvas, redraws at most once per animation frame
 * when the viewport moves, and turns pointer events on the viewer element into hover and click
 * on zones. Plain TypeScript; the React component only creates it and feeds it props.
 */
import { applyMatrix, invert, matrixScale, multiply, scaling, type Matrix } from '@/lib/geometry';
import type { ViewerHandle } from '../viewerContext';
import type { Size } from '../zoom';
import { drawOverlay, type OverlayScene } from './renderer';
import { hitTest } from './zoneSet';

/** How far from a thin line, in screen pixels, the pointer still picks it. */
export const HIT_TOLERANCE_PX = 3;
/** Pointer travel under which a press and release is a click, not a pan. */
export const CLICK_SLOP_PX = 4;

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
  private readonly cleanups: (() => void)[] = [];

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
    });
    listen('pointerdown', (event) => {
      if (event.button !== 0) return;
      this.down = this.local(event);
      // The label would stay behind while the image pans away under it.
      this.setHovered(-1, 0, 0);
    });
    listen('pointerup', (event) => this.onUp(event));
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
    drawOverlay(ctx, this.scene, {
      imageToScreen: m,
      width,
      height,
      pixelRatio: ratio,
      hovered: this.hovered,
      selected: this.selected,
    });
  }

  private local(event: PointerEvent): { x: number; y: number } {
    const rect = this.viewer.element.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  private onMove(event: PointerEvent): void {
    this.pointer = this.local(event);
    // While a button is down the user pans; hovering would only flicker.
    if (this.down) return;
    this.setHovered(this.pick(this.pointer.x, this.pointer.y), this.pointer.x, this.pointer.y);
  }

  private onUp(event: PointerEvent): void {
    const start = this.down;
    this.down = null;
    if (!start || event.button !== 0) return;
    const { x, y } = this.local(event);
    this.pointer = { x, y };
    const index = this.pick(x, y);
    this.setHovered(index, x, y);
    if (Math.hypot(x - start.x, y - start.y) > CLICK_SLOP_PX) return;
    this.callbacks.onSelect(index);
  }

  private setHovered(index: number, x: number, y: number): void {
    if (index !== this.hovered) {
      this.hovered = index;
      this.viewer.element.style.cursor = index >= 0 ? 'pointer' : '';
      this.schedule();
    }
    this.callbacks.onHover(index, x, y);
  }
}
