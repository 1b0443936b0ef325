/**
 * Reads of an element's transcriptions and metadata, and of a project's ML classes and allowed
 * metadata, through the local store: each answer is written in one transaction and the view is
 * built from the store, with the edits not sent yet over it, so whatever was seen opens offline.
 */
import { apiConditional, type Page } from '@/api/client';
import type { AllowedMetadata, ElementMetadataItem, MlClassRef, Transcription } from '@/api/types';
import type { FoliaDatabase, LocalRecord } from './db';
import { later } from './httpDates';
import { NotAvailableOffline, tryNetwork, type ReadOptions } from './elementReads';
import { isTempId } from './outboxEntry';

type Table = 'transcriptions' | 'metadata' | 'classes' | 'allowedMetadata';

/**
 * Every page of a paginated list, or the array a list endpoint answers. The Last-Modified kept
 * is the latest of the pages': each page's is the version of the entities it lists.
 */
async function fetchAll<T>(path: string, query: Record<string, string | number | boolean>) {
  const all: T[] = [];
  let lastModified: string | null = null;
  for (let page = 1; page <= 50; page += 1) {
    const answer = await apiConditional<Page<T> | T[]>(path, { query: { ...query, page } });
    lastModified = later(lastModified, answer.lastModified);
    const data = answer.data;
    if (Array.isArray(data)) return { items: data, lastModified };
    if (!data) break;
    all.push(...data.results);
    if (!data.next) break;
  }
  return { items: all, lastModified };
}

/** What a list answer says of the version of what it lists. */
export interface ListVersion {
  /** The list's Last-Modified: the version edits of its items are based on. */
  lastModified: string | null;
  /** When the list was asked for: a row saved since (an edit's answer) is newer. */
  requestedAt: number;
}

/**
 * Replaces an owner's rows with the server's, in one transaction, except those with edits on
 * the way (and those created here), and those saved after the list was asked for: their local
 * version is newer than the answer.
 */
async function storeOwned(
  db: FoliaDatabase,
  table: Table,
  ownerId: string,
  items: { id: string }[],
  version?: ListVersion,
): Promise<void> {
  await db.transaction('rw', [db[table], db.outbox], async () => {
    const queued = new Set(
      (await db.outbox.toArray()).flatMap((entry) => [entry.entityId, ...entry.refIds]),
    );
    const known = await db[table].where('ownerId').equals(ownerId).toArray();
    const newer = (row: LocalRecord) => !!version && row.savedAt > version.requestedAt;
    const keptHere = new Set(
      known.filter((row) => row.local || queued.has(row.id) || newer(row)).map((r) => r.id),
    );
    const gone = known.filter((row) => !keptHere.has(row.id)).map((row) => row.id);
    const createdAs = new Map(known.map((row) => [row.id, row.createdAs]));
    await db[table].bulkDelete(gone);
    const now = Date.now();
    // savedAt in the server's order: rows read back sorted by it keep that order.
    await db[table].bulkPut(
      items
        .filter((item) => !keptHere.has(item.id) && !deletedHere(queued, item.id))
        .map((item, i): LocalRecord => ({
          id: item.id,
          ownerId,
          data: item,
          savedAt: now - items.length + i,
          lastModified: version?.lastModified ?? null,
          ...(createdAs.get(item.id) && { createdAs: createdAs.get(item.id) }),
        })),
    );
  });
}

/** An item with a queued edit and no local row was deleted here. */
function deletedHere(queued: Set<string>, id: string): boolean {
  return queued.has(id);
}

async function readOwned<T extends { id: string }>(
  db: FoliaDatabase,
  table: Table,
  ownerId: string,
  path: string,
  query: Record<string, string | number | boolean>,
  options: ReadOptions,
): Promise<T[]> {
  // A marker that the list was read once, empty lists included (its owner key matches no element).
  const marker = `records:${table}:${ownerId}`;
  if (!isTempId(ownerId)) {
    const requestedAt = Date.now();
    const answer = await tryNetwork(options, () => fetchAll<T>(path, query));
    if (answer) {
      await storeOwned(db, table, ownerId, answer.items, {
        lastModified: answer.lastModified,
        requestedAt,
      });
      await db.lists.put({
        key: marker,
        ownerId: marker,
        ids: [],
        count: answer.items.length,
        lastModified: answer.lastModified,
        savedAt: Date.now(),
      });
    } else if (!(await db.lists.get(marker))) {
      // Never read on this device: an empty list would pass for the truth.
      throw new NotAvailableOffline();
    }
  }
  const rows = await db[table].where('ownerId').equals(ownerId).sortBy('savedAt');
  return rows.map((row) =>
    row.createdAs ? ({ ...(row.data as T), createdAs: row.createdAs } as T) : (row.data as T),
  );
}

