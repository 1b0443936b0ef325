/**
 * Worker runs as data: results (transcriptions, classifications, metadata, elements) carry
 * `worker_run: {id, summary}` in the Arkindex form, and RetrieveWorkerRun gives what the worker
 * run details modal shows. Summaries read "Worker <name> @ <revision[:6] or version>", then
 * " with model <name> @ <model version id[:6]>" and " using configuration '<name>'" when set.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import type { User } from '../db/schema';
import { invalidPk } from '../errors';
import { nowIso } from '../clock';
import { ensureWorkerType } from './workers/workers';

export interface WorkerRunSummary {
  id: string;
  summary: string;
}

interface SummaryRow {
  id: string;
  worker_name: string;
  revision_hash: string | null;
  version: number | null;
  worker_version_id: string;
  model_name: string | null;
  model_version_id: string | null;
  configuration_name: string | null;
}

export function summaryText(row: Omit<SummaryRow, 'id'>): string {
  const version =
    row.revision_hash?.slice(0, 6) ??
    (row.version !== null ? String(row.version) : row.worker_version_id.slice(0, 6));
  let summary = `Worker ${row.worker_name} @ ${version}`;
  if (row.model_name && row.model_version_id) {
    summary += ` with model ${row.model_name} @ ${row.model_version_id.slice(0, 6)}`;
  }
  if (row.configuration_name) summary += ` using configuration '${row.configuration_name}'`;
  return summary;
}

function summaryQuery(db: Db) {
  return db
    .selectFrom('worker_runs')
    .innerJoin('worker_versions', 'worker_versions.id', 'worker_runs.worker_version_id')
    .innerJoin('workers', 'workers.id', 'worker_versions.worker_id')
    .leftJoin('model_versions', 'model_versions.id', 'worker_runs.model_version_id')
    .leftJoin('models', 'models.id', 'model_versions.model_id')
    .leftJoin('worker_configurations', 'worker_configurations.id', 'worker_runs.configuration_id')
    .select([
      'worker_runs.id',
      'workers.name as worker_name',
      'worker_versions.revision_hash',
      'worker_versions.version',
      'worker_versions.id as worker_version_id',
      'models.name as model_name',
      'model_versions.id as model_version_id',
      'worker_configurations.name as configuration_name',
    ]);
}

/** `{id, summary}` of each worker run named, in one query; results without one map to null. */
export async function workerRunSummaries(
  db: Db,
  ids: readonly (string | null)[],
): Promise<Map<string, WorkerRunSummary>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  const found = new Map<string, WorkerRunSummary>();
  if (wanted.length === 0) return found;
  const rows = await summaryQuery(db).where('worker_runs.id', 'in', wanted).execute();
  for (const row of rows) found.set(row.id, { id: row.id, summary: summaryText(row) });
  return found;
}

export async function workerRunSummary(
  db: Db,
  id: string | null,
): Promise<WorkerRunSummary | null> {
  if (!id) return null;
  return (await workerRunSummaries(db, [id])).get(id) ?? null;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
};

/** RetrieveWorkerRun: the worker run with its version, worker, model, configuration and process. */
export async function workerRunJson(db: Db, id: string) {
  const run = await db
    .selectFrom('worker_runs')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!run) return null;
  const version = await db
    .selectFrom('worker_versions')
    .selectAll()
    .where('id', '=', run.worker_version_id)
    .executeTakeFirstOrThrow();
  const worker = await db
    .selectFrom('workers')
    .selectAll()
    .where('id', '=', version.worker_id)
    .executeTakeFirstOrThrow();
  const process = await db
    .selectFrom('processes')
    .selectAll()
    .where('id', '=', run.process_id)
    .executeTakeFirstOrThrow();
  const configuration = run.configuration_id
    ? await db
        .selectFrom('worker_configurations')
        .selectAll()
        .where('id', '=', run.configuration_id)
        .executeTakeFirst()
    : undefined;
  const modelVersion = run.model_version_id
    ? await db
        .selectFrom('model_versions')
        .innerJoin('models', 'models.id', 'model_versions.model_id')
        .select([
          'model_versions.id',
          'model_versions.tag',
          'model_versions.hash',
          'model_versions.state',
          'model_versions.configuration',
          'model_versions.created',
          'models.id as model_id',
          'models.name as model_name',
        ])
        .where('model_versions.id', '=', run.model_version_id)
        .executeTakeFirst()
    : undefined;
  const [summary] = await summaryQuery(db).where('worker_runs.id', '=', id).execute();
  return {
    id: run.id,
    parents: parseJson(run.parents),
    worker_version: {
      id: version.id,
      worker: {
        id: worker.id,
        name: worker.name,
        slug: worker.slug,
        type: worker.type,
        description: worker.description,
        repository_url: worker.repository_url,
      },
      revision: version.revision_hash ? { hash: version.revision_hash } : null,
      version: version.version,
      configuration: parseJson(version.configuration),
      state: version.state,
      created: version.created,
    },
    configuration: configuration
      ? {
          id: configuration.id,
          name: configuration.name,
          configuration: parseJson(configuration.configuration),
          archived: configuration.archived === 1,
        }
      : null,
    model_version: modelVersion
      ? {
          id: modelVersion.id,
          model: { id: modelVersion.model_id, name: modelVersion.model_name },
          tag: modelVersion.tag,
          hash: modelVersion.hash,
          state: modelVersion.state,
          configuration: parseJson(modelVersion.configuration),
          created: modelVersion.created,
        }
      : null,
    process: {
      id: process.id,
      corpus: process.corpus_id,
      name: process.name,
      mode: process.mode,
      state: process.state,
      created: process.created,
    },
    created: run.created,
    summary: summary ? summaryText(summary) : '',
  };
}

