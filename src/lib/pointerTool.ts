/**
 * What the image viewer's overlay asks of a tool that works on the image (the annotation tools):
 * pointer input already turned into image coordinates, and a chance to draw over the zones. The
 * viewer owns the events and the canvas; the tool owns what they mean. Shared here because the
 * viewer and the annotation tools are separate features.
 */
import type { Matrix } from './geometry';

export interface ToolPointer {
  /** Image coordinates (the API's image pixels), whatever the view's rotation or mirroring. */
  x: number;
  y: number;
  /** CSS pixels inside the viewer element. */
  screenX: number;
  screenY: number;
  /** Image pixels per screen pixel: tolerances are given on screen and checked in the image. */
  imagePerScreen: number;
  pointerType: string;
  shiftKey: boolean;
}

export interface PointerTool {
  /**
   * A press on the image. True: the tool takes the gesture (the viewer does not pan); the moves
   * and the release that follow go to the tool. `zone` is the zone under the pointer, or -1.
   */
  down(pointer: ToolPointer, zone: number): boolean;
  move(pointer: ToolPointer): void;
  up(pointer: ToolPointer): void;
  /** A press and release without travel that the tool did not take, on a zone or none (-1). */
  click(pointer: ToolPointer, zone: number): boolean;
  /** The pointer moved with no button down (previews: the next polygon edge). */
  hover(pointer: ToolPointer | null): void;
  /** A double click: true when the tool used it (the viewer must not zoom). */
  doubleClick(pointer: ToolPointer): boolean;
  /** The gesture was interrupted (pointer capture lost, tool changed). */
  cancel(): void;
  /** Draws the tool's own shapes above the zones; points go through `imageToScreen`. */
  draw(ctx: CanvasRenderingContext2D, imageToScreen: Matrix, pixelRatio: number): void;
  /** Calls back whenever what `draw` paints changed. */
  subscribe(listener: () => void): () => void;
  /** The CSS cursor over the image, or null for the viewer's own. */
  cursor(zone: number): string | null;
  /** True while zones should not light up under the pointer (drawing a new shape). */
  hidesHover(): boolean;
  /**
   * True when one finger works the tool as a pen does; otherwise touch only pans and zooms.
   * Either way two fingers pan and zoom: a second finger ends the tool's gesture.
   */
  takesTouch(): boolean;
}
