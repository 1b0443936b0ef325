import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { API_BASE } from '@/api/client';
import { currentUserQuery, isVerified } from '@/api/user';
import type { ImageInfo, Polygon } from '@/api/types';
import { bbox, flatten, openRing } from '@/lib/geometry';
import type { PointerTool } from '@/lib/pointerTool';
import {
  INVALID_DIMENSIONS,
  hasValidDimensions,
  infoJsonUrl,
  sizeMismatch,
  sourceImageUrl,
  tileRequestMode,
} from './image';
import { OpenSeadragonViewer } from './OpenSeadragonViewer';
import { DEFAULT_STYLE, type OverlayScene } from './overlay/renderer';
import { buildZoneSet } from './overlay/zoneSet';
import { ViewerControls, type Orientation } from './ViewerControls';
import { ViewerNotices } from './ViewerNotices';
import { focusRect } from './zoom';
import { useViewer, type ViewerEvent } from './viewerContext';
import { ZoneOverlay } from './ZoneOverlay';

/** A child drawn over the image. */
export interface ViewerZone {
  id: string;
  name: string;
  /** Type slug; zones are coloured by type. */
  type: string;
  polygon: Polygon;
}

export interface ImageViewerProps {
  image: ImageInfo;
  /** The element's own polygon, outlined. */
  outline: Polygon | null;
  rotationAngle: number;
  mirrored: boolean;
  zones: readonly ViewerZone[];
  /** Type colours by slug, six hex digits as the API sends them. */
  typeColors: Readonly<Record<string, string>>;
  /** Type display names by slug. */
  typeNames: Readonly<Record<string, string>>;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  /** Public projects' images need no credentials across origins. */
  isPublic: boolean;
  /** A tool working on the image (the annotation tools), given the pointer first. */
  tool?: PointerTool | null;
  /** The view shows each zone as it is selected (line-by-line transcription). */
  followSelected?: boolean;
}

const linkClass =
  'font-medium text-brand-600 underline-offset-2 hover:underline focus-visible:underline';

/** The element's IIIF image with its children's zones, controls, banners and links. */
export function ImageViewer(props: ImageViewerProps) {
  // A new image is a new viewer, with fresh banners and orientation.
  return <ImageViewerForImage key={props.image.id} {...props} />;
}

function ImageViewerForImage({
  image,
  outline,
  rotationAngle,
  mirrored,
  zones,
  typeColors,
  typeNames,
  selectedId,
  onSelect,
  isPublic,
  tool,
  followSelected,
}: ImageViewerProps) {
  const { data: user = null } = useQuery(currentUserQuery);
  const valid = hasValidDimensions(image);

  return (
    <section aria-label="Image" className="flex flex-col gap-2">
      {image.status === 'error' && (
        <p
          role="alert"
          className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          The image server marked this image as failing; it may not display.
        </p>
      )}
      {valid ? (
        <ViewerWithOverlay
          image={image}
          outline={outline}
          rotationAngle={rotationAngle}
          mirrored={mirrored}
          zones={zones}
          typeColors={typeColors}
          typeNames={typeNames}
          selectedId={selectedId}
          onSelect={onSelect}
          isPublic={isPublic}
          tool={tool}
          followSelected={followSelected}
        />
      ) : (
        <div
          role="alert"
          className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900"
        >
          <p className="font-medium">{INVALID_DIMENSIONS}</p>
          <p className="mt-1 break-all">
            Image URL: <span className="font-mono">{image.url}</span>
          </p>
          <p>
            Size: {String(image.width)} × {String(image.height)}
          </p>
        </div>
      )}
      <p className="flex flex-wrap gap-4 text-sm">
        <a
          href={sourceImageUrl(image)}
          target="_blank"
          rel="noopener noreferrer"
          className={linkClass}
        >
          View source image
        </a>
        {isVerified(user) && (
          <Link to="/image/$imageId" params={{ imageId: image.id }} className={linkClass}>
            List elements on this image
          </Link>
        )}
      </p>
    </section>
  );
}