/**
 * The worker run that imports of a project are recorded under: one "File import" worker and
 * one process per project, made on first use.
 */
export async function importWorkerRun(db: Db, corpusId: string): Promise<string> {
  const slug = 'file_import';
  let worker = await db
    .selectFrom('workers')
    .selectAll()
    .where('slug', '=', slug)
    .executeTakeFirst();
  const now = nowIso();
  if (!worker) {
    worker = {
      id: randomUUID(),
      name: 'File import',
      slug,
      type: 'import',
      description: 'Pages, zones and text read from image, PAGE XML, ALTO and IIIF files.',
      repository_url: null,
      archived: 0,
      created: now,
    };
    await db.insertInto('workers').values(worker).execute();
    // Listed with the other worker types, so the workers list can be filtered by it.
    await ensureWorkerType(db, worker.type);
    await db
      .insertInto('worker_versions')
      .values({
        id: randomUUID(),
        worker_id: worker.id,
        revision_hash: null,
        version: 1,
        configuration: '{}',
        state: 'available',
        created: now,
      })
      .execute();
  }
  const version = await db
    .selectFrom('worker_versions')
    .select('id')
    .where('worker_id', '=', worker.id)
    .orderBy('created')
    .executeTakeFirstOrThrow();
  const existing = await db
    .selectFrom('worker_runs')
    .innerJoin('processes', 'processes.id', 'worker_runs.process_id')
    .select('worker_runs.id')
    .where('processes.corpus_id', '=', corpusId)
    .where('worker_runs.worker_version_id', '=', version.id)
    .executeTakeFirst();
  if (existing) return existing.id;
  const processId = randomUUID();
  await db
    .insertInto('processes')
    .values({
      id: processId,
      corpus_id: corpusId,
      name: 'File imports',
      mode: 'files',
      state: 'completed',
      creator_id: null,
      created: now,
      started: null,
      finished: null,
    })
    .execute();
  const id = randomUUID();
  await db
    .insertInto('worker_runs')
    .values({
      id,
      process_id: processId,
      worker_version_id: version.id,
      model_version_id: null,
      configuration_id: null,
      parents: '[]',
      created: now,
    })
    .execute();
  return id;
}

/**
 * A worker run named in a body must be one of the project's, or one of the caller's local
 * process (a worker they develop, run on their machine, writes where they may write): its id,
 * or a 400 on `attr`.
 */
export async function requireProjectWorkerRun(
  db: Db,
  corpusId: string,
  id: string,
  attr = 'worker_run_id',
  user: Pick<User, 'id'> | null = null,
): Promise<string> {
  const row = await db
    .selectFrom('worker_runs')
    .innerJoin('processes', 'processes.id', 'worker_runs.process_id')
    .select('worker_runs.id')
    .where('worker_runs.id', '=', id.toLowerCase())
    .where((eb) =>
      user
        ? eb.or([
            eb('processes.corpus_id', '=', corpusId),
            eb.and([
              eb('processes.corpus_id', 'is', null),
              eb('processes.creator_id', '=', user.id),
            ]),
          ])
        : eb('processes.corpus_id', '=', corpusId),
    )
    .executeTakeFirst();
  if (!row) throw invalidPk(attr, id);
  return row.id;
}
