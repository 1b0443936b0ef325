/**
 * What the PAGE XML and ALTO writers need of one page, whoever read it: the server from its
 * database (server/services/exports/pageLayout.ts), the export worker from an SQLite export, the
 * browser from what a pack holds. Plain data, so the writers run anywhere.
 */
import type { Point } from '../polygon';
import { slugifyType } from './typeSlug';

/** The element type the importer gives lines; every other type under a page is a region. */
export const LINE_TYPE_SLUG = 'text_line';
/** The type of the region a run of lines placed directly on the page is wrapped in. */
export const WRAPPER_TYPE_SLUG = 'text_region';

export interface LayoutLine {
  /** The element's id. */
  id: string;
  polygon: Point[];
  /** Always null today: the importer reads baselines but Folia stores none (no column for it). */
  baseline: Point[] | null;
  /** The chosen transcription (see chooseTranscription), null when the line has none. */
  text: string | null;
}

export interface LayoutRegion {
  /** The element's id; for a wrapper, the id of its first line. */
  id: string;
  /** The element type's slug. */
  type: string;
  /**
   * The label written for the type, which the importer turns back into the same slug: the
   * type's display name when it does (MainZone, Page number), else the slug itself.
   */
  typeLabel: string;
  polygon: Point[];
  /** Lines directly on the page have no region: they are wrapped in one of type text_region. */
  wrapper: boolean;
  lines: LayoutLine[];
  /** The region's own chosen transcription, when it has one. */
  text: string | null;
}

export interface PageLayout {
  pageId: string;
  pageName: string;
  imageFilename: string;
  width: number;
  height: number;
  /** When the page was created, and the latest change to what is exported (ISO-8601 UTC). */
  created: string;
  lastChange: string;
  /** Depth first: a region's nested regions follow it, each list in element_links order. */
  regions: LayoutRegion[];
  /** Children left out: no polygon, or on another image than the page's. */
  skipped: number;
}

/** A transcription as the choice below weighs it. */
export interface TranscriptionChoice {
  worker_run_id: string | null;
  confidence: number | null;
  updated: string;
  id: string;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/tiff': '.tif',
  'image/webp': '.webp',
};

/**
 * A remote image by its IIIF full-size URL; a stored one by the page's name and the original
 * file's extension (the name the importer gave the page is the XML file's, and the image beside
 * it usually shares it), with characters no file name may hold replaced by '_'.
 */
export function imageFilenameOf(
  pageName: string,
  image: { url: string | null; mime: string | null },
): string {
  if (image.url) return `${image.url}/full/full/0/default.jpg`;
  const base =
    [...pageName]
      .map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? '_' : char))
      .join('')
      .trim() || 'image';
  return base + (EXTENSIONS[image.mime ?? ''] ?? '.jpg');
}

/**
 * Which transcription of an element is exported: the manual one (no worker run) when there is
 * one, else the one with the highest confidence (none counts lowest); ties go to the latest
 * updated, then the smallest id, so the choice never depends on the database's row order.
 */
export function chooseTranscription<T extends TranscriptionChoice>(
  rows: readonly T[],
): T | undefined {
  const rank = (row: T) => [row.worker_run_id === null ? 1 : 0, row.confidence ?? -1] as const;
  let best: T | undefined;
  for (const row of rows) {
    if (!best) {
      best = row;
      continue;
    }
    const [manual, confidence] = rank(row);
    const [bestManual, bestConfidence] = rank(best);
    const better =
      manual !== bestManual
        ? manual > bestManual
        : confidence !== bestConfidence
          ? confidence > bestConfidence
          : row.updated !== best.updated
            ? row.updated > best.updated
            : row.id < best.id;
    if (better) best = row;
  }
  return best;
}

/** The label written for a type: its display name when the importer slugs it back, else the slug. */
export function typeLabelOf(slug: string, displayName: string): string {
  const name = displayName.trim();
  // custom="structure {type:…;}" cannot hold these; the importer reads up to the ';'.
  if (name !== '' && !/[;{}\\]/.test(name) && slugifyType(name) === slug) return name;
  return slug;
}
