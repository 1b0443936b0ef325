/**
 * RetryProcess (api part 2 §2.5): once the latest run is over, a new run (number + 1) made from
 * the current runs and filters. Elements already processed keep their activity, the others are
 * queued again; an export process (which reports no activity) makes its one task again. Files
 * processes are imported again instead.
 */
import type { Db } from '../../db';
import { badRequest } from '../../errors';
import { nowIso } from '../../clock';
import { createTaskRun } from './start';
import { isFinished } from './state';
import type { ProcessRow } from './rights';
import { refuseSpentBudget } from '../budgets/charges';

export const RETRY_MESSAGES = {
  files: 'A files process cannot be retried: import the files again instead.',
  notWorkers: 'Only a workers, dataset or export process can be retried.',
  notStarted: 'This process has not been started yet.',
  unfinished: 'A process can only be retried once its latest run is finished.',
} as const;

export async function retryProcess(db: Db, process: ProcessRow): Promise<void> {
  if (process.mode === 'files') throw badRequest(RETRY_MESSAGES.files);
  if (!['workers', 'dataset', 'export'].includes(process.mode)) {
    throw badRequest(RETRY_MESSAGES.notWorkers);
  }
  const exporting = process.mode === 'export';
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('processes')
      .set({ updated: nowIso() })
      .where('id', '=', process.id)
      .execute();
    const latest = await trx
      .selectFrom('tasks')
      .select(['run', 'state'])
      .where('process_id', '=', process.id)
      .where('run', '=', (eb) =>
        eb
          .selectFrom('tasks')
          .select((inner) => inner.fn.max('run').as('run'))
          .where('process_id', '=', process.id),
      )
      .execute();
    if (latest.length === 0) throw badRequest(RETRY_MESSAGES.notStarted);
    if (!latest.every((task) => isFinished(task.state))) {
      throw badRequest(RETRY_MESSAGES.unfinished);
    }
    await refuseSpentBudget(trx, process.id);
    const run = Number(latest[0]!.run) + 1;
    await createTaskRun(trx, process, run, {
      chunks: process.chunks,
      useGpu: process.use_gpu === 1,
      keepProcessed: true,
    });
    if (exporting) {
      await trx
        .deleteFrom('worker_activities')
        .where('worker_run_id', 'in', (eb) =>
          eb.selectFrom('worker_runs').select('id').where('process_id', '=', process.id),
        )
        .execute();
    }
    await trx
      .updateTable('processes')
      .set({ started: nowIso(), activity_state: exporting ? 'disabled' : 'ready' })
      .where('id', '=', process.id)
      .execute();
  });
}
