import type { FastifyInstance } from 'fastify';
import { createJobRunner } from '../../server/jobs/runner';

/**
 * Runs the queued jobs to the end, reading one job's progress between every step of the event
 * loop: the distinct values it took, in the order seen (a job that reports as it goes shows
 * values between 0 and 1).
 */
export async function drainWatchingProgress(
  app: FastifyInstance,
  jobId: string,
): Promise<number[]> {
  const seen: number[] = [];
  let running = true;
  const draining = createJobRunner(app, { progressIntervalMs: 0 })
    .drain()
    .finally(() => (running = false));
  while (running) {
    const row = await app.db
      .selectFrom('jobs')
      .select('progress')
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    if (seen[seen.length - 1] !== row.progress) seen.push(row.progress);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await draining;
  return seen;
}
