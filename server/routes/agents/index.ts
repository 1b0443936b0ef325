/**
 * Farms and agents: what users list, and the calls an agent makes (register, heartbeat, claim, logs, artifacts, final state).
 * Rights come from permissions.ts before any body is read; rules live in services/agents/.
 */
import type { FastifyInstance } from 'fastify';

export async function agentRoutes(app: FastifyInstance): Promise<void> {
  void app;
}
