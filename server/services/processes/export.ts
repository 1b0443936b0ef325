/**
 * CreateExportProcess (contract "Export processes", api part 2 §1.1): a process of mode
 * `export`, started at once, whose single task runs the built-in worker providing the format's
 * feature (`<format>_export`) on the chosen element or the caller's selection. The worker run's
 * configuration holds `export_id` (the SQLite export the worker reads) and the user's options,
 * checked against the version's user_configuration; with `export_id` null a new SQLite export
 * is started first and the task waits for it.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Db, Dialect } from '../../db';
import type { User } from '../../db/schema';
import type { Features } from '../../config';
import { nowIso } from '../../clock';
import { ApiError, badRequest, invalidPk, validationError, validationErrors } from '../../errors';
import { chunks, INSERT_CHUNK } from '../elements/repository';
import { findExport, startExport } from '../exports/exports';
import { selectedIdsOfCorpus, SELECTION_MESSAGES } from '../selection';
import type { ExportFormat } from '../workers/builtinWorkers';
import {
  normalizeConfiguration,
  validateConfiguration,
  type UserConfiguration,
} from '../workers/configurationRules';
import { featureVersion, userConfiguration } from '../workers/versions';
import { NO_SELECTION } from './create';
import { createTaskRun } from './start';
import { insertProcess } from './templates';

export const EXPORT_PROCESS_MESSAGES = {
  formatOff: (format: string) => `"${format}" is not a valid choice.`,
  noVersion: (format: string) => `No worker version provides the ${format} export.`,
  exportFailed: 'This export has failed: choose another one or start a new export.',
  elementAndSelection: 'An element and the selection cannot be exported together.',
  notAnObject: 'The configuration must be an object.',
} as const;

/** The labels the app shows, which also name the processes. */
export const FORMAT_LABELS: Record<ExportFormat, string> = {
  pdf: 'PDF',
  pagexml: 'PAGE XML',
  alto: 'ALTO',
  docx: 'DOCX',
  csv: 'CSV',
};

export interface ExportProcessInput {
  format: ExportFormat;
  export_id: string | null;
  configuration?: Record<string, unknown> | undefined;
  farm_id?: string | null | undefined;
  element_id?: string | undefined;
  selection?: boolean | undefined;
}

export interface ExportProcessContext {
  db: Db;
  dialect: Dialect;
  features: Features;
  /** The origin Folia's own IIIF URLs are written with in a new SQLite export. */
  origin: string | null;
}

/** JSON with keys sorted, so the same options find the same stored configuration. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The options as stored (empty values dropped, as a saved configuration keeps them), or a 400. */
function checkOptions(
  schema: UserConfiguration | null,
  options: Record<string, unknown>,
): Record<string, unknown> {
  if (Object.keys(options).length === 0) return {};
  const problems = validateConfiguration(schema ?? {}, options);
  if (problems.length === 0) return normalizeConfiguration(schema ?? {}, options);
  throw validationErrors(
    problems.map((problem) => ({
      code: 'invalid',
      detail: problem.key ? `${problem.key}: ${problem.message}` : problem.message,
      attr: 'configuration',
    })),
  );
}

async function checkElement(db: Db, corpusId: string, elementId: string): Promise<string> {
  const element = await db
    .selectFrom('elements')
    .select('id')
    .where('id', '=', elementId.toLowerCase())
    .where('corpus_id', '=', corpusId)
    .executeTakeFirst();
  if (!element) throw invalidPk('element_id', elementId);
  return element.id;
}

async function checkFarm(db: Db, farmId: string | null | undefined): Promise<string | null> {
  if (farmId) {
    const farm = await db
      .selectFrom('farms')
      .select('id')
      .where('id', '=', farmId.toLowerCase())
      .executeTakeFirst();
    if (!farm) throw invalidPk('farm_id', farmId);
    return farm.id;
  }
  const fallback = await db
    .selectFrom('farms')
    .select('id')
    .orderBy('created')
    .orderBy('id')
    .executeTakeFirst();
  return fallback?.id ?? null;
}

/** The SQLite export the task reads: the one named, or a new one started now. */
async function exportToRead(
  context: ExportProcessContext,
  user: User,
  corpusId: string,
  exportId: string | null,
): Promise<string> {
  if (exportId === null) {
    try {
      const started = await startExport(
        context.db,
        context.dialect,
        corpusId,
        user,
        'default',
        context.origin,
      );
      return started.id;
    } catch (error) {
      // A new export's refusals (one running, one too recent) concern the export choice.
      if (error instanceof ApiError && error.statusCode === 400) {
        throw validationError('export_id', error.errors[0]?.detail ?? error.message);
      }
      throw error;
    }
  }
  const found = await findExport(context.db, exportId);
  if (!found || found.corpus_id !== corpusId) throw invalidPk('export_id', exportId);
  if (found.state === 'failed') {
    throw validationError('export_id', EXPORT_PROCESS_MESSAGES.exportFailed);
  }
  return found.id;
}

