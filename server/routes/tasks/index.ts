/**
 * Tasks as users see them: retrieve, stop, restart, logs, artifacts.
 * Rights come from permissions.ts before any body is read; rules live in services/tasks/.
 */
import type { FastifyInstance } from 'fastify';

export async function taskRoutes(app: FastifyInstance): Promise<void> {
  void app;
}
