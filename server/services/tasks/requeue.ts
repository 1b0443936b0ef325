/**
 * Tasks of agents that stopped answering (contract "Lost agents"): a running task goes back to
 * the queue (or ends in error after MAX_ATTEMPTS claims), a stopping one is stopped. Before a
 * task is queued again, what it had half done is undone: elements it had started go back to
 * queued and the results its worker run made on them are deleted, so the next attempt applies
 * nothing twice. Elements it had processed keep their results.
 */
import type { Db, Dialect } from '../../db';
import { nowIso } from '../../clock';
import { deleteWorkerResults } from '../workerResults/delete';
import { refreshProcessState } from '../processes/state';
import { appendLogIn, logLine } from './logs';
import { finishTask, inTransaction, lockProcess } from './transitions';
import { taskElementIds } from './json';
import { chunks, INSERT_CHUNK } from '../../db/chunks';

/** Claims a task may take; a task lost that many times ends in error. */
export const MAX_ATTEMPTS = 3;

export const lostAgentLine = (hostname: string) =>
  `[agent ${hostname} stopped answering: the task goes back to the queue]`;
export const lostTooOftenLine = (hostname: string) =>
  `[agent ${hostname} stopped answering: the task was tried ${MAX_ATTEMPTS} times and ends in error]`;

/** The agents whose last ping is older than the timeout. */
export function staleBefore(timeoutS: number, now = Date.now()): string {
  return new Date(now - timeoutS * 1000).toISOString();
}

/**
 * Undoes a task's unfinished elements: `started` activities of its worker run go back to
 * `queued`, and that run's results on them (and the elements it created under them) go.
 */
export async function undoStartedElements(
  db: Db,
  task: { worker_run_id: string | null; elements: string },
  corpusId: string | null,
): Promise<string[]> {
  if (!task.worker_run_id || !corpusId) return [];
  const started: string[] = [];
  for (const part of chunks(taskElementIds(task), INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('worker_activities')
      .select('element_id')
      .where('worker_run_id', '=', task.worker_run_id)
      .where('element_id', 'in', part)
      .where('state', '=', 'started')
      .execute();
    started.push(...rows.map((row) => row.element_id));
  }
  if (started.length === 0) return [];
  await deleteWorkerResults(db, {
    corpusId,
    rootIds: started,
    runs: { workerRunId: task.worker_run_id },
  });
  for (const part of chunks(started, INSERT_CHUNK)) {
    await db
      .updateTable('worker_activities')
      .set({ state: 'queued', updated: nowIso() })
      .where('worker_run_id', '=', task.worker_run_id)
      .where('element_id', 'in', part)
      .where('state', '=', 'started')
      .execute();
  }
  return started;
}

/**
 * A task its agent ended without completing it (stopped, failed, error) leaves no element half
 * done either: a stop may kill the worker between saving an element's results and saying it
 * processed it, and a retry or restart would then save them again.
 */
export async function undoUnfinishedElements(
  db: Db,
  task: { process_id: string; worker_run_id: string | null; elements: string },
): Promise<string[]> {
  const process = await db
    .selectFrom('processes')
    .select('corpus_id')
    .where('id', '=', task.process_id)
    .executeTakeFirst();
  return undoStartedElements(db, task, process?.corpus_id ?? null);
}

/**
 * Requeues (or ends) every task held by an agent silent since before `timeoutS` seconds, or by
 * no agent at all while it runs (its agent was deleted, or a sweep was cut short). Returns the
 * ids of the tasks handled.
 */
export async function requeueLostTasks(
  db: Db,
  dialect: Dialect,
  timeoutS: number,
): Promise<string[]> {
  const cutoff = staleBefore(timeoutS);
  const lost = await db
    .selectFrom('tasks')
    .leftJoin('agents', 'agents.id', 'tasks.agent_id')
    .innerJoin('processes', 'processes.id', 'tasks.process_id')
    .select([
      'tasks.id',
      'tasks.process_id',
      'tasks.state',
      'tasks.agent_id',
      'tasks.attempts',
      'tasks.worker_run_id',
      'tasks.elements',
      'agents.hostname',
      'processes.corpus_id',
    ])
    .where('tasks.kind', '=', 'worker')
    .where('tasks.state', 'in', ['running', 'stopping'])
    .where((eb) => eb.or([eb('tasks.agent_id', 'is', null), eb('agents.last_ping', '<', cutoff)]))
    .execute();
  const handled: string[] = [];
  for (const task of lost) {
    // Taken from the agent first (compare-and-set), so a late call of that agent changes
    // nothing and two sweeps never handle one task twice.
    let take = db
      .updateTable('tasks')
      .set({ agent_id: null, token_hash: null, updated: nowIso() })
      .where('id', '=', task.id)
      .where('state', '=', task.state);
    take =
      task.agent_id === null
        ? take.where('agent_id', 'is', null)
        : take.where('agent_id', '=', task.agent_id);
    if (Number((await take.executeTakeFirst()).numUpdatedRows) === 0) continue;
    if (task.state === 'stopping') {
      await finishTask(db, task, 'stopped');
      handled.push(task.id);
      continue;
    }
    await undoStartedElements(db, task, task.corpus_id);
    await inTransaction(db, async (trx) => {
      await lockProcess(trx, task.process_id);
      if (task.attempts < MAX_ATTEMPTS) {
        await trx
          .updateTable('tasks')
          .set({ state: 'pending', updated: nowIso() })
          .where('id', '=', task.id)
          .where('state', '=', 'running')
          .execute();
        await appendLogIn(trx, dialect, task.id, logLine(lostAgentLine(task.hostname ?? '?')));
        await refreshProcessState(trx, task.process_id);
      } else {
        await appendLogIn(trx, dialect, task.id, logLine(lostTooOftenLine(task.hostname ?? '?')));
        await finishTask(trx, task, 'error');
      }
    });
    handled.push(task.id);
  }
  return handled;
}
