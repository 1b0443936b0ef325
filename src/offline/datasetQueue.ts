/**
 * The local part of the dataset edits (datasetEdits.ts): applied to the local store and queued
 * in the outbox in one transaction, for any database (tests give theirs). Nothing here talks to
 * the network.
 */
import type { Dataset } from '@/api/datasets';
import { addMembership, DATASET_TABLES, removeMembership, renameSetHere } from './datasetStore';
import type { FoliaDatabase } from './db';
import type {
  AddPrevious,
  MembershipPayload,
  RemovePrevious,
  RenamePrevious,
  SetRenamePayload,
} from './kinds/datasets';
import { newEntry } from './newEntry';
import type { OutboxEntry } from './outboxEntry';

export interface AddInput {
  dataset: Dataset;
  set: string;
  element: { id: string; name: string; type: string };
}

export interface RemoveInput {
  dataset: Dataset;
  set: string;
  elementId: string;
}

export interface RenameInput {
  dataset: Dataset;
  setId: string;
  name: string;
}

const unsent = (entry: OutboxEntry) => entry.status === 'pending' && entry.attempts === 0;

/** The dataset's unsent edit of this kind for this element and set, which a new one may undo. */
async function unsentMembership(
  db: FoliaDatabase,
  kind: OutboxEntry['kind'],
  payload: MembershipPayload,
): Promise<OutboxEntry | undefined> {
  const entries = await db.outbox.where('entityId').equals(payload.dataset).sortBy('seq');
  const last = entries.at(-1);
  if (!last || last.kind !== kind || !unsent(last)) return undefined;
  const queued = last.payload as unknown as MembershipPayload;
  return queued.element === payload.element && queued.set === payload.set ? last : undefined;
}

const tables = (db: FoliaDatabase) => [db.outbox, ...DATASET_TABLES.map((name) => db.table(name))];

/** The local part of each edit; each returns the seq it queued, or null when it undid one. */
export const inDb = {
  async addElementToSet(db: FoliaDatabase, input: AddInput): Promise<number | null> {
    const { dataset, set, element } = input;
    const payload: MembershipPayload = {
      dataset: dataset.id,
      datasetName: dataset.name,
      set,
      element: element.id,
      elementName: element.name,
      elementType: element.type,
    };
    return db.transaction('rw', tables(db), async () => {
      // Taken out a moment ago and never sent: putting it back is no change at all.
      const removal = await unsentMembership(db, 'dataset.element.remove', payload);
      if (removal) {
        const before = (removal.previous as RemovePrevious).entry;
        await addMembership(db, element.id, dataset, set, before ?? undefined);
        await db.outbox.delete(removal.seq!);
        return null;
      }
      await addMembership(db, element.id, dataset, set);
      const previous: AddPrevious = { dataset };
      return db.outbox.add(
        newEntry(
          'dataset.element.add',
          dataset.id,
          dataset.corpus_id,
          payload as unknown as Record<string, unknown>,
          previous,
          `Add “${element.name}” to ${set} of “${dataset.name}”`,
        ),
      );
    });
  },

  async removeElementFromSet(db: FoliaDatabase, input: RemoveInput): Promise<number | null> {
    const { dataset, set, elementId } = input;
    const payload: MembershipPayload = {
      dataset: dataset.id,
      datasetName: dataset.name,
      set,
      element: elementId,
    };
    return db.transaction('rw', tables(db), async () => {
      const removed = await removeMembership(db, elementId, dataset.id, set);
      // Added here and never sent: the server never needs to hear of it.
      const addition = await unsentMembership(db, 'dataset.element.add', payload);
      if (addition) {
        await db.outbox.delete(addition.seq!);
        return null;
      }
      const previous: RemovePrevious = { entry: removed };
      return db.outbox.add(
        newEntry(
          'dataset.element.remove',
          dataset.id,
          dataset.corpus_id,
          payload as unknown as Record<string, unknown>,
          previous,
          `Remove an element from ${set} of “${dataset.name}”`,
        ),
      );
    });
  },

  async renameSet(db: FoliaDatabase, input: RenameInput): Promise<number | null> {
    const { dataset, setId, name } = input;
    const current = dataset.sets.find((set) => set.id === setId);
    if (!current) throw new Error(`Set ${setId} is not in dataset ${dataset.id}.`);
    return db.transaction('rw', tables(db), async () => {
      const entries = await db.outbox.where('entityId').equals(dataset.id).sortBy('seq');
      const last = entries.at(-1);
      const lastPayload = last?.payload as unknown as SetRenamePayload | undefined;
      // The name the user saw and changed.
      const from = current.name;
      if (from === name) return null;
      await renameSetHere(db, dataset.id, setId, from, name);
      if (
        last &&
        last.kind === 'dataset.set.rename' &&
        unsent(last) &&
        lastPayload?.setId === setId
      ) {
        // Renamed again before the first reached the server: one request with the last name.
        const original = (last.previous as RenamePrevious).name;
        if (original === name) {
          await db.outbox.delete(last.seq!);
          return null;
        }
        await db.outbox.update(last.seq!, {
          payload: { ...last.payload, name },
          label: renameLabel(dataset, original, name),
        });
        return last.seq!;
      }
      const payload: SetRenamePayload = {
        dataset: dataset.id,
        datasetName: dataset.name,
        setId,
        name,
      };
      const previous: RenamePrevious = { name: from };
      return db.outbox.add(
        newEntry(
          'dataset.set.rename',
          dataset.id,
          dataset.corpus_id,
          payload as unknown as Record<string, unknown>,
          previous,
          renameLabel(dataset, from, name),
        ),
      );
    });
  },
};

function renameLabel(dataset: Dataset, from: string, to: string): string {
  return `Rename set ${from} of “${dataset.name}” to ${to}`;
}
