/** Everything about project exports (spec 001 §3 Export, api part 2 §1): one plugin for app.ts. */
import type { FastifyInstance } from 'fastify';
import { settleInterruptedExports, sweepOldExports } from '../../services/exports/sweep';
import { exportDownloadRoutes } from './download';
import { projectExportRoutes } from './exports';
import '../../services/exports/exportJob';

/** How often the server looks for exports to settle or delete when nobody calls. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export async function exportsRoutes(app: FastifyInstance): Promise<void> {
  const sweep = async () => {
    await settleInterruptedExports(app.db);
    await sweepOldExports(app.db, app.config.dataDir);
  };

  // Before any export call: no export stays running after its job is gone, and none outlives
  // its two weeks, even between two turns of the interval.
  app.addHook('preHandler', sweep);

  let timer: NodeJS.Timeout | null = null;
  let turn: Promise<void> = Promise.resolve();
  const run = () => {
    turn = sweep().catch((error: unknown) => app.log.error({ err: error }, 'export sweep failed'));
  };
  app.addHook('onReady', async () => {
    run();
    timer = setInterval(run, SWEEP_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    await turn;
  });

  await app.register(projectExportRoutes);
  await app.register(exportDownloadRoutes);
}
