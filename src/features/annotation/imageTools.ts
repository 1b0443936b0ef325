/**
 * The annotation tools on the image (spec 001 §2 "Annotation tools panel"), as one pointer tool
 * the viewer's overlay drives: every position arrives in image coordinates, so the tools work
 * the same whatever the view's zoom, rotation or mirroring. What a gesture means depends on the
 * tool in the annotation store; what it changes goes out through `actions` (the outbox).
 */
import { applyMatrix, pointInPolygon, type Matrix } from '@/lib/geometry';
import type { PointerTool, ToolPointer } from '@/lib/pointerTool';
import type { Point } from '@/lib/polygon';
import {
  insertPoint,
  movePoint,
  nearestEdge,
  nearestVertex,
  rectangleFrom,
  translatePolygon,
} from './geometry';
import { fingerDrawing } from './fingerDrawing';
import { annotationStore, type AnnotationState } from './state';

/** How far from a point or an edge, in screen pixels, a press still grabs it. */
export const GRAB_TOLERANCE_PX = 8;
/** A click this close to the first point closes the polygon. */
export const CLOSE_TOLERANCE_PX = 10;
const HANDLE_RADIUS_PX = 4.5;
/** Screen travel under which a press and release is a click. */
const CLICK_TRAVEL_PX = 4;
const DRAFT_COLOR = '#d97706';
const HANDLE_COLOR = '#ffffff';

export interface ToolZone {
  id: string;
  type: string;
  polygon: readonly (readonly [number, number])[];
}

export interface ToolActions {
  /** A zone picked (select and median), or none. */
  select(id: string | null): void;
  /** A new shape, not validated yet. */
  create(points: Point[]): void;
  /** A zone's reshaped polygon, not validated yet. */
  reshape(id: string, points: Point[]): void;
  retype(id: string): void;
  remove(id: string): void;
}

type Gesture =
  | { kind: 'vertex'; id: string; index: number; draft: Point[] }
  | { kind: 'translate'; id: string; from: Point; original: Point[]; draft: Point[] }
  | { kind: 'rectangle'; from: Point; draft: Point[] | null }
  /** A press of the polygon tool: its point is added on release, unless it turns into a pinch. */
  | { kind: 'point'; draft: null };

const toPoint = (pointer: ToolPointer): Point => [pointer.x, pointer.y];
const openPoints = (polygon: ToolZone['polygon']): Point[] => {
  const points = polygon.map(([x, y]): Point => [x, y]);
  const first = points[0];
  const last = points.at(-1);
  if (points.length > 1 && first && last && first[0] === last[0] && first[1] === last[1]) {
    points.pop();
  }
  return points;
};

export class ImageTools implements PointerTool {
  private zones: readonly ToolZone[] = [];
  private imageSize = { width: 1, height: 1 };
  private gesture: Gesture | null = null;
  /** Where the pointer hovers while a polygon is drawn: the next edge is previewed to it. */
  private hoverPoint: Point | null = null;
  /** Shapes shown until the zones list catches up with the edit (it is read back async). */
  private pendingShapes = new Map<string, Point[]>();
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: () => void;
  /** The view's last image-to-screen matrix: arrow keys move shapes the way the screen shows. */
  lastImageToScreen: Matrix | null = null;

  constructor(private readonly actions: ToolActions) {
    const unsubscribeState = annotationStore.subscribe(() => this.changed());
    const unsubscribeFinger = fingerDrawing.subscribe(() => this.changed());
    this.unsubscribe = () => {
      unsubscribeState();
      unsubscribeFinger();
    };
  }

