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

export function createRecordingContext(): RecordingContext {
  let current: [number, number][][] = [];
  let dash: number[] = [];
  const ctx = {
    frame: [] as RecordedPath[],
    frames: 0,
    fillStyle: '#000' as string | CanvasGradient | CanvasPattern,
    strokeStyle: '#000' as string | CanvasGradient | CanvasPattern,
    lineWidth: 1,
    lineJoin: 'miter' as CanvasLineJoin,
    globalAlpha: 1,
    setTransform() {},
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

/** Makes every canvas answer getContext('2d') with one recording context; returns it. */
export function installRecordingCanvas(): RecordingContext {
  const ctx = createRecordingContext();
  HTMLCanvasElement.prototype.getContext = function getContext() {
    return ctx;
  } as unknown as HTMLCanvasElement['getContext'];
  return ctx;
}
