import type { FastifyInstance } from 'fastify';

export async function corpusRoutes(_app: FastifyInstance): Promise<void> {}
