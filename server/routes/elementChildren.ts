/**
 * Children made or linked in one request, as Arkindex workers send them:
 * - CreateElements (`POST /element/{id}/children/bulk/`): new elements, a worker's regions
 *   under one element; the rules live in services/elements/bulkChildren.ts.
 * - CreateElementChildren (`POST /elements/{id}/children/`): existing elements made children
 *   of one element; CreateElementParent's rules, in services/elements/links.ts.
 * Rights on the parent come from permissions.ts before the body is read.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/plugin';
import { errors, idParams } from '../openapi/schemas';
import { requireElementRight } from '../permissions';
import { bulkList } from '../services/bulk';
import { createChildrenBulk } from '../services/elements/bulkChildren';
import { linkChildren } from '../services/elements/links';
import { parse, text, uuidSchema } from '../validation';

const NAME_MAX = 250;

const bulkBody = z.object({
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

const childrenBody = z.object({
  children: bulkList(uuidSchema),
  worker_run_id: uuidSchema.nullable().optional(),
});

const tags = ['elements'];

const createElements = {
  operationId: 'CreateElements',
  tags,
  params: idParams,
  body: bulkBody,
  response: {
    201: z.array(z.object({ id: z.uuid() })).describe('The new elements, in the request’s order'),
    ...errors(400, 401, 403, 404),
  },
};

const createElementChildren = {
  operationId: 'CreateElementChildren',
  tags,
  params: idParams,
  body: childrenBody,
  response: {
    201: z
      .object({ children: z.array(z.uuid()) })
      .describe('The children linked, now the last ones of the element, in the request’s order'),
    ...errors(400, 401, 403, 404),
  },
};

type IdParams = { Params: { id: string } };

export async function elementChildrenRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post<IdParams>(
    '/element/:id/children/bulk/',
    { schema: createElements },
    async (request, reply) => {
      const user = requireUser(request);
      const found = await requireElementRight(db, user, request.params.id, 'write');
      const input = parse(bulkBody, request.body);
      return reply.code(201).send(await createChildrenBulk(db, user, found, input));
    },
  );

  app.post<IdParams>(
    '/elements/:id/children/',
    { schema: createElementChildren },
    async (request, reply) => {
      const user = requireUser(request);
      const found = await requireElementRight(db, user, request.params.id, 'write');
      const input = parse(childrenBody, request.body);
      return reply.code(201).send(await linkChildren(db, user, found, input));
    },
  );
}
