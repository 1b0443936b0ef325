/**
 * The server looks for lost agents on its own too, so a process whose only agent died does not
 * wait for another agent to call before its tasks go back to the queue. Import tasks whose job
 * was cancelled or died are settled on the same beat.
 */
import type { FastifyInstance } from 'fastify';
import { requeueLostTasks } from '../tasks/requeue';
import { settleOrphanImportTasks } from '../filesProcess';

/** Starts the sweep; the function returned stops it and waits for a sweep under way. */
export function startLostAgentSweep(app: FastifyInstance): () => Promise<void> {
  const timeoutS = app.config.agentTimeoutS;
  const everyMs = Math.max(1000, Math.min(timeoutS * 1000, 10_000));
  let current: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (current) return;
    current = requeueLostTasks(app.db, app.dialect, timeoutS)
      .then(() => settleOrphanImportTasks(app.db, app.dialect))
      .then(() => undefined)
      .catch((error: unknown) => app.log.error({ err: error }, 'lost agent sweep failed'))
      .finally(() => {
        current = null;
      });
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await current;
  };
}
