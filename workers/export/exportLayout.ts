/**
 * What the export worker reads of an Arkindex SQLite export (format version 11, as
 * server/services/exports/sqliteExport.ts writes it): the pages under the chosen elements, and
 * each page's PageLayout built exactly as server/services/exports/pageLayout.ts builds it from
 * Folia's database (same regions and lines in the same order, polygons, chosen transcription),
 * so the PAGE XML, ALTO, PDF and DOCX writers give the same files whichever read the page.
 *
 * What the export cannot say, and what is chosen instead:
 * - element type display names: the caller may pass them (the worker reads the project's
 *   types), else the slug is the label;
 * - the mime type of an image Folia stores itself: its file name is the page's name + `.jpg`
 *   (what its IIIF server hands out);
 * - when a transcription was last changed: two equally ranked transcriptions go to the smaller
 *   id, and `lastChange` is the latest change of the page and its exported elements.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Point } from '../../src/lib/polygon';
import {
  chooseTranscription,
  imageFilenameOf,
  LINE_TYPE_SLUG,
  typeLabelOf,
  WRAPPER_TYPE_SLUG,
  type LayoutLine,
  type LayoutRegion,
  type PageLayout,
} from '../../src/lib/exports/layout';

/** As deep as Folia's own walks go (server/services/elements/repository.ts MAX_DEPTH). */
const MAX_DEPTH = 100;
/** Parameters per IN (…) list: far below SQLite's limit. */
const IN_CHUNK = 500;
/** The page type: always a page, whatever its image. */
export const PAGE_TYPE_SLUG = 'page';

export interface ExportElement {
  id: string;
  name: string;
  type: string;
  image_id: string | null;
  polygon: string | null;
  created: number;
  updated: number;
  confidence: number | null;
  worker_run_id: string | null;
}

export interface ExportImage {
  id: string;
  url: string;
  width: number;
  height: number;
  server_url: string;
  server_name: string;
}

interface ChildRow {
  parent_id: string;
  position: number;
  id: string;
  image_id: string | null;
  polygon: string | null;
  updated: number;
  type_slug: string;
}

interface TranscriptionRow {
  id: string;
  element_id: string;
  text: string;
  confidence: number | null;
  worker_run_id: string | null;
  /** Not in the format: the same for every row, so ties go to the smaller id. */
  updated: string;
}

/** REAL UNIX seconds (the export's dates) to Folia's ISO-8601 text. */
export function isoTime(seconds: number): string {
  return new Date(Math.round(seconds * 1000)).toISOString();
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

function slices<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    out.push(items.slice(start, start + size));
  }
  return out;
}

const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(', ');

/** The bounding box of points, as a closed ring (as pageLayout.ts wraps lines on the page). */
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

/** An opened export and the queries the worker runs on it. */
export class ExportReader {
  private readonly elementById: BetterSqlite3.Statement;
  private readonly childrenByParent: BetterSqlite3.Statement;
  private readonly imageById: BetterSqlite3.Statement;
  private readonly parentsByChild: BetterSqlite3.Statement;

  constructor(readonly db: BetterSqlite3.Database) {
    this.elementById = db.prepare(
      'SELECT id, name, type, image_id, polygon, created, updated, confidence, worker_run_id ' +
        'FROM element WHERE id = ?',
    );
    this.childrenByParent = db.prepare(
      'SELECT e.id, e.name, e.type, e.image_id, e.polygon, e.created, e.updated, e.confidence, ' +
        'e.worker_run_id, p.ordering FROM element_path p JOIN element e ON e.id = p.child_id ' +
        'WHERE p.parent_id = ? ORDER BY p.ordering, e.id',
    );
    this.parentsByChild = db.prepare(
      'SELECT e.id, e.name, e.type, e.image_id, e.polygon, e.created, e.updated, e.confidence, ' +
        'e.worker_run_id FROM element_path p JOIN element e ON e.id = p.parent_id ' +
        'WHERE p.child_id = ? ORDER BY p.ordering, e.id',
    );
    this.imageById = db.prepare(
      'SELECT i.id, i.url, i.width, i.height, s.url AS server_url, ' +
        's.display_name AS server_name FROM image i JOIN image_server s ON s.id = i.server_id ' +
        'WHERE i.id = ?',
    );
  }

