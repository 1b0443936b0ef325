/**
 * Metadata of elements and the allowed metadata of projects (spec 001 §3, §5 "Metadata form",
 * §6, §7 "Metadata"; api/arkindex-api.md §6).
 *
 * - Seven types; each value is checked for its type with the spec's messages, and numeric ones
 *   keep their number in `numeric_value` (the element filters compare it).
 * - `dates` are read from a date value when it is serialized: `YYYY`, `YYYY-MM` and
 *   `YYYY-MM-DD` give one exact date, `YYYY-YYYY` (the range Arkindex's documentation lists) a
 *   lower and an upper year. Parts a value does not have are left out, not null.
 * - Rights (§6): writing needs the write right on the project; outside a site admin's free edit,
 *   the (name, type) must also be in the project's allowed list, for a new metadata as for the
 *   one an edit or a deletion touches. The values are checked for everyone, site admins
 *   included: a "numeric" that is not a number would break the numeric filters.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import type { AllowedMetadata, Element, Metadata, MetadataType, User } from '../db/schema';
import { nowIso } from '../clock';
import { notFound, permissionDenied, validationError } from '../errors';
import { countRows, type PageSource } from '../pagination';
import {
  checkRight,
  findElementAccess,
  requireProjectRowRight,
  requireUuid,
  type CorpusAccess,
  type ElementAccess,
  type Right,
} from '../permissions';
import { isUniqueViolation } from '../repositories/constraints';
import { requireProjectWorkerRun } from './workerRuns';
import { selfAndAncestorIds } from './elements/repository';
import { workerRunJson, type MetadataJson, type WorkerRunSummaries } from './elements/serialize';
import { workerRunSummaries } from './workerRuns';
import { nextVersion } from '../versions';

export const METADATA_TYPES = [
  'text',
  'markdown',
  'date',
  'location',
  'reference',
  'numeric',
  'url',
] as const satisfies readonly MetadataType[];

export const METADATA_NAME_MAX = 250;

export const METADATA_MESSAGES = {
  type: 'Invalid metadata type',
  notAllowed: 'This name/type combination is not allowed',
  emptyValue: 'Value may not be empty',
  numeric: 'Value must be a valid number',
  date: 'This date is invalid',
  url: 'Only HTTP and HTTPS URLs are allowed',
  invalidUrl: 'Enter a valid URL.',
  protectedEdit: 'Only an administrator can edit this protected metadata',
  protectedDelete: 'Only an administrator can delete this protected metadata',
  duplicateAllowed: 'This name and type are already allowed in this project.',
} as const;

export function isMetadataType(value: string): value is MetadataType {
  return (METADATA_TYPES as readonly string[]).includes(value);
}

// Values -----------------------------------------------------------------------------------

export interface MetadataDate {
  type: 'exact' | 'lower' | 'upper';
  year: number;
  month?: number;
  day?: number;
}

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const YEAR_RANGE = /^(\d{4})-(\d{4})$/;
const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The dates a date value means, or null when it is not one (years start at 1, as Python's). */
export function parseMetadataDate(value: string): MetadataDate[] | null {
  const range = YEAR_RANGE.exec(value);
  if (range) {
    const lower = Number(range[1]);
    const upper = Number(range[2]);
    if (lower < 1 || upper < lower) return null;
    return [
      { type: 'lower', year: lower },
      { type: 'upper', year: upper },
    ];
  }
  const match = DATE.exec(value);
  if (!match) return null;
  const year = Number(match[1]);
  if (year < 1) return null;
  if (match[2] === undefined) return [{ type: 'exact', year }];
  const month = Number(match[2]);
  if (month < 1 || month > 12) return null;
  if (match[3] === undefined) return [{ type: 'exact', year, month }];
  const day = Number(match[3]);
  if (day < 1 || day > daysInMonth(year, month)) return null;
  return [{ type: 'exact', year, month, day }];
}

/** `dates` of a stored metadata: empty for other types and for dates stored unchecked. */
export function metadataDates(type: string, value: string): MetadataDate[] {
  return type === 'date' ? (parseMetadataDate(value) ?? []) : [];
}

/**
 * Checks a (trimmed) value for its type; gives what is stored next to it: the number of a
 * numeric value, null otherwise.
 */
export function checkMetadataValue(type: MetadataType, value: string): number | null {
  const fail = (detail: string) => validationError('value', detail);
  if (value === '') throw fail(METADATA_MESSAGES.emptyValue);
  switch (type) {
    case 'numeric': {
      const number = NUMBER.test(value) ? Number(value) : NaN;
      if (!Number.isFinite(number)) throw fail(METADATA_MESSAGES.numeric);
      return number;
    }
    case 'date':
      if (!parseMetadataDate(value)) throw fail(METADATA_MESSAGES.date);
      return null;
    case 'url': {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw fail(METADATA_MESSAGES.invalidUrl);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail(METADATA_MESSAGES.url);
      return null;
    }
    default:
      return null;
  }
}

