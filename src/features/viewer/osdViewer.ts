/**
 * The OpenSeadragon side of the viewer handle. OpenSeadragon is imported on demand so its
 * ~350 kB stay out of the entry chunk and load with the first image.
 */
import type OpenSeadragon from 'openseadragon';
import { matrixFromPoints, mirrorX, multiply, type Matrix } from '@/lib/geometry';
import { osdOrientation } from './orientation';
import type { ViewerEvent, ViewerFactory, ViewerHandle } from './viewerContext';

type OSDNamespace = typeof OpenSeadragon;

let loading: Promise<OSDNamespace> | null = null;

export function loadOpenSeadragon(): Promise<OSDNamespace> {
  loading ??= import('openseadragon').then(
    (module) =>
      (module as unknown as { default?: OSDNamespace }).default ??
      (module as unknown as OSDNamespace),
  );
  return loading;
}

/**
 * Tiles are screen-sharp at about 2 device pixels per image pixel; 4 leaves room for the 500 %
 * level on small images without upscaling blur becoming the norm.
 */
const MAX_ZOOM_PIXEL_RATIO = 4;

export const createOpenSeadragonViewer: ViewerFactory = async (container, options) => {
  const OSD = await loadOpenSeadragon();
  const initial = osdOrientation(options.degrees, options.mirrored);
  const viewer = OSD({
    element: container,
    tileSources: options.tileSource,
    crossOriginPolicy: options.crossOriginPolicy,
    ajaxWithCredentials: options.ajaxWithCredentials,
    loadTilesWithAjax: false,
    showNavigationControl: false,
    showNavigator: false,
    maxZoomPixelRatio: MAX_ZOOM_PIXEL_RATIO,
    minZoomImageRatio: 0.5,
    visibilityRatio: 0.2,
    animationTime: 0.4,
    degrees: initial.rotation,
    flipped: initial.flip,
    preserveImageSizeOnResize: true,
    // A click selects a zone; zooming stays on the wheel, double click, pinch and the slider.
    gestureSettingsMouse: { clickToZoom: false, dblClickToZoom: true, scrollToZoom: true },
    gestureSettingsTouch: {
      pinchToZoom: true,
      clickToZoom: false,
      dblClickToZoom: true,
      flickEnabled: true,
    },
    gestureSettingsPen: { clickToZoom: false, dblClickToZoom: true },
  });
  return wrapViewer(OSD, viewer, container);
};

function wrapViewer(
  OSD: OSDNamespace,
  viewer: OpenSeadragon.Viewer,
  element: HTMLElement,
): ViewerHandle {
  const listeners = new Set<(event: ViewerEvent) => void>();
  const emit = (event: ViewerEvent) => {
    for (const listener of listeners) listener(event);
  };
  let imageSize = { width: 1, height: 1 };
  let opened = false;

  const onViewport = () => emit({ type: 'viewport' });
  const viewportEvents = ['animation', 'update-viewport', 'resize', 'rotate', 'flip'] as const;
  for (const name of viewportEvents) viewer.addHandler(name, onViewport);
  viewer.addHandler('open', () => {
    const item = viewer.world.getItemAt(0);
    const dimensions = item?.source.dimensions;
    if (dimensions) imageSize = { width: dimensions.x, height: dimensions.y };
    opened = true;
    emit({ type: 'open', source: imageSize });
    emit({ type: 'viewport' });
  });
  // OpenSeadragon writes its own 'Unable to open [object Object]: HTTP 0…' in dark grey over
  // the dark viewer; the page says what failed instead, legibly (ImageViewer).
  viewer.removeAllHandlers('open-failed');
  viewer.addHandler('open-failed', (event) => {
    emit({ type: 'open-failed', message: event.message });
  });
  viewer.addHandler('tile-load-failed', (event) => {
    emit({ type: 'tile-failed', message: event.message });
  });

  const viewport = () => viewer.viewport;

  return {
    element,
    imageToScreen(): Matrix {
      const vp = viewport();
      const { width, height } = imageSize;
      const at = (x: number, y: number): [number, number] => {
        const p = vp.imageToViewerElementCoordinates(new OSD.Point(x, y));
        return [p.x, p.y];
      };
      const m = matrixFromPoints(at(0, 0), at(width, 0), at(0, height), width, height);
      // OpenSeadragon's conversions ignore the flip, which it applies last by mirroring the
      // whole canvas about its vertical centre line.
      return vp.getFlip() ? multiply(mirrorX(vp.getContainerSize().x / 2), m) : m;
    },
    containerSize() {
      const size = viewport().getContainerSize();
      return { width: size.x, height: size.y };
    },
    sourceSize: () => (opened ? imageSize : null),
    getZoom: () => viewport().getZoom(true),
    getMaxZoom: () => viewport().getMaxZoom(),
    zoomTo(zoom, immediately = false) {
      viewport().zoomTo(zoom, undefined, immediately);
    },
    setOrientation(degrees, mirrored) {
      const { rotation, flip } = osdOrientation(degrees, mirrored);
      viewport().setFlip(flip);
      viewport().setRotation(rotation, true);
    },
    fitBounds({ x, y, width, height }) {
      viewport().fitBounds(viewport().imageToViewportRectangle(x, y, width, height));
    },
    goHome() {
      viewport().goHome();
    },
    setTouchGestures(settings) {
      // OpenSeadragon reads them as each gesture goes, so a change applies from the next event.
      // Its types leave the viewer's copy of its options out.
      const touch = (viewer as unknown as { gestureSettingsTouch: OpenSeadragon.GestureSettings })
        .gestureSettingsTouch;
      Object.assign(touch, settings);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    destroy() {
      listeners.clear();
      viewer.destroy();
    },
  };
}
