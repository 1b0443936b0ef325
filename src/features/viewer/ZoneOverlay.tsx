import { useEffect, useRef, useState } from 'react';
import type { PointerTool } from '@/lib/pointerTool';
import { OverlayController } from './overlay/controller';
import type { OverlayScene } from './overlay/renderer';
import { useViewer } from './viewerContext';
import type { Size } from './zoom';

export interface ZoneOverlayProps {
  scene: OverlayScene;
  /** Zone labels by index, shown beside the pointer on hover. */
  labels: readonly string[];
  /** The size zones are expressed in (the API's image size). */
  imageSize: Size;
  selected: number;
  /** A click on a zone (its index) or on no zone (-1). */
  onSelect: (index: number) => void;
  /** A tool working on the image (annotation): it gets the pointer before hover and select. */
  tool?: PointerTool | null;
}

/**
 * Zones drawn on one canvas above the viewer (not one DOM node per polygon). The canvas lets
 * pointer events through, so OpenSeadragon keeps panning and zooming.
 */
export function ZoneOverlay({
  scene,
  labels,
  imageSize,
  selected,
  onSelect,
  tool = null,
}: ZoneOverlayProps) {
  const viewer = useViewer();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const controllerRef = useRef<OverlayController | null>(null);
  const [hover, setHover] = useState<{ index: number; x: number; y: number } | null>(null);
  const latest = useRef({ scene, imageSize, selected, onSelect });
  useEffect(() => {
    latest.current = { scene, imageSize, selected, onSelect };
  });

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!viewer || !canvas) return;
    const { scene: initialScene, imageSize: initialSize } = latest.current;
    const controller = new OverlayController(viewer, canvas, initialScene, initialSize, {
      onHover: (index, x, y) => setHover(index >= 0 ? { index, x, y } : null),
      onSelect: (index) => latest.current.onSelect(index),
    });
    controller.setSelected(latest.current.selected);
    controllerRef.current = controller;
    return () => {
      controller.destroy();
      controllerRef.current = null;
    };
  }, [viewer]);

  useEffect(() => {
    controllerRef.current?.setScene(scene, imageSize);
  }, [scene, imageSize]);
  useEffect(() => {
    controllerRef.current?.setSelected(selected);
  }, [selected]);
  useEffect(() => {
    controllerRef.current?.setTool(tool);
  }, [tool, viewer]);

  const label = hover ? labels[hover.index] : undefined;
  return (
    <>
      <canvas
        ref={canvasRef}
        aria-hidden="true"
        data-testid="zone-overlay"
        className="pointer-events-none absolute inset-0 h-full w-full"
      />
      {hover && label && (
        <div
          role="tooltip"
          className="pointer-events-none absolute z-10 max-w-xs truncate rounded bg-slate-900/85 px-2 py-0.5 text-xs text-white"
          style={{ left: hover.x + 12, top: hover.y + 12 }}
        >
          {label}
        </div>
      )}
    </>
  );
}
