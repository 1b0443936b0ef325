/**
 * A dataset's split as CSV (RFC 4180): one line per element and set, by set name, element name
 * and id. Rows are read in keyset pages and written as they come, so a large dataset is never
 * held in memory. image_url is the element zone's IIIF image, as element lists show it.
 */
import type { Db } from '../../db';
import type { Dataset, Image } from '../../db/schema';
import { chunks, INSERT_CHUNK } from '../../db/chunks';
import { imageJson } from '../images';
import { iiifRegion, parsePolygon } from '../elements/serialize';

export const CSV_HEADER = ['element_id', 'name', 'type', 'set', 'image_url'] as const;
const PAGE = 1000;

/** A field quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** The download's name: the dataset's (and set's) name, without what a file name may not hold. */
export function csvFileName(dataset: Pick<Dataset, 'name'>, set: string | null): string {
  const base = set === null ? dataset.name : `${dataset.name} ${set}`;
  return `${base}.csv`;
}

/** Content-Disposition with an ASCII fallback and the exact name in RFC 5987 form. */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\/:*?<>|;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

async function imagesOf(db: Db, ids: string[]): Promise<Map<string, Image>> {
  const images = new Map<string, Image>();
  for (const part of chunks(ids, INSERT_CHUNK)) {
    for (const row of await db.selectFrom('images').selectAll().where('id', 'in', part).execute())
      images.set(row.id, row);
  }
  return images;
}

/** The CSV text, header first, a page of rows at a time. */
export async function* datasetCsv(
  db: Db,
  dataset: Dataset,
  setName: string | null,
  origin: string,
): AsyncGenerator<string> {
  yield csvLine(CSV_HEADER);
  let after: { set: string; name: string; id: string } | null = null;
  for (;;) {
    let query = db
      .selectFrom('dataset_elements')
      .innerJoin('dataset_sets', 'dataset_sets.id', 'dataset_elements.set_id')
      .innerJoin('elements', 'elements.id', 'dataset_elements.element_id')
      .innerJoin('element_types', 'element_types.id', 'elements.type_id')
      .select([
        'elements.id',
        'elements.name',
        'elements.image_id',
        'elements.polygon',
        'element_types.slug',
        'dataset_sets.name as set_name',
      ])
      .where('dataset_sets.dataset_id', '=', dataset.id);
    if (setName !== null) query = query.where('dataset_sets.name', '=', setName);
    if (after) {
      const { set, name, id } = after;
      query = query.where((eb) =>
        eb.or([
          eb('dataset_sets.name', '>', set),
          eb.and([eb('dataset_sets.name', '=', set), eb('elements.name', '>', name)]),
          eb.and([
            eb('dataset_sets.name', '=', set),
            eb('elements.name', '=', name),
            eb('elements.id', '>', id),
          ]),
        ]),
      );
    }
    const rows = await query
      .orderBy('dataset_sets.name')
      .orderBy('elements.name')
      .orderBy('elements.id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    const images = await imagesOf(db, [
      ...new Set(rows.flatMap((row) => (row.image_id ? [row.image_id] : []))),
    ]);
    let text = '';
    for (const row of rows) {
      const image = row.image_id ? images.get(row.image_id) : undefined;
      const url = image
        ? `${imageJson(image, origin).url}/${iiifRegion(parsePolygon(row.polygon, image), image)}/full/0/default.jpg`
        : '';
      text += csvLine([row.id, row.name, row.slug, row.set_name, url]);
    }
    yield text;
    const last = rows[rows.length - 1]!;
    after = { set: last.set_name, name: last.name, id: last.id };
    if (rows.length < PAGE) return;
  }
}