  element(id: string): ExportElement | undefined {
    return this.elementById.get(id) as ExportElement | undefined;
  }

  /** The children of an element in their order (element_path ordering, then id). */
  children(id: string): (ExportElement & { ordering: number })[] {
    return this.childrenByParent.all(id) as (ExportElement & { ordering: number })[];
  }

  image(id: string): ExportImage | undefined {
    return this.imageById.get(id) as ExportImage | undefined;
  }

  /**
   * A page: an element of type `page`, or one on an image that its parent is not on (a
   * region shares its page's image). readPageLayout reads any element with an image; these are
   * the ones a person calls pages.
   */
  isPage(element: ExportElement, parentImageId: string | null): boolean {
    if (element.type === PAGE_TYPE_SLUG) return true;
    return element.image_id !== null && element.image_id !== parentImageId;
  }

  /**
   * The page a chosen element is on: itself for a page, else the highest ancestor on the same
   * image (a chosen line or region stands for its page), stopping at one of type `page`; null
   * for an element without an image.
   */
  pageOfChosen(element: ExportElement): ExportElement | null {
    if (element.image_id === null) return null;
    let page = element;
    for (let depth = 0; page.type !== PAGE_TYPE_SLUG && depth < MAX_DEPTH; depth++) {
      const parents = this.parentsByChild.all(page.id) as ExportElement[];
      const up = parents.find((parent) => parent.image_id === element.image_id);
      if (!up) break;
      page = up;
    }
    return page;
  }

  /**
   * Every element under the chosen ones, and themselves, depth first in their order, each once,
   * with the parent it was reached through and the page it is on (null above pages).
   */
  *walk(rootIds: readonly string[]): Generator<WalkedElement> {
    const seen = new Set<string>();
    type Frame = {
      element: ExportElement;
      parent: ExportElement | null;
      page: ExportElement | null;
      depth: number;
    };
    const stack: Frame[] = [];
    for (const id of [...rootIds].reverse()) {
      const element = this.element(id);
      if (element) {
        stack.push({ element, parent: null, page: this.pageOfChosen(element), depth: 0 });
      }
    }
    while (stack.length > 0) {
      const frame = stack.pop()!;
      const { element, parent } = frame;
      if (seen.has(element.id)) continue;
      seen.add(element.id);
      const page = frame.page ?? (this.isPage(element, parent?.image_id ?? null) ? element : null);
      yield { element, parent, page };
      if (frame.depth >= MAX_DEPTH) continue;
      const children = this.children(element.id);
      for (const child of children.reverse()) {
        stack.push({ element: child, parent: element, page, depth: frame.depth + 1 });
      }
    }
  }

  /**
   * The pages under the chosen elements (a chosen page is itself, a chosen line or region its
   * page), in a stable order.
   */
  pages(rootIds: readonly string[]): ExportElement[] {
    return this.pageEntries(rootIds).map((entry) => entry.element);
  }

  /** pages(), each with the parent it was reached through (null for a chosen page). */
  pageEntries(rootIds: readonly string[]): WalkedElement[] {
    const pages: WalkedElement[] = [];
    for (const entry of this.walkToPages(rootIds)) {
      if (entry.page === entry.element) pages.push(entry);
    }
    return pages;
  }

  /** walk(), not going inside pages. */
  private *walkToPages(rootIds: readonly string[]): Generator<WalkedElement> {
    const seen = new Set<string>();
    const visit = function* (
      reader: ExportReader,
      element: ExportElement,
      parent: ExportElement | null,
      depth: number,
    ): Generator<WalkedElement> {
      if (seen.has(element.id)) return;
      seen.add(element.id);
      if (reader.isPage(element, parent?.image_id ?? null)) {
        yield { element, parent, page: element };
        return;
      }
      yield { element, parent, page: null };
      if (depth >= MAX_DEPTH) return;
      for (const child of reader.children(element.id)) {
        yield* visit(reader, child, element, depth + 1);
      }
    };
    for (const id of rootIds) {
      const element = this.element(id);
      if (!element) continue;
      // A chosen line or region stands for its page.
      const page = this.pageOfChosen(element);
      yield* visit(this, page ?? element, null, 0);
    }
  }

