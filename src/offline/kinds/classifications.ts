/**
 * Classification edits. Classifications live inside their element (GET /element/{id}/ lists
 * them), so the local copy is the element row's `classifications`; a creation made offline
 * shows there under a temporary id until the server gives its own.
 */
import type { Element, ElementClassification } from '@/api/types';
import type { FoliaDatabase } from '../db';
import { later } from '../httpDates';
import type { OutboxEntry } from '../outboxEntry';
import { remapTempId } from '../remap';
import type { KindDefinition } from './types';

export interface ClassificationPayload {
  element: string;
  ml_class: { id: string; name: string };
}

const elementOf = (entry: OutboxEntry) =>
  (entry.payload as unknown as ClassificationPayload).element;

/**
 * Changes the classifications of the element row, if this device has it. The row is dated now:
 * an element read asked for before (its answer still on the way) is older and does not replace it.
 * With the server's answer (`answeredAt`, its Date), a read answered before it is older too: the
 * element's version does not move with its classifications, so only the date tells.
 */
export async function changeClassifications(
  db: FoliaDatabase,
  elementId: string,
  change: (list: ElementClassification[]) => ElementClassification[],
  answeredAt?: string | null,
): Promise<void> {
  await db.elements.update(elementId, (row) => {
    const data = row.data as Element;
    row.data = { ...data, classifications: change(data.classifications ?? []) } as Element;
    row.savedAt = Date.now();
    if (answeredAt) row.seenAt = later(answeredAt, row.seenAt);
  });
}

const replace = (id: string, next: ElementClassification) => (list: ElementClassification[]) =>
  list.map((item) => (item.id === id ? next : item));

async function hasClassification(db: FoliaDatabase, entry: OutboxEntry): Promise<boolean> {
  const row = await db.elements.get(elementOf(entry));
  const list = (row?.data as Element | undefined)?.classifications ?? [];
  return list.some((item) => item.id === entry.entityId);
}

export const classificationCreate: KindDefinition = {
  refs: (entry) => [elementOf(entry)],
  request: (entry) => {
    const payload = entry.payload as unknown as ClassificationPayload;
    return {
      method: 'POST',
      path: '/classifications/',
      body: { element: payload.element, ml_class: payload.ml_class.id },
    };
  },
  conditional: false,
  goneHere: async (db, entry) => !(await hasClassification(db, entry)),
  async applied(db, entry, response) {
    const created = response.body as ElementClassification & { ml_class: unknown };
    await remapTempId(db, entry.entityId, created.id);
    const payload = entry.payload as unknown as ClassificationPayload;
    const shown: ElementClassification = {
      ...created,
      // Some servers answer the class as an id: the name the user picked is kept.
      ml_class:
        typeof created.ml_class === 'object' && created.ml_class
          ? (created.ml_class as ElementClassification['ml_class'])
          : payload.ml_class,
    };
    await changeClassifications(db, payload.element, replace(entry.entityId, shown), response.date);
  },
  async discard(db, entry) {
    await changeClassifications(db, elementOf(entry), (list) =>
      list.filter((item) => item.id !== entry.entityId),
    );
  },
};

function moderation(action: 'validate' | 'reject'): KindDefinition {
  return {
    refs: () => [],
    request: (entry) => ({
      method: 'PUT',
      path: `/classifications/${entry.entityId}/${action}/`,
    }),
    conditional: false,
    goneIsDone: action === 'reject',
    goneHere: async (db, entry) => !(await hasClassification(db, entry)),
    async applied(db, entry, response) {
      // 204: a manual classification rejected is deleted, as it already is here.
      if (response.status === 204 || !response.body) {
        await changeClassifications(
          db,
          elementOf(entry),
          (list) => list.filter((item) => item.id !== entry.entityId),
          response.date,
        );
        return;
      }
      const answer = response.body as ElementClassification;
      await changeClassifications(
        db,
        elementOf(entry),
        (list) =>
          list.map((item) =>
            item.id === entry.entityId
              ? { ...item, ...answer, ml_class: item.ml_class, worker_run: item.worker_run }
              : item,
          ),
        response.date,
      );
    },
    async discard(db, entry) {
      const previous = entry.previous as ElementClassification | null;
      if (!previous) return;
      await changeClassifications(db, elementOf(entry), (list) =>
        list.some((item) => item.id === previous.id)
          ? replace(previous.id, previous)(list)
          : [...list, previous],
      );
    },
  };
}

export const classificationValidate = moderation('validate');
export const classificationReject = moderation('reject');
