/**
 * ListWorkerConfigurations, CreateWorkerConfiguration, RetrieveWorkerConfiguration and
 * PartialUpdateWorkerConfiguration (api/arkindex-api-2.md §3.4, spec 000 §5).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paginate } from '../../pagination';
import { errorBody, errors, idParams, pageQuery, paginated } from '../../openapi/schemas';
import { workerConfiguration } from './schemas';
import { parse, queryBoolean, text, uuidSchema } from '../../validation';
import { requireCanArchive, requireWorkerReader } from '../../services/workers/rights';
import { rowPages } from '../../services/workers/pages';
import { requireWorker } from '../../services/workers/workers';
import {
  configurationJson,
  configurationListQuery,
  createConfiguration,
  requireConfiguration,
  updateConfiguration,
} from '../../services/workers/configurations';

const NAME_MAX = 250;

const listQuery = z.object({ archived: queryBoolean.optional() });

const createBody = z.object({
  name: text(NAME_MAX),
  configuration: z.looseObject({}),
  worker_version_id: uuidSchema.optional(),
});

const updateBody = z.object({
  name: text(NAME_MAX).optional(),
  archived: z.boolean().optional(),
});

const tags = ['workers'];
const schemas = {
  ListWorkerConfigurations: {
    'x-paginated': true,
    params: idParams,
    querystring: pageQuery.extend(listQuery.shape),
    response: { 200: paginated(workerConfiguration), ...errors(400, 401, 403, 404) },
  },
  CreateWorkerConfiguration: {
    params: idParams,
    body: createBody,
    response: {
      201: workerConfiguration,
      ...errors(400, 401, 403, 404),
      409: errorBody.describe('A configuration of this worker has this name: `existing_id`'),
    },
  },
  RetrieveWorkerConfiguration: {
    params: idParams,
    response: { 200: workerConfiguration, ...errors(401, 403, 404) },
  },
  PartialUpdateWorkerConfiguration: {
    params: idParams,
    body: updateBody,
    response: { 200: workerConfiguration, ...errors(400, 401, 403, 404, 409) },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

export async function workerConfigurationRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/workers/:id/configurations/',
    schema('ListWorkerConfigurations'),
    async (request) => {
      requireWorkerReader(request);
      const worker = await requireWorker(db, request.params.id);
      const {
        page: _page,
        page_size: _size,
        ...filters
      } = request.query as Record<string, unknown>;
      const { archived } = parse(listQuery.loose(), filters);
      return paginate(
        request,
        rowPages(
          configurationListQuery(db, worker.id, archived),
          (q) => q.orderBy((eb) => eb.fn('lower', ['name'])).orderBy('id'),
          configurationJson,
        ),
      );
    },
  );

  app.post<IdParams>(
    '/workers/:id/configurations/',
    schema('CreateWorkerConfiguration'),
    async (request, reply) => {
      const user = requireWorkerReader(request);
      const worker = await requireWorker(db, request.params.id);
      const input = parse(createBody, request.body);
      return reply.code(201).send(await createConfiguration(db, user, worker, input));
    },
  );

  app.get<IdParams>(
    '/workers/configurations/:id/',
    schema('RetrieveWorkerConfiguration'),
    async (request) => {
      requireWorkerReader(request);
      return configurationJson(await requireConfiguration(db, request.params.id));
    },
  );

  app.patch<IdParams>(
    '/workers/configurations/:id/',
    schema('PartialUpdateWorkerConfiguration'),
    async (request) => {
      requireCanArchive(request);
      const row = await requireConfiguration(db, request.params.id);
      return updateConfiguration(db, row, parse(updateBody, request.body));
    },
  );
}
