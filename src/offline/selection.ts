/**
 * The user's selection, local first (spec 001 §4 "Selection"): a toggle changes this device's
 * copy at once (memory for the screen, Dexie for a reload), then reaches the server when it
 * answers. The server's selection is read when the app opens and when the network returns, and
 * merged: what this device changed and has not sent yet wins, the rest is the server's.
 *
 * Every exchange with the server runs one after the other on one chain, so a read never
 * overtakes a change sent before it, and a change made during a read is never lost by it.
 */
import { ApiError } from '@/api/errors';
import {
  SELECTION_ADD_MAX,
  clearSelectionOnServer,
  fetchWholeSelection,
  selectOnServer,
  unselectOnServer,
} from '@/api/selection';
import type { ElementListItem } from '@/api/types';
import { createStore, type Store } from '@/lib/store';
import type { Connectivity } from './connectivity';
import type { FoliaDatabase, LocalSelectionRow } from './db';

export interface SelectionState {
  userId: string | null;
  /** By element id; unselections not yet sent stay as `selected: false`. */
  rows: ReadonlyMap<string, LocalSelectionRow>;
  /** The first read of the server's selection since opening is running. */
  reading: boolean;
}

export interface SelectionRejection {
  element: ElementListItem;
  message: string;
}

export interface SelectedProject {
  id: string;
  name?: string | null;
}

const EMPTY: SelectionState = { userId: null, rows: new Map(), reading: false };

/** The selected elements of a state, in the order they were selected. */
export function selectedRows(state: SelectionState): LocalSelectionRow[] {
  return [...state.rows.values()].filter((row) => row.selected);
}

export function isSelected(state: SelectionState, id: string): boolean {
  return state.rows.get(id)?.selected ?? false;
}

/**
 * A 400 (an unknown or unreadable id) or a 404 is about the element itself: it will never be
 * accepted as it is. Anything else (no session, a server in trouble) may pass later.
 */
function refusedForGood(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 400 || error.status === 404);
}

export class LocalSelection {
  readonly store: Store<SelectionState> = createStore<SelectionState>(EMPTY);
  /** Told of elements the server refused to select (deleted meanwhile, no longer readable). */
  onRejected: ((rejections: SelectionRejection[]) => void) | null = null;
  private chain: Promise<void> = Promise.resolve();
  private opening: Promise<void> | null = null;
  private openedFor: string | null = null;
  private hasRead = false;

  constructor(
    private readonly db: FoliaDatabase,
    private readonly connectivity: { store: Store<Connectivity> },
    private readonly now: () => number = Date.now,
  ) {}

  private get online(): boolean {
    return this.connectivity.store.get().online;
  }

  private get userId(): string | null {
    return this.store.get().userId;
  }

  /**
   * Loads `userId`'s selection kept on this device; another user's is dropped, since the
   * selection is personal. null (logged out) empties the screen's copy.
   */
  open(userId: string | null): Promise<void> {
    if (userId === this.openedFor && this.opening) return this.opening;
    this.hasRead = false;
    this.openedFor = userId;
    if (userId === null) {
      this.store.set(EMPTY);
      this.opening = null;
      return Promise.resolve();
    }
    // The screen's copy belongs to the user at once, so a toggle made while this device's copy
    // loads counts; what it loads goes under such toggles.
    this.store.set({ userId, rows: new Map(), reading: false });
    const db = this.db;
    this.opening = db
      .transaction('rw', db.selection, db.selectionClears, async () => {
        await db.selection.where('userId').notEqual(userId).delete();
        await db.selectionClears.where('userId').notEqual(userId).delete();
        return db.selection.where('userId').equals(userId).sortBy('changedAt');
      })
      .then((stored) => {
        if (this.openedFor !== userId) return;
        this.store.set((state) => {
          const rows = new Map(stored.map((row) => [row.id, row]));
          for (const [id, row] of state.rows) rows.set(id, row);
          return { ...state, rows };
        });
      });
    return this.opening;
  }

  /** Keeps the server in step when the network returns: sends what waits, then reads. */
  watchConnectivity(): () => void {
    let wasOnline = this.online;
    return this.connectivity.store.subscribe(() => {
      const online = this.online;
      if (online && !wasOnline) void this.refresh();
      wasOnline = online;
    });
  }

  toggle(element: ElementListItem, project: SelectedProject): Promise<void> {
    return isSelected(this.store.get(), element.id)
      ? this.unselect([element.id])
      : this.select([{ element, project }]);
  }

  async select(items: readonly { element: ElementListItem; project: SelectedProject }[]) {
    const userId = this.userId;
    if (!userId) return;
    const at = this.now();
    const rows = items.map(({ element, project }): LocalSelectionRow => ({
      id: element.id,
      userId,
      corpusId: project.id,
      corpusName: project.name ?? element.corpus.name ?? null,
      element,
      selected: true,
      synced: false,
      changedAt: at,
    }));
    this.apply(rows, []);
    await this.db.selection.bulkPut(rows);
    await this.sync();
  }

  async unselect(ids: readonly string[]) {
    const { rows } = this.store.get();
    const changed = ids
      .map((id) => rows.get(id))
      .filter((row): row is LocalSelectionRow => !!row?.selected)
      .map((row) => ({ ...row, selected: false, synced: false, changedAt: this.now() }));
    if (changed.length === 0) return;
    this.apply(changed, []);
    await this.db.selection.bulkPut(changed);
    await this.sync();
  }

