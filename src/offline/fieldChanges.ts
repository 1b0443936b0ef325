/**
 * Whether someone else changed what an edit changes: on a 412, the server's version of each
 * field the edit sets, against the value the edit started from. When none of them moved, the
 * version moved for another reason (another field, or a list's coarse date taken for a version)
 * and the edit can go over it as it is: a merge field by field that loses nothing.
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

/** The values an update started from; null for edits that are not updates. */
function startedFrom(entry: OutboxEntry): unknown {
  if (entry.kind === 'element.update') return entry.previous;
  if (entry.kind === 'transcription.update' || entry.kind === 'metadata.update') {
    return (entry.previous as LocalRecord | null)?.data ?? null;
  }
  return null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** True unless every field the update sets is, on the server, still what it started from. */
export function changedThereToo(entry: OutboxEntry, current: unknown): boolean {
  const before = startedFrom(entry);
  const changes = entry.payload.changes as Values | undefined;
  if (!before || !changes || !current) return true;
  return Object.keys(changes).some((key) => {
    const was = fieldValue(before, key);
    const now = fieldValue(current, key);
    return was === undefined || now === undefined || !same(was, now);
  });
}
