/**
 * Dataset membership and set names changed while reading: an element added to a set, taken out
 * of one, a set renamed. All the edits of one dataset are one entity in the outbox (its id), so
 * they reach the server in the order they were made: "take it out of train, put it in dev" in a
 * dataset of unique elements, or an element added to a set under its new name after a rename.
 */
import type { Dataset, ElementDatasetSet } from '@/api/datasets';
import { addMembership, removeMembership, renameSetHere } from '../datasetStore';
import type { OutboxEntry } from '../outboxEntry';
import type { KindDefinition } from './types';

/** What adding or removing queues; the names are for the Pending changes panel. */
export interface MembershipPayload {
  dataset: string;
  datasetName: string;
  set: string;
  element: string;
  /** Known when added from a page: the panel names it even if it is not stored here. */
  elementName?: string;
  elementType?: string;
}

export interface SetRenamePayload {
  dataset: string;
  datasetName: string;
  setId: string;
  name: string;
}

/** Kept on an addition: the dataset as it was, to show the membership before the server has it. */
export interface AddPrevious {
  dataset: Dataset;
}

/** Kept on a removal: the entry it took away (with its neighbours), put back on discard. */
export interface RemovePrevious {
  entry: ElementDatasetSet | null;
}

export interface RenamePrevious {
  name: string;
}

const membership = (entry: OutboxEntry) => entry.payload as unknown as MembershipPayload;
const rename = (entry: OutboxEntry) => entry.payload as unknown as SetRenamePayload;

export const datasetElementAdd: KindDefinition = {
  // An element created offline must have its server id first.
  refs: (entry) => [membership(entry).element],
  request: (entry) => {
    const { dataset, element, set } = membership(entry);
    return {
      method: 'POST',
      path: `/datasets/${dataset}/elements/`,
      body: { element_id: element, set },
    };
  },
  conditional: false,
  // The dataset has no copy in the elements table: a 404 is the server's word, shown as such.
  goneHere: async () => false,
  async applied() {
    // Already shown since it was queued; its neighbours come with the next read.
  },
  async discard(db, entry) {
    const { dataset, element, set } = membership(entry);
    await removeMembership(db, element, dataset, set);
  },
};

export const datasetElementRemove: KindDefinition = {
  refs: (entry) => [membership(entry).element],
  request: (entry) => {
    const { dataset, element, set } = membership(entry);
    return {
      method: 'DELETE',
      path: `/datasets/${dataset}/elements/${element}/`,
      query: { set },
    };
  },
  conditional: false,
  // Not in the set any more (removed there too, or the dataset is gone): what was asked.
  goneIsDone: true,
  async applied() {
    // Already removed here when queued.
  },
  async discard(db, entry) {
    const { element } = membership(entry);
    const removed = (entry.previous as RemovePrevious | null)?.entry;
    if (removed) await addMembership(db, element, removed.dataset, removed.set, removed);
  },
};

export const datasetSetRename: KindDefinition = {
  refs: () => [],
  request: (entry) => {
    const { dataset, setId, name } = rename(entry);
    return { method: 'PATCH', path: `/datasets/${dataset}/sets/${setId}/`, body: { name } };
  },
  conditional: false,
  goneHere: async () => false,
  async applied() {
    // Renamed here when queued.
  },
  async discard(db, entry) {
    const { dataset, setId, name } = rename(entry);
    const before = (entry.previous as RenamePrevious).name;
    await renameSetHere(db, dataset, setId, name, before);
  },
};
