/**
 * The two sides of a conflict, field by field, as the user reads them: what the element was
 * before the edit, the edit, and what the server has now.
 */
import type { Element, ElementType, Polygon } from '@/api/types';
import type { LocalElement } from '@/offline/db';
import type { OutboxEntry } from '@/offline/outboxEntry';

type Field = 'name' | 'type' | 'polygon' | 'rotation_angle' | 'mirrored';

const FIELDS: { key: Field; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'type', label: 'Type' },
  { key: 'polygon', label: 'Zone' },
  { key: 'rotation_angle', label: 'Rotation' },
  { key: 'mirrored', label: 'Mirrored' },
];

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
};

/** A field's value in an element (or a part of one); a polygon is the zone's. */
function valueOf(values: Values | null | undefined, key: Field): unknown {
  if (!values) return undefined;
  if (key !== 'polygon') return values[key];
  if ('polygon' in values) return values.polygon;
  if ('zone' in values) return values.zone ? (values.zone.polygon ?? null) : null;
  return undefined;
}

function pointCount(polygon: Polygon): number {
  const [first, last] = [polygon[0], polygon.at(-1)];
  const closed = polygon.length > 1 && first?.[0] === last?.[0] && first?.[1] === last?.[1];
  return closed ? polygon.length - 1 : polygon.length;
}

export function describeValue(key: Field, value: unknown, types: ElementType[] = []): string {
  if (value === undefined) return UNKNOWN;
  switch (key) {
    case 'name':
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
    changedThere: theirs !== undefined && before !== undefined && shownTheirs !== shownBefore,
  };
}

/**
 * The rows of a conflict. An update shows the fields it changes; a deletion shows the name and
 * type, and whatever else changed on the server.
 */
export function compareConflict(entry: OutboxEntry, types: ElementType[] = []): ComparedField[] {
  const current = entry.current as Values | null;
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

/** The user's new name, when the edit renames: a text two people may merge by hand. */
export function renamedTo(entry: OutboxEntry): string | null {
  if (entry.kind !== 'element.update') return null;
  const name = (entry.payload.changes as Values | undefined)?.name;
  return typeof name === 'string' ? name : null;
}