// Serialization ----------------------------------------------------------------------------

/** The one shape of a metadata (api/arkindex-api.md §6), with its worker run's summary. */
export function metadataJson(
  row: Pick<Metadata, 'id' | 'type' | 'name' | 'value' | 'worker_run_id'>,
  runs: WorkerRunSummaries,
): MetadataJson {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    value: row.value,
    dates: metadataDates(row.type, row.value),
    worker_run: workerRunJson(row.worker_run_id, runs),
  };
}

export async function serializeMetadata(db: Db, rows: Metadata[]): Promise<MetadataJson[]> {
  const runs = await workerRunSummaries(
    db,
    rows.map((row) => row.worker_run_id),
  );
  return rows.map((row) => metadataJson(row, runs));
}

// Allowed metadata -------------------------------------------------------------------------

export interface AllowedMetadataJson {
  id: string;
  type: MetadataType;
  name: string;
}

export function allowedMetadataJson(row: AllowedMetadata): AllowedMetadataJson {
  return { id: row.id, type: row.type, name: row.name };
}

/** ListCorpusAllowedMetaData: by name, then type. */
export function allowedMetadataSource(db: Db, corpusId: string): PageSource<AllowedMetadataJson> {
  const base = () => db.selectFrom('allowed_metadata').where('corpus_id', '=', corpusId);
  return {
    count: () => countRows(base()),
    async fetch({ limit, offset }) {
      const rows = await base()
        .selectAll()
        .orderBy('name')
        .orderBy('type')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(allowedMetadataJson);
    },
  };
}

async function isAllowed(
  db: Db,
  corpusId: string,
  name: string,
  type: MetadataType,
): Promise<boolean> {
  const row = await db
    .selectFrom('allowed_metadata')
    .select('id')
    .where('corpus_id', '=', corpusId)
    .where('name', '=', name)
    .where('type', '=', type)
    .executeTakeFirst();
  return !!row;
}

export interface AllowedMetadataAccess {
  allowed: AllowedMetadata;
  access: CorpusAccess;
}

/** An allowed metadata under its project: 404 and 403 as requireProjectRowRight says. */
export async function requireAllowedMetadataRight(
  db: Db,
  user: User | null,
  corpusId: string,
  id: string,
  right: Right,
): Promise<AllowedMetadataAccess> {
  const { row, access } = await requireProjectRowRight(
    db,
    user,
    corpusId,
    'allowed_metadata',
    id,
    right,
  );
  return { allowed: row, access };
}

function duplicateAllowed() {
  return validationError('non_field_errors', METADATA_MESSAGES.duplicateAllowed, 'unique');
}

export interface AllowedMetadataInput {
  type: MetadataType;
  name: string;
}

/** CreateAllowedMetaData; `access` comes from requireCorpusRight(…, 'admin'). */
export async function createAllowedMetadata(
  db: Db,
  access: CorpusAccess,
  input: AllowedMetadataInput,
): Promise<AllowedMetadataJson> {
  checkRight(access, 'admin');
  const corpusId = access.corpus.id;
  if (await isAllowed(db, corpusId, input.name, input.type)) throw duplicateAllowed();
  const row: AllowedMetadata = { id: randomUUID(), corpus_id: corpusId, ...input };
  try {
    await db.insertInto('allowed_metadata').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateAllowed();
    throw error;
  }
  return allowedMetadataJson(row);
}

export async function updateAllowedMetadata(
  db: Db,
  found: AllowedMetadataAccess,
  changes: Partial<AllowedMetadataInput>,
): Promise<AllowedMetadataJson> {
  checkRight(found.access, 'admin');
  const next = { ...found.allowed, ...changes };
  if (next.name === found.allowed.name && next.type === found.allowed.type) {
    return allowedMetadataJson(found.allowed);
  }
  if (await isAllowed(db, next.corpus_id, next.name, next.type)) throw duplicateAllowed();
  try {
    await db
      .updateTable('allowed_metadata')
      .set({ name: next.name, type: next.type })
      .where('id', '=', next.id)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateAllowed();
    throw error;
  }
  return allowedMetadataJson(next);
}

export async function deleteAllowedMetadata(db: Db, found: AllowedMetadataAccess): Promise<void> {
  checkRight(found.access, 'admin');
  await db.deleteFrom('allowed_metadata').where('id', '=', found.allowed.id).execute();
}

// Metadata ---------------------------------------------------------------------------------

/**
 * ListElementMetaData: the element's metadata by name, then, with `loadParents`, those of all
 * its ancestors by name.
 */
