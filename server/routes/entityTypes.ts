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

type IdParams = { Params: { id: string } };

export async function entityTypeRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post(
    '/entity/types/',
    { schema: { operationId: 'CreateEntityType', tags: ['entities'] } },
    async (request, reply) => {
      const user = requireUser(request);
      const input = parse(createBody, request.body);
      return reply.code(201).send(await createEntityType(db, user, input));
    },
  );

  app.get<IdParams>(
    '/entity/types/:id/',
    { schema: { operationId: 'RetrieveEntityType', tags: ['entities'] } },
    async (request) => {
      const { type } = await requireEntityTypeRight(db, request.user, request.params.id, 'read');
      return entityTypeDetailJson(type);
    },
  );

  app.patch<IdParams>(
    '/entity/types/:id/',
    { schema: { operationId: 'PartialUpdateEntityType', tags: ['entities'] } },
    async (request) => {
      const user = requireUser(request);
      const found = await requireEntityTypeRight(db, user, request.params.id, 'admin');
      return updateEntityType(db, found, parse(updateBody, request.body));
    },
  );

  app.delete<IdParams>(
    '/entity/types/:id/',
    { schema: { operationId: 'DestroyEntityType', tags: ['entities'] } },
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
