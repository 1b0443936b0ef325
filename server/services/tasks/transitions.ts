/**
 * How tasks move between states (spec 000 §4): a finished task schedules the children it was
 * the last parent of, or cancels what waited for it; a stop reaches an agent through its next
 * heartbeat; a restart makes a new task in place of a failed one. Every change refreshes the
 * process' state in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import type { FinalState } from '../../../agent/protocol';
import type { Db } from '../../db';
import type { TaskState } from '../../db/schema';
import { badRequest } from '../../errors';
import { nowIso } from '../../clock';
import { isFinished, refreshProcessState } from '../processes/state';
import { chargeFinishedTask } from '../budgets/charges';
import { taskParentIds, type TaskRow } from './json';

export type { FinalState };
export const FINAL_STATES: readonly FinalState[] = ['completed', 'failed', 'error', 'stopped'];

/** Runs `work` in the caller's transaction, or in a new one. */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * Every transaction that changes tasks locks their process' row first (PostgreSQL; SQLite has
 * one writer at a time), then the tasks: one order for everyone, so a stop, a claim and a
 * finish of the same process wait for each other instead of deadlocking.
 */
export async function lockProcess(trx: Db, processId: string): Promise<void> {
  await trx
    .updateTable('processes')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', processId)
    .execute();
}

type Link = Pick<TaskRow, 'id' | 'parents' | 'state'>;

async function processTasks(trx: Db, processId: string): Promise<Link[]> {
  return trx
    .selectFrom('tasks')
    .select(['id', 'parents', 'state'])
    .where('process_id', '=', processId)
    .execute();
}

/** Unscheduled tasks whose parents have all completed become pending. */
export async function scheduleReadyTasks(trx: Db, processId: string): Promise<void> {
  const tasks = await processTasks(trx, processId);
  const states = new Map(tasks.map((task) => [task.id, task.state]));
  const ready = tasks.filter(
    (task) =>
      task.state === 'unscheduled' &&
      taskParentIds(task).every((parent) => states.get(parent) === 'completed'),
  );
  if (ready.length === 0) return;
  await trx
    .updateTable('tasks')
    .set({ state: 'pending', updated: nowIso() })
    .where(
      'id',
      'in',
      ready.map((task) => task.id),
    )
    .where('state', '=', 'unscheduled')
    .execute();
}

/** The tasks that wait, directly or not, for `taskId`. */
function descendantIds(tasks: readonly Link[], taskId: string): string[] {
  const seen = new Set<string>([taskId]);
  const queue = [taskId];
  while (queue.length) {
    const current = queue.shift()!;
    for (const task of tasks) {
      if (!seen.has(task.id) && taskParentIds(task).includes(current)) {
        seen.add(task.id);
        queue.push(task.id);
      }
    }
  }
  seen.delete(taskId);
  return [...seen];
}

/** Everything downstream of `taskId` that has not started is cancelled: it can never run. */
export async function cancelDescendants(trx: Db, processId: string, taskId: string): Promise<void> {
  const downstream = descendantIds(await processTasks(trx, processId), taskId);
  if (downstream.length === 0) return;
  const now = nowIso();
  await trx
    .updateTable('tasks')
    .set({ state: 'cancelled', finished: now, updated: now })
    .where('id', 'in', downstream)
    .where('state', '=', 'unscheduled')
    .execute();
}

/**
 * Ends a task: its token stops working, its children are scheduled (completed) or cancelled
 * (any other end), and the process' state follows. With `heldBy`, only while that agent still
 * holds the task (it may have been requeued meanwhile): false when it no longer does.
 */
export async function finishTask(
  db: Db,
  task: Pick<TaskRow, 'id' | 'process_id'>,
  state: FinalState,
  heldBy?: string,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    await lockProcess(trx, task.process_id);
    const now = nowIso();
    let update = trx
      .updateTable('tasks')
      .set({ state, finished: now, updated: now, token_hash: null })
      .where('id', '=', task.id);
    if (heldBy) {
      update = update.where('agent_id', '=', heldBy).where('state', 'in', ['running', 'stopping']);
    }
    if (Number((await update.executeTakeFirst()).numUpdatedRows) === 0) return false;
    await chargeFinishedTask(trx, task.id);
    if (state === 'completed') await scheduleReadyTasks(trx, task.process_id);
    else await cancelDescendants(trx, task.process_id, task.id);
    await refreshProcessState(trx, task.process_id);
    return true;
  });
}

export const ALREADY_FINISHED = 'This task is already finished.';

