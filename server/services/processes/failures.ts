/**
 * Elements a process' workers failed on (activity `error`): added to the caller's selection,
 * or made into a new workers process with the same worker runs, to try them again.
 */
import type { Db } from '../../db';
import type { User } from '../../db/schema';
import { badRequest } from '../../errors';
import { nowIso } from '../../clock';
import { chunks, INSERT_CHUNK } from '../elements/repository';
import { SELECTION_MAX } from '../selection';
import { copyWorkerRuns, insertProcess } from './templates';
import type { ProcessRow } from './rights';

export const FAILURE_MESSAGES = {
  none: 'No element failed in this process.',
  selectionFull: `A selection holds at most ${SELECTION_MAX} elements.`,
} as const;

export async function failedElementIds(db: Db, process: ProcessRow): Promise<string[]> {
  const rows = await db
    .selectFrom('worker_activities')
    .innerJoin('worker_runs', 'worker_runs.id', 'worker_activities.worker_run_id')
    .innerJoin('elements', 'elements.id', 'worker_activities.element_id')
    .select('worker_activities.element_id')
    .distinct()
    .where('worker_runs.process_id', '=', process.id)
    .where('worker_activities.state', '=', 'error')
    // A local process' runs may touch several projects: only the process' own project counts.
    .$if(process.corpus_id !== null, (query) =>
      query.where('elements.corpus_id', '=', process.corpus_id!),
    )
    .execute();
  return rows.map((row) => row.element_id).sort();
}

export async function selectFailures(db: Db, user: User, process: ProcessRow): Promise<void> {
  const ids = await failedElementIds(db, process);
  if (ids.length === 0) throw badRequest(FAILURE_MESSAGES.none);
  await db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('selections')
      .select('element_id')
      .where('user_id', '=', user.id)
      .execute();
    const held = new Set(existing.map((row) => row.element_id));
    const added = ids.filter((id) => !held.has(id));
    if (held.size + added.length > SELECTION_MAX) throw badRequest(FAILURE_MESSAGES.selectionFull);
    const created = nowIso();
    for (const part of chunks(added, INSERT_CHUNK)) {
      await trx
        .insertInto('selections')
        .values(part.map((id) => ({ user_id: user.id, element_id: id, created })))
        .onConflict((oc) => oc.columns(['user_id', 'element_id']).doNothing())
        .execute();
    }
  });
}

/** A new workers process on the failed elements, with copies of the process' worker runs. */
export async function processFailures(db: Db, user: User, process: ProcessRow): Promise<string> {
  const ids = await failedElementIds(db, process);
  if (ids.length === 0) throw badRequest(FAILURE_MESSAGES.none);
  return db.transaction().execute(async (trx) => {
    const id = await insertProcess(trx, {
      corpusId: process.corpus_id,
      creatorId: user.id,
      name: `Failures of ${process.name ?? process.id}`,
      mode: 'workers',
    });
    for (const part of chunks(ids, INSERT_CHUNK)) {
      await trx
        .insertInto('process_elements')
        .values(part.map((elementId) => ({ process_id: id, element_id: elementId })))
        .execute();
    }
    await copyWorkerRuns(trx, process.id, id);
    return id;
  });
}
