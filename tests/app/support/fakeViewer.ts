/**
 * A viewer handle without OpenSeadragon (jsdom cannot run it): a plain transform the test
 * moves, events the test fires, and a record of what the components asked of it.
 */
import { multiply, scaling, translation, type Matrix } from '@/lib/geometry';
import type {
  TouchGestures,
  ViewerEvent,
  ViewerFactory,
  ViewerHandle,
  ViewerOptions,
} from '@/features/viewer/viewerContext';

export interface FakeViewer extends ViewerHandle {
  options: ViewerOptions | null;
  zoom: number;
  orientation: { degrees: number; mirrored: boolean };
  fitted: { x: number; y: number; width: number; height: number }[];
  homeCount: number;
  destroyed: boolean;
  touchGestures: TouchGestures;
  /** Image pixels to screen: scale then translate, as a pan and zoom would leave it. */
  setView(scale: number, dx?: number, dy?: number): void;
  /** Any image-to-screen transform, e.g. a rotated and mirrored view. */
  setMatrix(matrix: Matrix): void;
  open(source?: { width: number; height: number }): void;
  emit(event: ViewerEvent): void;
}

export function createFakeViewer(
  size = { width: 800, height: 600 },
  image = { width: 1000, height: 1500 },
): FakeViewer {
  const element = document.createElement('div');
  const listeners = new Set<(event: ViewerEvent) => void>();
  let matrix: Matrix = scaling(0.4);
  let source: { width: number; height: number } | null = null;
  const viewer: FakeViewer = {
    element,
    options: null,
    zoom: 1,
    orientation: { degrees: 0, mirrored: false },
    fitted: [],
    homeCount: 0,
    destroyed: false,
    touchGestures: { dragToPan: true, flickEnabled: true, dblClickToZoom: true },
    imageToScreen: () => matrix,
    containerSize: () => size,
    sourceSize: () => source,
    getZoom: () => viewer.zoom,
    getMaxZoom: () => 100,
    zoomTo(zoom) {
      viewer.zoom = zoom;
      viewer.emit({ type: 'viewport' });
    },
    setOrientation(degrees, mirrored) {
      viewer.orientation = { degrees, mirrored };
    },
    fitBounds(box) {
      viewer.fitted.push(box);
    },
    goHome() {
      viewer.homeCount += 1;
    },
    setTouchGestures(settings) {
      viewer.touchGestures = settings;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    destroy() {
      viewer.destroyed = true;
      listeners.clear();
    },
    setView(scale, dx = 0, dy = 0) {
      matrix = multiply(translation(dx, dy), scaling(scale));
      viewer.emit({ type: 'viewport' });
    },
    setMatrix(next) {
      matrix = next;
      viewer.emit({ type: 'viewport' });
    },
    open(reported = image) {
      source = reported;
      viewer.emit({ type: 'open', source: reported });
    },
    emit(event) {
      for (const listener of [...listeners]) listener(event);
    },
  };
  return viewer;
}

/** A factory handing out one fake per viewer the page creates, newest last. */
export function fakeViewerFactory(make: () => FakeViewer = () => createFakeViewer()) {
  const created: FakeViewer[] = [];
  const factory: ViewerFactory = async (container, options) => {
    const viewer = make();
    viewer.options = options;
    container.append(viewer.element);
    created.push(viewer);
    return viewer;
  };
  return {
    factory,
    created,
    get last(): FakeViewer {
      const viewer = created[created.length - 1];
      if (!viewer) throw new Error('No viewer was created');
      return viewer;
    },
  };
}
