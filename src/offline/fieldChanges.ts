/**
 * Whether someone else changed what an edit changes: on a 412, the server's version of each
 * field the edit sets (of each field of what a deletion deletes), against the value the edit
 * started from. When none of them moved, the version moved for another reason (another field,
 * or a list's coarse date taken for a version) and the edit can go over it as it is: a merge
 * field by field that loses nothing.
 */
import type { LocalRecord } from './db';
import type { OutboxEntry } from './outboxEntry';

type Values = Record<string, unknown>;

/** A field's value in an element, a record or an edit's changes; a polygon is the zone's. */
export function fieldValue(values: unknown, key: string): unknown {
  if (!values || typeof values !== 'object') return undefined;
  const fields = values as Values;
  if (key !== 'polygon') return fields[key];
  if ('polygon' in fields) return fields.polygon;
  if ('zone' in fields) return (fields.zone as { polygon?: unknown } | null)?.polygon ?? null;
  return undefined;
}

/** What a deletion weighs against the server's version: the fields a person sees and sets. */
const DELETION_FIELDS: Record<string, string[]> = {
  'element.delete': ['name', 'type', 'polygon', 'rotation_angle', 'mirrored'],
  'transcription.delete': ['text', 'orientation'],
  'metadata.delete': ['name', 'type', 'value'],
};

/** The values the edit started from, and the fields it must find unchanged there. */
function startedFrom(entry: OutboxEntry): { before: unknown; fields: string[] } | null {
  const changes = entry.payload.changes as Values | undefined;
  if (entry.kind === 'element.update' && changes) {
    return { before: entry.previous, fields: Object.keys(changes) };
  }
  if ((entry.kind === 'transcription.update' || entry.kind === 'metadata.update') && changes) {
    return { before: (entry.previous as LocalRecord | null)?.data, fields: Object.keys(changes) };
  }
  // A deletion is based on the whole of what was deleted here (an element's row or a record).
  const fields = DELETION_FIELDS[entry.kind];
  if (fields) return { before: (entry.previous as LocalRecord | null)?.data, fields };
  return null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * True unless every field the edit sets (or, for a deletion, every field of what it deletes) is,
 * on the server, still what it started from.
 */
export function changedThereToo(entry: OutboxEntry, current: unknown): boolean {
  const started = startedFrom(entry);
  if (!started?.before || !current) return true;
  return started.fields.some((key) => {
    const was = fieldValue(started.before, key);
    const now = fieldValue(current, key);
    return was === undefined || now === undefined || !same(was, now);
  });
}

/**
 * True when the server already holds every value an update sets: the edit reached it (its
 * answer lost, and the server no longer knew the request by its key when it came again) or
 * someone made the same change. Nothing is left to send, and nothing to ask the user.
 */
export function alreadyThere(entry: OutboxEntry, current: unknown): boolean {
  const changes = entry.payload.changes as Values | undefined;
  if (!entry.kind.endsWith('.update') || !changes || !current) return false;
  const keys = Object.keys(changes);
  return (
    keys.length > 0 &&
    keys.every((key) => {
      const now = fieldValue(current, key);
      return now !== undefined && same(fieldValue(changes, key), now);
    })
  );
}
