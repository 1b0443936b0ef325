import type { OutboxEntry } from './outboxEntry';

/**
 * The element an edit belongs to: its own, or the one holding the classification, transcription
 * or metadata it changes. Deleting that element erases the edit's work on the server too.
 */
export function ownerElementOf(entry: OutboxEntry): string | null {
  if (entry.kind.startsWith('element.')) return entry.entityId;
  const element = entry.payload.element;
  if (typeof element === 'string') return element;
  const previous = entry.previous as { ownerId?: unknown } | null;
  return typeof previous?.ownerId === 'string' ? previous.ownerId : null;
}
