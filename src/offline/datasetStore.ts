/**
 * The local copy of dataset membership: the sets each element is in, and each project's
 * datasets. Edits made here change it at once; the server's answers replace it when read.
 */
import type { Dataset, ElementDatasetSet } from '@/api/datasets';
import type { FoliaDatabase, LocalElementSets } from './db';
import type {
  AddPrevious,
  MembershipPayload,
  RenamePrevious,
  SetRenamePayload,
} from './kinds/datasets';
import type { OutboxEntry } from './outboxEntry';

const sameEntry = (entry: ElementDatasetSet, datasetId: string, set: string) =>
  entry.dataset.id === datasetId && entry.set === set;

function row(id: string, sets: ElementDatasetSet[]): LocalElementSets {
  return {
    id,
    sets,
    datasetIds: [...new Set(sets.map((entry) => entry.dataset.id))],
    savedAt: Date.now(),
  };
}

/**
 * What the server answered, with the edits it has not applied yet (still in the outbox) over
 * it, in the order they were made: what this device shows until they are sent.
 */
export function withQueuedEdits(
  elementId: string,
  sets: readonly ElementDatasetSet[],
  queued: readonly OutboxEntry[],
): ElementDatasetSet[] {
  let result = [...sets];
  for (const entry of queued) {
    if (entry.kind === 'dataset.set.rename') {
      const { dataset, setId, name } = entry.payload as unknown as SetRenamePayload;
      const from = (entry.previous as RenamePrevious).name;
      result = result.map((item) =>
        item.dataset.id === dataset
          ? {
              ...item,
              set: item.set === from ? name : item.set,
              dataset: renamedDataset(item.dataset, setId, from, name),
            }
          : item,
      );
      continue;
    }
    const payload = entry.payload as unknown as MembershipPayload;
    if (payload.element !== elementId) continue;
    const present = result.some((item) => sameEntry(item, payload.dataset, payload.set));
    if (entry.kind === 'dataset.element.add' && !present) {
      const { dataset } = entry.previous as AddPrevious;
      result.push({ dataset, set: payload.set, previous: null, next: null });
    } else if (entry.kind === 'dataset.element.remove' && present) {
      result = result.filter((item) => !sameEntry(item, payload.dataset, payload.set));
    }
  }
  return result;
}

/**
 * The queued dataset edits that change what an element's sets look like here: its own
 * additions and removals, and the set renames of the datasets it is in.
 */
async function queuedFor(
  db: FoliaDatabase,
  elementId: string,
  sets: readonly ElementDatasetSet[],
): Promise<OutboxEntry[]> {
  const own = (await db.outbox.where('refIds').equals(elementId).toArray()).filter((entry) =>
    entry.kind.startsWith('dataset.'),
  );
  const datasets = new Set([...sets.map((item) => item.dataset.id), ...own.map((e) => e.entityId)]);
  const renames = (
    await db.outbox
      .where('entityId')
      .anyOf([...datasets])
      .toArray()
  ).filter((entry) => entry.kind === 'dataset.set.rename');
  return [...own, ...renames].sort((a, b) => a.seq! - b.seq!);
}

/**
 * Stores what the server answered for an element (a read, or an offline pack), with the edits
 * not sent yet kept over it.
 */
export async function saveElementSets(
  db: FoliaDatabase,
  elementId: string,
  sets: ElementDatasetSet[],
): Promise<void> {
  await db.transaction('rw', [db.elementSets, db.outbox], async () => {
    const queued = await queuedFor(db, elementId, sets);
    await db.elementSets.put(row(elementId, withQueuedEdits(elementId, sets, queued)));
  });
}

/** Puts the element in the set here; neighbours are unknown until the server is asked. */
export async function addMembership(
  db: FoliaDatabase,
  elementId: string,
  dataset: Dataset,
  set: string,
  entry?: ElementDatasetSet,
): Promise<void> {
  const known = (await db.elementSets.get(elementId))?.sets ?? [];
  if (known.some((other) => sameEntry(other, dataset.id, set))) return;
  await db.elementSets.put(
    row(elementId, [...known, entry ?? { dataset, set, previous: null, next: null }]),
  );
}

/** Takes the element out of the set here; returns the entry it had, to put back on discard. */
export async function removeMembership(
  db: FoliaDatabase,
  elementId: string,
  datasetId: string,
  set: string,
): Promise<ElementDatasetSet | null> {
  const known = await db.elementSets.get(elementId);
  const removed = known?.sets.find((entry) => sameEntry(entry, datasetId, set)) ?? null;
  if (!known || !removed) return null;
  await db.elementSets.put(
    row(
      elementId,
      known.sets.filter((entry) => entry !== removed),
    ),
  );
  return removed;
}

function renamedDataset(dataset: Dataset, setId: string, from: string, to: string): Dataset {
  const counts = { ...dataset.set_elements };
  if (from in counts) {
    counts[to] = counts[from]!;
    delete counts[from];
  }
  return {
    ...dataset,
    sets: dataset.sets.map((set) => (set.id === setId ? { ...set, name: to } : set)),
    set_elements: counts,
  };
}

/** Renames a set in the stored dataset and in every membership naming it. */
export async function renameSetHere(
  db: FoliaDatabase,
  datasetId: string,
  setId: string,
  from: string,
  to: string,
): Promise<void> {
  const stored = await db.datasets.get(datasetId);
  if (stored) {
    await db.datasets.put({
      ...stored,
      data: renamedDataset(stored.data as Dataset, setId, from, to),
    });
  }
  await db.elementSets
    .where('datasetIds')
    .equals(datasetId)
    .modify((element) => {
      element.sets = element.sets.map((entry) =>
        entry.dataset.id !== datasetId
          ? entry
          : {
              ...entry,
              set: entry.set === from ? to : entry.set,
              dataset: renamedDataset(entry.dataset, setId, from, to),
            },
      );
    });
}

/** Stores a project's datasets as the server listed them (read online, or for a pack). */
export async function saveCorpusDatasets(
  db: FoliaDatabase,
  corpusId: string,
  datasets: Dataset[],
): Promise<void> {
  await db.transaction('rw', db.datasets, async () => {
    await db.datasets.where('ownerId').equals(corpusId).delete();
    await db.datasets.bulkPut(
      datasets.map((dataset) => ({
        id: dataset.id,
        ownerId: corpusId,
        data: dataset,
        savedAt: Date.now(),
      })),
    );
  });
}

/** Tables the membership edits write, for the transactions that apply or discard them. */
export const DATASET_TABLES = ['elementSets', 'datasets'] as const;

/** Stores the server's answers for many elements at once (an offline pack), as saveElementSets. */
export async function saveManyElementSets(
  db: FoliaDatabase,
  found: ReadonlyMap<string, ElementDatasetSet[]>,
): Promise<void> {
  await db.transaction('rw', [db.elementSets, db.outbox], async () => {
    const queued = (await db.outbox.toArray())
      .filter((entry) => entry.kind.startsWith('dataset.'))
      .sort((a, b) => a.seq! - b.seq!);
    await db.elementSets.bulkPut(
      [...found].map(([id, sets]) => row(id, withQueuedEdits(id, sets, queued))),
    );
  });
}
