/**
 * A pack's pages as the PAGE XML and ALTO writers take them (lib/exports/layout.ts), by the
 * server's rules (server/services/exports/pageLayout.ts readPageLayout): regions in reading
 * order, nested regions after their parent, lines (type text_line) in their region, lines
 * placed directly on the page wrapped in a text_region.
 *
 * A page's recursive zones list records the page as every zone's parent; the direct parents
 * come from the children lists of its regions, which packs read (directChildren.ts), and from
 * elements created here. A line whose only recorded parent is the page is on the page when
 * every region's children are known; else (a page opened but not taken offline) it goes into
 * the smallest region with unknown children whose outline holds the line's centre, as drawn
 * regions usually hold their lines. Siblings keep the zones list's order (by position), then
 * come those added here.
 */
import type { ImageInfo } from '@/api/types';
import {
  imageFilenameOf,
  LINE_TYPE_SLUG,
  typeLabelOf,
  WRAPPER_TYPE_SLUG,
  type LayoutLine,
  type LayoutRegion,
  type PageLayout,
} from '@/lib/exports/layout';
import type { Point } from '@/lib/polygon';
import type { FoliaDatabase, LocalElement } from '../db';
import { directChildrenStored } from '../directChildren';
import { readZoneOrder, type PackContents } from './packContents';

type Box = { left: number; top: number; right: number; bottom: number };

function boxOf(points: readonly Point[]): Box {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  return {
    left: Math.min(...xs),
    top: Math.min(...ys),
    right: Math.max(...xs),
    bottom: Math.max(...ys),
  };
}

const areaOf = (box: Box) => (box.right - box.left) * (box.bottom - box.top);