  dispose(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  setZones(zones: readonly ToolZone[], imageSize: { width: number; height: number }): void {
    this.zones = zones;
    this.imageSize = imageSize;
    // A zone whose new shape the list now shows needs no stand-in any more.
    for (const zone of zones) this.pendingShapes.delete(zone.id);
    this.changed();
  }

  /** Shows a shape for a zone until the list has it (an edit saved, a drag released). */
  showPending(id: string, points: Point[] | null): void {
    if (points) this.pendingShapes.set(id, points);
    else this.pendingShapes.delete(id);
    this.changed();
  }

  private get state(): AnnotationState {
    return annotationStore.get();
  }

  private zoneById(id: string | null): ToolZone | undefined {
    return id ? this.zones.find((zone) => zone.id === id) : undefined;
  }

  private selectedPoints(): Point[] | null {
    const zone = this.zoneById(this.state.selected);
    if (!zone) return null;
    return this.pendingShapes.get(zone.id) ?? openPoints(zone.polygon);
  }

  down(pointer: ToolPointer, zone: number): boolean {
    const state = this.state;
    if (!state.on) return false;
    const point = toPoint(pointer);
    switch (state.tool) {
      case 'rectangle':
        this.gesture = { kind: 'rectangle', from: point, draft: null };
        return true;
      case 'polygon':
        // Points are added on release: a press that turns into a drag adds nothing.
        this.gesture = { kind: 'point', draft: null };
        return true;
      case 'select':
        return this.grabSelected(pointer, zone);
      case 'median':
        return this.insertOnEdge(pointer);
      default:
        return false;
    }
  }

  private grabSelected(pointer: ToolPointer, zone: number): boolean {
    const id = this.state.selected;
    const points = this.selectedPoints();
    if (!id || !points) return false;
    const tolerance = GRAB_TOLERANCE_PX * pointer.imagePerScreen;
    const vertex = nearestVertex(points, pointer.x, pointer.y, tolerance);
    if (vertex !== null) {
      this.gesture = { kind: 'vertex', id, index: vertex, draft: points };
      return true;
    }
    const inside = pointInPolygon(pointer.x, pointer.y, points);
    // Inside the selected zone, unless a smaller zone on top of it was pressed.
    if (inside && (zone < 0 || this.zones[zone]?.id === id)) {
      const from = toPoint(pointer);
      this.gesture = { kind: 'translate', id, from, original: points, draft: points };
      return true;
    }
    return false;
  }

  private insertOnEdge(pointer: ToolPointer): boolean {
    const id = this.state.selected;
    const points = this.selectedPoints();
    if (!id || !points) return false;
    const edge = nearestEdge(
      points,
      pointer.x,
      pointer.y,
      GRAB_TOLERANCE_PX * pointer.imagePerScreen,
    );
    if (!edge) return false;
    const next = insertPoint(points, edge.index, edge.point);
    this.actions.reshape(id, next);
    return true;
  }

  move(pointer: ToolPointer): void {
    const gesture = this.gesture;
    if (!gesture || gesture.kind === 'point') return;
    const point = toPoint(pointer);
    if (gesture.kind === 'rectangle') {
      gesture.draft = rectangleFrom(gesture.from, point);
    } else if (gesture.kind === 'vertex') {
      gesture.draft = movePoint(gesture.draft, gesture.index, point, this.imageSize);
    } else {
      gesture.draft = translatePolygon(
        gesture.original,
        point[0] - gesture.from[0],
        point[1] - gesture.from[1],
        this.imageSize,
      );
    }
    this.changed();
  }

  up(pointer: ToolPointer): void {
    const gesture = this.gesture;
    this.gesture = null;
    const state = this.state;
    if (!gesture) return;
    if (gesture.kind === 'point') {
      if (state.tool === 'polygon' && state.on) this.addPolygonPoint(pointer);
      return;
    }
    if (gesture.kind === 'rectangle') {
      const [x, y] = gesture.from;
      // A click is no rectangle: only a drag draws one.
      const travel = Math.hypot(pointer.x - x, pointer.y - y) / pointer.imagePerScreen;
      if (travel >= CLICK_TRAVEL_PX)
        this.actions.create(rectangleFrom(gesture.from, toPoint(pointer)));
    } else {
      this.actions.reshape(gesture.id, gesture.draft);
    }
    this.changed();
  }

  private addPolygonPoint(pointer: ToolPointer): void {
    const point = toPoint(pointer);
    const drawing = this.state.drawing ?? [];
    const first = drawing[0];
    const closeTolerance = CLOSE_TOLERANCE_PX * pointer.imagePerScreen;
    if (
      first &&
      drawing.length >= 3 &&
      Math.hypot(point[0] - first[0], point[1] - first[1]) <= closeTolerance
    ) {
      this.finishPolygon(drawing);
      return;
    }
    annotationStore.set((state) => ({ ...state, drawing: [...drawing, point] }));
  }

  private finishPolygon(points: Point[]): void {
    annotationStore.set((state) => ({ ...state, drawing: null }));
    this.hoverPoint = null;
    this.actions.create(points);
  }

  click(pointer: ToolPointer, zone: number): boolean {
    const state = this.state;
    if (!state.on) return false;
    const id = zone >= 0 ? (this.zones[zone]?.id ?? null) : null;
    switch (state.tool) {
      case 'select':
      case 'median':
        this.actions.select(id);
        return true;
      case 'type-edit':
        if (id) this.actions.retype(id);
        return true;
      case 'deletion':
        if (id) this.actions.remove(id);
        return true;
      default:
        return true;
    }
  }

  hover(pointer: ToolPointer | null): void {
    if (this.state.tool !== 'polygon' || !this.state.drawing) {
      if (this.hoverPoint) {
        this.hoverPoint = null;
        this.changed();
      }
      return;
    }
    this.hoverPoint = pointer ? toPoint(pointer) : null;
    this.changed();
  }

  doubleClick(pointer: ToolPointer): boolean {
    const state = this.state;
    if (!state.on) return false;
    if (state.tool !== 'polygon') return state.tool !== 'select';
    const drawing = [...(state.drawing ?? [])];
    // The double click's second press added a point on top of the first one.
    const tolerance = CLOSE_TOLERANCE_PX * pointer.imagePerScreen;
    while (drawing.length >= 2) {
      const [ax, ay] = drawing.at(-1)!;
      const [bx, by] = drawing.at(-2)!;
      if (Math.hypot(ax - bx, ay - by) > tolerance) break;
      drawing.pop();
    }
    if (drawing.length >= 3) this.finishPolygon(drawing);
    return true;
  }

  /**
   * Esc: a drag stops where it started; otherwise the polygon being drawn goes. A press
   * interrupted (a second finger for a pinch) only forgets that press.
   */
  cancel(): boolean {
    if (this.gesture) {
      this.gesture = null;
      this.changed();
      return true;
    }
    if (this.state.drawing) {
      annotationStore.set((state) => ({ ...state, drawing: null }));
      this.hoverPoint = null;
      return true;
    }
    return false;
  }

  cursor(zone: number): string | null {
    const state = this.state;
    if (!state.on) return null;
    switch (state.tool) {
      case 'rectangle':
      case 'polygon':
        return 'crosshair';
      case 'type-edit':
      case 'deletion':
        return zone >= 0 ? 'pointer' : 'default';
      case 'median':
        return 'copy';
      default:
        return null;
    }
  }

  takesTouch(): boolean {
    return this.state.on && fingerDrawing.get();
  }

  hidesHover(): boolean {
    const state = this.state;
    return state.on && (state.tool === 'rectangle' || state.tool === 'polygon');
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** The shape under edit, as it will be saved: the one drawn above the zones. */
  draftShape(): Point[] | null {
    return this.gesture?.draft ?? null;
  }

  draw(ctx: CanvasRenderingContext2D, imageToScreen: Matrix, pixelRatio: number): void {
    this.lastImageToScreen = imageToScreen;
    const state = this.state;
    if (!state.on) return;
    ctx.save();
    ctx.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
    const screen = (points: readonly Point[]) =>
      points.map(([x, y]) => applyMatrix(imageToScreen, x, y));

    for (const [id, points] of this.pendingShapes) {
      if (id !== this.gestureId()) strokeShape(ctx, screen(points), true, DRAFT_COLOR, false);
    }
    const draft = this.draftShape();
    if (draft) strokeShape(ctx, screen(draft), true, DRAFT_COLOR, true);

    if ((state.tool === 'select' || state.tool === 'median') && !this.gesture) {
      const points = this.selectedPoints();
      if (points) drawHandles(ctx, screen(points));
    }
    if (this.gesture?.kind === 'vertex') drawHandles(ctx, screen(this.gesture.draft));

    if (state.tool === 'polygon' && state.drawing) {
      const path = this.hoverPoint ? [...state.drawing, this.hoverPoint] : state.drawing;
      strokeShape(ctx, screen(path), false, DRAFT_COLOR, false);
      drawHandles(ctx, screen(state.drawing));
    }
    ctx.restore();
  }

  private gestureId(): string | null {
    const gesture = this.gesture;
    return gesture && (gesture.kind === 'vertex' || gesture.kind === 'translate')
      ? gesture.id
      : null;
  }
}

function strokeShape(
  ctx: CanvasRenderingContext2D,
  points: [number, number][],
  closed: boolean,
  color: string,
  filled: boolean,
): void {
  if (points.length < 2) return;
  ctx.beginPath();
  ctx.moveTo(points[0]![0], points[0]![1]);
  for (const [x, y] of points.slice(1)) ctx.lineTo(x, y);
  if (closed) ctx.closePath();
  if (filled) {
    ctx.globalAlpha = 0.2;
    ctx.fillStyle = color;
    ctx.fill();
    ctx.globalAlpha = 1;
  }
  ctx.setLineDash(filled ? [] : [6, 4]);
  ctx.lineWidth = 2;
  ctx.strokeStyle = color;
  ctx.stroke();
  ctx.setLineDash([]);
}

function drawHandles(ctx: CanvasRenderingContext2D, points: [number, number][]): void {
  ctx.lineWidth = 1.5;
  for (const [x, y] of points) {
    ctx.beginPath();
    ctx.arc(x, y, HANDLE_RADIUS_PX, 0, Math.PI * 2);
    ctx.fillStyle = HANDLE_COLOR;
    ctx.fill();
    ctx.strokeStyle = DRAFT_COLOR;
    ctx.stroke();
  }
}