/**
 * The stored configuration holding these values for the worker: an existing one with the same
 * values, else a new one named after the export (and a hash of the options, names being unique
 * per worker).
 */
async function configurationFor(
  trx: Db,
  workerId: string,
  values: Record<string, unknown>,
): Promise<string> {
  const text = canonical(values);
  const hash = createHash('sha1').update(text).digest('hex').slice(0, 8);
  const name = `Export ${String(values.export_id)}${Object.keys(values).length > 1 ? ` (${hash})` : ''}`;
  const existing = await trx
    .selectFrom('worker_configurations')
    .select(['id', 'configuration'])
    .where('worker_id', '=', workerId)
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) {
    let stored: unknown = null;
    try {
      stored = JSON.parse(existing.configuration);
    } catch {
      // An unreadable row is replaced by a new one below.
    }
    if (canonical(stored) === text) return existing.id;
  }
  const id = randomUUID();
  await trx
    .insertInto('worker_configurations')
    .values({
      id,
      worker_id: workerId,
      name: existing ? `${name} ${id.slice(0, 8)}` : name,
      configuration: JSON.stringify(values),
      archived: 0,
    })
    .execute();
  return id;
}

/** Checks the request, then makes and starts the process; returns its id. */
export async function createExportProcess(
  context: ExportProcessContext,
  user: User,
  corpusId: string,
  input: ExportProcessInput,
): Promise<string> {
  const { db } = context;
  if (!context.features[`${input.format}_export`]) {
    throw validationError(
      'format',
      EXPORT_PROCESS_MESSAGES.formatOff(input.format),
      'invalid_choice',
    );
  }
  const version = await featureVersion(db, `${input.format}_export`).catch(() => null);
  if (!version) {
    throw validationError('format', EXPORT_PROCESS_MESSAGES.noVersion(input.format));
  }
  const options = checkOptions(
    userConfiguration({ configuration: JSON.stringify(version.configuration) }),
    input.configuration ?? {},
  );

  if (input.selection && input.element_id) {
    throw validationError('selection', EXPORT_PROCESS_MESSAGES.elementAndSelection);
  }
  if (input.selection && !context.features.selection) {
    throw badRequest(SELECTION_MESSAGES.disabled);
  }
  const elementId = input.element_id ? await checkElement(db, corpusId, input.element_id) : null;
  const selected = input.selection ? await selectedIdsOfCorpus(db, user, corpusId) : [];
  if (input.selection && selected.length === 0) {
    throw validationError('selection', NO_SELECTION);
  }
  const farmId = await checkFarm(db, input.farm_id);
  // Last, so a refused request starts no SQLite export.
  const exportId = await exportToRead(context, user, corpusId, input.export_id);

  return db.transaction().execute(async (trx) => {
    const processId = await insertProcess(trx, {
      corpusId,
      creatorId: user.id,
      name: `${FORMAT_LABELS[input.format]} export`,
      mode: 'export',
    });
    if (elementId) {
      await trx
        .updateTable('processes')
        .set({ element_id: elementId })
        .where('id', '=', processId)
        .execute();
    }
    for (const part of chunks(selected, INSERT_CHUNK)) {
      await trx
        .insertInto('process_elements')
        .values(part.map((id) => ({ process_id: processId, element_id: id })))
        .execute();
    }
    const configurationId = await configurationFor(trx, version.worker.id, {
      export_id: exportId,
      ...options,
    });
    const runId = randomUUID();
    await trx
      .insertInto('worker_runs')
      .values({
        id: runId,
        process_id: processId,
        worker_version_id: version.id,
        model_version_id: null,
        configuration_id: configurationId,
        parents: '[]',
        created: nowIso(),
      })
      .execute();
    const process = await trx
      .selectFrom('processes')
      .selectAll()
      .where('id', '=', processId)
      .executeTakeFirstOrThrow();
    // One task for every chosen element: the export is one file.
    await createTaskRun(trx, process, 0, { chunks: 1, useGpu: false, keepProcessed: false });
    // An export worker reports no activity per element: none is left waiting as queued.
    await trx.deleteFrom('worker_activities').where('worker_run_id', '=', runId).execute();
    await trx
      .updateTable('processes')
      .set({
        started: nowIso(),
        farm_id: farmId,
        chunks: 1,
        use_gpu: 0,
        activity_state: 'disabled',
      })
      .where('id', '=', processId)
      .execute();
    return processId;
  });
}
