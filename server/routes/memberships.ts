import type { FastifyInstance } from 'fastify';

export async function membershipRoutes(_app: FastifyInstance): Promise<void> {}
