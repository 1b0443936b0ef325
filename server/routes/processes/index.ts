/**
 * Processes (spec 000 §7 Process): list, retrieve, update, delete, create from a project, start, retry, templates, failures, elements, worker runs, exports.
 * Rights come from services/processes/rights.ts before any body is read; rules live in services/processes/.
 */
import type { FastifyInstance } from 'fastify';
import { processElementRoutes } from './elements';
import { processExportRoutes } from './export';
import { processFailureRoutes } from './failures';
import { processLifecycleRoutes } from './lifecycle';
import { processListRoutes } from './list';
import { processRunRoutes } from './runs';
import { processSetRoutes } from './sets';
import { processTemplateRoutes } from './templates';

export async function processRoutes(app: FastifyInstance): Promise<void> {
  await processListRoutes(app);
  await processLifecycleRoutes(app);
  await processElementRoutes(app);
  await processRunRoutes(app);
  await processTemplateRoutes(app);
  await processFailureRoutes(app);
  await processSetRoutes(app);
  await processExportRoutes(app);
}
