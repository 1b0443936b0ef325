/**
 * What a queued edit does, in words, for the Pending changes panel: the element it is about
 * (its name and type), then what happens to it — "“4” (Text line): zone reshaped". Worked out
 * from the edit itself and what this device knows of the elements it names, so every kind of
 * edit reads the same way, and a name or type known later shows in it.
 */
import type { OutboxEntry } from '@/offline/outboxEntry';

export interface ElementFacts {
  name: string;
  type: string;
}

export interface DescribeContext {
  /** The elements the edits name, as this device knows them, by id. */
  elements: Readonly<Record<string, ElementFacts | undefined>>;
  /** A type's display name, from its slug. */
  typeName: (slug: string) => string;
}

type Fields = Record<string, unknown>;

const fields = (value: unknown): Fields =>
  typeof value === 'object' && value !== null ? (value as Fields) : {};

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Quoted, and cut short: a page of text would not fit in a line of the list. */
export const quoted = (value: string) =>
  `“${value.length > 40 ? `${value.slice(0, 39)}…` : value}”`;

/** The ids of the elements an edit names: the one it is about, a parent, a destination. */
export function elementIdsOf(entry: OutboxEntry): string[] {
  const payload = fields(entry.payload);
  const ids = [subjectId(entry), text(payload.parent), text(payload.destination)].filter(
    (id): id is string => !!id,
  );
  return [...new Set(ids)];
}

/** The element the edit is about: itself, or the owner of its transcription, metadata… */
function subjectId(entry: OutboxEntry): string | undefined {
  if (entry.kind.startsWith('element.')) return entry.entityId;
  const payload = fields(entry.payload);
  return text(payload.element) ?? text(fields(entry.previous).ownerId);
}

export function describeChange(entry: OutboxEntry, context: DescribeContext): string {
  const payload = fields(entry.payload);
  const previous = fields(entry.previous);
  const known = (id: unknown) => (typeof id === 'string' ? context.elements[id] : undefined);

  // A set rename is about a dataset, not an element.
  if (entry.kind === 'dataset.set.rename') {
    return `Dataset ${quoted(text(payload.datasetName) ?? '')}: set ${quoted(text(previous.name) ?? '')} renamed to ${quoted(text(payload.name) ?? '')}`;
  }
  const id = subjectId(entry);
  const facts = id ? known(id) : undefined;
  // What the element was called before the edit: a rename names the element it renamed.
  let name = facts?.name;
  let type = facts?.type;
  if (entry.kind === 'element.create') {
    name = text(payload.name) ?? name;
    type = text(payload.type) ?? type;
  } else if (entry.kind === 'element.delete') {
    const data = fields(previous.data);
    name = text(data.name) ?? name;
    type = text(data.type) ?? type;
  } else if (entry.kind === 'element.update') {
    name = text(previous.name) ?? name;
    type = text(previous.type) ?? type;
  } else if (entry.kind === 'dataset.element.add') {
    name ??= text(payload.elementName);
    type ??= text(payload.elementType);
  }
  const subject =
    name === undefined
      ? 'An element'
      : `${quoted(name)}${type ? ` (${context.typeName(type)})` : ''}`;
  return `${subject}: ${whatHappens(entry, payload, previous, context, known).join(', ')}`;
}

function whatHappens(
  entry: OutboxEntry,
  payload: Fields,
  previous: Fields,
  context: DescribeContext,
  known: (id: unknown) => ElementFacts | undefined,
): string[] {
  const record = fields(previous.data);
  const body = fields(payload.body);
  const changes = fields(payload.changes);
  const mlClass = text(fields(payload.ml_class).name) ?? 'a class';
  switch (entry.kind) {
    case 'element.create': {
      const parent = known(payload.parent);
      return [parent ? `created in ${quoted(parent.name)}` : 'created'];
    }
    case 'element.update':
      return elementChanges(changes, context);
    case 'element.delete':
      return ['deleted'];
    case 'element.move': {
      const destination = known(payload.destination);
      return [destination ? `moved to ${quoted(destination.name)}` : 'moved to another folder'];
    }
    case 'element.link': {
      const parent = known(payload.parent);
      return [parent ? `linked to ${quoted(parent.name)}` : 'linked to another parent'];
    }
    case 'transcription.create':
      return [`transcription added: ${quoted(text(body.text) ?? '')}`];
    case 'transcription.update': {
      const changed = text(changes.text);
      if (changed !== undefined) return [`transcription changed to ${quoted(changed)}`];
      return ['transcription orientation changed'];
    }
    case 'transcription.delete':
      return [`transcription ${quoted(text(record.text) ?? '')} deleted`];
    case 'classification.create':
      return [`classified as ${mlClass}`];
    case 'classification.validate':
      return [`classification ${mlClass} validated`];
    case 'classification.reject':
      return [`classification ${mlClass} rejected`];
    case 'metadata.create':
      return [`metadata ${text(body.name) ?? ''} added: ${quoted(text(body.value) ?? '')}`.trim()];
    case 'metadata.update':
      return metadataChanges(text(record.name) ?? '', changes);
    case 'metadata.delete':
      return [`metadata ${text(record.name) ?? ''} deleted`];
    case 'dataset.element.add':
      return [
        `added to set ${text(payload.set) ?? ''} of ${quoted(text(payload.datasetName) ?? '')}`,
      ];
    case 'dataset.element.remove':
      return [
        `removed from set ${text(payload.set) ?? ''} of ${quoted(text(payload.datasetName) ?? '')}`,
      ];
    case 'dataset.set.rename':
      return ['set renamed'];
  }
}

function elementChanges(changes: Fields, context: DescribeContext): string[] {
  const parts: string[] = [];
  const name = text(changes.name);
  if (name !== undefined) parts.push(`renamed to ${quoted(name)}`);
  const type = text(changes.type);
  if (type !== undefined) parts.push(`type changed to ${context.typeName(type)}`);
  if (changes.polygon !== undefined) parts.push('zone reshaped');
  if (typeof changes.rotation_angle === 'number') {
    parts.push(`rotated to ${changes.rotation_angle}°`);
  }
  if (typeof changes.mirrored === 'boolean') {
    parts.push(changes.mirrored ? 'mirrored' : 'no longer mirrored');
  }
  return parts.length ? parts : ['changed'];
}

function metadataChanges(name: string, changes: Fields): string[] {
  const parts: string[] = [];
  const renamed = text(changes.name);
  const value = text(changes.value);
  const type = text(changes.type);
  if (renamed !== undefined && renamed !== name)
    parts.push(`metadata ${name} renamed to ${renamed}`);
  const current = renamed ?? name;
  if (value !== undefined) parts.push(`metadata ${current} changed to ${quoted(value)}`);
  if (type !== undefined && parts.length === 0) parts.push(`metadata ${current} is now ${type}`);
  return parts.length ? parts : [`metadata ${current} changed`];
}
