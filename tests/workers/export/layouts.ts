import type { LayoutLine, LayoutRegion, PageLayout } from '../../../src/lib/exports/layout';
import type { Point } from '../../../src/lib/polygon';

/** A rectangle as a closed polygon, from its top-left and bottom-right corners (image pixels). */
export const rect = (left: number, top: number, right: number, bottom: number): Point[] => [
  [left, top],
  [right, top],
  [right, bottom],
  [left, bottom],
  [left, top],
];

let ids = 0;
const nextId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

export const line = (text: string | null, polygon: Point[]): LayoutLine => ({
  id: nextId(),
  polygon,
  baseline: null,
  text,
});

export const region = (
  polygon: Point[],
  lines: LayoutLine[],
  text: string | null = null,
): LayoutRegion => ({
  id: nextId(),
  type: 'paragraph',
  typeLabel: 'paragraph',
  polygon,
  wrapper: false,
  lines,
  text,
});

export const page = (
  pageName: string,
  width: number,
  height: number,
  regions: LayoutRegion[],
): PageLayout => ({
  pageId: nextId(),
  pageName,
  imageFilename: `${pageName}.jpg`,
  width,
  height,
  created: '2026-01-02T03:04:05Z',
  lastChange: '2026-01-02T03:04:05Z',
  regions,
  skipped: 0,
});