/** Even-odd rule; a point on the outline may fall either way, which the centre rarely is. */
function inside([x, y]: Point, polygon: readonly Point[]): boolean {
  let hit = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

function polygonOf(row: LocalElement): Point[] | null {
  const polygon = row.data.zone?.polygon as Point[] | undefined;
  return polygon && polygon.length >= 3 ? polygon.map(([x, y]): Point => [x, y]) : null;
}

function boxRing(points: readonly Point[]): Point[] {
  const { left, top, right, bottom } = boxOf(points);
  return [
    [left, top],
    [right, top],
    [right, bottom],
    [left, bottom],
    [left, top],
  ];
}

/**
 * Folia's own images are named by their page (with .jpg: the device does not know the stored
 * file's type), as the server names them; remote ones by their IIIF full-size URL.
 */
export function imageFilenameOnDevice(pageName: string, image: ImageInfo): string {
  const stored = image.server?.display_name === 'Folia' && image.path === image.id;
  return imageFilenameOf(pageName, { url: stored ? null : image.url, mime: null });
}

/** Which page each element of the pack is on: a parent recorded, else the page holding it. */
function pageMembers(contents: PackContents, pageId: string): LocalElement[] {
  const page = contents.byId.get(pageId)!;
  const image = page.data.zone?.image.id;
  const pagesHere = contents.pageIds
    .map((id) => contents.byId.get(id)!)
    .filter((other) => other.data.zone?.image.id === image);
  const pages = new Set(contents.pageIds);
  return contents.elements.filter((row) => {
    // Another page on the same image (a scan imported twice, in two formats) is not a zone.
    if (pages.has(row.id) || row.data.zone?.image.id !== image) return false;
    if (pagesHere.length === 1) return true;
    const recorded = pagesHere.find((other) => row.parentIds.includes(other.id));
    if (recorded) return recorded.id === pageId;
    const polygon = polygonOf(row);
    if (!polygon) return false;
    const { left, top, right, bottom } = boxOf(polygon);
    const centre: Point = [(left + right) / 2, (top + bottom) / 2];
    const holder = pagesHere.find((other) => inside(centre, polygonOf(other) ?? []));
    return (holder ?? pagesHere[0])!.id === pageId;
  });
}

export interface PageOnDevice {
  layout: PageLayout;
  /** The parent each element on the page was given (the page or a region), by id. */
  parents: Map<string, string>;
}

/** One page's layout from what the device holds. */
export async function pageLayoutOnDevice(
  db: FoliaDatabase,
  contents: PackContents,
  pageId: string,
): Promise<PageOnDevice> {
  const page = contents.byId.get(pageId)!;
  const image = page.data.zone!.image;
  const members = pageMembers(contents, pageId);
  const onPage = new Map(members.map((row) => [row.id, row]));
  const order = await readZoneOrder(db, pageId);
  const typeNames = new Map((contents.corpus?.types ?? []).map((t) => [t.slug, t.display_name]));
  const isLine = (row: LocalElement) => row.data.type === LINE_TYPE_SLUG;

  let skipped = 0;
  const polygons = new Map<string, Point[]>();
  for (const row of members) {
    const polygon = polygonOf(row);
    if (polygon) polygons.set(row.id, polygon);
    else skipped += 1;
  }
  const known = await directChildrenStored(
    db,
    members.filter((row) => !isLine(row)).map((row) => row.id),
  );
  const regionsByArea = members
    .filter((row) => !isLine(row) && polygons.has(row.id) && !known.has(row.id))
    .map((row) => ({
      row,
      polygon: polygons.get(row.id)!,
      area: areaOf(boxOf(polygons.get(row.id)!)),
    }))
    .sort((a, b) => a.area - b.area);

  /** The nearest parent recorded on the page (one no other recorded parent lies under). */
  const recordedParent = (row: LocalElement): string | null => {
    const known = row.parentIds.filter((id) => id !== row.id && onPage.has(id));
    const nearest = known.find(
      (candidate) =>
        !known.some(
          (other) => other !== candidate && onPage.get(other)!.parentIds.includes(candidate),
        ),
    );
    return nearest ?? null;
  };
  const parentOf = (row: LocalElement): string => {
    const recorded = recordedParent(row);
    if (recorded) return recorded;
    const polygon = polygons.get(row.id);
    if (!isLine(row) || !polygon) return pageId;
    const { left, top, right, bottom } = boxOf(polygon);
    const centre: Point = [(left + right) / 2, (top + bottom) / 2];
    return regionsByArea.find((region) => inside(centre, region.polygon))?.row.id ?? pageId;
  };

  const children = new Map<string, LocalElement[]>();
  const parents = new Map<string, string>();
  for (const row of members) {
    const parent = parentOf(row);
    parents.set(row.id, parent);
    const list = children.get(parent) ?? [];
    list.push(row);
    children.set(parent, list);
  }
  const rank = (row: LocalElement) => order.get(row.id) ?? Number.MAX_SAFE_INTEGER;
  for (const list of children.values()) {
    list.sort(
      (a, b) =>
        rank(a) - rank(b) ||
        a.data.created.localeCompare(b.data.created) ||
        a.id.localeCompare(b.id),
    );
  }

  const textOf = (id: string) => contents.texts.get(id)?.text ?? null;
  const lineOf = (row: LocalElement): LayoutLine | null => {
    const polygon = polygons.get(row.id);
    return polygon ? { id: row.id, polygon, baseline: null, text: textOf(row.id) } : null;
  };
  const regions: LayoutRegion[] = [];
  const placed = new Set<string>();
  const visit = (row: LocalElement) => {
    if (placed.has(row.id)) return;
    placed.add(row.id);
    const polygon = polygons.get(row.id);
    if (!polygon) return;
    const own = children.get(row.id) ?? [];
    regions.push({
      id: row.id,
      type: row.data.type,
      typeLabel: typeLabelOf(row.data.type, typeNames.get(row.data.type) ?? ''),
      polygon,
      wrapper: false,
      lines: own
        .filter(isLine)
        .map(lineOf)
        .filter((line): line is LayoutLine => line !== null),
      text: textOf(row.id),
    });
    for (const child of own) if (!isLine(child)) visit(child);
  };
  let wrapper: LayoutRegion | null = null;
  for (const row of children.get(pageId) ?? []) {
    if (!isLine(row)) {
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

  const changes = [page.data.created, contents.editedAt.get(pageId) ?? ''];
  for (const row of members) changes.push(row.data.created, contents.editedAt.get(row.id) ?? '');
  const layout: PageLayout = {
    pageId,
    pageName: page.data.name,
    imageFilename: imageFilenameOnDevice(page.data.name, image),
    width: image.width,
    height: image.height,
    created: page.data.created,
    lastChange: changes.reduce((latest, value) => (value > latest ? value : latest)),
    regions,
    skipped,
  };
  return { layout, parents };
}
