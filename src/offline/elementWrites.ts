/**
 * The element writes the app's forms make, with the API client's signatures, going through
 * the outbox (submitEdit): applied here first, sent now when the API answers, later otherwise.
 */
import type { ElementCreate, ElementUpdate, WriteOutcome } from '@/api/elements';
import type { Element, ElementListItem } from '@/api/types';
import * as edits from './elementEdits';
import { offlineRuntime } from './runtime';
import { submitEdit, type EditOutcome } from './submitEdit';

function writeOutcome(outcome: EditOutcome): WriteOutcome {
  return outcome.state === 'applied' && outcome.status === 202 ? 'scheduled' : 'done';
}

/**
 * The element as the store has it after the edit (under its server id once sent). One read
 * transaction: a replay running meanwhile (another tab's, or the scheduler's own) may give a
 * creation its server id between two separate reads, leaving neither the mapping nor the
 * temporary row to be seen.
 */
async function stored(id: string): Promise<Element> {
  const { db } = offlineRuntime;
  const row = await db.transaction('r', [db.idMap, db.elements], async () => {
    const mapped = (await db.idMap.get(id))?.serverId ?? id;
    return db.elements.get(mapped);
  });
  if (!row) throw new Error(`Element ${id} is not in the local store.`);
  return { rights: [], classifications: [], ...row.data } as Element;
}

export async function createElement(
  body: ElementCreate & { zone?: ElementListItem['zone'] },
): Promise<Element> {
  let id = '';
  await submitEdit(offlineRuntime, async () => {
    id = await edits.createElement(offlineRuntime.db, {
      corpus: body.corpus,
      parent: body.parent ?? null,
      type: body.type,
      name: body.name,
      image: body.image,
      polygon: body.polygon,
      zone: body.zone,
    });
    return id;
  });
  return stored(id);
}

export async function updateElement(id: string, patch: ElementUpdate): Promise<Element> {
  await submitEdit(offlineRuntime, async () => {
    await edits.updateElement(offlineRuntime.db, id, patch);
    return id;
  });
  return stored(id);
}

export async function deleteElement(id: string, deleteChildren: boolean): Promise<WriteOutcome> {
  return writeOutcome(
    await submitEdit(offlineRuntime, async () => {
      await edits.deleteElement(offlineRuntime.db, id, deleteChildren);
      return id;
    }),
  );
}

export async function moveElement(source: string, destination: string): Promise<WriteOutcome> {
  return writeOutcome(
    await submitEdit(offlineRuntime, async () => {
      await edits.moveElement(offlineRuntime.db, source, destination);
      return source;
    }),
  );
}

export async function linkElement(childId: string, parentId: string): Promise<WriteOutcome> {
  return writeOutcome(
    await submitEdit(offlineRuntime, async () => {
      await edits.linkElement(offlineRuntime.db, childId, parentId);
      return childId;
    }),
  );
}
