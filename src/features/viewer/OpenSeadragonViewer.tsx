import { useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '@/api/errors';
import { createOpenSeadragonViewer } from './osdViewer';
import {
  ViewerContext,
  ViewerFactoryContext,
  type ViewerEvent,
  type ViewerHandle,
  type ViewerOptions,
} from './viewerContext';

export interface OpenSeadragonViewerProps {
  options: ViewerOptions;
  /** Every viewer event, from creation on (children subscribe later, once they mount). */
  onEvent?: (event: ViewerEvent) => void;
  /** Overlays and tools: rendered once the viewer exists, with it in context. */
  children?: ReactNode;
  className?: string;
}

/**
 * The one owner of the image viewer (STYLE.md 7): creates it once per image, shares it through
 * context and destroys it on unmount. Orientation and zoom changes go through the handle, so
 * they never rebuild the viewer.
 */
export function OpenSeadragonViewer({
  options,
  onEvent,
  children,
  className,
}: OpenSeadragonViewerProps) {
  const factory = useContext(ViewerFactoryContext) ?? createOpenSeadragonViewer;
  const containerRef = useRef<HTMLDivElement>(null);
  const [handle, setHandle] = useState<ViewerHandle | null>(null);
  const onEventRef = useRef(onEvent);
  const optionsRef = useRef(options);
  useEffect(() => {
    onEventRef.current = onEvent;
    optionsRef.current = options;
  });

  const { tileSource, crossOriginPolicy, ajaxWithCredentials } = options;
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let disposed = false;
    let created: ViewerHandle | null = null;
    let unsubscribe = () => {};
    factory(container, {
      ...optionsRef.current,
      tileSource,
      crossOriginPolicy,
      ajaxWithCredentials,
    }).then(
      (viewer) => {
        if (disposed) {
          viewer.destroy();
          return;
        }
        created = viewer;
        unsubscribe = viewer.subscribe((event) => onEventRef.current?.(event));
        setHandle(viewer);
      },
      (error: unknown) => {
        if (!disposed) onEventRef.current?.({ type: 'open-failed', message: errorMessage(error) });
      },
    );
    return () => {
      disposed = true;
      unsubscribe();
      created?.destroy();
      setHandle(null);
    };
  }, [factory, tileSource, crossOriginPolicy, ajaxWithCredentials]);

  return (
    <ViewerContext.Provider value={handle}>
      <div className={`relative overflow-hidden ${className ?? ''}`}>
        <div ref={containerRef} className="absolute inset-0" data-testid="image-viewer" />
        {handle && children}
      </div>
    </ViewerContext.Provider>
  );
}
