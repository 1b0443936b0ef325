import type { FastifyInstance } from 'fastify';
import { VERSION } from '../config';

/** GET /api/v1/ — anonymous: what this server is and which features it offers. */
export async function serverInfoRoutes(app: FastifyInstance): Promise<void> {
  app.get('/', async () => ({
    version: VERSION,
    features: app.config.features,
    banner: app.config.banner,
  }));
}
