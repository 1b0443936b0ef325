/**
 * Worker activities (api/arkindex-api-2.md §2.7): a running worker reports, element by
 * element, that it queued, started, processed or failed it. Several copies of a worker may run
 * at once: asking to start an element already started or processed answers 409, which tells
 * that copy to skip it.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import type { User, WorkerActivityState } from '../../db/schema';
import { ApiError, invalidPk, notFound, permissionDenied } from '../../errors';
import { nowIso } from '../../clock';
import { processRights } from './processAccess';

export const ACTIVITY_STATES = ['queued', 'started', 'processed', 'error'] as const;

export interface ActivityInput {
  element_id: string;
  process_id: string;
  state: WorkerActivityState;
}

/**
 * The worker run the path names: a worker run of the process (as current workers call it), or
 * the process's run of a worker version (as older workers did).
 */
async function findRun(db: Db, id: string, processId: string) {
  const byRun = await db
    .selectFrom('worker_runs')
    .select(['id', 'process_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (byRun) return byRun;
  return db
    .selectFrom('worker_runs')
    .select(['id', 'process_id'])
    .where('worker_version_id', '=', id)
    .where('process_id', '=', processId)
    .orderBy('created')
    .executeTakeFirst();
}

const alreadyStarted = () =>
  new ApiError(409, 'client_error', [
    {
      code: 'conflict',
      detail: 'This element has already been started or processed by this worker run.',
      attr: 'state',
    },
  ]);

export async function updateActivity(db: Db, user: User, id: string, input: ActivityInput) {
  const processId = input.process_id.toLowerCase();
  const run = await findRun(db, id, processId);
  const process = run
    ? await db
        .selectFrom('processes')
        .select(['id', 'corpus_id', 'creator_id'])
        .where('id', '=', run.process_id)
        .executeTakeFirst()
    : undefined;
  const rights = process ? await processRights(db, user, process) : [];
  if (!run || !process || !rights.includes('read')) throw notFound();
  if (!rights.includes('write')) {
    throw permissionDenied('You do not have contributor access to this project.');
  }
  if (run.process_id !== processId) throw invalidPk('process_id', input.process_id);

  const element = await db
    .selectFrom('elements')
    .select(['id', 'corpus_id'])
    .where('id', '=', input.element_id.toLowerCase())
    .executeTakeFirst();
  // A local process works on whatever its owner may write; a project's on that project.
  const elementRights = !element
    ? []
    : process.corpus_id === null
      ? await processRights(db, user, { corpus_id: element.corpus_id, creator_id: null })
      : element.corpus_id === process.corpus_id
        ? rights
        : [];
  if (!element || !elementRights.includes('write')) throw invalidPk('element_id', input.element_id);

  const now = nowIso();
  const current = await db
    .selectFrom('worker_activities')
    .select(['id', 'state'])
    .where('worker_run_id', '=', run.id)
    .where('element_id', '=', element.id)
    .executeTakeFirst();
  if (!current) {
    const inserted = await db
      .insertInto('worker_activities')
      .values({
        id: randomUUID(),
        worker_run_id: run.id,
        element_id: element.id,
        state: input.state,
        created: now,
        updated: now,
      })
      .onConflict((oc) => oc.columns(['worker_run_id', 'element_id']).doNothing())
      .executeTakeFirst();
    // Another copy of the worker recorded it at the same moment: it took the element.
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      if (input.state === 'started') throw alreadyStarted();
      await setState(db, run.id, element.id, input.state, now);
    }
  } else if (input.state === 'started') {
    const updated = await db
      .updateTable('worker_activities')
      .set({ state: 'started', updated: now })
      .where('id', '=', current.id)
      .where('state', 'not in', ['started', 'processed'])
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw alreadyStarted();
  } else {
    await setState(db, run.id, element.id, input.state, now);
  }
  return { element_id: element.id, process_id: process.id, state: input.state };
}

async function setState(
  db: Db,
  runId: string,
  elementId: string,
  state: WorkerActivityState,
  now: string,
): Promise<void> {
  await db
    .updateTable('worker_activities')
    .set({ state, updated: now })
    .where('worker_run_id', '=', runId)
    .where('element_id', '=', elementId)
    .execute();
}
