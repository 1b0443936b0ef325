/**
 * Every change the app makes to transcriptions, classifications and metadata: applied to the
 * local store and appended to the outbox in one Dexie transaction, as element edits are
 * (elementEdits.ts). Nothing here talks to the network.
 */
import type {
  Element,
  ElementClassification,
  ElementMetadataItem,
  TextOrientation,
  Transcription,
} from '@/api/types';
import type { FoliaDatabase, LocalRecord } from './db';
import { changeClassifications, type ClassificationPayload } from './kinds/classifications';
import type { RecordCreatePayload, RecordTable } from './kinds/records';
import { neverSent, newEntry, unsentTail } from './newEntry';
import { isTempId, newTempId, type OutboxKind } from './outboxEntry';
import { currentId } from './remap';

type RecordKinds = { create: OutboxKind; update: OutboxKind; delete: OutboxKind };

const KINDS: Record<RecordTable, RecordKinds> = {
  transcriptions: {
    create: 'transcription.create',
    update: 'transcription.update',
    delete: 'transcription.delete',
  },
  metadata: { create: 'metadata.create', update: 'metadata.update', delete: 'metadata.delete' },
};

async function requireRecord(
  db: FoliaDatabase,
  table: RecordTable,
  id: string,
): Promise<LocalRecord> {
  const row = await db[table].get(id);
  if (!row) throw new Error(`${id} is not in the local store.`);
  return row;
}

/** A new transcription or metadata under an element; its id is temporary until sent. */
async function createRecord(
  db: FoliaDatabase,
  table: RecordTable,
  element: { id: string; corpusId: string },
  body: Record<string, unknown>,
  shown: Record<string, unknown>,
  label: string,
): Promise<string> {
  const id = newTempId();
  await db.transaction('rw', [db[table], db.outbox], async () => {
    await db[table].put({
      id,
      ownerId: element.id,
      data: { ...shown, id },
      savedAt: Date.now(),
      lastModified: null,
      local: true,
    });
    const payload: RecordCreatePayload = { element: element.id, body };
    await db.outbox.add(
      newEntry(
        KINDS[table].create,
        id,
        element.corpusId,
        payload as unknown as Record<string, unknown>,
        null,
        label,
      ),
    );
  });
  return id;
}

/**
 * Changes fields of one; a change not sent yet takes the new values instead of a new request.
 * Returns the id it goes by now (the server's, when the one given was temporary and replayed).
 */
async function updateRecord(
  db: FoliaDatabase,
  table: RecordTable,
  given: string,
  corpusId: string,
  changes: Record<string, unknown>,
  label: (data: Record<string, unknown>) => string,
): Promise<string> {
  return db.transaction('rw', [db[table], db.outbox, db.idMap], async () => {
    const id = await currentId(db, given);
    const row = await requireRecord(db, table, id);
    const before = row.data as Record<string, unknown>;
    const data = { ...before, ...changes };
    await db[table].update(id, { data });
    const tail = await unsentTail(db, id);
    if (tail?.kind === KINDS[table].create) {
      const payload = tail.payload as unknown as RecordCreatePayload;
      await db.outbox.update(tail.seq!, {
        payload: { ...payload, body: { ...payload.body, ...changes } },
        label: label(data),
      });
      return id;
    }
    if (tail?.kind === KINDS[table].update) {
      await db.outbox.update(tail.seq!, {
        payload: { changes: { ...(tail.payload.changes as object), ...changes } },
        label: label(data),
      });
      return id;
    }
    await db.outbox.add(newEntry(KINDS[table].update, id, corpusId, { changes }, row, label(data)));
    return id;
  });
}

/** Deletes one; one never sent just vanishes with its queued edits. Returns its id now. */
async function deleteRecord(
  db: FoliaDatabase,
  table: RecordTable,
  given: string,
  corpusId: string,
  label: string,
): Promise<string> {
  return db.transaction('rw', [db[table], db.outbox, db.idMap], async () => {
    const id = await currentId(db, given);
    const row = await requireRecord(db, table, id);
    await db[table].delete(id);
    if (row.local && (await neverSent(db, id))) {
      await db.outbox.where('entityId').equals(id).delete();
      return id;
    }
    // Changes not sent yet are pointless once it is gone.
    const unsent = await db.outbox
      .where('entityId')
      .equals(id)
      .filter((e) => e.kind === KINDS[table].update && e.status === 'pending' && e.attempts === 0)
      .primaryKeys();
    await db.outbox.bulkDelete(unsent);
    await db.outbox.add(newEntry(KINDS[table].delete, id, corpusId, {}, row, label));
    return id;
  });
}

const quoted = (text: string) => `“${text.length > 40 ? `${text.slice(0, 39)}…` : text}”`;

export interface ElementRefForEdit {
  id: string;
  corpusId: string;
}

