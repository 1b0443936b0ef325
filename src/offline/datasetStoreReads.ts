/**
 * Reads of dataset membership through the local store, as element reads are (elementReads.ts):
 * the server's answer is stored with the edits not sent yet kept over it, and the view is built
 * from the store, so an element seen once (or taken offline in a pack) shows its sets offline.
 */
import {
  fetchCorpusDatasets,
  fetchDataset,
  fetchDatasetElements,
  fetchElementSets,
  type CursorPage,
  type Dataset,
  type DatasetElement,
  type ElementDatasetSet,
} from '@/api/datasets';
import { saveCorpusDatasets, saveElementSets } from './datasetStore';
import type { FoliaDatabase } from './db';
import { NotAvailableOffline, tryNetwork, type ReadOptions } from './elementReads';
import { isTempId } from './outboxEntry';
import { currentId } from './remap';

/** GET /element/{id}/sets/?with_neighbors=true through the store. */
export async function readElementSets(
  db: FoliaDatabase,
  requested: string,
  options: ReadOptions,
): Promise<ElementDatasetSet[]> {
  const id = await currentId(db, requested);
  if (!isTempId(id)) {
    const answer = await tryNetwork(options, () => fetchElementSets(id, true));
    if (answer) await saveElementSets(db, id, answer);
    else if (!(await db.elementSets.get(id))) throw new NotAvailableOffline();
  }
  // Created here: in no set on the server, only in those it was put in here.
  return (await db.elementSets.get(id))?.sets ?? [];
}

/** A project's datasets through the store: offline, those last read (or kept by a pack). */
export async function readCorpusDatasets(
  db: FoliaDatabase,
  corpusId: string,
  options: ReadOptions,
): Promise<Dataset[]> {
  const answer = await tryNetwork(options, () => fetchCorpusDatasets(corpusId));
  if (answer) {
    await saveCorpusDatasets(db, corpusId, answer);
    return answer;
  }
  const stored = await db.datasets.where('ownerId').equals(corpusId).toArray();
  // Never read here: an empty list would pass for the truth.
  if (stored.length === 0 && !(await db.packs.where('corpusId').equals(corpusId).count())) {
    throw new NotAvailableOffline();
  }
  return stored
    .map((row) => row.data as Dataset)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** GET /datasets/{id}/ through the store: offline, the copy kept with its project's datasets. */
export async function readDataset(
  db: FoliaDatabase,
  id: string,
  options: ReadOptions,
): Promise<Dataset> {
  const answer = await tryNetwork(options, () => fetchDataset(id));
  if (answer) {
    await db.datasets.put({ id, ownerId: answer.corpus_id, data: answer, savedAt: Date.now() });
    return withQueuedMembership(db, answer);
  }
  const stored = await db.datasets.get(id);
  if (!stored) throw new NotAvailableOffline();
  return withQueuedMembership(db, stored.data as Dataset);
}

/**
 * The dataset's set sizes with the additions and removals this device has not sent yet, as
 * its set lists show them: a page taken out of train offline is no longer counted there.
 */
async function withQueuedMembership(db: FoliaDatabase, dataset: Dataset): Promise<Dataset> {
  const queued = await db.outbox.where('entityId').equals(dataset.id).toArray();
  const sizes = { ...dataset.set_elements };
  let changed = false;
  for (const entry of queued) {
    const step =
      entry.kind === 'dataset.element.add' ? 1 : entry.kind === 'dataset.element.remove' ? -1 : 0;
    const set = (entry.payload as { set?: unknown }).set;
    if (step === 0 || typeof set !== 'string' || !(set in sizes)) continue;
    sizes[set] = Math.max(0, sizes[set]! + step);
    changed = true;
  }
  return changed ? { ...dataset, set_elements: sizes } : dataset;
}

/** A page of a set's elements, marked when it holds only what this device keeps. */
export interface StoredSetPage extends CursorPage<DatasetElement> {
  /** Read offline: the elements of the set this device stores, all on this one page. */
  offline?: boolean;
}

/**
 * One page of a set's elements (ListDatasetElements). Offline, the elements this device keeps
 * that are in the set (a folder taken offline, pages opened before), by name as the server
 * lists them: a pack holds memberships, not whole sets of possibly 100 000 elements.
 */
export async function readSetElements(
  db: FoliaDatabase,
  datasetId: string,
  set: string,
  cursor: string | null,
  options: ReadOptions,
): Promise<StoredSetPage> {
  const answer = await tryNetwork(options, () => fetchDatasetElements(datasetId, set, cursor));
  if (answer) return answer;
  const offline = { next: null, previous: null, count: null, offline: true } as const;
  // The pages after the first were read online; offline there is only the one page.
  if (cursor) return { ...offline, results: [] };
  const rows = await db.elementSets.where('datasetIds').equals(datasetId).toArray();
  const ids = rows
    .filter((row) => row.sets.some((entry) => entry.dataset.id === datasetId && entry.set === set))
    .map((row) => row.id);
  const elements = (await db.elements.bulkGet(ids)).flatMap((row) => (row ? [row.data] : []));
  elements.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return { ...offline, results: elements.map((element) => ({ set, element })) };
}
