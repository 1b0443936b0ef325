/**
 * Undo and redo of this session's annotation edits. Each step is an edit made again through the
 * outbox: undoing an edit not sent yet folds into it (a reshape back) or cancels it (a creation
 * never sent is dropped with no request), and undoing a sent one queues the inverse edit.
 *
 * An element's id changes when its creation reaches the server, and again when a deletion is
 * undone (the element is created anew): steps hold a shared reference to the element, which
 * follows those changes.
 */
import { createStore, useStore } from '@/lib/store';

/** One element as the history's steps know it; `id` follows the server's and re-creations. */
export interface ElementRef {
  id: string;
}

export interface HistoryStep {
  label: string;
  undo(): Promise<void>;
  redo(): Promise<void>;
}

export interface HistoryState {
  undoLabel: string | null;
  redoLabel: string | null;
  busy: boolean;
}

/** Steps kept: enough for a working session, bounded so memory is too. */
export const MAX_STEPS = 200;

export class EditHistory {
  private past: HistoryStep[] = [];
  private future: HistoryStep[] = [];
  private refs = new Map<string, ElementRef>();
  private busy = false;
  readonly store = createStore<HistoryState>({ undoLabel: null, redoLabel: null, busy: false });

  /** The shared reference for an element id, made on first use. */
  ref(id: string): ElementRef {
    let ref = this.refs.get(id);
    if (!ref) {
      ref = { id };
      this.refs.set(id, ref);
    }
    return ref;
  }

  /** The element now has another id (server id, or created again): later steps follow it. */
  rename(ref: ElementRef, id: string): void {
    if (ref.id === id) return;
    this.refs.delete(ref.id);
    ref.id = id;
    this.refs.set(id, ref);
  }

  push(step: HistoryStep): void {
    this.past.push(step);
    if (this.past.length > MAX_STEPS) this.past.shift();
    this.future = [];
    this.publish();
  }

  clear(): void {
    this.past = [];
    this.future = [];
    this.refs.clear();
    this.publish();
  }

  async undo(): Promise<boolean> {
    return this.run(this.past, this.future, (step) => step.undo());
  }

  async redo(): Promise<boolean> {
    return this.run(this.future, this.past, (step) => step.redo());
  }

  /** One step at a time: a second Ctrl+Z while the first is on its way waits its turn. */
  private async run(
    from: HistoryStep[],
    to: HistoryStep[],
    apply: (step: HistoryStep) => Promise<void>,
  ): Promise<boolean> {
    if (this.busy) return false;
    const step = from.pop();
    if (!step) return false;
    this.busy = true;
    this.publish();
    try {
      await apply(step);
      to.push(step);
      return true;
    } catch (error) {
      // The step could not be made (refused by the server): it stays where it was.
      from.push(step);
      throw error;
    } finally {
      this.busy = false;
      this.publish();
    }
  }

  private publish(): void {
    this.store.set({
      undoLabel: this.past.at(-1)?.label ?? null,
      redoLabel: this.future.at(-1)?.label ?? null,
      busy: this.busy,
    });
  }
}

export const annotationHistory = new EditHistory();

export function useHistory(): HistoryState {
  return useStore(annotationHistory.store);
}
