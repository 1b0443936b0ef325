/**
 * A process' state is derived from the tasks of its latest run (spec 000 §4, api part 2 §2.2),
 * and stored on the process row so that lists can filter and sort on it. Whoever changes a
 * task's state calls refreshProcessState in the same transaction.
 */
import type { Db } from '../../db';
import type { TaskState } from '../../db/schema';
import { nowIso } from '../../clock';
import {
  FINISHED_STATES,
  isFinished,
  PROCESS_MODES,
  PROCESS_STATES,
} from '../../../src/lib/processStates';

// The modes and states are the app's too: listed once, in src/lib.
export { FINISHED_STATES, isFinished, PROCESS_MODES, PROCESS_STATES };

/**
 * The order of precedence: anything still moving wins, then the worst outcome. A run with a
 * running task and a failed one is `running`: it is not over yet.
 */
const PRECEDENCE: readonly TaskState[] = [
  'running',
  'stopping',
  'pending',
  'unscheduled',
  'error',
  'failed',
  'stopped',
  'cancelled',
  'completed',
];

export function deriveProcessState(states: readonly string[]): TaskState {
  if (states.length === 0) return 'unscheduled';
  const present = new Set(states);
  // Unscheduled tasks behind running or pending ones: the process is underway, not waiting.
  for (const state of PRECEDENCE) if (present.has(state)) return state;
  return 'error';
}

/** Recomputes and stores the state (and `finished`) of a process from its latest run. */
export async function refreshProcessState(db: Db, processId: string): Promise<TaskState> {
  const latest = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.max('run').as('run'))
    .where('process_id', '=', processId)
    .executeTakeFirst();
  const run = latest?.run ?? null;
  // One row per state: claims and finishes call this each time, on runs of thousands of tasks.
  const counts =
    run === null
      ? []
      : await db
          .selectFrom('tasks')
          .select((eb) => ['state', eb.fn.max('finished').as('finished')])
          .where('process_id', '=', processId)
          .where('run', '=', Number(run))
          // A restarted task is replaced by its copy: only the copy's outcome counts.
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('tasks as copy')
                  .select('copy.id')
                  .whereRef('copy.original_task_id', '=', 'tasks.id'),
              ),
            ),
          )
          .groupBy('state')
          .execute();
  const state = deriveProcessState(counts.map((row) => row.state));
  const finished = isFinished(state)
    ? (counts.reduce<string | null>(
        (last, row) => (row.finished && (!last || row.finished > last) ? row.finished : last),
        null,
      ) ?? nowIso())
    : null;
  await db
    .updateTable('processes')
    .set({ state, finished, updated: nowIso() })
    .where('id', '=', processId)
    .execute();
  return state;
}