function ViewerWithOverlay({
  image,
  outline,
  rotationAngle,
  mirrored,
  zones,
  typeColors,
  typeNames,
  selectedId,
  onSelect,
  isPublic,
  tool = null,
  followSelected = false,
}: ImageViewerProps) {
  const [orientation, setOrientation] = useState<Orientation>({
    degrees: rotationAngle,
    mirrored,
  });
  const [openError, setOpenError] = useState<string | null>(null);
  const [tileError, setTileError] = useState(false);
  const [mismatch, setMismatch] = useState<string | null>(null);
  // Only a highlight that came with the address moves the view; the user's clicks do not.
  const [focusOnArrival, setFocusOnArrival] = useState(true);
  // Only that highlight: one picked later (by an annotation tool too) leaves the view alone.
  const [arrivalId] = useState(selectedId);

  const zoneSet = useMemo(
    () =>
      buildZoneSet(
        zones.map((zone) => ({ id: zone.id, polygon: zone.polygon, styleKey: zone.type })),
      ),
    [zones],
  );
  const scene = useMemo<OverlayScene>(
    () => ({
      zones: zoneSet,
      styles: zoneSet.styleKeys.map((slug) =>
        typeColors[slug] ? { color: `#${typeColors[slug]}` } : DEFAULT_STYLE,
      ),
      outline: outline ? Float64Array.from(flatten(openRing(outline))) : null,
    }),
    [zoneSet, typeColors, outline],
  );
  const typeName = (slug: string) => typeNames[slug] ?? slug;
  const labels = useMemo(
    () => zones.map((zone) => `${zone.name} (${typeNames[zone.type] ?? zone.type})`),
    [zones, typeNames],
  );
  const imageSize = useMemo(
    () => ({ width: image.width, height: image.height }),
    [image.width, image.height],
  );
  const selectedIndex = selectedId ? zoneSet.indexOf(selectedId) : -1;
  const selectedZone = selectedIndex >= 0 ? zones[selectedIndex] : undefined;

  const options = useMemo(
    () => ({
      tileSource: infoJsonUrl(image),
      ...tileRequestMode(image.url, isPublic, window.location.href, API_BASE),
      degrees: orientation.degrees,
      mirrored: orientation.mirrored,
    }),
    // Orientation changes go through the viewer handle; they must not recreate the viewer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [image.url, isPublic],
  );

  const onEvent = useCallback(
    (event: ViewerEvent) => {
      if (event.type === 'open') {
        setOpenError(null);
        setMismatch(sizeMismatch(image, event.source));
      } else if (event.type === 'open-failed') {
        setOpenError(event.message);
      } else if (event.type === 'tile-failed') {
        setTileError(true);
      }
    },
    [image],
  );

  return (
    <>
      <div className="relative">
        <OpenSeadragonViewer
          options={options}
          onEvent={onEvent}
          className="h-[70vh] min-h-80 rounded border border-slate-200 bg-slate-800 max-lg:h-[50dvh]"
        >
          {followSelected && (
            <FollowSelection focus={selectedZone?.polygon ?? null} imageSize={imageSize} />
          )}
          <FocusOnArrival
            focus={
              focusOnArrival && selectedId === arrivalId ? (selectedZone?.polygon ?? null) : null
            }
            imageSize={imageSize}
          />
          <ZoneOverlay
            scene={scene}
            labels={labels}
            imageSize={imageSize}
            selected={selectedIndex}
            tool={tool}
            onSelect={(index) => {
              setFocusOnArrival(false);
              onSelect(index >= 0 ? zoneSet.ids[index]! : null);
            }}
          />
          <div className="pointer-events-none absolute top-2 left-2 z-10">
            <ViewerControls orientation={orientation} onOrientationChange={setOrientation} />
          </div>
        </OpenSeadragonViewer>
        <ViewerNotices openError={openError} tileError={tileError} mismatch={mismatch} />
      </div>
      {selectedZone && (
        <p className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
          <span>
            Selected: <span className="font-medium">{selectedZone.name}</span> (
            {typeName(selectedZone.type)})
          </span>
          <Link to="/element/$id" params={{ id: selectedZone.id }} className={linkClass}>
            Open element
          </Link>
          <button type="button" className={linkClass} onClick={() => onSelect(null)}>
            Clear selection
          </button>
        </p>
      )}
    </>
  );
}

/**
 * Shows the zone the address highlights once the image is open (once: later clicks must not
 * move the view), with room around it to see where it sits on the page.
 */
function FocusOnArrival({
  focus,
  imageSize,
}: {
  focus: Polygon | null;
  imageSize: { width: number; height: number };
}) {
  const viewer = useViewer();
  const focused = useRef(false);

  useEffect(() => {
    if (!viewer || !focus || focus.length === 0 || focused.current) return;
    const show = () => {
      const source = viewer.sourceSize();
      if (!source || focused.current) return;
      focused.current = true;
      const { x, y, width, height } = focusRect(bbox(focus), imageSize);
      const sx = source.width / imageSize.width;
      const sy = source.height / imageSize.height;
      viewer.fitBounds({ x: x * sx, y: y * sy, width: width * sx, height: height * sy });
    };
    if (viewer.sourceSize()) {
      show();
      return;
    }
    return viewer.subscribe((event) => {
      if (event.type === 'open') show();
    });
  }, [viewer, focus, imageSize]);
  return null;
}

/** Shows each zone as it becomes the selected one, with room around it. */
function FollowSelection({
  focus,
  imageSize,
}: {
  focus: Polygon | null;
  imageSize: { width: number; height: number };
}) {
  const viewer = useViewer();
  useEffect(() => {
    const source = viewer?.sourceSize();
    if (!viewer || !source || !focus || focus.length === 0) return;
    const { x, y, width, height } = focusRect(bbox(focus), imageSize);
    const sx = source.width / imageSize.width;
    const sy = source.height / imageSize.height;
    viewer.fitBounds({ x: x * sx, y: y * sy, width: width * sx, height: height * sy });
  }, [viewer, focus, imageSize]);
  return null;
}