/**
 * A stop asked by a user: a running task waits for its agent to kill it (stopping); a task no
 * agent holds stops at once. Compare-and-set on the state seen, so a claim racing the stop
 * either sees the task stopped or has its running task turned to stopping.
 */
export async function stopTask(db: Db, taskId: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const done = await inTransaction(db, async (trx) => {
      const { process_id: processId } = await trx
        .selectFrom('tasks')
        .select('process_id')
        .where('id', '=', taskId)
        .executeTakeFirstOrThrow();
      await lockProcess(trx, processId);
      const task = await trx
        .selectFrom('tasks')
        .select(['id', 'process_id', 'state'])
        .where('id', '=', taskId)
        .executeTakeFirstOrThrow();
      if (isFinished(task.state)) throw badRequest(ALREADY_FINISHED);
      if (task.state === 'stopping') return true;
      const now = nowIso();
      const next: TaskState = task.state === 'running' ? 'stopping' : 'stopped';
      const result = await trx
        .updateTable('tasks')
        .set({
          state: next,
          updated: now,
          ...(next === 'stopped' ? { finished: now, token_hash: null } : {}),
        })
        .where('id', '=', task.id)
        .where('state', '=', task.state)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      if (next === 'stopped') {
        // Charged only if it ever started (chargeFinishedTask skips a task that never ran).
        await chargeFinishedTask(trx, task.id);
        await cancelDescendants(trx, task.process_id, task.id);
      }
      await refreshProcessState(trx, task.process_id);
      return true;
    });
    if (done) return;
  }
  throw badRequest('This task changed state meanwhile: try again.');
}

/** Stops every unfinished task of the process' latest run (a process stop). */
export async function stopProcessRun(db: Db, processId: string): Promise<void> {
  const latest = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.max('run').as('run'))
    .where('process_id', '=', processId)
    .executeTakeFirst();
  if (latest?.run === null || latest?.run === undefined) return;
  const tasks = await db
    .selectFrom('tasks')
    .select(['id', 'state'])
    .where('process_id', '=', processId)
    .where('run', '=', Number(latest.run))
    .orderBy('depth', 'desc')
    .execute();
  for (const task of tasks) {
    if (isFinished(task.state) || task.state === 'stopping') continue;
    try {
      await stopTask(db, task.id);
    } catch {
      // Finished meanwhile (or cancelled by a parent stopped just before): nothing to stop.
    }
  }
}

export const RESTART_REFUSED = 'Only a finished task that did not complete can be restarted.';

/**
 * RestartTask: a copy of a task that ended without completing, in its place in the graph: the
 * tasks that waited for the old one wait for the new one, and those cancelled come back.
 */
export async function restartTask(db: Db, taskId: string): Promise<TaskRow> {
  return inTransaction(db, async (trx) => {
    const { process_id: processId } = await trx
      .selectFrom('tasks')
      .select('process_id')
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    await lockProcess(trx, processId);
    const old = await trx
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    if (!isFinished(old.state) || old.state === 'completed') throw badRequest(RESTART_REFUSED);
    const tasks = await processTasks(trx, old.process_id);
    const states = new Map(tasks.map((task) => [task.id, task.state]));
    const parents = taskParentIds(old);
    const ready = parents.every((parent) => states.get(parent) === 'completed');
    const now = nowIso();
    const id = randomUUID();
    const created = await trx
      .insertInto('tasks')
      .values({
        id,
        process_id: old.process_id,
        run: old.run,
        depth: old.depth,
        slug: old.slug,
        kind: old.kind,
        state: ready ? 'pending' : 'unscheduled',
        parents: old.parents,
        worker_run_id: old.worker_run_id,
        elements: old.elements,
        chunk: old.chunk,
        original_task_id: old.id,
        requires_gpu: old.requires_gpu,
        created: now,
        updated: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    for (const task of tasks) {
      const ids = taskParentIds(task);
      if (!ids.includes(old.id)) continue;
      await trx
        .updateTable('tasks')
        .set({
          parents: JSON.stringify(ids.map((parent) => (parent === old.id ? id : parent))),
          updated: now,
        })
        .where('id', '=', task.id)
        .execute();
    }
    // What the old task's end cancelled may run again once the new one completes.
    const downstream = descendantIds(tasks, old.id);
    if (downstream.length) {
      await trx
        .updateTable('tasks')
        .set({ state: 'unscheduled', finished: null, updated: now })
        .where('id', 'in', downstream)
        .where('state', '=', 'cancelled')
        .execute();
    }
    await refreshProcessState(trx, old.process_id);
    return created;
  });
}
