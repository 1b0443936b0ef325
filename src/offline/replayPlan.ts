import type { KindRegistry } from './kinds/types';
import { isCreation, isTempId, type OutboxEntry, type OutboxKind } from './outboxEntry';

/**
 * Creations, moves, links and deletions change the tree: replayed out of order, "move B out of
 * A, then A into B" would be a cycle the server refuses, and children created in one folder
 * would not keep the order they were made in (each is added as the last child).
 */
export const TREE_EDITS = new Set<OutboxKind>([
  'element.create',
  'element.move',
  'element.link',
  'element.delete',
]);

export interface PlannedEntry {
  entry: OutboxEntry;
  /**
   * Parked for the user (refused, or in conflict), or behind such an edit of its entity, or
   * naming something whose creation is not queued: not sent in this run.
   */
  held: boolean;
  /**
   * Entries whose answer must be stored here before this one is sent: the earlier edits of the
   * same entity (the version it is based on comes from their answer) and the creations of the
   * entities it names (their server ids are written into it).
   */
  afterApplied: PlannedEntry[];
  /**
   * Entries the server must have answered before this one is sent, though their answer need
   * not be stored yet: the tree edit before a tree edit, and for a deletion every edit before
   * it (edits of what it deletes would be refused after it).
   */
  afterAnswered: PlannedEntry[];
}

/**
 * Which queued edits depend on which, in `seq` order: everything else is independent and may
 * be in flight at the same time.
 */
export function planReplay(entries: OutboxEntry[], kinds: KindRegistry): PlannedEntry[] {
  const planned: PlannedEntry[] = [];
  const lastOfEntity = new Map<string, PlannedEntry>();
  const creations = new Map<string, PlannedEntry>();
  let lastTreeEdit: PlannedEntry | null = null;
  // Sent since the last deletion (or the start): what the next deletion waits for. The last
  // deletion itself stands for everything before it.
  let sinceDeletion: PlannedEntry[] = [];
  for (const entry of entries) {
    const afterApplied: PlannedEntry[] = [];
    const previous = lastOfEntity.get(entry.entityId);
    if (previous) afterApplied.push(previous);
    // Only a creation may be sent for an entity that has no server id yet.
    let orphan = !previous && isTempId(entry.entityId) && !isCreation(entry.kind);
    for (const ref of kinds[entry.kind].refs(entry)) {
      if (!isTempId(ref)) continue;
      const creation = creations.get(ref);
      if (creation) afterApplied.push(creation);
      else orphan = true;
    }
    const held =
      orphan ||
      entry.status === 'failed' ||
      entry.status === 'conflict' ||
      afterApplied.some((other) => other.held);
    const treeEdit = TREE_EDITS.has(entry.kind);
    let afterAnswered: PlannedEntry[] = [];
    if (!held && entry.kind === 'element.delete') afterAnswered = sinceDeletion;
    else if (!held && treeEdit && lastTreeEdit) afterAnswered = [lastTreeEdit];
    const node: PlannedEntry = { entry, held, afterApplied, afterAnswered };
    planned.push(node);
    lastOfEntity.set(entry.entityId, node);
    if (isCreation(entry.kind)) creations.set(entry.entityId, node);
    // A held edit holds up only its own entity and what names it.
    if (held) continue;
    if (treeEdit) lastTreeEdit = node;
    if (entry.kind === 'element.delete') sinceDeletion = [node];
    else sinceDeletion.push(node);
  }
  return planned;
}
