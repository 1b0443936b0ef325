/**
 * An agent takes pending tasks of its farm, oldest first. Each task is taken with
 * `update … where state = 'pending'` and the row count checked: on PostgreSQL a second agent's
 * update waits for the first one's row lock, then finds the task running and changes nothing;
 * SQLite runs one write at a time. So two agents never get the same task. The process row is
 * locked first, as every task change does (transitions.ts lockProcess).
 */
import type { Db, Dialect } from '../../db';
import { nowIso } from '../../clock';
import { chunks, INSERT_CHUNK } from '../../db/chunks';
import { refreshProcessState } from '../processes/state';
import { appendLogIn, logLine } from '../tasks/logs';
import { finishTask, lockProcess } from '../tasks/transitions';
import { taskElementIds, type TaskRow } from '../tasks/json';
import { newToken } from '../tasks/tokens';
import type { ClaimedTask } from '../../../agent/protocol';
import type { AgentRow } from './agents';

export const NO_COMMAND = 'This worker version has no command to run.';

/** The command of the task's worker version, or null when it has none that can run. */
async function commandOf(db: Db, workerRunId: string | null): Promise<string[] | null> {
  if (!workerRunId) return null;
  const row = await db
    .selectFrom('worker_runs')
    .innerJoin('worker_versions', 'worker_versions.id', 'worker_runs.worker_version_id')
    .select('worker_versions.configuration')
    .where('worker_runs.id', '=', workerRunId)
    .executeTakeFirst();
  if (!row) return null;
  try {
    const command = (JSON.parse(row.configuration) as { command?: unknown } | null)?.command;
    return Array.isArray(command) &&
      command.length > 0 &&
      command.every((part) => typeof part === 'string')
      ? (command as string[])
      : null;
  } catch {
    return null;
  }
}

async function elementsOf(db: Db, task: TaskRow): Promise<{ id: string; type: string }[]> {
  const ids = taskElementIds(task);
  const types = new Map<string, string>();
  for (const part of chunks(ids, INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('elements')
      .innerJoin('element_types', 'element_types.id', 'elements.type_id')
      .select(['elements.id', 'element_types.slug'])
      .where('elements.id', 'in', part)
      .execute();
    for (const row of rows) types.set(row.id, row.slug);
  }
  // The chunk's order is kept; elements deleted since the start are left out.
  return ids.filter((id) => types.has(id)).map((id) => ({ id, type: types.get(id)! }));
}

/** Takes one pending task for the agent; null when another agent took it first. */
async function takeTask(
  db: Db,
  agent: AgentRow,
  candidate: { id: string; process_id: string },
): Promise<{ task: TaskRow; token: string } | null> {
  const { token, hash } = newToken();
  return db.transaction().execute(async (trx) => {
    await lockProcess(trx, candidate.process_id);
    const now = nowIso();
    const task = await trx
      .updateTable('tasks')
      .set((eb) => ({
        state: 'running',
        agent_id: agent.id,
        token_hash: hash,
        started: now,
        finished: null,
        updated: now,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', candidate.id)
      .where('state', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
    if (!task) return null;
    await refreshProcessState(trx, task.process_id);
    return { task, token };
  });
}

/** Up to `slots` pending worker tasks of the agent's farm, now running on it. */
export async function claimTasks(
  db: Db,
  dialect: Dialect,
  agent: AgentRow,
  slots: number,
): Promise<ClaimedTask[]> {
  const claimed: ClaimedTask[] = [];
  while (claimed.length < slots) {
    const candidates = await db
      .selectFrom('tasks')
      .innerJoin('processes', 'processes.id', 'tasks.process_id')
      .select(['tasks.id', 'tasks.process_id'])
      .where('tasks.state', '=', 'pending')
      .where('tasks.kind', '=', 'worker')
      .where('processes.farm_id', '=', agent.farm_id)
      .orderBy('tasks.created')
      .orderBy('tasks.id')
      .limit(slots - claimed.length + 10)
      .execute();
    // Every pass either takes tasks or sees them taken by others: the list only shrinks.
    if (candidates.length === 0) break;
    for (const candidate of candidates) {
      if (claimed.length >= slots) break;
      const taken = await takeTask(db, agent, candidate);
      if (!taken) continue;
      const ready = await describeClaim(db, dialect, taken.task, taken.token);
      if (ready) claimed.push(ready);
    }
  }
  return claimed;
}

/** What the agent needs to run the task; a task with nothing to run ends in error instead. */
async function describeClaim(
  db: Db,
  dialect: Dialect,
  task: TaskRow,
  token: string,
): Promise<ClaimedTask | null> {
  const command = await commandOf(db, task.worker_run_id);
  if (!command) {
    await db.transaction().execute(async (trx) => {
      await lockProcess(trx, task.process_id);
      await appendLogIn(trx, dialect, task.id, logLine(NO_COMMAND));
      await finishTask(trx, task, 'error');
    });
    return null;
  }
  const process = await db
    .selectFrom('processes')
    .select('corpus_id')
    .where('id', '=', task.process_id)
    .executeTakeFirst();
  const corpusId = process?.corpus_id ?? null;
  return {
    id: task.id,
    process_id: task.process_id,
    corpus_id: corpusId,
    worker_run_id: task.worker_run_id,
    slug: task.slug,
    run: task.run,
    chunk: task.chunk,
    token,
    command,
    elements: await elementsOf(db, task),
    env: {
      ARKINDEX_TASK_TOKEN: token,
      ARKINDEX_TASK_ID: task.id,
      ARKINDEX_PROCESS_ID: task.process_id,
      ARKINDEX_WORKER_RUN_ID: task.worker_run_id ?? '',
      ARKINDEX_CORPUS_ID: corpusId ?? '',
    },
  };
}
