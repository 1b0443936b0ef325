/**
 * What this device holds of a pack (a page or a folder taken offline), as the user sees it:
 * the rows of the local store, where edits not yet sent are already applied (elements created,
 * renamed, reshaped or deleted here, transcriptions and classifications changed here).
 */
import type {
  Corpus,
  Element,
  ElementClassification,
  ElementListItem,
  Transcription,
} from '@/api/types';
import { chooseTranscription } from '@/lib/exports/layout';
import type { FoliaDatabase, LocalElement, PackRow } from '../db';
import { listKey } from '../elementReads';
import { packListKey, pagesOnImages } from '../packs';
import { ZONES_QUERY, MAX_ZONE_PAGES } from '../zoneReads';

export interface ChosenText {
  text: string;
  confidence: number | null;
  workerRunId: string | null;
}

export interface PackContents {
  pack: PackRow;
  corpus: Corpus | null;
  root: LocalElement;
  /** The root and every element of the pack on this device, the root first, then as listed. */
  elements: LocalElement[];
  byId: Map<string, LocalElement>;
  /** The pages: elements on an image no other element's zone there contains, in list order. */
  pageIds: string[];
  /** Each element's exported transcription (layout.ts chooseTranscription). */
  texts: Map<string, ChosenText>;
  /** The latest edit queued here on an element or its transcriptions, by element (ISO). */
  editedAt: Map<string, string>;
}

export class PackNotOnDevice extends Error {
  override readonly name = 'PackNotOnDevice';
  constructor() {
    super('This pack is no longer on this device.');
  }
}

export function classificationsOf(row: LocalElement): ElementClassification[] {
  const data = row.data as Partial<Element>;
  if (row.full && Array.isArray(data.classifications)) return data.classifications;
  return data.classes ?? data.classifications ?? [];
}

/** Ids a stored list of `ownerId` holds, every stored page of it in order. */
async function zoneListIds(db: FoliaDatabase, pageId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page <= MAX_ZONE_PAGES; page += 1) {
    const list = await db.lists.get(listKey('children', pageId, { ...ZONES_QUERY, page }));
    if (!list) break;
    ids.push(...list.ids);
  }
  return ids;
}

/**
 * Reads a pack. Its members are the descendants it listed, those the device saw under them
 * since (a children list, a page's zones), and those created here under any of them.
 */
export async function readPackContents(db: FoliaDatabase, packId: string): Promise<PackContents> {
  const [pack, root] = await Promise.all([db.packs.get(packId), db.elements.get(packId)]);
  if (!pack || !root) throw new PackNotOnDevice();
  const corpus = (await db.corpora.get(pack.corpusId))?.data ?? null;
  const listed = (await db.lists.get(packListKey(packId)))?.ids ?? [];

  const byId = new Map<string, LocalElement>([[root.id, root]]);
  // Deleted here: no row left, so it is left out.
  for (const row of await db.elements.bulkGet(listed)) if (row) byId.set(row.id, row);
  // Downwards through the recorded parents, level by level (one index read per level).
  let level = [...byId.keys()];
  while (level.length > 0) {
    const found = await db.elements.where('parentIds').anyOf(level).toArray();
    level = [];
    for (const row of found) {
      if (byId.has(row.id) || row.corpusId !== pack.corpusId) continue;
      byId.set(row.id, row);
      level.push(row.id);
    }
  }
  const elements = [...byId.values()];
  const folders = new Set(
    (corpus?.types ?? []).filter((type) => type.folder).map((type) => type.slug),
  );
  const onImages = pagesOnImages(
    elements.filter((row) => !folders.has(row.data.type)).map((row) => row.data as ElementListItem),
  );
  const pageIds = elements.filter((row) => onImages.has(row.id)).map((row) => row.id);

  const ids = elements.map((row) => row.id);
  const records = await db.transcriptions.where('ownerId').anyOf(ids).toArray();
  const byOwner = new Map<string, { row: Transcription; savedAt: number }[]>();
  for (const record of records) {
    const list = byOwner.get(record.ownerId) ?? [];
    list.push({ row: record.data as Transcription, savedAt: record.savedAt });
    byOwner.set(record.ownerId, list);
  }
  const texts = new Map<string, ChosenText>();
  const ownerOfTranscription = new Map<string, string>();
  for (const [owner, list] of byOwner) {
    const choice = chooseTranscription(
      list.map(({ row, savedAt }) => ({
        id: row.id,
        worker_run_id: row.worker_run?.id ?? null,
        confidence: row.confidence ?? null,
        // The API gives no date: when the device last stored it (an edit here is the latest).
        updated: new Date(savedAt).toISOString(),
        row,
      })),
    );
    for (const { row } of list) ownerOfTranscription.set(row.id, owner);
    if (choice) {
      texts.set(owner, {
        text: choice.row.text,
        confidence: choice.row.confidence ?? null,
        workerRunId: choice.worker_run_id,
      });
    }
  }

  const editedAt = new Map<string, string>();
  const entries = await db.outbox.where('refIds').anyOf([...ids, ...ownerOfTranscription.keys()]);
  await entries.each((entry) => {
    const owner = byId.has(entry.entityId)
      ? entry.entityId
      : ownerOfTranscription.get(entry.entityId);
    if (!owner) return;
    const at = new Date(entry.createdAt).toISOString();
    if (at > (editedAt.get(owner) ?? '')) editedAt.set(owner, at);
  });

  return { pack, corpus, root, elements, byId, pageIds, texts, editedAt };
}

/** The order of the elements on a page: its stored zones list (by position), then the rest. */
export async function readZoneOrder(
  db: FoliaDatabase,
  pageId: string,
): Promise<Map<string, number>> {
  return new Map((await zoneListIds(db, pageId)).map((id, index) => [id, index]));
}
