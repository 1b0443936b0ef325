/**
 * Reads of dataset membership through the local store, as element reads are (elementReads.ts):
 * the server's answer is stored with the edits not sent yet kept over it, and the view is built
 * from the store, so an element seen once (or taken offline in a pack) shows its sets offline.
 */
import {
  fetchCorpusDatasets,
  fetchElementSets,
  type Dataset,
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