  /** Unselect all: one call clears the server's selection, whatever this device knows of it. */
  async unselectAll() {
    const userId = this.userId;
    if (!userId) return;
    const ids = [...this.store.get().rows.keys()];
    this.apply([], ids);
    const db = this.db;
    await db.transaction('rw', db.selection, db.selectionClears, async () => {
      await db.selection.bulkDelete(ids);
      await db.selectionClears.put({ userId, at: this.now() });
    });
    await this.sync();
  }

  /**
   * Forgets elements the server has taken out of the selection itself (a deletion of the
   * selected elements), without telling it.
   */
  async forget(ids: readonly string[]) {
    this.apply([], ids);
    await this.db.selection.bulkDelete([...ids]);
  }

  /** Sends what this device changed, when the server answers. */
  sync(): Promise<void> {
    return this.enqueue(() => this.push());
  }

  /** Sends what waits, then reads the server's selection and merges it. */
  refresh(): Promise<void> {
    return this.enqueue(async () => {
      const first = !this.hasRead;
      if (first) this.setReading(true);
      try {
        await this.push();
        const userId = this.userId;
        const elements = await fetchWholeSelection();
        if (userId === this.userId) await this.merge(elements);
        this.hasRead = true;
      } finally {
        if (first) this.setReading(false);
      }
    });
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(async () => {
      if (!this.online || !this.userId) return;
      await (this.opening ?? Promise.resolve());
      await task();
    });
    // A failed exchange (network gone, server error) leaves the changes waiting for the next.
    this.chain = run.catch(() => undefined);
    return this.chain;
  }

  private setReading(reading: boolean) {
    this.store.set((state) => ({ ...state, reading }));
  }

  /** The screen's copy changed at once; Dexie follows. */
  private apply(put: readonly LocalSelectionRow[], removed: readonly string[]) {
    this.store.set((state) => {
      const rows = new Map(state.rows);
      for (const id of removed) rows.delete(id);
      for (const row of put) {
        // A reselected element goes to the end, as a new selection would.
        rows.delete(row.id);
        rows.set(row.id, row);
      }
      return { ...state, rows };
    });
  }

  private async push() {
    const userId = this.userId;
    if (!userId) return;
    const clear = await this.db.selectionClears.get(userId);
    if (clear) {
      await clearSelectionOnServer();
      await this.db.selectionClears
        .where('userId')
        .equals(userId)
        .and((row) => row.at === clear.at)
        .delete();
    }
    await this.pushSelections();
    await this.pushUnselections();
  }

  private async pushSelections() {
    const waiting = [...this.store.get().rows.values()].filter(
      (row) => row.selected && !row.synced,
    );
    const rejections: SelectionRejection[] = [];
    for (let start = 0; start < waiting.length; start += SELECTION_ADD_MAX) {
      const part = waiting.slice(start, start + SELECTION_ADD_MAX);
      try {
        await selectOnServer(part.map((row) => row.id));
        await this.markSynced(part);
      } catch (error) {
        if (!refusedForGood(error)) throw error;
        // One refused id refuses the call: each is tried alone to keep the others.
        for (const row of part) {
          try {
            await selectOnServer([row.id]);
            await this.markSynced([row]);
          } catch (single) {
            if (!refusedForGood(single)) throw single;
            rejections.push({ element: row.element, message: single.message });
            await this.dropIfUnchanged(row);
          }
        }
      }
    }
    if (rejections.length) this.onRejected?.(rejections);
  }

  private async pushUnselections() {
    const waiting = [...this.store.get().rows.values()].filter((row) => !row.selected);
    for (const row of waiting) {
      try {
        await unselectOnServer(row.id);
      } catch (error) {
        // Not selected there, or gone: either way it is not in the server's selection.
        if (!refusedForGood(error)) throw error;
      }
      await this.dropIfUnchanged(row);
    }
  }

  /** Rows changed again while their call ran keep waiting for the next push. */
  private async markSynced(sent: readonly LocalSelectionRow[]) {
    const { rows } = this.store.get();
    const done = sent
      .filter((row) => rows.get(row.id)?.changedAt === row.changedAt && rows.get(row.id)?.selected)
      .map((row) => ({ ...rows.get(row.id)!, synced: true }));
    this.apply(done, []);
    await this.db.selection.bulkPut(done);
  }

  private async dropIfUnchanged(sent: LocalSelectionRow) {
    const current = this.store.get().rows.get(sent.id);
    if (!current || current.changedAt !== sent.changedAt) return;
    await this.forget([sent.id]);
  }

  /**
   * The server's list is the truth for whatever this device has no change waiting for:
   * elements selected elsewhere appear, those unselected elsewhere (or deleted) go.
   */
  private async merge(elements: readonly ElementListItem[]) {
    const userId = this.userId!;
    const { rows } = this.store.get();
    const onServer = new Set(elements.map((element) => element.id));
    const at = this.now();
    const put: LocalSelectionRow[] = [];
    for (const element of elements) {
      const local = rows.get(element.id);
      if (local && !local.synced) continue;
      put.push({
        id: element.id,
        userId,
        corpusId: element.corpus.id,
        corpusName: element.corpus.name ?? local?.corpusName ?? null,
        element,
        selected: true,
        synced: true,
        changedAt: local?.changedAt ?? at,
      });
    }
    const removed = [...rows.values()]
      .filter((row) => row.synced && !onServer.has(row.id))
      .map((row) => row.id);
    this.store.set((state) => {
      const next = new Map(state.rows);
      for (const id of removed) next.delete(id);
      for (const row of put) next.set(row.id, row);
      return { ...state, rows: next };
    });
    const db = this.db;
    await db.transaction('rw', db.selection, async () => {
      await db.selection.bulkDelete(removed);
      await db.selection.bulkPut(put);
    });
  }
}
