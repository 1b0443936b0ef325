/**
 * Worker runs of a process: ListWorkerRuns and CreateWorkerRun on /process/{id}/workers/
 * (retrieve, update and delete are in routes/workerRuns.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { countRows, paginate } from '../../pagination';
import { parse, uuidSchema } from '../../validation';
import { requireProcess } from '../../services/processes/rights';
import { createProcessRun } from '../../services/processes/runs';
import { workerRunJson } from '../../services/workerRuns';
import { errors, idParams, pageQuery, paginated } from '../../openapi/schemas';
import { processSchema } from './schemas';
import { workerRun } from '../../openapi/workerRun';

type IdParams = { Params: { id: string } };

const createBody = z.object({
  worker_version_id: uuidSchema,
  parents: z.array(uuidSchema),
  model_version_id: uuidSchema.nullable().optional(),
  configuration_id: uuidSchema.nullable().optional(),
});

export async function processRunRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/process/:id/workers/',
    processSchema('ListWorkerRuns', {
      'x-paginated': true,
      params: idParams,
      querystring: pageQuery,
      response: { 200: paginated(workerRun), ...errors(401, 403, 404) },
    }),
    async (request) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'read');
      const runs = () => db.selectFrom('worker_runs').where('process_id', '=', process.id);
      const page = await paginate(request, {
        count: () => countRows(runs().select('id')),
        fetch: ({ limit, offset }) =>
          runs()
            .select('id')
            .orderBy('created')
            .orderBy('id')
            .limit(limit)
            .offset(offset)
            .execute(),
      });
      const results = [];
      for (const run of page.results) results.push(await workerRunJson(db, run.id));
      return { ...page, results };
    },
  );

  app.post<IdParams>(
    '/process/:id/workers/',
    processSchema('CreateWorkerRun', {
      params: idParams,
      body: createBody,
      response: { 201: workerRun, ...errors(400, 401, 403, 404, 409) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      const id = await createProcessRun(db, user, process, parse(createBody, request.body));
      return reply.code(201).send(await workerRunJson(db, id));
    },
  );
}
