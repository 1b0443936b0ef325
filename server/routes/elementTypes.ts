import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/plugin';
import {
  DEFAULT_TYPE_COLOR,
  createElementType,
  deleteElementType,
  elementTypeJson,
  requireTypeRight,
  updateElementType,
} from '../services/elementTypes';
import { color, parse, text, uuidSchema } from '../validation';
import { elementType, errors, idParams, noContent } from '../openapi/schemas';

// Django's SlugField: letters, digits, underscores and hyphens. `*` leaves the empty
// string to min(1), so a blank slug gets one error, not two.
const slug = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(
    /^[-a-zA-Z0-9_]*$/,
    'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.',
  );

const createBody = z.object({
  corpus: uuidSchema,
  slug,
  display_name: text(250),
  folder: z.boolean().default(false),
  color: color.default(DEFAULT_TYPE_COLOR),
});

const updateBody = z.object({
  slug: slug.optional(),
  display_name: text(250).optional(),
  folder: z.boolean().optional(),
  color: color.optional(),
});

type IdParams = { Params: { id: string } };

const tags = ['elements'];
const createType = {
  operationId: 'CreateElementType',
  tags,
  body: createBody,
  response: { 201: elementType, ...errors(400, 401, 403) },
};
const retrieveType = {
  operationId: 'RetrieveElementType',
  tags,
  params: idParams,
  response: { 200: elementType, ...errors(401, 403, 404) },
};
const updateType = {
  operationId: 'PartialUpdateElementType',
  tags,
  params: idParams,
  body: updateBody,
  response: { 200: elementType, ...errors(400, 401, 403, 404) },
};
const destroyType = {
  operationId: 'DestroyElementType',
  tags,
  params: idParams,
  response: { 204: noContent, ...errors(400, 401, 403, 404) },
};

/** CreateElementType, RetrieveElementType, PartialUpdateElementType, DestroyElementType. */
export async function elementTypeRoutes(app: FastifyInstance): Promise<void> {
  app.post('/elements/type/', { schema: createType }, async (request, reply) => {
    const user = requireUser(request);
    const input = parse(createBody, request.body);
    return reply.code(201).send(await createElementType(app.db, user, input));
  });

  app.get<IdParams>('/elements/type/:id/', { schema: retrieveType }, async (request) => {
    const { type } = await requireTypeRight(app.db, request.user, request.params.id, 'read');
    return elementTypeJson(type);
  });

  app.patch<IdParams>('/elements/type/:id/', { schema: updateType }, async (request) => {
    const user = requireUser(request);
    const found = await requireTypeRight(app.db, user, request.params.id, 'admin');
    return updateElementType(app.db, found, parse(updateBody, request.body));
  });

  app.delete<IdParams>('/elements/type/:id/', { schema: destroyType }, async (request, reply) => {
    const user = requireUser(request);
    await deleteElementType(
      app.db,
      await requireTypeRight(app.db, user, request.params.id, 'admin'),
    );
    return reply.code(204).send();
  });
}
