import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

const document = z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) });

const query = z.object({
  format: z.enum(['json', 'yaml']).optional().describe('JSON with `json`, YAML otherwise'),
});

/**
 * GetOpenAPISchema: the document, YAML by default and JSON with `?format=json` — the URL
 * arkindex-client downloads in its constructor.
 */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/openapi/',
    {
      schema: {
        operationId: 'GetOpenAPISchema',
        tags: ['openapi'],
        security: [],
        querystring: query,
        response: {
          200: {
            description: 'The OpenAPI document',
            content: {
              'application/json': { schema: document },
              'application/yaml': { schema: document },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { format } = request.query as { format?: unknown };
      if (format === 'json') return reply.type('application/json').send(app.swagger());
      return reply.type('application/yaml; charset=utf-8').send(app.swagger({ yaml: true }));
    },
  );
}
