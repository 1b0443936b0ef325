import { useEffect, useId, useState } from 'react';
import { rotateBy } from './orientation';
import { useViewer, type ViewerHandle } from './viewerContext';
import {
  ZOOM_LEVELS,
  fitZoom,
  nearestLevelIndex,
  percentOfFit,
  steppedLevel,
  zoomForLevel,
} from './zoom';

export interface Orientation {
  degrees: number;
  mirrored: boolean;
}

export interface ViewerControlsProps {
  orientation: Orientation;
  onOrientationChange: (orientation: Orientation) => void;
}

function fitOf(viewer: ViewerHandle, degrees: number): number | null {
  const source = viewer.sourceSize();
  return source ? fitZoom(viewer.containerSize(), source, degrees) : null;
}

const button =
  'inline-flex h-8 min-w-8 items-center justify-center rounded border border-slate-300 bg-white/95 px-2 text-sm text-slate-700 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:opacity-50 aria-pressed:border-brand-600 aria-pressed:bg-brand-50 aria-pressed:text-brand-800';

/**
 * Zoom slider over the fixed levels (percentages of the fit zoom), rotation by quarter turns and
 * mirroring. Wheel and pinch zooms land between levels; the slider shows the nearest one.
 */
export function ViewerControls({ orientation, onOrientationChange }: ViewerControlsProps) {
  const viewer = useViewer();
  const sliderId = useId();
  const [percent, setPercent] = useState(100);
  const { degrees, mirrored } = orientation;

  useEffect(() => {
    if (!viewer) return;
    const update = () => {
      const fit = fitOf(viewer, degrees);
      if (fit !== null) setPercent(percentOfFit(viewer.getZoom(), fit));
    };
    update();
    return viewer.subscribe((event) => {
      if (event.type === 'viewport' || event.type === 'open') update();
    });
  }, [viewer, degrees]);

  const zoomToLevel = (level: number) => {
    if (!viewer) return;
    const fit = fitOf(viewer, degrees);
    if (fit === null) return;
    viewer.zoomTo(Math.min(zoomForLevel(level, fit), viewer.getMaxZoom()));
    setPercent(level);
  };
  const orient = (next: Orientation) => {
    onOrientationChange(next);
    if (!viewer) return;
    viewer.setOrientation(next.degrees, next.mirrored);
    // The turned image has another fit; start again from the whole of it.
    viewer.goHome();
  };
  const index = nearestLevelIndex(percent);
  const level = ZOOM_LEVELS[index]!;

  return (
    <div className="pointer-events-auto flex flex-wrap items-center gap-2 rounded-md bg-white/90 p-1.5 shadow">
      <button
        type="button"
        className={button}
        aria-label="Zoom out"
        disabled={!viewer || percent <= ZOOM_LEVELS[0] + 0.5}
        onClick={() => zoomToLevel(steppedLevel(percent, -1))}
      >
        −
      </button>
      <label htmlFor={sliderId} className="sr-only">
        Zoom
      </label>
      <input
        id={sliderId}
        type="range"
        min={0}
        max={ZOOM_LEVELS.length - 1}
        step={1}
        value={index}
        aria-valuetext={`${level} %`}
        disabled={!viewer}
        onChange={(event) => zoomToLevel(ZOOM_LEVELS[Number(event.target.value)]!)}
        className="w-32 accent-brand-600"
      />
      <button
        type="button"
        className={button}
        aria-label="Zoom in"
        disabled={!viewer || percent >= ZOOM_LEVELS[ZOOM_LEVELS.length - 1]! - 0.5}
        onClick={() => zoomToLevel(steppedLevel(percent, 1))}
      >
        +
      </button>
      <output htmlFor={sliderId} className="w-12 text-right text-sm tabular-nums text-slate-700">
        {level} %
      </output>
      <span className="mx-1 h-5 w-px bg-slate-300" aria-hidden="true" />
      <button
        type="button"
        className={button}
        aria-label="Rotate counterclockwise"
        title="Rotate counterclockwise"
        onClick={() => orient({ degrees: rotateBy(degrees, -90), mirrored })}
      >
        ⟲
      </button>
      <button
        type="button"
        className={button}
        aria-label="Rotate clockwise"
        title="Rotate clockwise"
        onClick={() => orient({ degrees: rotateBy(degrees, 90), mirrored })}
      >
        ⟳
      </button>
      <button
        type="button"
        className={button}
        aria-pressed={mirrored}
        title="Mirror"
        onClick={() => orient({ degrees, mirrored: !mirrored })}
      >
        Mirror
      </button>
      <span className="text-sm tabular-nums text-slate-700">
        <span className="sr-only">Rotation: </span>
        {degrees}°
      </span>
    </div>
  );
}
