/**
 * ListLocalWorkerRuns and CreateLocalWorkerRun (spec 000 §7): the caller's own worker runs, in
 * their local process, for running a worker they develop on their machine.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paginate } from '../../pagination';
import { errors, pageQuery, paginated } from '../../openapi/schemas';
import { workerRun } from '../../openapi/workerRun';
import { parse, uuidSchema } from '../../validation';
import { requireWorkerReader } from '../../services/workers/rights';
import { arrayPages, rowPages } from '../../services/workers/pages';
import { createLocalRun, localProcessId, localRunsQuery } from '../../services/workers/localRuns';
import { workerRunJson } from '../../services/workerRuns';

const createBody = z.object({
  worker_version_id: uuidSchema,
  model_version_id: uuidSchema.nullable().optional(),
  configuration_id: uuidSchema.nullable().optional(),
});

const tags = ['workers'];
const listSchema = {
  operationId: 'ListUserWorkerRuns',
  tags,
  'x-paginated': true,
  querystring: pageQuery,
  response: { 200: paginated(workerRun), ...errors(401, 403) },
};
const createSchema = {
  operationId: 'CreateUserWorkerRun',
  tags,
  body: createBody,
  response: { 201: workerRun, ...errors(400, 401, 403, 409) },
};

export async function localWorkerRunRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get('/process/local/workers/', { schema: listSchema }, async (request) => {
    const user = requireWorkerReader(request);
    const processId = await localProcessId(db, user);
    if (!processId) return paginate(request, arrayPages([]));
    return paginate(
      request,
      rowPages(
        localRunsQuery(db, processId),
        (q) => q.orderBy('created').orderBy('id'),
        async (row) => (await workerRunJson(db, row.id))!,
      ),
    );
  });

  app.post('/process/local/workers/create/', { schema: createSchema }, async (request, reply) => {
    const user = requireWorkerReader(request);
    const input = parse(createBody, request.body);
    const id = await createLocalRun(db, user, input);
    return reply.code(201).send(await workerRunJson(db, id));
  });
}
