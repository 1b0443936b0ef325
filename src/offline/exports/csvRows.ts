/**
 * A pack's elements as CSV rows (lib/exports/csv.ts), the root first, then as the pack listed
 * them. An element on a page has the parent its layout gave it (pageLayouts.ts); another, the
 * nearest parent the device knows. A pack's own list records none, so an element with no
 * recorded parent is the root's when the pack holds no other folder (it can then be nowhere
 * else), and has none written otherwise.
 */
import type { CsvElement } from '@/lib/exports/csv';
import type { LocalElement } from '../db';
import { classificationsOf, type PackContents } from './packContents';

function nearestParent(row: LocalElement, contents: PackContents): LocalElement | null {
  const known = row.parentIds
    .filter((id) => id !== row.id)
    .map((id) => contents.byId.get(id))
    .filter((parent): parent is LocalElement => !!parent);
  return (
    known.find(
      (candidate) =>
        !known.some((other) => other !== candidate && other.parentIds.includes(candidate.id)),
    ) ??
    known[0] ??
    null
  );
}

export interface PagePlacement {
  pageId: string;
  parentId: string;
}

export function packCsvRows(
  contents: PackContents,
  /** Where each element on a page was placed, by id; a page is placed on itself. */
  placements: Map<string, PagePlacement>,
): CsvElement[] {
  const folders = new Set(
    (contents.corpus?.types ?? []).filter((type) => type.folder).map((type) => type.slug),
  );
  const otherFolders = contents.elements.some(
    (row) => row.id !== contents.root.id && folders.has(row.data.type),
  );
  return contents.elements.map((row) => {
    const data = row.data;
    const placed = placements.get(row.id);
    const parent =
      (placed && placed.parentId !== row.id ? contents.byId.get(placed.parentId) : null) ??
      nearestParent(row, contents) ??
      (row.id !== contents.root.id && !otherFolders ? contents.root : null);
    const page = placed ? contents.byId.get(placed.pageId) : null;
    const text = contents.texts.get(row.id);
    return {
      id: row.id,
      name: data.name,
      type: data.type,
      parent_id: parent?.id ?? null,
      parent_name: parent?.data.name ?? null,
      page_id: page?.id ?? null,
      page_name: page?.data.name ?? null,
      image_url: data.zone?.image.url ?? null,
      polygon: data.zone ? JSON.stringify(data.zone.polygon) : null,
      text: text?.text ?? null,
      text_confidence: text?.confidence ?? null,
      text_worker_run_id: text?.workerRunId ?? null,
      classifications: classificationsOf(row)
        .map((classification) => classification.ml_class.name)
        .join('; '),
      created: data.created,
      updated: contents.editedAt.get(row.id) ?? null,
    };
  });
}
