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
import { appendLogIn, logLine } from './tasks/logs';
import { finishTask, inTransaction, lockProcess, type FinalState } from './tasks/transitions';
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
    if (task) await lockProcess(trx, task.process_id);
    if (!task || ['completed', 'failed', 'error', 'stopped', 'cancelled'].includes(task.state)) {
      return;
    }
    await appendLogIn(trx, dialect, taskId, log);
    await finishTask(trx, task, state);
  });
}

export const IMPORT_CANCELLED = 'The import was cancelled before it ran.';

/**
 * Import tasks whose job can no longer end them: the job was deleted while queued (cancelled
 * from the jobs list), or ended without its handler finishing the task (the server died while
 * it ran). The task ends as its job did; the lost-agent sweep calls this now and then.
 */
export async function settleOrphanImportTasks(db: Db, dialect: Dialect): Promise<string[]> {
  const tasks = await db
    .selectFrom('tasks')
    .select(['id'])
    .where('kind', '=', 'import')
    .where('state', 'in', ['unscheduled', 'pending', 'running', 'stopping'])
    .execute();
  const settled: string[] = [];
  for (const task of tasks) {
    const job = await db
      .selectFrom('jobs')
      .select(['status', 'error'])
      .where('kind', '=', 'import')
      .where('payload', 'like', `%"taskId":"${task.id}"%`)
      .executeTakeFirst();
    if (job && (job.status === 'queued' || job.status === 'started')) continue;
    if (!job) {
      await importTaskEnded(db, dialect, task.id, 'stopped', logLine(IMPORT_CANCELLED));
    } else if (job.status === 'error') {
      await importTaskEnded(
        db,
        dialect,
        task.id,
        'error',
        logLine(job.error ?? 'The import failed.'),
      );
    } else {
      await importTaskEnded(db, dialect, task.id, 'completed', '');
    }
    settled.push(task.id);
  }
  return settled;
}
