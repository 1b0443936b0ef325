/**
 * CreateEntityType, RetrieveEntityType, PartialUpdateEntityType and DestroyEntityType
 * (api/arkindex-api.md §5). The project's list, ListCorpusEntityTypes, is served beside the
 * transcriptions (routes/transcriptions.ts), which register these routes. Rules live in
 * services/entityTypes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/plugin';
import {
  DEFAULT_ENTITY_TYPE_COLOR,
  ENTITY_TYPE_NAME_MAX,
  createEntityType,
  deleteEntityType,
  entityTypeDetailJson,
  requireEntityTypeRight,
  updateEntityType,
} from '../services/entityTypes';
import { color, parse, text, uuidSchema } from '../validation';
import { errors, idParams, noContent } from '../openapi/schemas';

const name = text(ENTITY_TYPE_NAME_MAX);

const createBody = z.object({
  name,
  corpus: uuidSchema,
  color: color.default(DEFAULT_ENTITY_TYPE_COLOR),
});

const updateBody = z.object({
  name: name.optional(),
  color: color.optional(),
  corpus: uuidSchema.optional(),
});

const entityType = z.object({
  id: uuidSchema,
  name: z.string(),
  color: z.string(),
  corpus: uuidSchema,
});
const schemas = {
  CreateEntityType: { body: createBody, response: { 201: entityType, ...errors(400, 401, 403) } },
  RetrieveEntityType: {
    params: idParams,
    response: { 200: entityType, ...errors(401, 403, 404) },
  },
  PartialUpdateEntityType: {
    params: idParams,
    body: updateBody,
    response: { 200: entityType, ...errors(400, 401, 403, 404) },
  },
  DestroyEntityType: {
    params: idParams,
    response: { 204: noContent, ...errors(400, 401, 403, 404) },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags: ['entities'], ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

export async function entityTypeRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post('/entity/types/', schema('CreateEntityType'), async (request, reply) => {
    const user = requireUser(request);
    const input = parse(createBody, request.body);
    return reply.code(201).send(await createEntityType(db, user, input));
  });

  app.get<IdParams>('/entity/types/:id/', schema('RetrieveEntityType'), async (request) => {
    const { type } = await requireEntityTypeRight(db, request.user, request.params.id, 'read');
    return entityTypeDetailJson(type);
  });

  app.patch<IdParams>('/entity/types/:id/', schema('PartialUpdateEntityType'), async (request) => {
    const user = requireUser(request);
    const found = await requireEntityTypeRight(db, user, request.params.id, 'admin');
    return updateEntityType(db, found, parse(updateBody, request.body));
  });

  app.delete<IdParams>(
    '/entity/types/:id/',
    schema('DestroyEntityType'),
    async (request, reply) => {
      const user = requireUser(request);
      await deleteEntityType(
        db,
        await requireEntityTypeRight(db, user, request.params.id, 'admin'),
      );
      return reply.code(204).send();
    },
  );
}
