/**
 * The two sides of a conflict, field by field, as the user reads them: what the element was
 * before the edit, the edit, and what the server has now.
 */
import type { Element, ElementType, Polygon } from '@/api/types';
import type { LocalElement, LocalRecord } from '@/offline/db';
import { fieldValue } from '@/offline/fieldChanges';
import type { OutboxEntry } from '@/offline/outboxEntry';

type Field =
  'name' | 'type' | 'polygon' | 'rotation_angle' | 'mirrored' | 'text' | 'orientation' | 'value';

const FIELDS: { key: Field; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'type', label: 'Type' },
  { key: 'polygon', label: 'Zone' },
  { key: 'rotation_angle', label: 'Rotation' },
  { key: 'mirrored', label: 'Mirrored' },
];

/** The fields of a transcription's or a metadata's conflict. */
const RECORD_FIELDS: Record<'transcription' | 'metadata', { key: Field; label: string }[]> = {
  transcription: [
    { key: 'text', label: 'Text' },
    { key: 'orientation', label: 'Orientation' },
  ],
  metadata: [
    { key: 'name', label: 'Name' },
    { key: 'type', label: 'Type' },
    { key: 'value', label: 'Value' },
  ],
};

/** What a conflict is about, as its message names it. */
export function conflictSubject(entry: OutboxEntry): 'element' | 'transcription' | 'metadata' {
  if (entry.kind.startsWith('transcription.')) return 'transcription';
  if (entry.kind.startsWith('metadata.')) return 'metadata';
  return 'element';
}

export interface ComparedField {
  key: Field;
  label: string;
  before: string;
  mine: string;
  theirs: string;
  /** The server's value differs from the one the edit started from. */
  changedThere: boolean;
}

const UNKNOWN = '—';

type Values = Partial<Pick<Element, 'name' | 'type' | 'rotation_angle' | 'mirrored'>> & {
  zone?: { polygon?: Polygon | null } | null;
  polygon?: Polygon | null;
  text?: string;
  orientation?: string;
  value?: string;
};

/** A field's value in an element (or a part of one); a polygon is the zone's. */
const valueOf = (values: Values | null | undefined, key: Field): unknown => fieldValue(values, key);

function pointCount(polygon: Polygon): number {
  const [first, last] = [polygon[0], polygon.at(-1)];
  const closed = polygon.length > 1 && first?.[0] === last?.[0] && first?.[1] === last?.[1];
  return closed ? polygon.length - 1 : polygon.length;
}

export function describeValue(key: Field, value: unknown, types: ElementType[] = []): string {
  if (value === undefined) return UNKNOWN;
  switch (key) {
    case 'name':
    case 'text':
    case 'orientation':
    case 'value':
      return String(value);
    case 'type':
      return types.find((type) => type.slug === value)?.display_name ?? String(value);
    case 'polygon': {
      if (!Array.isArray(value)) return 'No zone';
      const count = pointCount(value as Polygon);
      return `${count} point${count === 1 ? '' : 's'}`;
    }
    case 'rotation_angle':
      return `${String(value)}°`;
    case 'mirrored':
      return value ? 'Yes' : 'No';
  }
}

function compared(
  key: Field,
  label: string,
  before: unknown,
  mine: string,
  theirs: unknown,
  types: ElementType[],
): ComparedField {
  const shownBefore = describeValue(key, before, types);
  const shownTheirs = describeValue(key, theirs, types);
  return {
    key,
    label,
    before: shownBefore,
    mine,
    theirs: shownTheirs,
    // Compared as values, not as shown: two zones of as many points are not the same zone.
    changedThere:
      theirs !== undefined &&
      before !== undefined &&
      JSON.stringify(theirs) !== JSON.stringify(before),
  };
}

/**
 * The rows of a conflict. An update shows the fields it changes; a deletion shows the name and
 * type, and whatever else changed on the server.
 */
export function compareConflict(entry: OutboxEntry, types: ElementType[] = []): ComparedField[] {
  const current = entry.current as Values | null;
  const subject = conflictSubject(entry);
  if (subject !== 'element') {
    const fields = RECORD_FIELDS[subject];
    // The entry keeps the record's row as it was: its data is the version the edit started from.
    const previous = (entry.previous as LocalRecord | null)?.data as Values | undefined;
    if (entry.kind.endsWith('.delete')) {
      return fields.map(({ key, label }) =>
        compared(key, label, valueOf(previous, key), 'Deleted', valueOf(current, key), types),
      );
    }
    const changes = (entry.payload.changes ?? {}) as Values;
    return fields
      .filter(({ key }) => valueOf(changes, key) !== undefined)
      .map(({ key, label }) =>
        compared(
          key,
          label,
          valueOf(previous, key),
          describeValue(key, valueOf(changes, key), types),
          valueOf(current, key),
          types,
        ),
      );
  }
  if (entry.kind === 'element.update') {
    const changes = (entry.payload.changes ?? {}) as Values;
    const previous = entry.previous as Values | null;
    return FIELDS.filter(({ key }) => valueOf(changes, key) !== undefined).map(({ key, label }) =>
      compared(
        key,
        label,
        valueOf(previous, key),
        describeValue(key, valueOf(changes, key), types),
        valueOf(current, key),
        types,
      ),
    );
  }
  if (entry.kind === 'element.delete') {
    const previous = (entry.previous as LocalElement | null)?.data as Values | undefined;
    return FIELDS.map(({ key, label }) =>
      compared(key, label, valueOf(previous, key), 'Deleted', valueOf(current, key), types),
    ).filter((row) => row.key === 'name' || row.key === 'type' || row.changedThere);
  }
  return [];
}

/**
 * The text two people may merge by hand: the user's new name of an element, or new text of a
 * transcription; null for other edits.
 */
export function mergeable(entry: OutboxEntry): { label: string; value: string } | null {
  const changes = entry.payload.changes as Values | undefined;
  if (entry.kind === 'element.update' && typeof changes?.name === 'string') {
    return { label: 'Merged name', value: changes.name };
  }
  if (entry.kind === 'transcription.update' && typeof changes?.text === 'string') {
    return { label: 'Merged text', value: changes.text };
  }
  return null;
}
