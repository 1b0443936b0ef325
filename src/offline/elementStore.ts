/**
 * Writing server elements into the local store, for every reader (pages, lists, offline packs):
 * an element with queued edits keeps its local version, and a list item never replaces a full
 * element. Call it inside a transaction over `elements` and `outbox`.
 */
import type { Element, ElementListItem } from '@/api/types';
import type { FoliaDatabase, LocalElement } from './db';
import { earlier, later } from './httpDates';

export interface StoreOptions {
  /** True for GET /element/{id}/ answers (rights, classifications). */
  full: boolean;
  /** The list's owner, recorded as a parent; leave out for recursive lists. */
  parentId?: string;
  lastModified?: string | null;
  /**
   * For a list's items, which carry no version of their own: the answer's (versionOfAnswer).
   * A row keeps a later version it already had (its own read, an edit's answer).
   */
  listedVersion?: string | null;
  /**
   * When the answer was asked for. A row saved since (an edit's acknowledgement, a later read)
   * is newer than the answer, which left before that change landed: it keeps its data.
   */
  requestedAt?: number;
  /** The answer's Date header. */
  date?: string | null;
}

/**
 * An answer older than what the row already reflects: dated before the newest answer taken, or
 * (an element's own read) of a version before one the server already gave. A cache, or a slow
 * answer, may hand the app what the server said before this device's own edits.
 */
function olderThan(previous: LocalElement, options: StoreOptions): boolean {
  if (earlier(options.date, previous.seenAt)) return true;
  return options.full && earlier(options.lastModified, previous.confirmed);
}

export async function storeElements(
  db: FoliaDatabase,
  items: (ElementListItem | Element)[],
  options: StoreOptions,
): Promise<void> {
  const ids = items.map((item) => item.id);
  const [known, queued] = await Promise.all([
    db.elements.bulkGet(ids),
    db.outbox.where('entityId').anyOf(ids).toArray(),
  ]);
  const edited = new Set(queued.map((entry) => entry.entityId));
  // Classifications live in their element: one queued for it keeps the local element too.
  await db.outbox
    .filter((entry) => entry.kind.startsWith('classification.'))
    .each((entry) => edited.add(String(entry.payload.element)));
  const now = Date.now();
  const rows: LocalElement[] = [];
  items.forEach((item, i) => {
    const previous = known[i];
    // Edited here (or deleted here: edits queued and no row left): the local state wins.
    if (edited.has(item.id)) return;
    const parentIds = new Set(previous?.parentIds ?? []);
    if (options.parentId) parentIds.add(options.parentId);
    const savedSince =
      options.requestedAt !== undefined && !!previous && previous.savedAt > options.requestedAt;
    if (previous && (savedSince || olderThan(previous, options))) {
      rows.push({ ...previous, parentIds: [...parentIds] });
      return;
    }
    rows.push({
      id: item.id,
      corpusId: item.corpus.id,
      // A list item must not replace the full element (rights, classifications) seen before,
      // nor drop the classes and metadata another list gave (with_classes, with_metadata).
      data: options.full
        ? item
        : previous?.full
          ? { ...previous.data, ...item, ...knownChildren(previous.data, item) }
          : { ...listedExtras(previous?.data), ...item, ...knownChildren(previous?.data, item) },
      full: options.full || !!previous?.full,
      lastModified:
        options.lastModified ?? later(options.listedVersion, previous?.lastModified) ?? null,
      confirmed: options.full
        ? later(options.lastModified, previous?.confirmed)
        : (previous?.confirmed ?? null),
      seenAt: later(options.date, previous?.seenAt),
      local: false,
      parentIds: [...parentIds],
      // A read's rows date from when the server was asked, not from when the answer came.
      savedAt: options.requestedAt ?? now,
    });
  });
  await db.elements.bulkPut(rows);
}

/**
 * A list read without with_has_children (the zones of a page) says nothing of it: whether an
 * element has children, as another list said, stays known (the children tree reads it).
 */
function knownChildren(
  previous: ElementListItem | Element | undefined,
  item: ElementListItem | Element,
): Partial<ElementListItem> {
  const known = (previous as ElementListItem | undefined)?.has_children;
  const told = (item as ElementListItem).has_children;
  return typeof told !== 'boolean' && typeof known === 'boolean' ? { has_children: known } : {};
}

function listedExtras(data: ElementListItem | Element | undefined): Partial<ElementListItem> {
  if (!data) return {};
  const extras: Partial<ElementListItem> = {};
  if (data.classes) extras.classes = data.classes;
  if (data.metadata) extras.metadata = data.metadata;
  return extras;
}
