/** ListModels, CreateModel, RetrieveModel, PartialUpdateModel (rules in services/models/). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireVerified } from '../../auth/plugin';
import { paginate } from '../../pagination';
import {
  MODEL_NAME_MAX,
  createModel,
  modelJson,
  modelPages,
  updateModel,
} from '../../services/models/models';
import { requireModelRight } from '../../services/models/rights';
import { parse, queryBoolean, text, uuidSchema } from '../../validation';
import { errorBody, errors, idParams, pageQuery, paginated } from '../../openapi/schemas';
import { model, modelSchema } from './schemas';

const DESCRIPTION_MAX = 10_000;

const listQuery = z.object({
  name: z.string().optional(),
  archived: queryBoolean.optional(),
  compatible_worker: uuidSchema.optional(),
});

const createBody = z.object({
  name: text(MODEL_NAME_MAX),
  description: z.string().max(DESCRIPTION_MAX).optional(),
});

const updateBody = z.object({
  name: text(MODEL_NAME_MAX).optional(),
  description: z.string().max(DESCRIPTION_MAX).optional(),
  archived: z.boolean().optional(),
  public: z.boolean().optional(),
});

/** A taken name also gives the existing model's `id`, as Arkindex does. */
const nameTaken = errorBody.extend({ id: z.uuid().optional() });

type IdParams = { Params: { id: string } };

export async function modelRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get(
    '/models/',
    modelSchema('ListModels', {
      'x-paginated': true,
      querystring: pageQuery.extend(listQuery.shape),
      response: { 200: paginated(model), ...errors(400, 401, 403) },
    }),
    async (request) => {
      const user = requireVerified(request);
      const {
        page: _page,
        page_size: _size,
        ...filters
      } = request.query as Record<string, unknown>;
      // An empty parameter filters nothing, as django-filter reads it.
      const given = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== ''));
      const query = parse(listQuery.loose(), given);
      return paginate(
        request,
        modelPages(db, user, {
          name: query.name,
          archived: query.archived ?? false,
          compatibleWorker: query.compatible_worker?.toLowerCase(),
        }),
      );
    },
  );

  app.post(
    '/models/',
    modelSchema('CreateModel', {
      body: createBody,
      response: { 201: model, 400: nameTaken, 401: errorBody, 403: errorBody },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      const input = parse(createBody, request.body);
      return reply.code(201).send(await createModel(db, user, input));
    },
  );

  app.get<IdParams>(
    '/model/:id/',
    modelSchema('RetrieveModel', {
      params: idParams,
      response: { 200: model, ...errors(401, 403, 404) },
    }),
    async (request) => {
      const user = requireVerified(request);
      const access = await requireModelRight(db, user, request.params.id, 'read');
      return modelJson(access.model, access.rights);
    },
  );

  app.patch<IdParams>(
    '/model/:id/',
    modelSchema('PartialUpdateModel', {
      params: idParams,
      body: updateBody,
      response: { 200: model, ...errors(401, 403, 404), 400: nameTaken },
    }),
    async (request) => {
      const user = requireVerified(request);
      const access = await requireModelRight(db, user, request.params.id, 'write');
      return updateModel(db, user, access, parse(updateBody, request.body));
    },
  );
}
