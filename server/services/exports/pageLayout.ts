/**
 * What the PAGE XML and ALTO exports write about one page, read from the database: the page and
 * its image, its regions in reading order (element_links positions) with their lines, polygons
 * and texts. The writers (pageXml.ts, alto.ts) turn it into XML without touching the database.
 */
import type { Db } from '../../db';
import { notFound, validationError } from '../../errors';
import type { Point } from '../../geometry/polygon';
import {
  chooseTranscription,
  LINE_TYPE_SLUG,
  typeLabelOf,
  WRAPPER_TYPE_SLUG,
  imageFilenameOf,
  type LayoutLine,
  type LayoutRegion,
  type PageLayout,
  type TranscriptionChoice,
} from '../../../src/lib/exports/layout';
import { chunks, INSERT_CHUNK, MAX_DEPTH } from '../elements/repository';

export interface PageLayoutOptions {
  /** The file name the export names the image by; the default is described at imageFilenameOf. */
  imageFilename?: string;
}

interface ChildRow {
  parent_id: string;
  position: number;
  id: string;
  image_id: string | null;
  polygon: string | null;
  updated: string;
  type_slug: string;
  type_name: string;
}

interface TranscriptionRow extends TranscriptionChoice {
  element_id: string;
  text: string;
}

function parsePoints(text: string | null): Point[] | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    if (!Array.isArray(value) || value.length < 3) return null;
    return value as Point[];
  } catch {
    return null;
  }
}

async function childrenOf(db: Db, parentIds: readonly string[]): Promise<ChildRow[]> {
  const rows: ChildRow[] = [];
  for (const part of chunks(parentIds, INSERT_CHUNK)) {
    rows.push(
      ...(await db
        .selectFrom('element_links')
        .innerJoin('elements', 'elements.id', 'element_links.child_id')
        .innerJoin('element_types', 'element_types.id', 'elements.type_id')
        .select([
          'element_links.parent_id',
          'element_links.position',
          'elements.id',
          'elements.image_id',
          'elements.polygon',
          'elements.updated',
          'element_types.slug as type_slug',
          'element_types.display_name as type_name',
        ])
        .where('element_links.parent_id', 'in', part)
        .execute()),
    );
  }
  return rows.sort(
    (a, b) =>
      a.parent_id.localeCompare(b.parent_id) || a.position - b.position || a.id.localeCompare(b.id),
  );
}

async function transcriptionsOf(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, TranscriptionRow>> {
  const byElement = new Map<string, TranscriptionRow[]>();
  for (const part of chunks(ids, INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('transcriptions')
      .select(['id', 'element_id', 'text', 'worker_run_id', 'confidence', 'updated'])
      .where('element_id', 'in', part)
      .execute();
    for (const row of rows) {
      const list = byElement.get(row.element_id) ?? [];
      list.push(row);
      byElement.set(row.element_id, list);
    }
  }
  const chosen = new Map<string, TranscriptionRow>();
  for (const [id, rows] of byElement) {
    const row = chooseTranscription(rows);
    if (row) chosen.set(id, row);
  }
  return chosen;
}

/** The bounding box of points, as a closed ring. */
function boxRing(points: readonly Point[]): Point[] {
  const xs = points.map((point) => point[0]);
  const ys = points.map((point) => point[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ];
}

/**
 * Reads one page for export. Throws a 404 ApiError when there is no such element, and a
 * validation error on element_id when it has no image (nothing to place zones on).
 */
export async function readPageLayout(
  db: Db,
  pageId: string,
  options: PageLayoutOptions = {},
): Promise<PageLayout> {
  const page = await db
    .selectFrom('elements')
    .select(['id', 'name', 'image_id', 'created', 'updated'])
    .where('id', '=', pageId)
    .executeTakeFirst();
  if (!page) throw notFound();
  if (!page.image_id) {
    throw validationError(
      'element_id',
      'This element has no image: only elements on an image can be exported to PAGE XML or ALTO.',
    );
  }
  const image = await db
    .selectFrom('images')
    .select(['width', 'height', 'url', 'mime'])
    .where('id', '=', page.image_id)
    .executeTakeFirstOrThrow();

  // Level by level: the page's children, then the children of those that are not lines.
  const childrenByParent = new Map<string, ChildRow[]>();
  let level = [page.id];
  const visited = new Set(level);
  for (let depth = 0; level.length > 0 && depth < MAX_DEPTH; depth++) {
    const rows = await childrenOf(db, level);
    const next: string[] = [];
    for (const row of rows) {
      const list = childrenByParent.get(row.parent_id) ?? [];
      list.push(row);
      childrenByParent.set(row.parent_id, list);
      if (row.type_slug !== LINE_TYPE_SLUG && !visited.has(row.id)) {
        visited.add(row.id);
        next.push(row.id);
      }
    }
    level = next;
  }

  let skipped = 0;
  const placed = new Set<string>();
  const usable = (row: ChildRow): Point[] | null => {
    const polygon = row.image_id === page.image_id ? parsePoints(row.polygon) : null;
    if (!polygon) skipped += 1;
    return polygon;
  };
  const regions: LayoutRegion[] = [];
  const updates: string[] = [page.updated];
  const lineOf = (row: ChildRow): LayoutLine | null => {
    const polygon = usable(row);
    if (!polygon) return null;
    updates.push(row.updated);
    return { id: row.id, polygon, baseline: null, text: null };
  };
  const visit = (row: ChildRow) => {
    if (placed.has(row.id)) return;
    placed.add(row.id);
    const polygon = usable(row);
    if (!polygon) return;
    updates.push(row.updated);
    const children = childrenByParent.get(row.id) ?? [];
    const lines = children
      .filter((child) => child.type_slug === LINE_TYPE_SLUG)
      .map(lineOf)
      .filter((line): line is LayoutLine => line !== null);
    regions.push({
      id: row.id,
      type: row.type_slug,
      typeLabel: typeLabelOf(row.type_slug, row.type_name),
      polygon,
      wrapper: false,
      lines,
      text: null,
    });
    for (const child of children) if (child.type_slug !== LINE_TYPE_SLUG) visit(child);
  };
  let wrapper: LayoutRegion | null = null;
  for (const row of childrenByParent.get(page.id) ?? []) {
    if (row.type_slug !== LINE_TYPE_SLUG) {
      wrapper = null;
      visit(row);
      continue;
    }
    const line = lineOf(row);
    if (!line) continue;
    if (!wrapper) {
      wrapper = {
        id: line.id,
        type: WRAPPER_TYPE_SLUG,
        typeLabel: WRAPPER_TYPE_SLUG,
        polygon: [],
        wrapper: true,
        lines: [],
        text: null,
      };
      regions.push(wrapper);
    }
    wrapper.lines.push(line);
    wrapper.polygon = boxRing(wrapper.lines.flatMap((each) => each.polygon));
  }

  const texts = await transcriptionsOf(db, [
    ...regions.filter((region) => !region.wrapper).map((region) => region.id),
    ...regions.flatMap((region) => region.lines.map((line) => line.id)),
  ]);
  for (const region of regions) {
    if (!region.wrapper) region.text = texts.get(region.id)?.text ?? null;
    for (const line of region.lines) line.text = texts.get(line.id)?.text ?? null;
  }
  for (const row of texts.values()) updates.push(row.updated);

  return {
    pageId: page.id,
    pageName: page.name,
    imageFilename: options.imageFilename ?? imageFilenameOf(page.name, image),
    width: image.width,
    height: image.height,
    created: page.created,
    lastChange: updates.reduce((latest, value) => (value > latest ? value : latest)),
    regions,
    skipped,
  };
}
