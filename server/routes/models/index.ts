/** Everything under /models/, /model/ and /modelversion/: one plugin for app.ts to register. */
import type { FastifyInstance } from 'fastify';
import { compatibleWorkerRoutes } from './compatibleWorkers';
import { modelRoutes } from './models';
import { modelVersionRoutes } from './versions';

export async function modelsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(modelRoutes);
  await app.register(modelVersionRoutes);
  await app.register(compatibleWorkerRoutes);
}
