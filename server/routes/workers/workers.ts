/**
 * ListWorkers, CreateWorker, RetrieveWorker, PartialUpdateWorker and ListWorkerTypes
 * (api/arkindex-api-2.md §3.1). Rules live in services/workers/.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paginate } from '../../pagination';
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

type IdParams = { Params: { id: string } };

export async function workerRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get(
    '/workers/',
    { schema: { operationId: 'ListWorkers', tags: ['workers'] } },
    async (request) => {
      requireWorkerReader(request);
      const {
        page: _page,
        page_size: _size,
        ...filters
      } = request.query as Record<string, unknown>;
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
    },
  );

  app.post(
    '/workers/',
    { schema: { operationId: 'CreateWorker', tags: ['workers'] } },
    async (request, reply) => {
      requireWorkerManager(request);
      const input = parse(createBody, request.body);
      const { worker, created } = await createWorker(db, input);
      return reply.code(created ? 201 : 200).send(workerJson(worker));
    },
  );

  app.get(
    '/workers/types/',
    { schema: { operationId: 'ListWorkerTypes', tags: ['workers'] } },
    async (request) => {
      requireWorkerReader(request);
      return paginate(
        request,
        rowPages(
          db.selectFrom('worker_types').select(['id', 'slug', 'display_name']),
          (q) => q.orderBy('slug'),
          (row) => row,
        ),
      );
    },
  );

  app.get<IdParams>(
    '/workers/:id/',
    { schema: { operationId: 'RetrieveWorker', tags: ['workers'] } },
    async (request) => {
      requireWorkerReader(request);
      return workerJson(await requireWorker(db, request.params.id));
    },
  );

  app.patch<IdParams>(
    '/workers/:id/',
    { schema: { operationId: 'PartialUpdateWorker', tags: ['workers'] } },
    async (request) => {
      requireWorkerManager(request);
      const worker = await requireWorker(db, request.params.id);
      return workerJson(await updateWorker(db, worker, parse(updateBody, request.body)));
    },
  );
}
