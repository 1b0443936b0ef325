/**
 * What the viewer's children (overlay, controls, later the annotation tools) may ask of the one
 * image viewer: coordinates, zoom and orientation, and its events. The owner component puts a
 * handle in context; OpenSeadragon stays behind it, so the children run against a fake in tests.
 */
import { createContext, useContext } from 'react';
import type { Matrix } from '@/lib/geometry';
import type { Size } from './zoom';

export type ViewerEvent =
  /** The image is open and its size known. */
  | { type: 'open'; source: Size }
  | { type: 'open-failed'; message: string }
  | { type: 'tile-failed'; message: string }
  /** Pan, zoom, rotation, flip, resize or animation frame: the overlay must follow. */
  | { type: 'viewport' };

export interface TouchGestures {
  dragToPan: boolean;
  /** The view glides on after a quick one-finger drag. */
  flickEnabled: boolean;
  dblClickToZoom: boolean;
}

export interface ViewerHandle {
  /** The element the viewer draws in; pointer events on it reach the overlay's listeners. */
  readonly element: HTMLElement;
  /** Image pixels to CSS pixels of `element`, at the current (animated) state. */
  imageToScreen(): Matrix;
  containerSize(): Size;
  /** The image size the image server reports, once open; null before. */
  sourceSize(): Size | null;
  getZoom(): number;
  getMaxZoom(): number;
  zoomTo(zoom: number, immediately?: boolean): void;
  /** Display orientation as the API defines it (mirror first, then rotate clockwise). */
  setOrientation(degrees: number, mirrored: boolean): void;
  /** Shows the image rectangle, keeping the current orientation. */
  fitBounds(rect: { x: number; y: number; width: number; height: number }): void;
  /** Back to the whole image. */
  goHome(): void;
  /** What one finger does to the view; a pinch zooms whatever these say. */
  setTouchGestures(settings: TouchGestures): void;
  subscribe(listener: (event: ViewerEvent) => void): () => void;
  destroy(): void;
}

export interface ViewerOptions {
  /** IIIF info.json URL. */
  tileSource: string;
  crossOriginPolicy: 'Anonymous' | 'use-credentials';
  ajaxWithCredentials: boolean;
  degrees: number;
  mirrored: boolean;
}

/** Creates the viewer inside `container`; resolves once it is constructed (not yet opened). */
export type ViewerFactory = (
  container: HTMLElement,
  options: ViewerOptions,
) => Promise<ViewerHandle>;

export const ViewerContext = createContext<ViewerHandle | null>(null);

/** The viewer the surrounding owner created; null until it exists. */
export function useViewer(): ViewerHandle | null {
  return useContext(ViewerContext);
}

/**
 * Which viewer implementation the owner uses. The app leaves it alone (OpenSeadragon, loaded
 * on demand); tests provide a fake, since jsdom cannot run OpenSeadragon.
 */
export const ViewerFactoryContext = createContext<ViewerFactory | null>(null);
