/** Everything under /datasets/, a project's datasets and an element's sets: one plugin for app.ts. */
import type { FastifyInstance } from 'fastify';
import { datasetRoutes } from './datasets';
import { datasetElementRoutes } from './elements';

export async function datasetsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(datasetRoutes);
  await app.register(datasetElementRoutes);
}
