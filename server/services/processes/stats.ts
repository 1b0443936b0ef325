/** The worker activity counts of a process' runs (the Workers activity page). */
import type { Db } from '../../db';

export interface ActivityStatsJson {
  queued: number;
  started: number;
  processed: number;
  error: number;
}

export async function activityStats(db: Db, processId: string): Promise<ActivityStatsJson> {
  const rows = await db
    .selectFrom('worker_activities')
    .innerJoin('worker_runs', 'worker_runs.id', 'worker_activities.worker_run_id')
    .select(['worker_activities.state', (eb) => eb.fn.countAll().as('count')])
    .where('worker_runs.process_id', '=', processId)
    .groupBy('worker_activities.state')
    .execute();
  const stats: ActivityStatsJson = { queued: 0, started: 0, processed: 0, error: 0 };
  for (const row of rows) {
    if (row.state in stats) stats[row.state as keyof ActivityStatsJson] = Number(row.count);
  }
  return stats;
}