  /** The chosen transcription of each element named. */
  transcriptions(ids: readonly string[]): Map<string, TranscriptionRow> {
    const byElement = new Map<string, TranscriptionRow[]>();
    for (const part of slices(ids, IN_CHUNK)) {
      const rows = this.db
        .prepare(
          "SELECT id, element_id, text, confidence, worker_run_id, '' AS updated " +
            `FROM transcription WHERE element_id IN (${placeholders(part.length)})`,
        )
        .all(...part) as TranscriptionRow[];
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

  /** The class names of each element named, in name order. */
  classifications(ids: readonly string[]): Map<string, string[]> {
    const names = new Map<string, string[]>();
    for (const part of slices(ids, IN_CHUNK)) {
      const rows = this.db
        .prepare(
          'SELECT element_id, class_name FROM classification ' +
            `WHERE element_id IN (${placeholders(part.length)}) ORDER BY class_name, id`,
        )
        .all(...part) as { element_id: string; class_name: string }[];
      for (const row of rows) {
        const list = names.get(row.element_id) ?? [];
        list.push(row.class_name);
        names.set(row.element_id, list);
      }
    }
    return names;
  }

  private childRows(parentIds: readonly string[]): ChildRow[] {
    const rows: ChildRow[] = [];
    for (const part of slices(parentIds, IN_CHUNK)) {
      rows.push(
        ...(this.db
          .prepare(
            'SELECT p.parent_id, p.ordering AS position, e.id, e.image_id, e.polygon, ' +
              'e.updated, e.type AS type_slug FROM element_path p ' +
              'JOIN element e ON e.id = p.child_id ' +
              `WHERE p.parent_id IN (${placeholders(part.length)})`,
          )
          .all(...part) as ChildRow[]),
      );
    }
    return rows.sort(
      (a, b) =>
        a.parent_id.localeCompare(b.parent_id) ||
        a.position - b.position ||
        a.id.localeCompare(b.id),
    );
  }

  /** The image's file name as the PAGE and ALTO files name it (see imageFilenameOf). */
  imageFilename(pageName: string, image: ExportImage): string {
    // Folia's own images (server "Folia", URL <server>/<image id>) are stored files.
    const stored = image.server_name === 'Folia' && image.url === `${image.server_url}/${image.id}`;
    return imageFilenameOf(pageName, { url: stored ? null : image.url, mime: null });
  }

  /** The layout of one page, as readPageLayout reads it from Folia's database. */
  layout(pageId: string, typeNames: ReadonlyMap<string, string> = new Map()): PageLayout {
    const page = this.element(pageId);
    if (!page) throw new Error(`The export has no element ${pageId}.`);
    if (!page.image_id) throw new Error(`${page.name}: this element has no image to export.`);
    const image = this.image(page.image_id);
    if (!image) throw new Error(`${page.name}: the export has no image ${page.image_id}.`);

    const childrenByParent = new Map<string, ChildRow[]>();
    let level = [page.id];
    const visited = new Set(level);
    for (let depth = 0; level.length > 0 && depth < MAX_DEPTH; depth++) {
      const next: string[] = [];
      for (const row of this.childRows(level)) {
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
    const updates: number[] = [page.updated];
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
        typeLabel: typeLabelOf(row.type_slug, typeNames.get(row.type_slug) ?? row.type_slug),
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

    const texts = this.transcriptions([
      ...regions.filter((region) => !region.wrapper).map((region) => region.id),
      ...regions.flatMap((region) => region.lines.map((line) => line.id)),
    ]);
    for (const region of regions) {
      if (!region.wrapper) region.text = texts.get(region.id)?.text ?? null;
      for (const line of region.lines) line.text = texts.get(line.id)?.text ?? null;
    }

    return {
      pageId: page.id,
      pageName: page.name,
      imageFilename: this.imageFilename(page.name, image),
      width: image.width,
      height: image.height,
      created: isoTime(page.created),
      lastChange: isoTime(Math.max(...updates)),
      regions,
      skipped,
    };
  }
}

export interface WalkedElement {
  element: ExportElement;
  /** The parent it was reached through; null for a chosen element. */
  parent: ExportElement | null;
  /** The page it is on (itself for a page); null above pages. */
  page: ExportElement | null;
}
