/**
 * The element filters of the filter bar (spec 001 §2 "Filter bar", §5 "Filters"), shared by the
 * corpus list, the children and parents lists and the filtered deletion. Reading checks every
 * parameter and answers one 400 naming each bad one with the spec's message; applying turns the
 * result into conditions on `elements`, each one indexed column or one EXISTS.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';
import { validationErrors, type ErrorItem } from '../../errors';

export const FILTER_MESSAGES = {
  confidence: 'A confidence must be a number between 0.0 and 1.0',
  rotation: 'A rotation angle must be a number between 0 and 359 degrees',
  boolean: 'Only Yes and No are allowed',
  uuid: 'Invalid UUID',
  numeric: 'Numeric comparison operators on metadata values require finite numbers',
  type: (slug: string) => `Type '${slug}' not found.`,
  mlClass: (id: string) => `Unknown class '${id}'`,
  workerVersion: (id: string) => `Unknown worker version ID: '${id}'`,
  choice: (value: string) => `"${value}" is not a valid choice.`,
} as const;

export const COMPARISONS = ['eq', 'lt', 'lte', 'gt', 'gte'] as const;
export type Comparison = (typeof COMPARISONS)[number];
export const METADATA_OPERATORS = [...COMPARISONS, 'contains'] as const;
export type MetadataOperator = (typeof METADATA_OPERATORS)[number];

export interface NumberFilter {
  operator: Comparison;
  value: number;
}

/** A worker run id, or null for manual results (`false` in the query). */
export type WorkerFilter = string | null;

export interface ElementFilters {
  name?: string;
  typeId?: string;
  /** The folder filter, with the project's folder types read once rather than for each row. */
  folder?: { folder: boolean; folderTypeIds: string[] };
  topLevel?: boolean;
  workerRun?: WorkerFilter;
  /** Results of any run of this worker version. */
  workerVersionId?: string;
  creatorEmail?: string;
  confidence?: NumberFilter;
  rotationAngle?: number;
  mirrored?: boolean;
  metadata?: { name?: string; value?: string; operator: MetadataOperator };
  classification?: { classId?: string; confidence?: NumberFilter; highConfidence?: boolean };
  transcription?: {
    workerRun?: WorkerFilter;
    workerVersionId?: string;
    confidence?: NumberFilter;
  };
}

/** Filters known to the lists, for callers (the deletion job) that keep only these. */
export const FILTER_PARAMS = [
  'name',
  'type',
  'folder',
  'top_level',
  'worker_run',
  'worker_version',
  'creator_email',
  'confidence',
  'confidence_operator',
  'rotation_angle',
  'mirrored',
  'metadata_name',
  'metadata_value',
  'metadata_operator',
  'class_id',
  'classification_confidence',
  'classification_confidence_operator',
  'classification_high_confidence',
  'transcription_worker_run',
  'transcription_worker_version',
  'transcription_confidence',
  'transcription_confidence_operator',
] as const;

export type QueryValues = Record<string, string>;

/** A repeated parameter arrives as an array; Django reads the last value, so do we. */
export function queryValues(query: unknown): QueryValues {
  const values: QueryValues = {};
  if (!query || typeof query !== 'object') return values;
  for (const [key, raw] of Object.entries(query as Record<string, unknown>)) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (typeof value === 'string') values[key] = value;
  }
  return values;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/** Collects the errors of one query, so one answer names every bad parameter. */
export class QueryReader {
  readonly errors: ErrorItem[] = [];
  constructor(readonly values: QueryValues) {}

  has(name: string): boolean {
    return this.values[name] !== undefined && this.values[name] !== '';
  }

  fail(attr: string, detail: string, code = 'invalid'): undefined {
    this.errors.push({ code, detail, attr });
    return undefined;
  }

  string(name: string): string | undefined {
    return this.has(name) ? this.values[name] : undefined;
  }

  boolean(name: string): boolean | undefined {
    if (!this.has(name)) return undefined;
    const value = this.values[name]!.trim().toLowerCase();
    if (['true', 'yes', '1'].includes(value)) return true;
    if (['false', 'no', '0'].includes(value)) return false;
    return this.fail(name, FILTER_MESSAGES.boolean);
  }

