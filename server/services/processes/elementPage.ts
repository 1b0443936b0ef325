/**
 * ListProcessElements (api part 2 §2.3): the selected elements in cursor pages ordered by name
 * then id. The cursor holds a (name, id) and a direction (after it for `next`, before it for
 * `previous`), so a page is one indexed range read
 * however deep into tens of thousands of elements it is.
 */
import type { Db } from '../../db';
import { notFound } from '../../errors';
import { imageJson } from '../images';
import { parsePolygon } from '../elements/serialize';
import { processElementsQuery, type ElementFilterFields } from './elements';

export interface ProcessElementJson {
  id: string;
  type_id: string;
  type: string;
  name: string;
  confidence: number | null;
  image_id?: string | null;
  image_width?: number | null;
  image_height?: number | null;
  image_url?: string | null;
  polygon?: [number, number][] | null;
  rotation_angle?: number;
  mirrored?: boolean;
}

export interface CursorPageJson {
  next: string | null;
  previous: string | null;
  results: ProcessElementJson[];
  count?: number;
}

type Direction = 'after' | 'before';

interface Cursor {
  name: string;
  id: string;
  direction: Direction;
}

export const encodeCursor = (name: string, id: string, direction: Direction = 'after'): string =>
  Buffer.from(JSON.stringify([name, id, direction]), 'utf8').toString('base64url');

function decodeCursor(cursor: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      (value[2] === 'after' || value[2] === 'before')
    ) {
      return { name: value[0], id: value[1], direction: value[2] };
    }
  } catch {
    // Falls through to the 404 below.
  }
  throw notFound('Invalid cursor');
}

export interface ElementPageRequest {
  cursor: string | null;
  pageSize: number;
  withCount: boolean;
  withImage: boolean;
  origin: string;
  /** The address of this page, to build `next` from. */
  url: URL;
}

export async function processElementPage(
  db: Db,
  process: ElementFilterFields & { mode: string },
  request: ElementPageRequest,
): Promise<CursorPageJson> {
  const cursor = request.cursor === null ? null : decodeCursor(request.cursor);
  const query = ['workers', 'export'].includes(process.mode)
    ? await processElementsQuery(db, process)
    : null;
  if (!query)
    return { next: null, previous: null, results: [], ...(request.withCount ? { count: 0 } : {}) };
  let page = query
    .innerJoin('element_types', 'element_types.id', 'elements.type_id')
    .select([
      'elements.id',
      'elements.type_id',
      'element_types.slug as type',
      'elements.name',
      'elements.confidence',
      'elements.image_id',
      'elements.polygon',
      'elements.rotation_angle',
      'elements.mirrored',
    ]);
  const backwards = cursor?.direction === 'before';
  if (cursor) {
    const { name, id } = cursor;
    const [beyond] = backwards ? (['<'] as const) : (['>'] as const);
    page = page.where((eb) =>
      eb.or([
        eb('elements.name', beyond, name),
        eb.and([eb('elements.name', '=', name), eb('elements.id', beyond, id)]),
      ]),
    );
  }
  const order = backwards ? 'desc' : 'asc';
  const rows = await page
    .orderBy('elements.name', order)
    .orderBy('elements.id', order)
    .limit(request.pageSize + 1)
    .execute();
  const more = rows.length > request.pageSize;
  const shown = rows.slice(0, request.pageSize);
  if (backwards) shown.reverse();
  const imageIds = [...new Set(shown.flatMap((row) => (row.image_id ? [row.image_id] : [])))];
  const images = new Map(
    imageIds.length === 0
      ? []
      : (await db.selectFrom('images').selectAll().where('id', 'in', imageIds).execute()).map(
          (image) => [image.id, image],
        ),
  );
  const results = shown.map((row): ProcessElementJson => {
    const json: ProcessElementJson = {
      id: row.id,
      type_id: row.type_id,
      type: row.type,
      name: row.name,
      confidence: row.confidence,
    };
    if (!request.withImage) return json;
    const image = row.image_id ? images.get(row.image_id) : undefined;
    return {
      ...json,
      image_id: image?.id ?? null,
      image_width: image?.width ?? null,
      image_height: image?.height ?? null,
      image_url: image ? imageJson(image, request.origin).url : null,
      polygon: image ? (parsePolygon(row.polygon, image) as [number, number][]) : null,
      rotation_angle: row.rotation_angle,
      mirrored: row.mirrored === 1,
    };
  });
  const link = (row: { name: string; id: string } | undefined, direction: Direction) => {
    if (!row) return null;
    const url = new URL(request.url);
    url.searchParams.set('cursor', encodeCursor(row.name, row.id, direction));
    return url.toString();
  };
  // Going forward there is more after when the page overflowed, and something before whenever a
  // cursor led here; going back, the reverse.
  const hasNext = backwards ? true : more;
  const hasPrevious = backwards ? more : cursor !== null;
  const next = hasNext ? link(shown[shown.length - 1], 'after') : null;
  const previous = hasPrevious ? link(shown[0], 'before') : null;
  const count = request.withCount
    ? Number(
        (await query.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()).count,
      )
    : undefined;
  return { next, previous, results, ...(count === undefined ? {} : { count }) };
}
