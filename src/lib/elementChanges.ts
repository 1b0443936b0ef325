/**
 * A count of element changes made on a page by another feature (zones drawn, retyped or deleted
 * with the annotation tools), so views that page on their own (the children tree) start over.
 */
import { createStore, useStore } from './store';

const changes = createStore(0);

export function announceElementChange(): void {
  changes.set((count) => count + 1);
}

export function useElementChanges(): number {
  return useStore(changes);
}