  choice<T extends string>(name: string, choices: readonly T[]): T | undefined {
    if (!this.has(name)) return undefined;
    const value = this.values[name]!;
    if ((choices as readonly string[]).includes(value)) return value as T;
    return this.fail(name, FILTER_MESSAGES.choice(value), 'invalid_choice');
  }

  confidence(name: string): NumberFilter | undefined {
    const operator = this.choice(`${name}_operator`, COMPARISONS) ?? 'eq';
    if (!this.has(name)) return undefined;
    const raw = this.values[name]!;
    const value = NUMBER.test(raw) ? Number(raw) : NaN;
    if (!(value >= 0 && value <= 1)) return this.fail(name, FILTER_MESSAGES.confidence);
    return { operator, value };
  }

  /** A worker run id or `false` for manual results. */
  workerRun(name: string): WorkerFilter | undefined {
    if (!this.has(name)) return undefined;
    const value = this.values[name]!.trim();
    if (value.toLowerCase() === 'false') return null;
    if (!UUID.test(value)) return this.fail(name, FILTER_MESSAGES.uuid);
    return value.toLowerCase();
  }

  /**
   * A worker version id or `false` for manual results. Whether the version exists is a
   * database question: see knownWorkerVersion.
   */
  workerVersion(name: string): WorkerFilter | undefined {
    if (!this.has(name)) return undefined;
    const value = this.values[name]!.trim();
    if (value.toLowerCase() === 'false') return null;
    if (!UUID.test(value)) return this.fail(name, FILTER_MESSAGES.workerVersion(value));
    return value.toLowerCase();
  }

  throwIfInvalid(): void {
    if (this.errors.length) throw validationErrors(this.errors);
  }
}

/** A worker version filter's id once the version is known to exist, else an error on it. */
async function knownWorkerVersion(
  db: Db,
  reader: QueryReader,
  name: string,
): Promise<WorkerFilter | undefined> {
  const id = reader.workerVersion(name);
  if (!id) return id;
  const found = await db
    .selectFrom('worker_versions')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  if (found) return found.id;
  return reader.fail(name, FILTER_MESSAGES.workerVersion(reader.values[name]!.trim()));
}

