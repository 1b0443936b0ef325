/**
 * Every change the app makes to elements: applied to the local store and appended to the
 * outbox in one Dexie transaction, so the page shows it at once and the server gets it exactly
 * once, whenever the network allows. Nothing here talks to the network.
 */
import type { Element, ElementListItem } from '@/api/types';
import type { FoliaDatabase, LocalElement } from './db';
import { OUTBOX_KINDS } from './kinds';
import type { ElementChanges, ElementCreatePayload } from './kinds/elements';
import { newEntry as entry, unsentTail } from './newEntry';
import { newTempId, type OutboxEntry } from './outboxEntry';
import { ownerElementOf } from './ownerElement';

async function requireElement(db: FoliaDatabase, id: string): Promise<LocalElement> {
  const element = await db.elements.get(id);
  if (!element) throw new Error(`Element ${id} is not in the local store.`);
  return element;
}

function listItem(
  id: string,
  payload: ElementCreatePayload,
  zone: ElementListItem['zone'],
): ElementListItem {
  return {
    id,
    type: payload.type,
    name: payload.name,
    corpus: { id: payload.corpus },
    thumbnail_url: null,
    zone,
    rotation_angle: 0,
    mirrored: false,
    confidence: null,
    created: new Date().toISOString(),
    worker_run: null,
    has_children: false,
  };
}

export interface CreateInput extends ElementCreatePayload {
  /** The parent's zone image, for a child drawn on the same image (shown before the server answers). */
  zone?: ElementListItem['zone'];
}

/** Creates an element (a folder, a zone…) with a temporary id until the server gives its own. */
export async function createElement(db: FoliaDatabase, input: CreateInput): Promise<string> {
  const { zone, ...payload } = input;
  const id = newTempId();
  await db.transaction('rw', [db.elements, db.outbox, db.lists], async () => {
    await db.elements.put({
      id,
      corpusId: payload.corpus,
      data: listItem(id, payload, zone ?? null),
      full: false,
      lastModified: null,
      local: true,
      parentIds: payload.parent ? [payload.parent] : [],
      savedAt: Date.now(),
    });
    if (payload.parent) {
      await db.lists
        .where('ownerId')
        .equals(payload.parent)
        .modify((list) => {
          list.ids.push(id);
          list.count += 1;
        });
    }
    await db.outbox.add(
      entry(
        'element.create',
        id,
        payload.corpus,
        payload as unknown as Record<string, unknown>,
        null,
        `Create “${payload.name}”`,
      ),
    );
  });
  return id;
}

/**
 * Renames, retypes, reshapes, rotates or mirrors an element. Changes to an edit not sent yet
 * are folded into it: one request carries the last value of each field.
 */
export async function updateElement(
  db: FoliaDatabase,
  id: string,
  changes: ElementChanges,
): Promise<void> {
  await db.transaction('rw', [db.elements, db.outbox], async () => {
    const element = await requireElement(db, id);
    const previous: Partial<Element> = {};
    for (const key of Object.keys(changes) as (keyof ElementChanges)[]) {
      if (key === 'polygon') {
        (previous as Record<string, unknown>).zone = element.data.zone;
      } else {
        (previous as Record<string, unknown>)[key] = element.data[key];
      }
    }
    const { polygon, ...plain } = changes;
    const data = { ...element.data, ...plain };
    if (polygon && data.zone) data.zone = { ...data.zone, polygon };
    await db.elements.update(id, { data });

    const tail = await unsentTail(db, id);
    if (tail?.kind === 'element.create') {
      // Not on the server yet: the creation itself carries the new values.
      await db.outbox.update(tail.seq!, {
        payload: { ...tail.payload, ...changes },
        label: `Create “${data.name}”`,
      });
      return;
    }
    if (tail?.kind === 'element.update') {
      const merged = { ...(tail.payload.changes as ElementChanges), ...changes };
      await db.outbox.update(tail.seq!, {
        payload: { changes: merged },
        previous: { ...previous, ...(tail.previous as object) },
        label: describeUpdate(element.data.name, merged),
      });
      return;
    }
    await db.outbox.add(
      entry(
        'element.update',
        id,
        element.corpusId,
        { changes },
        previous,
        describeUpdate(element.data.name, changes),
      ),
    );
  });
}

function describeUpdate(name: string, changes: ElementChanges): string {
  const parts: string[] = [];
  if (changes.name !== undefined) parts.push(`rename to “${changes.name}”`);
  if (changes.type !== undefined) parts.push(`type ${changes.type}`);
  if (changes.polygon !== undefined) parts.push('new zone');
  if (changes.rotation_angle !== undefined) parts.push(`rotation ${changes.rotation_angle}°`);
  if (changes.mirrored !== undefined) parts.push(changes.mirrored ? 'mirrored' : 'not mirrored');
  return `“${name}”: ${parts.join(', ')}`;
}

