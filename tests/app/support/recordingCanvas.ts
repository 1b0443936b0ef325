/**
 * A 2D context that records paths instead of painting (jsdom has no canvas). Each frame starts
 * with clearRect; a path is a moveTo and its lineTos, painted with the stroke style current at
 * its stroke() call.
 */
import type { OverlayContext } from '@/features/viewer/overlay/renderer';

export interface RecordedPath {
  points: [number, number][];
  strokeStyle: string;
  lineWidth: number;
  dashed: boolean;
}

export interface RecordingContext extends OverlayContext {
  /** Paths stroked since the last clearRect. */
  frame: RecordedPath[];
  frames: number;
}

/** The recording context of each canvas that is not the page's (the overlay's kept layers). */
const layerContexts = new WeakMap<object, RecordingContext>();

export function createRecordingContext(): RecordingContext {
  let current: [number, number][][] = [];
  let dash: number[] = [];
  let transform = [1, 0, 0, 1, 0, 0];
  const ctx = {
    frame: [] as RecordedPath[],
    frames: 0,
    fillStyle: '#000' as string | CanvasGradient | CanvasPattern,
    strokeStyle: '#000' as string | CanvasGradient | CanvasPattern,
    lineWidth: 1,
    lineJoin: 'miter' as CanvasLineJoin,
    globalAlpha: 1,
    setTransform(a: number, b: number, c: number, d: number, e: number, f: number) {
      transform = [a, b, c, d, e, f];
    },
    /** A kept layer copied in: its paths, moved by the current transform. */
    drawImage(source: object) {
      const layer = layerContexts.get(source);
      if (!layer) return;
      const [a, b, c, d, e, f] = transform as [number, number, number, number, number, number];
      for (const path of layer.frame) {
        ctx.frame.push({
          ...path,
          points: path.points.map(([x, y]): [number, number] => [
            a * x + c * y + e,
            b * x + d * y + f,
          ]),
        });
      }
    },
    clearRect() {
      ctx.frame = [];
      ctx.frames += 1;
    },
    beginPath() {
      current = [];
    },
    moveTo(x: number, y: number) {
      current.push([[x, y]]);
    },
    lineTo(x: number, y: number) {
      current[current.length - 1]?.push([x, y]);
    },
    closePath() {},
    fill() {},
    setLineDash(segments: number[]) {
      dash = segments;
    },
    stroke() {
      for (const points of current) {
        ctx.frame.push({
          points,
          strokeStyle: String(ctx.strokeStyle),
          lineWidth: ctx.lineWidth,
          dashed: dash.length > 0,
        });
      }
    },
  };
  return ctx as unknown as RecordingContext;
}

/**
 * Makes the page's canvases answer getContext('2d') with one recording context, returned; a
 * canvas outside the page (a kept layer) gets one of its own, whose paths a drawImage of it
 * copies into the page's.
 */
export function installRecordingCanvas(): RecordingContext {
  const ctx = createRecordingContext();
  HTMLCanvasElement.prototype.getContext = function getContext(this: HTMLCanvasElement) {
    if (this.isConnected) return ctx;
    let layer = layerContexts.get(this);
    if (!layer) {
      layer = createRecordingContext();
      layerContexts.set(this, layer);
    }
    return layer;
  } as unknown as HTMLCanvasElement['getContext'];
  return ctx;
}

/** A canvas outside the page with its own recording context, as kept layers are. */
export function createRecordingLayer(): {
  width: number;
  height: number;
  getContext(kind: '2d'): RecordingContext;
  ctx: RecordingContext;
} {
  const ctx = createRecordingContext();
  const canvas = { width: 0, height: 0, getContext: () => ctx, ctx };
  layerContexts.set(canvas, ctx);
  return canvas;
}

/** A closed square ring, the test zones' usual shape. */
export const square = (x: number, y: number, size: number): [number, number][] => [
  [x, y],
  [x, y + size],
  [x + size, y + size],
  [x + size, y],
  [x, y],
];