export function createTranscription(
  db: FoliaDatabase,
  element: ElementRefForEdit,
  text: string,
  orientation: TextOrientation,
): Promise<string> {
  const shown: Omit<Transcription, 'id'> = {
    text,
    orientation,
    confidence: null,
    worker_run: null,
    entity_count: 0,
  };
  return createRecord(
    db,
    'transcriptions',
    element,
    { text, orientation },
    shown as unknown as Record<string, unknown>,
    `New transcription ${quoted(text)}`,
  );
}

export function updateTranscription(
  db: FoliaDatabase,
  id: string,
  corpusId: string,
  changes: Partial<Pick<Transcription, 'text' | 'orientation'>>,
): Promise<string> {
  return updateRecord(
    db,
    'transcriptions',
    id,
    corpusId,
    changes,
    (data) => `Transcription ${quoted(String(data.text))}`,
  );
}

export async function deleteTranscription(
  db: FoliaDatabase,
  id: string,
  corpusId: string,
): Promise<string> {
  const row = await db.transcriptions.get(await currentId(db, id));
  const text = String((row?.data as Transcription | undefined)?.text ?? '');
  return deleteRecord(db, 'transcriptions', id, corpusId, `Delete transcription ${quoted(text)}`);
}

export function createMetadata(
  db: FoliaDatabase,
  element: ElementRefForEdit,
  metadata: Pick<ElementMetadataItem, 'type' | 'name' | 'value'>,
): Promise<string> {
  return createRecord(
    db,
    'metadata',
    element,
    { ...metadata },
    { ...metadata, dates: [], worker_run: null },
    `New metadata ${quoted(metadata.name)}`,
  );
}

export function updateMetadata(
  db: FoliaDatabase,
  id: string,
  corpusId: string,
  changes: Partial<Pick<ElementMetadataItem, 'type' | 'name' | 'value'>>,
): Promise<string> {
  return updateRecord(
    db,
    'metadata',
    id,
    corpusId,
    changes,
    (data) => `Metadata ${quoted(String(data.name))}`,
  );
}

export async function deleteMetadata(
  db: FoliaDatabase,
  id: string,
  corpusId: string,
): Promise<string> {
  const row = await db.metadata.get(await currentId(db, id));
  const name = String((row?.data as ElementMetadataItem | undefined)?.name ?? '');
  return deleteRecord(db, 'metadata', id, corpusId, `Delete metadata ${quoted(name)}`);
}

/** A manual classification, shown at once as validated with confidence 1 (as the server makes it). */
export async function createClassification(
  db: FoliaDatabase,
  element: ElementRefForEdit,
  mlClass: { id: string; name: string },
): Promise<string> {
  const id = newTempId();
  await db.transaction('rw', [db.elements, db.outbox], async () => {
    const shown: ElementClassification = {
      id,
      ml_class: mlClass,
      state: 'validated',
      confidence: 1,
      high_confidence: true,
      worker_run: null,
    };
    await changeClassifications(db, element.id, (list) => [...list, shown]);
    const payload: ClassificationPayload = { element: element.id, ml_class: mlClass };
    await db.outbox.add(
      newEntry(
        'classification.create',
        id,
        element.corpusId,
        payload as unknown as Record<string, unknown>,
        null,
        `Classify as ${quoted(mlClass.name)}`,
      ),
    );
  });
  return id;
}

/**
 * Validates or rejects a classification. Rejecting a manual one deletes it (the server answers
 * 204); a manual one never sent just vanishes with its creation.
 */
export async function moderateClassification(
  db: FoliaDatabase,
  element: ElementRefForEdit,
  id: string,
  action: 'validate' | 'reject',
): Promise<void> {
  await db.transaction('rw', [db.elements, db.outbox], async () => {
    const row = await db.elements.get(element.id);
    const list = (row?.data as Element | undefined)?.classifications ?? [];
    const current = list.find((item) => item.id === id);
    if (!current) throw new Error(`Classification ${id} is not in the local store.`);
    const manual = current.worker_run === null;
    if (action === 'reject' && manual) {
      await changeClassifications(db, element.id, (items) => items.filter((c) => c.id !== id));
      // Only one made here and never sent can vanish: one the server has must be rejected there.
      if (isTempId(id) && (await neverSent(db, id))) {
        await db.outbox.where('entityId').equals(id).delete();
        return;
      }
    } else {
      const state = action === 'validate' ? 'validated' : 'rejected';
      await changeClassifications(db, element.id, (items) =>
        items.map((item) => (item.id === id ? { ...item, state } : item)),
      );
    }
    const payload: ClassificationPayload = { element: element.id, ml_class: current.ml_class };
    await db.outbox.add(
      newEntry(
        action === 'validate' ? 'classification.validate' : 'classification.reject',
        id,
        element.corpusId,
        payload as unknown as Record<string, unknown>,
        current,
        `${action === 'validate' ? 'Validate' : 'Reject'} ${quoted(current.ml_class.name)}`,
      ),
    );
  });
}