/** The ids of every element below `id` in the local store. */
async function localDescendants(db: FoliaDatabase, id: string): Promise<string[]> {
  const found: string[] = [];
  const queue = [id];
  while (queue.length) {
    const children = await db.elements.where('parentIds').equals(queue.shift()!).primaryKeys();
    for (const child of children) {
      if (!found.includes(child) && child !== id) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/**
 * Deletes an element and what is below it. Elements created offline below it and never sent
 * disappear with their queued edits, and renames or reshapes not sent yet of the others are
 * dropped: the deletion erases them anyway. Queued moves and links of elements the server has
 * (or must still create) stay: replayed in order, they put the server's tree where the local
 * one is when the deletion reaches it, so the deletion removes the same elements there. Without
 * them, an element moved out of a folder deleted earlier in the queue would be deleted with it.
 */
export async function deleteElement(
  db: FoliaDatabase,
  id: string,
  deleteChildren = true,
): Promise<void> {
  await db.transaction('rw', [db.elements, db.outbox, db.lists], async () => {
    const element = await requireElement(db, id);
    const gone = [id, ...(deleteChildren ? await localDescendants(db, id) : [])];
    const rows = await db.elements.bulkGet(gone);
    const queued = await db.outbox.where('entityId').anyOf(gone).toArray();
    const unsent = (e: OutboxEntry) => e.status === 'pending' && e.attempts === 0;
    // Created here and never sent: such an element can vanish without a request, unless an
    // edit that stays still needs it on the server (a page created in it, then moved out).
    const neverOnServer = new Set(
      gone.filter(
        (other, i) => rows[i]?.local && queued.every((e) => e.entityId !== other || unsent(e)),
      ),
    );
    // What the deleted elements hold (classifications, transcriptions, metadata) goes with
    // them on the server: its edits, sent or not, are folded into the deletion. Sent after it,
    // they would be refused for ever. One on its way now is left to its answer.
    const goneSet = new Set(gone);
    const held = (e: OutboxEntry) =>
      !e.kind.startsWith('element.') &&
      e.status !== 'sending' &&
      goneSet.has(ownerElementOf(e) ?? '');
    const isDropped = (e: OutboxEntry) =>
      held(e) ||
      (unsent(e) &&
        goneSet.has(e.entityId) &&
        (neverOnServer.has(e.entityId) || e.kind === 'element.update'));
    const everything = await db.outbox.toArray();
    for (;;) {
      const needed = new Set(
        everything.filter((e) => !isDropped(e)).flatMap((e) => OUTBOX_KINDS[e.kind].refs(e)),
      );
      const before = neverOnServer.size;
      for (const other of needed) neverOnServer.delete(other);
      if (neverOnServer.size === before) break;
    }
    await db.outbox.bulkDelete(everything.filter(isDropped).map((e) => e.seq!));
    await db.elements.bulkDelete(gone);
    await db.lists.where('ownerId').anyOf(gone).delete();
    await db.lists.toCollection().modify((list) => {
      if (list.ids.includes(id)) {
        list.ids = list.ids.filter((other) => other !== id);
        list.count = Math.max(0, list.count - 1);
      }
    });
    if (neverOnServer.has(id)) return;
    await db.outbox.add(
      entry(
        'element.delete',
        id,
        element.corpusId,
        { deleteChildren },
        element,
        `Delete “${element.data.name}”`,
      ),
    );
  });
}

/**
 * Moves an element into a folder: it leaves all its other parents. Its previous move, not
 * sent yet, is replaced when nothing else changed the tree since: only the last one counts.
 */
export async function moveElement(
  db: FoliaDatabase,
  id: string,
  destination: string,
): Promise<void> {
  await db.transaction('rw', [db.elements, db.outbox, db.lists], async () => {
    const element = await requireElement(db, id);
    // Replaced only while no other change of the tree follows it: "move X out of F, delete
    // F" must reach the server in that order, whatever X's later moves.
    const lastTreeEdit = await db.outbox
      .orderBy('seq')
      .reverse()
      .filter((e) => e.kind !== 'element.update')
      .first();
    const superseded =
      lastTreeEdit?.entityId === id &&
      lastTreeEdit.kind === 'element.move' &&
      lastTreeEdit.status === 'pending' &&
      lastTreeEdit.attempts === 0
        ? [lastTreeEdit]
        : [];
    await db.outbox.bulkDelete(superseded.map((e) => e.seq!));
    const before = (superseded[0]?.previous as { parentIds?: string[] } | undefined)?.parentIds;
    await db.elements.update(id, { parentIds: [destination] });
    for (const parent of element.parentIds) {
      await db.lists
        .where('ownerId')
        .equals(parent)
        .modify((list) => {
          list.ids = list.ids.filter((other) => other !== id);
          list.count = Math.max(0, list.count - 1);
        });
    }
    await db.outbox.add(
      entry(
        'element.move',
        id,
        element.corpusId,
        { destination },
        { parentIds: before ?? element.parentIds },
        `Move “${element.data.name}”`,
      ),
    );
  });
}

/** Adds a parent to an element, keeping the others. */
export async function linkElement(db: FoliaDatabase, id: string, parent: string): Promise<void> {
  await db.transaction('rw', [db.elements, db.outbox], async () => {
    const element = await requireElement(db, id);
    await db.elements.update(id, { parentIds: [...new Set([...element.parentIds, parent])] });
    await db.outbox.add(
      entry(
        'element.link',
        id,
        element.corpusId,
        { parent },
        { parentIds: element.parentIds },
        `Link “${element.data.name}”`,
      ),
    );
  });
}
