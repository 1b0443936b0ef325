/**
 * The process an import of uploaded files makes (mode `files`): one task, `import_files`, of
 * kind `import`, which no agent claims: the server's import job runs it, and the task follows
 * that job (pending → running → completed, failed or stopped), with what the import reports
 * appended to its log. A user stopping the task stops the import.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Dialect } from '../db';
import type { User } from '../db/schema';
import { nowIso } from '../clock';
import { refreshProcessState } from './processes/state';
import { tasksJson, type TaskJson } from './tasks/json';
import { appendLogIn, logLine } from './tasks/logs';
import { finishTask, inTransaction, type FinalState } from './tasks/transitions';
import { summarizeReport, type ImportReport } from '../imports/report';

export const IMPORT_TASK_SLUG = 'import_files';

/** Makes the process and its pending import task, in the caller's transaction. */
export async function createFilesProcess(
  trx: Db,
  user: User,
  corpusId: string,
  name: string,
): Promise<{ processId: string; taskId: string }> {
  const now = nowIso();
  const processId = randomUUID();
  const taskId = randomUUID();
  await trx
    .insertInto('processes')
    .values({
      id: processId,
      corpus_id: corpusId,
      name,
      mode: 'files',
      state: 'pending',
      creator_id: user.id,
      created: now,
      started: now,
      finished: null,
      updated: now,
    })
    .execute();
  await trx
    .insertInto('tasks')
    .values({
      id: taskId,
      process_id: processId,
      slug: IMPORT_TASK_SLUG,
      kind: 'import',
      state: 'pending',
      created: now,
      updated: now,
    })
    .execute();
  await refreshProcessState(trx, processId);
  return { processId, taskId };
}

/** The import job started: its task runs (once: a job resumed after a restart keeps it so). */
export async function importTaskStarted(db: Db, taskId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const now = nowIso();
    const task = await trx
      .updateTable('tasks')
      .set((eb) => ({
        state: 'running',
        started: now,
        updated: now,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', taskId)
      .where('state', 'in', ['pending', 'running'])
      .returning('process_id')
      .executeTakeFirst();
    if (task) await refreshProcessState(trx, task.process_id);
  });
}

/** Whether a user asked to stop the import through its task. */
export async function importTaskStopWanted(db: Db, taskId: string): Promise<boolean> {
  const task = await db
    .selectFrom('tasks')
    .select('state')
    .where('id', '=', taskId)
    .executeTakeFirst();
  return !task || task.state === 'stopping' || task.state === 'stopped';
}

/** What the import reports, as log lines: its counts, then each file it could not read. */
export function reportLines(report: ImportReport): string {
  const lines = [summarizeReport(report)];
  for (const problem of report.problems) lines.push(`${problem.file}: ${problem.reason}`);
  for (const skipped of report.skipped) lines.push(`Skipped: ${skipped}`);
  if (report.stopped) lines.push('Stopped before the end: what was imported so far stays.');
  return lines.map(logLine).join('');
}

/** The import job ended: its task ends the same way, with the job's words in its log. */
export async function importTaskEnded(
  db: Db,
  dialect: Dialect,
  taskId: string,
  state: FinalState,
  log: string,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const task = await trx
      .selectFrom('tasks')
      .select(['id', 'process_id', 'state'])
      .where('id', '=', taskId)
      .executeTakeFirst();
    if (!task || ['completed', 'failed', 'error', 'stopped', 'cancelled'].includes(task.state)) {
      return;
    }
    await appendLogIn(trx, dialect, taskId, log);
    await finishTask(trx, task, state);
  });
}

export interface FilesProcessJson {
  id: string;
  name: string | null;
  mode: string;
  corpus: string | null;
  corpus_name: string | null;
  state: string;
  creator: { id: string; display_name: string } | null;
  created: string;
  updated: string | null;
  started: string | null;
  finished: string | null;
  activity_state: string;
  element: null;
  element_type: string | null;
  element_name_contains: string | null;
  load_children: string;
  ml_class_id: string | null;
  selection_count: number;
  template_id: string | null;
  farm: null;
  chunks: number;
  use_gpu: boolean;
  tasks: TaskJson[];
}

/** The Process object of a files process (it has no filters, farm or selection). */
export async function filesProcessJson(db: Db, processId: string): Promise<FilesProcessJson> {
  const process = await db
    .selectFrom('processes')
    .leftJoin('corpora', 'corpora.id', 'processes.corpus_id')
    .leftJoin('users', 'users.id', 'processes.creator_id')
    .selectAll('processes')
    .select(['corpora.name as corpus_name', 'users.display_name as creator_name'])
    .where('processes.id', '=', processId)
    .executeTakeFirstOrThrow();
  const tasks = await db
    .selectFrom('tasks')
    .selectAll()
    .where('process_id', '=', processId)
    .orderBy('run')
    .orderBy('depth')
    .orderBy('created')
    .execute();
  return {
    id: process.id,
    name: process.name,
    mode: process.mode,
    corpus: process.corpus_id,
    corpus_name: process.corpus_name ?? null,
    state: process.state,
    creator: process.creator_id
      ? { id: process.creator_id, display_name: process.creator_name ?? '' }
      : null,
    created: process.created,
    updated: process.updated,
    started: process.started,
    finished: process.finished,
    activity_state: process.activity_state,
    element: null,
    element_type: process.element_type,
    element_name_contains: process.element_name_contains,
    load_children: process.load_children,
    ml_class_id: process.ml_class_id,
    selection_count: 0,
    template_id: process.template_id,
    farm: null,
    chunks: process.chunks,
    use_gpu: process.use_gpu === 1,
    tasks: await tasksJson(db, tasks),
  };
}