export async function listElementMetadata(
  db: Db,
  element: Element,
  loadParents: boolean,
): Promise<MetadataJson[]> {
  const ids = loadParents ? [...(await selfAndAncestorIds(db, element.id))] : [element.id];
  const rows = await db
    .selectFrom('metadata')
    .selectAll()
    .where('element_id', 'in', ids)
    .orderBy('name')
    .orderBy('id')
    .execute();
  const own = rows.filter((row) => row.element_id === element.id);
  const inherited = rows.filter((row) => row.element_id !== element.id);
  return serializeMetadata(db, [...own, ...inherited]);
}

export interface NewMetadataInput {
  type: MetadataType;
  name: string;
  value: string;
  worker_run_id?: string | null;
}

export type MetadataChanges = Partial<Omit<NewMetadataInput, 'worker_run_id'>>;

/** Outside a site admin's free edit, only the project's allowed (name, type) are written. */
async function requireAllowed(
  db: Db,
  user: User,
  corpusId: string,
  name: string,
  type: MetadataType,
): Promise<void> {
  if (user.is_admin) return;
  if (!(await isAllowed(db, corpusId, name, type))) {
    throw validationError('non_field_errors', METADATA_MESSAGES.notAllowed, 'not_allowed');
  }
}

async function metadataById(db: Db, id: string): Promise<Metadata> {
  return db.selectFrom('metadata').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** CreateMetaData; `found` comes from requireElementRight(…, 'write'). */
export async function createMetadata(
  db: Db,
  user: User,
  found: ElementAccess,
  input: NewMetadataInput,
): Promise<Metadata> {
  checkRight(found.access, 'write');
  const { element } = found;
  const numericValue = checkMetadataValue(input.type, input.value);
  await requireAllowed(db, user, element.corpus_id, input.name, input.type);
  const workerRunId = input.worker_run_id
    ? await requireProjectWorkerRun(db, element.corpus_id, input.worker_run_id, undefined, user)
    : null;
  const now = nowIso();
  const row: Metadata = {
    id: randomUUID(),
    element_id: element.id,
    type: input.type,
    name: input.name,
    value: input.value,
    numeric_value: numericValue,
    worker_run_id: workerRunId,
    creator_id: user.id,
    created: now,
    updated: now,
  };
  await db.insertInto('metadata').values(row).execute();
  return row;
}

export interface MetadataAccess {
  metadata: Metadata;
  access: CorpusAccess;
}

/** A metadata named in a path: 404 when its project is unreadable, 403 without `right`. */
export async function requireMetadataRight(
  db: Db,
  user: User | null,
  id: string,
  right: Right,
): Promise<MetadataAccess> {
  const metadata = await db
    .selectFrom('metadata')
    .selectAll()
    .where('id', '=', requireUuid(id))
    .executeTakeFirst();
  if (!metadata) throw notFound();
  const found = await findElementAccess(db, user, metadata.element_id);
  if (!found) throw notFound();
  checkRight(found.access, right);
  return { metadata, access: found.access };
}

/** A metadata outside the allowed list is protected: only site admins change or delete it. */
async function requireUnprotected(
  db: Db,
  user: User,
  found: MetadataAccess,
  action: 'edit' | 'delete',
): Promise<void> {
  if (user.is_admin) return;
  const { metadata, access } = found;
  if (!(await isAllowed(db, access.corpus.id, metadata.name, metadata.type))) {
    throw permissionDenied(
      action === 'edit' ? METADATA_MESSAGES.protectedEdit : METADATA_MESSAGES.protectedDelete,
    );
  }
}

/** PartialUpdateMetaData: a changed type checks the value again, given or kept. */
export async function updateMetadata(
  db: Db,
  user: User,
  found: MetadataAccess,
  changes: MetadataChanges,
): Promise<Metadata> {
  checkRight(found.access, 'write');
  await requireUnprotected(db, user, found, 'edit');
  const { metadata } = found;
  const next = { ...metadata, ...changes };
  const numericValue = checkMetadataValue(next.type, next.value);
  if (next.name === metadata.name && next.type === metadata.type && next.value === metadata.value) {
    return metadata;
  }
  if (next.name !== metadata.name || next.type !== metadata.type) {
    await requireAllowed(db, user, found.access.corpus.id, next.name, next.type);
  }
  const values = {
    type: next.type,
    name: next.name,
    value: next.value,
    numeric_value: numericValue,
    updated: nextVersion(metadata.updated),
  };
  await db.updateTable('metadata').set(values).where('id', '=', metadata.id).execute();
  return metadataById(db, metadata.id);
}

export async function deleteMetadata(db: Db, user: User, found: MetadataAccess): Promise<void> {
  checkRight(found.access, 'write');
  await requireUnprotected(db, user, found, 'delete');
  await db.deleteFrom('metadata').where('id', '=', found.metadata.id).execute();
}