/**
 * A record as the views get it: one created on this device keeps the temporary id it had, so a
 * view holding it (an open edit form) follows it when the server gives its own.
 */
export type Kept<T> = T & { createdAs?: string };

export function readTranscriptions(
  db: FoliaDatabase,
  elementId: string,
  options: ReadOptions,
): Promise<Kept<Transcription>[]> {
  return readOwned<Kept<Transcription>>(
    db,
    'transcriptions',
    elementId,
    `/element/${elementId}/transcriptions/`,
    { page_size: 100 },
    options,
  );
}

export function readMetadata(
  db: FoliaDatabase,
  elementId: string,
  options: ReadOptions,
): Promise<ElementMetadataItem[]> {
  return readOwned<ElementMetadataItem>(
    db,
    'metadata',
    elementId,
    `/element/${elementId}/metadata/`,
    {},
    options,
  );
}

export function readClasses(
  db: FoliaDatabase,
  corpusId: string,
  options: ReadOptions,
): Promise<MlClassRef[]> {
  return readOwned<MlClassRef>(
    db,
    'classes',
    corpusId,
    `/corpus/${corpusId}/classes/`,
    { page_size: 500 },
    options,
  );
}

export function readAllowedMetadata(
  db: FoliaDatabase,
  corpusId: string,
  options: ReadOptions,
): Promise<AllowedMetadata[]> {
  return readOwned<AllowedMetadata>(
    db,
    'allowedMetadata',
    corpusId,
    `/corpus/${corpusId}/allowed-metadata/`,
    { page_size: 500 },
    options,
  );
}

/** A transcription of a recursive list, which names the element it belongs to. */
type OwnedTranscription = Transcription & { element?: { id: string } | null };

/**
 * The transcriptions of every element below a page (its lines), by element id, in one request
 * (recursive=true); offline, those stored for the elements named.
 */
export async function readLineTranscriptions(
  db: FoliaDatabase,
  pageId: string,
  lineIds: readonly string[],
  options: ReadOptions,
): Promise<Record<string, Transcription[]>> {
  if (!isTempId(pageId)) {
    const requestedAt = Date.now();
    const answer = await tryNetwork(options, () =>
      fetchAll<OwnedTranscription>(`/element/${pageId}/transcriptions/`, {
        recursive: true,
        page_size: 500,
      }),
    );
    if (answer) {
      const byLine = new Map<string, OwnedTranscription[]>(lineIds.map((id) => [id, []]));
      for (const item of answer.items) {
        const owner = item.element?.id;
        if (owner && byLine.has(owner)) byLine.get(owner)!.push(item);
      }
      for (const [lineId, items] of byLine) {
        await storeOwned(db, 'transcriptions', lineId, items, {
          lastModified: answer.lastModified,
          requestedAt,
        });
        await markRead(db, 'transcriptions', lineId, items.length);
      }
    }
  }
  const rows = await db.transcriptions
    .where('ownerId')
    .anyOf([...lineIds])
    .sortBy('savedAt');
  const found: Record<string, Transcription[]> = Object.fromEntries(lineIds.map((id) => [id, []]));
  for (const row of rows) found[row.ownerId]?.push(row.data as Transcription);
  return found;
}

/**
 * Metadata that came with a list (with_metadata=true), stored as the element's metadata list
 * read: an element opened offline shows them.
 */
export async function storeListedMetadata(
  db: FoliaDatabase,
  items: readonly { id: string; metadata?: ElementMetadataItem[] }[],
  version: ListVersion,
): Promise<void> {
  for (const item of items) {
    if (!item.metadata) continue;
    await storeOwned(db, 'metadata', item.id, item.metadata, version);
    await markRead(db, 'metadata', item.id, item.metadata.length, version.lastModified);
  }
}

/** Marks a list read from elsewhere (a recursive list, a pack) as readOwned marks its own. */
async function markRead(
  db: FoliaDatabase,
  table: Table,
  ownerId: string,
  count: number,
  lastModified: string | null = null,
) {
  const key = `records:${table}:${ownerId}`;
  await db.lists.put({
    key,
    ownerId: key,
    ids: [],
    count,
    lastModified,
    savedAt: Date.now(),
  });
}