/** The filters that name things of the project (types, classes) are checked against it. */
export async function readElementFilters(
  db: Db,
  corpusId: string,
  reader: QueryReader,
  options: { topLevel: boolean },
): Promise<ElementFilters> {
  const filters: ElementFilters = {};
  const name = reader.string('name');
  if (name !== undefined) filters.name = name;

  const typeSlug = reader.string('type');
  if (typeSlug !== undefined) {
    const type = await db
      .selectFrom('element_types')
      .select('id')
      .where('corpus_id', '=', corpusId)
      .where('slug', '=', typeSlug)
      .executeTakeFirst();
    if (type) filters.typeId = type.id;
    else reader.fail('type', FILTER_MESSAGES.type(typeSlug));
  }

  const folder = reader.boolean('folder');
  if (folder !== undefined) {
    const types = await db
      .selectFrom('element_types')
      .select('id')
      .where('corpus_id', '=', corpusId)
      .where('folder', '=', 1)
      .execute();
    filters.folder = { folder, folderTypeIds: types.map((type) => type.id) };
  }
  if (options.topLevel) filters.topLevel = reader.boolean('top_level');

  // worker_version asks the same of every run of a version; a run wins when both are given.
  const workerVersion = await knownWorkerVersion(db, reader, 'worker_version');
  const workerRun = reader.workerRun('worker_run');
  if (workerRun !== undefined || workerVersion === null) filters.workerRun = workerRun ?? null;
  else if (workerVersion !== undefined) filters.workerVersionId = workerVersion;

  filters.creatorEmail = reader.string('creator_email')?.trim();
  filters.confidence = reader.confidence('confidence');

  if (reader.has('rotation_angle')) {
    const raw = reader.values.rotation_angle!.trim();
    const angle = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
    if (angle >= 0 && angle <= 359) filters.rotationAngle = angle;
    else reader.fail('rotation_angle', FILTER_MESSAGES.rotation);
  }
  filters.mirrored = reader.boolean('mirrored');

  const metadataOperator = reader.choice('metadata_operator', METADATA_OPERATORS) ?? 'eq';
  const metadataName = reader.string('metadata_name');
  const metadataValue = reader.string('metadata_value');
  if (metadataValue !== undefined && !['eq', 'contains'].includes(metadataOperator)) {
    const raw = metadataValue.trim();
    if (!NUMBER.test(raw) || !Number.isFinite(Number(raw))) {
      reader.fail('metadata_value', FILTER_MESSAGES.numeric);
    }
  }
  if (metadataName !== undefined || metadataValue !== undefined) {
    filters.metadata = { name: metadataName, value: metadataValue, operator: metadataOperator };
  }

  const classification: NonNullable<ElementFilters['classification']> = {};
  const classId = reader.string('class_id');
  if (classId !== undefined) {
    const found = UUID.test(classId)
      ? await db
          .selectFrom('ml_classes')
          .select('id')
          .where('corpus_id', '=', corpusId)
          .where('id', '=', classId.toLowerCase())
          .executeTakeFirst()
      : undefined;
    if (found) classification.classId = found.id;
    else reader.fail('class_id', FILTER_MESSAGES.mlClass(classId));
  }
  classification.confidence = reader.confidence('classification_confidence');
  classification.highConfidence = reader.boolean('classification_high_confidence');
  if (Object.values(classification).some((value) => value !== undefined)) {
    filters.classification = classification;
  }

  const transcription: NonNullable<ElementFilters['transcription']> = {};
  const transcriptionVersion = await knownWorkerVersion(db, reader, 'transcription_worker_version');
  const transcriptionRun = reader.workerRun('transcription_worker_run');
  if (transcriptionRun !== undefined || transcriptionVersion === null) {
    transcription.workerRun = transcriptionRun ?? null;
  } else if (transcriptionVersion !== undefined) {
    transcription.workerVersionId = transcriptionVersion;
  }
  transcription.confidence = reader.confidence('transcription_confidence');
  if (Object.values(transcription).some((value) => value !== undefined)) {
    filters.transcription = transcription;
  }
  return filters;
}

type ElementsEb = ExpressionBuilder<Database, 'elements'>;

