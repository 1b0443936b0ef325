/**
 * Processes (spec 000 §7 Process): list, retrieve, update, delete, create from a project, start, retry, templates, failures, elements, worker runs.
 * Rights come from permissions.ts before any body is read; rules live in services/processes/.
 */
import type { FastifyInstance } from 'fastify';

export async function processRoutes(app: FastifyInstance): Promise<void> {
  void app;
}
