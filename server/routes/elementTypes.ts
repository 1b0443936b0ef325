import type { FastifyInstance } from 'fastify';

export async function elementTypeRoutes(_app: FastifyInstance): Promise<void> {}
