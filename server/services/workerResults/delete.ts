/**
 * Deleting worker results: the transcriptions, classifications, metadata, transcription entities
 * and elements that matching worker runs produced, within the project or the subtrees asked for.
 * Elements go as DestroyElement deletes them, with the descendants nothing else holds. Every step
 * deletes what still matches, so a job run again after a restart finishes the work.
 */
import { sql } from 'kysely';
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { enqueueJob } from '../../jobs/queue';
import { deleteElementIds, deletionIds } from '../elements/delete';
import { chunks, INSERT_CHUNK, MAX_DEPTH } from '../elements/repository';
import type { RunFilters, WorkerResultsPayload } from './filters';

export const DELETE_WORKER_RESULTS_JOB = 'delete_worker_results';

export interface WorkerResultsDeleted {
  transcriptions: number;
  classifications: number;
  metadata: number;
  transcription_entities: number;
  elements: number;
}

function matchingRuns(db: Db, runs: RunFilters) {
  let query = db.selectFrom('worker_runs').select('worker_runs.id');
  if (runs.workerRunId) query = query.where('worker_runs.id', '=', runs.workerRunId);
  if (runs.workerVersionId) {
    query = query.where('worker_runs.worker_version_id', '=', runs.workerVersionId);
  }
  if (runs.modelVersionId) {
    query = query.where('worker_runs.model_version_id', '=', runs.modelVersionId);
  }
  if (runs.configurationId === false)
    query = query.where('worker_runs.configuration_id', 'is', null);
  else if (runs.configurationId) {
    query = query.where('worker_runs.configuration_id', '=', runs.configurationId);
  }
  return query;
}

/** The roots and every descendant, as ids of this project. */
async function subtreeIds(db: Db, corpusId: string, rootIds: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const part of chunks(rootIds, INSERT_CHUNK)) {
    const { rows } = await sql<{ id: string }>`
      WITH RECURSIVE tree(id, depth) AS (
        SELECT id, 0 FROM elements
        WHERE corpus_id = ${corpusId} AND id IN (${sql.join(part)})
        UNION
        SELECT element_links.child_id, tree.depth + 1
        FROM element_links JOIN tree ON element_links.parent_id = tree.id
        WHERE tree.depth < ${MAX_DEPTH}
      )
      SELECT DISTINCT id FROM tree`.execute(db);
    for (const row of rows) found.add(row.id);
  }
  return [...found];
}

type Scope = { kind: 'corpus'; corpusId: string } | { kind: 'ids'; ids: string[] };

/** Runs `work` once per group of element ids in scope (once, with a subquery, for a project). */
async function eachScope(
  db: Db,
  scope: Scope,
  work: (elementIds: readonly string[] | ReturnType<typeof corpusElements>) => Promise<number>,
): Promise<number> {
  if (scope.kind === 'corpus') return work(corpusElements(db, scope.corpusId));
  let total = 0;
  for (const part of chunks(scope.ids, INSERT_CHUNK)) total += await work(part);
  return total;
}

function corpusElements(db: Db, corpusId: string) {
  return db.selectFrom('elements').select('elements.id').where('elements.corpus_id', '=', corpusId);
}

export interface DeleteHooks {
  progress?(fraction: number): Promise<void>;
  shouldStop?(): Promise<boolean>;
}

export async function deleteWorkerResults(
  db: Db,
  payload: WorkerResultsPayload,
  hooks: DeleteHooks = {},
): Promise<WorkerResultsDeleted> {
  const scope: Scope = payload.rootIds
    ? { kind: 'ids', ids: await subtreeIds(db, payload.corpusId, payload.rootIds) }
    : { kind: 'corpus', corpusId: payload.corpusId };
  const runs = () => matchingRuns(db, payload.runs);
  const deleted: WorkerResultsDeleted = {
    transcriptions: 0,
    classifications: 0,
    metadata: 0,
    transcription_entities: 0,
    elements: 0,
  };
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

  deleted.transcription_entities = await eachScope(db, scope, async (ids) =>
    count(
      await db
        .deleteFrom('transcription_entities')
        .where('worker_run_id', 'in', runs())
        .where('transcription_id', 'in', (eb) =>
          eb
            .selectFrom('transcriptions')
            .select('transcriptions.id')
            .where('element_id', 'in', ids),
        )
        .executeTakeFirst(),
    ),
  );
  await hooks.progress?.(0.1);
  for (const table of ['transcriptions', 'classifications', 'metadata'] as const) {
    if (await hooks.shouldStop?.()) return deleted;
    deleted[table] = await eachScope(db, scope, async (ids) =>
      count(
        await db
          .deleteFrom(table)
          .where('worker_run_id', 'in', runs())
          .where('element_id', 'in', ids)
          .executeTakeFirst(),
      ),
    );
  }
  await hooks.progress?.(0.3);

  const elementIds = new Set<string>();
  await eachScope(db, scope, async (ids) => {
    const rows = await db
      .selectFrom('elements')
      .select('id')
      .where('corpus_id', '=', payload.corpusId)
      .where('worker_run_id', 'in', runs())
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) elementIds.add(row.id);
    return rows.length;
  });
  // Chunk by chunk, each chunk's descendants computed once the previous chunk is gone: an
  // element that two deleted roots of different chunks hold goes with the second one.
  const matched = [...elementIds];
  let rootsDone = 0;
  for (const part of chunks(matched, INSERT_CHUNK)) {
    if (await hooks.shouldStop?.()) break;
    const roots = db.selectFrom('elements').select('elements.id').where('elements.id', 'in', part);
    deleted.elements += await deleteElementIds(db, await deletionIds(db, roots, true));
    rootsDone += part.length;
    await hooks.progress?.(0.3 + (0.7 * rootsDone) / matched.length);
  }
  return deleted;
}

export async function scheduleWorkerResultsDeletion(
  db: Db,
  user: User,
  payload: WorkerResultsPayload,
  corpusName: string,
) {
  return enqueueJob(db, {
    kind: DELETE_WORKER_RESULTS_JOB,
    description: `Deleting worker results in ${corpusName}`,
    userId: user.id,
    corpusId: payload.corpusId,
    payload,
  });
}