const SQL_COMPARISON = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/** `column LIKE %text%` whatever the case, with the text's own % and _ taken literally. */
function containsInsensitive(column: Expression<string>, text: string): Expression<SqlBool> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${column}) like lower(${pattern}) escape '\\'`;
}

/**
 * On SQLite, the name filter narrowed first through element_names, the trigram index of
 * migration 0022; null when that index cannot help: the text is under three characters (no
 * trigram to look up) or holds LIKE's own wildcards, which the index's LIKE cannot escape. The
 * exact condition (containsInsensitive) still applies to what it lets through.
 */
export function nameIndexCondition(text: string): Expression<SqlBool> | null {
  if ([...text].length < 3 || /[\\%_]/.test(text)) return null;
  return sql<SqlBool>`elements.rowid in (select rowid from element_names where name like ${`%${text}%`})`;
}

/** The WHERE conditions of `filters` on the `elements` table. */
export function filterConditions(eb: ElementsEb, filters: ElementFilters): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  if (filters.name !== undefined) {
    where.push(containsInsensitive(eb.ref('elements.name'), filters.name));
  }
  if (filters.typeId !== undefined) where.push(eb('elements.type_id', '=', filters.typeId));
  if (filters.folder) {
    const { folder, folderTypeIds } = filters.folder;
    if (folderTypeIds.length) {
      where.push(eb('elements.type_id', folder ? 'in' : 'not in', folderTypeIds));
    } else if (folder) {
      where.push(sql<SqlBool>`1 = 0`);
    }
  }
  if (filters.topLevel !== undefined) {
    where.push(eb('elements.top_level', '=', filters.topLevel ? 1 : 0));
  }
  if (filters.workerRun !== undefined) {
    where.push(
      filters.workerRun === null
        ? eb('elements.worker_run_id', 'is', null)
        : eb('elements.worker_run_id', '=', filters.workerRun),
    );
  }
  if (filters.workerVersionId !== undefined) {
    where.push(eb('elements.worker_run_id', 'in', runsOfVersion(eb, filters.workerVersionId)));
  }
  if (filters.creatorEmail !== undefined) {
    where.push(
      eb(
        'elements.creator_id',
        'in',
        eb
          .selectFrom('users')
          .select('users.id')
          .where(sql<string>`lower(users.email)`, '=', filters.creatorEmail.toLowerCase()),
      ),
    );
  }
  if (filters.confidence) {
    const { operator, value } = filters.confidence;
    where.push(eb('elements.confidence', SQL_COMPARISON[operator], value));
  }
  if (filters.rotationAngle !== undefined) {
    where.push(eb('elements.rotation_angle', '=', filters.rotationAngle));
  }
  if (filters.mirrored !== undefined) {
    where.push(eb('elements.mirrored', '=', filters.mirrored ? 1 : 0));
  }
  if (filters.metadata) where.push(metadataCondition(eb, filters.metadata));
  if (filters.classification) where.push(classificationCondition(eb, filters.classification));
  if (filters.transcription) where.push(transcriptionCondition(eb, filters.transcription));
  return where;
}

function metadataCondition(
  eb: ElementsEb,
  filter: NonNullable<ElementFilters['metadata']>,
): Expression<SqlBool> {
  let query = eb
    .selectFrom('metadata')
    .select('metadata.id')
    .whereRef('metadata.element_id', '=', 'elements.id');
  if (filter.name !== undefined) query = query.where('metadata.name', '=', filter.name);
  const value = filter.value;
  if (value !== undefined) {
    if (filter.operator === 'eq') query = query.where('metadata.value', '=', value);
    else if (filter.operator === 'contains') {
      query = query.where((inner) => containsInsensitive(inner.ref('metadata.value'), value));
    } else {
      query = query.where(
        'metadata.numeric_value',
        SQL_COMPARISON[filter.operator],
        Number(value.trim()),
      );
    }
  }
  return eb.exists(query);
}

function classificationCondition(
  eb: ElementsEb,
  filter: NonNullable<ElementFilters['classification']>,
): Expression<SqlBool> {
  let query = eb
    .selectFrom('classifications')
    .select('classifications.id')
    .whereRef('classifications.element_id', '=', 'elements.id');
  if (filter.classId !== undefined) {
    query = query.where('classifications.ml_class_id', '=', filter.classId);
  }
  if (filter.confidence) {
    const { operator, value } = filter.confidence;
    query = query.where('classifications.confidence', SQL_COMPARISON[operator], value);
  }
  if (filter.highConfidence !== undefined) {
    query = query.where('classifications.high_confidence', '=', filter.highConfidence ? 1 : 0);
  }
  return eb.exists(query);
}

function runsOfVersion(eb: ElementsEb, versionId: string) {
  return eb
    .selectFrom('worker_runs')
    .select('worker_runs.id')
    .where('worker_runs.worker_version_id', '=', versionId);
}

function transcriptionCondition(
  eb: ElementsEb,
  filter: NonNullable<ElementFilters['transcription']>,
): Expression<SqlBool> {
  let query = eb
    .selectFrom('transcriptions')
    .select('transcriptions.id')
    .whereRef('transcriptions.element_id', '=', 'elements.id');
  if (filter.workerRun !== undefined) {
    query =
      filter.workerRun === null
        ? query.where('transcriptions.worker_run_id', 'is', null)
        : query.where('transcriptions.worker_run_id', '=', filter.workerRun);
  }
  if (filter.workerVersionId !== undefined) {
    query = query.where(
      'transcriptions.worker_run_id',
      'in',
      runsOfVersion(eb, filter.workerVersionId),
    );
  }
  if (filter.confidence) {
    const { operator, value } = filter.confidence;
    query = query.where('transcriptions.confidence', SQL_COMPARISON[operator], value);
  }
  return eb.exists(query);
}
