/**
 * ListWorkers, CreateWorker, RetrieveWorker, PartialUpdateWorker and ListWorkerTypes
 * (api/arkindex-api-2.md §3.1). Rules live in services/workers/.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paginate } from '../../pagination';
import { errors, idParams, pageQuery, paginated } from '../../openapi/schemas';
import { worker, workerType } from './schemas';
import { parse, queryBoolean, text } from '../../validation';
import { requireWorkerManager, requireWorkerReader } from '../../services/workers/rights';
import { rowPages } from '../../services/workers/pages';
import {
  createWorker,
  requireWorker,
  updateWorker,
  workerJson,
  workerListQuery,
} from '../../services/workers/workers';

export const SLUG_MAX = 100;

const slug = z
  .string()
  .trim()
  .min(1)
  .max(SLUG_MAX)
  .regex(
    /^[-a-zA-Z0-9_]+$/,
    'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.',
  );

const listQuery = z.object({
  name: z.string().optional(),
  type: z.string().optional(),
  archived: queryBoolean.optional(),
});

const createBody = z.object({
  name: text(100),
  slug,
  type: slug,
  description: z.string().max(10_000).optional(),
  repository_url: z.url({ error: 'Enter a valid URL.' }).max(250).nullable().optional(),
});

const updateBody = z.object({
  name: text(100).optional(),
  type: slug.optional(),
  description: z.string().max(10_000).optional(),
  archived: z.boolean().optional(),
});

const tags = ['workers'];
const schemas = {
  ListWorkers: {
    'x-paginated': true,
    querystring: pageQuery.extend(listQuery.shape),
    response: { 200: paginated(worker), ...errors(400, 401, 403) },
  },
  CreateWorker: {
    body: createBody,
    response: {
      200: worker.describe('A worker with this slug already exists: it is given back'),
      201: worker,
      ...errors(400, 401, 403),
    },
  },
  ListWorkerTypes: {
    'x-paginated': true,
    querystring: pageQuery,
    response: { 200: paginated(workerType), ...errors(401, 403) },
  },
  RetrieveWorker: {
    params: idParams,
    response: { 200: worker, ...errors(401, 403, 404) },
  },
  PartialUpdateWorker: {
    params: idParams,
    body: updateBody,
    response: { 200: worker, ...errors(400, 401, 403, 404) },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

export async function workerRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get('/workers/', schema('ListWorkers'), async (request) => {
    requireWorkerReader(request);
    const { page: _page, page_size: _size, ...filters } = request.query as Record<string, unknown>;
    const query = parse(listQuery.loose(), filters);
    return paginate(
      request,
      rowPages(
        workerListQuery(db, {
          ...(query.name ? { name: query.name } : {}),
          ...(query.type ? { type: query.type } : {}),
          ...(query.archived !== undefined ? { archived: query.archived } : {}),
        }),
        (q) => q.orderBy((eb) => eb.fn('lower', ['name'])).orderBy('id'),
        workerJson,
      ),
    );
  });

  app.post('/workers/', schema('CreateWorker'), async (request, reply) => {
    requireWorkerManager(request);
    const input = parse(createBody, request.body);
    const { worker, created } = await createWorker(db, input);
    return reply.code(created ? 201 : 200).send(workerJson(worker));
  });

  app.get('/workers/types/', schema('ListWorkerTypes'), async (request) => {
    requireWorkerReader(request);
    return paginate(
      request,
      rowPages(
        db.selectFrom('worker_types').select(['id', 'slug', 'display_name']),
        (q) => q.orderBy('slug'),
        (row) => row,
      ),
    );
  });

  app.get<IdParams>('/workers/:id/', schema('RetrieveWorker'), async (request) => {
    requireWorkerReader(request);
    return workerJson(await requireWorker(db, request.params.id));
  });

  app.patch<IdParams>('/workers/:id/', schema('PartialUpdateWorker'), async (request) => {
    requireWorkerManager(request);
    const worker = await requireWorker(db, request.params.id);
    return workerJson(await updateWorker(db, worker, parse(updateBody, request.body)));
  });
}
