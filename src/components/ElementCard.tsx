import { useId, useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { iiifUrl } from '@/api/elements';
import type { ElementListItem, Polygon } from '@/api/types';

/** The thumbnail height of element cards (spec 001 §2, "Element lists and cards"). */
export const THUMBNAIL_HEIGHT = 200;

function boundingBox(polygon: Polygon) {
  const xs = polygon.map(([x]) => x);
  const ys = polygon.map(([, y]) => y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/**
 * The thumbnail address of an element: its own thumbnail (folders), else a IIIF rendering of
 * its zone at the given height, else null.
 */
export function thumbnailUrl(
  element: Pick<ElementListItem, 'thumbnail_url' | 'zone'>,
  height: number = THUMBNAIL_HEIGHT,
): string | null {
  if (element.thumbnail_url) return element.thumbnail_url;
  const zone = element.zone;
  if (!zone?.image?.url) return null;
  const image = zone.image;
  const box = zone.polygon?.length ? boundingBox(zone.polygon) : null;
  const whole =
    !box || (box.x <= 0 && box.y <= 0 && box.width >= image.width && box.height >= image.height);
  const regionHeight = whole ? image.height : box.height;
  // Small zones (a line, a word) are shown at their own size rather than blown up.
  const size = regionHeight > 0 ? Math.min(height, regionHeight) : height;
  return iiifUrl(image.url, whole ? 'full' : box, `,${size}`);
}

export interface ElementCardSelection {
  selected: boolean;
  onToggle: () => void;
  /** Why the toggle cannot be used (e.g. not logged in); disables it and explains on hover. */
  disabledReason?: string | null;
}

export interface ElementCardProps {
  element: ElementListItem;
  /** The type as people read it (the type's display name); the slug when absent. */
  typeName?: string;
  thumbnailHeight?: number;
  selection?: ElementCardSelection;
  /** Extra content under the name: badges, actions. */
  children?: ReactNode;
}

/** An element as a card: thumbnail, name linking to its page, type, selection toggle. */
export function ElementCard({
  element,
  typeName,
  thumbnailHeight = THUMBNAIL_HEIGHT,
  selection,
  children,
}: ElementCardProps) {
  const titleId = useId();
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <Thumbnail element={element} height={thumbnailHeight} />
      <div className="flex flex-1 items-start gap-2 p-3">
        <div className="min-w-0 flex-1">
          <h3 id={titleId} className="text-sm font-semibold break-words">
            <Link
              to="/element/$id"
              params={{ id: element.id }}
              className="text-brand-700 hover:underline focus-visible:underline"
            >
              {element.name}
            </Link>
          </h3>
          <p className="mt-0.5 text-xs text-slate-500">{typeName ?? element.type}</p>
          {children}
        </div>
        {selection && <SelectionToggle name={element.name} selection={selection} />}
      </div>
    </article>
  );
}

function Thumbnail({ element, height }: { element: ElementListItem; height: number }) {
  const url = thumbnailUrl(element, height);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const frame = 'flex items-center justify-center bg-slate-100';

  if (!url) {
    return (
      <div className={frame} style={{ height }} role="img" aria-label="No image">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-10 text-slate-300"
          fill="none"
          stroke="currentColor"
          strokeWidth={1.5}
        >
          <rect x="3" y="4" width="18" height="16" rx="2" />
          <circle cx="9" cy="10" r="2" />
          <path d="m21 16-5-5-9 9" />
        </svg>
      </div>
    );
  }
  // Remembering which address failed lets a new address (another element in this slot) try again.
  if (failedUrl === url) {
    return (
      <div className={`${frame} px-3 text-center`} style={{ height }}>
        <p className="text-sm text-red-700">Media loading failed</p>
      </div>
    );
  }
  return (
    <div className={frame} style={{ height }}>
      <img
        src={url}
        alt={`Thumbnail of ${element.name}`}
        loading="lazy"
        decoding="async"
        className="max-h-full max-w-full object-contain"
        onError={() => setFailedUrl(url)}
      />
    </div>
  );
}

function SelectionToggle({ name, selection }: { name: string; selection: ElementCardSelection }) {
  const reason = selection.disabledReason ?? null;
  return (
    <label className="shrink-0" title={reason ?? undefined}>
      <span className="sr-only">Select {name}</span>
      <input
        type="checkbox"
        checked={selection.selected}
        disabled={reason !== null}
        onChange={selection.onToggle}
        className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500 disabled:cursor-not-allowed disabled:opacity-50"
      />
    </label>
  );
}
