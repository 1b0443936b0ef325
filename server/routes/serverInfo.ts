import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { VERSION } from '../config';

const serverInfo = z
  .object({
    version: z.string(),
    features: z.record(z.string(), z.boolean()),
    banner: z
      .object({ style: z.enum(['info', 'warning', 'error', 'success']), message: z.string() })
      .nullable(),
  })
  .meta({ id: 'ServerInfo' });

const schema = {
  operationId: 'RetrieveServerInfo',
  tags: ['server'],
  security: [],
  response: { 200: serverInfo },
};

/** GET /api/v1/ — anonymous: what this server is and which features it offers. */
export async function serverInfoRoutes(app: FastifyInstance): Promise<void> {
  app.get('/', { schema }, async () => ({
    version: VERSION,
    features: app.config.features,
    banner: app.config.banner,
  }));
}
