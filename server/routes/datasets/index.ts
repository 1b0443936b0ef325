/** Everything under /datasets/, a project's datasets and an element's sets: one plugin for app.ts. */
import type { FastifyInstance } from 'fastify';
import { settleInterruptedPopulates } from '../../services/datasets/populate';
import { datasetCloneRoutes } from './clone';
import { datasetCsvRoutes } from './csv';
import { datasetRoutes } from './datasets';
import { datasetElementRoutes } from './elements';
import { datasetPopulateRoutes } from './populate';

export async function datasetsRoutes(app: FastifyInstance): Promise<void> {
  // The job queue gives up the job of a server that died without a word to its dataset: any
  // dataset call first moves such a dataset from 'building' to 'error', so none stays stuck.
  app.addHook('preHandler', async () => {
    await settleInterruptedPopulates(app.db);
  });
  await app.register(datasetRoutes);
  await app.register(datasetElementRoutes);
  await app.register(datasetPopulateRoutes);
  await app.register(datasetCloneRoutes);
  await app.register(datasetCsvRoutes);
}
