/** Which parent path the page navigates along, and where Ctrl+←/→ lead. */
import type { ElementRef, Neighbors } from '@/api/types';

/** The parent a path ends with (null for a top-level element's path). */
export function parentOf(entry: Neighbors): ElementRef | null {
  return entry.path[entry.path.length - 1] ?? null;
}

/**
 * The path the user came along (`from`, the parent id carried by neighbour links), else the
 * first one: an element with several parents has one previous and next per parent.
 */
export function currentPath(list: readonly Neighbors[], from: string | null): Neighbors | null {
  if (from) {
    const match = list.find((entry) => parentOf(entry)?.id === from);
    if (match) return match;
  }
  return list[0] ?? null;
}

export interface NeighbourTarget {
  id: string;
  /** The parent to keep navigating along. */
  from: string | null;
}

export function neighbourTarget(
  list: readonly Neighbors[],
  from: string | null,
  direction: 'previous' | 'next',
): NeighbourTarget | null {
  const entry = currentPath(list, from);
  const target = entry?.[direction];
  if (!entry || !target) return null;
  return { id: target.id, from: parentOf(entry)?.id ?? null };
}
