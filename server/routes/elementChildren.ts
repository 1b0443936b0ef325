/**
 * CreateElementChildren in bulk (`POST /element/{id}/children/bulk/`): a worker's regions
 * under one element in one request. Rights come from permissions.ts before the body is read;
 * the rules live in services/elements/bulkChildren.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/plugin';
import { requireElementRight } from '../permissions';
import { bulkList } from '../services/bulk';
import { createChildrenBulk } from '../services/elements/bulkChildren';
import { parse, text, uuidSchema } from '../validation';

const NAME_MAX = 250;

const body = z.object({
  worker_run_id: uuidSchema,
  elements: bulkList(
    z.object({
      name: text(NAME_MAX),
      type: z.string().trim().min(1).max(100),
      // A list here; its points are checked against the parent's image by the service.
      polygon: z.array(z.unknown()).nullable().optional(),
      confidence: z.number().min(0).max(1).nullable().optional(),
    }),
  ),
});

type IdParams = { Params: { id: string } };

export async function elementChildrenRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post<IdParams>('/element/:id/children/bulk/', async (request, reply) => {
    const user = requireUser(request);
    const found = await requireElementRight(db, user, request.params.id, 'write');
    const input = parse(body, request.body);
    return reply.code(201).send(await createChildrenBulk(db, user, found, input));
  });
}
