import { localDb, type FoliaDatabase } from '@/offline/db';
import type { OutboxEntry } from '@/offline/outboxEntry';
import { useLiveQuery } from '@/offline/useLiveQuery';
import { elementIdsOf, type ElementFacts } from './describeChange';

export interface PendingChanges {
  /** False until the database first answered. */
  loaded: boolean;
  /** The outbox, in the order the edits were made (and are sent). */
  entries: OutboxEntry[];
  /** When an edit last reached the server; null: never from this browser. */
  lastSync: number | null;
  /** Project names as the elements in the local store know them, by project id. */
  projectNames: Record<string, string>;
  /** The elements the edits name (what they are about, parents, destinations), by id. */
  elements: Record<string, ElementFacts>;
}

const LOADING: PendingChanges = {
  loaded: false,
  entries: [],
  lastSync: null,
  projectNames: {},
  elements: {},
};

/**
 * Elements of a project read from the server carry the project's name (those made here do
 * not): a few are enough to find it, however many the project holds.
 */
async function projectName(db: FoliaDatabase, corpusId: string): Promise<string | null> {
  const some = await db.elements.where('corpusId').equals(corpusId).limit(20).toArray();
  return some.find((element) => element.data.corpus.name)?.data.corpus.name ?? null;
}

async function readPendingChanges(db: FoliaDatabase): Promise<PendingChanges> {
  const [entries, lastSync] = await Promise.all([
    db.outbox.orderBy('seq').toArray(),
    db.syncState.get('lastSync'),
  ]);
  const projectNames: Record<string, string> = {};
  for (const corpusId of new Set(entries.map((entry) => entry.corpusId))) {
    const name = await projectName(db, corpusId);
    if (name) projectNames[corpusId] = name;
  }
  const ids = [...new Set(entries.flatMap(elementIdsOf))];
  const elements: Record<string, ElementFacts> = {};
  for (const row of await db.elements.bulkGet(ids)) {
    if (row) elements[row.id] = { name: row.data.name, type: row.data.type };
  }
  return { loaded: true, entries, lastSync: lastSync?.at ?? null, projectNames, elements };
}

/** The outbox as it is now, in this tab or another one replaying it. */
export function usePendingChanges(): PendingChanges {
  return useLiveQuery(() => readPendingChanges(localDb), [], LOADING);
}
