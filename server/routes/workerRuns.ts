/**
 * Worker runs (spec 001 §2 "Modals": worker run details): RetrieveWorkerRun at Arkindex's
 * path. A worker run belongs to a process of one project; whoever can read that project reads
 * it, and for anyone else it does not exist (404). A local process's runs are its creator's.
 * PartialUpdateWorkerRun changes a run's configuration, model version or parents (rules in
 * services/workers/runUpdate.ts); DestroyWorkerRun removes it. Both only before the process
 * has tasks.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/plugin';
import { notFound } from '../errors';
import { requireUuid } from '../permissions';
import { parse, uuidSchema } from '../validation';
import { processRights } from '../services/workers/processAccess';
import { updateWorkerRun } from '../services/workers/runUpdate';
import { requireProcess } from '../services/processes/rights';
import { deleteProcessRun } from '../services/processes/runs';
import { workerRunJson } from '../services/workerRuns';
import { errors, idParams, noContent } from '../openapi/schemas';
import { workerRun } from '../openapi/workerRun';

const updateBody = z.object({
  configuration_id: uuidSchema.nullable().optional(),
  model_version_id: uuidSchema.nullable().optional(),
  parents: z.array(uuidSchema).optional(),
});

const tags = ['process'];
const schemas = {
  RetrieveWorkerRun: {
    params: idParams,
    response: { 200: workerRun, ...errors(401, 403, 404) },
  },
  PartialUpdateWorkerRun: {
    params: idParams,
    body: updateBody,
    response: { 200: workerRun, ...errors(400, 401, 403, 404, 409) },
  },
  DestroyWorkerRun: {
    params: idParams,
    response: { 204: noContent, ...errors(400, 401, 403, 404) },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

export async function workerRunRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>('/process/workers/:id/', schema('RetrieveWorkerRun'), async (request) => {
    const id = requireUuid(request.params.id);
    const run = await db
      .selectFrom('worker_runs')
      .innerJoin('processes', 'processes.id', 'worker_runs.process_id')
      .select(['worker_runs.id', 'processes.corpus_id', 'processes.creator_id'])
      .where('worker_runs.id', '=', id)
      .executeTakeFirst();
    // A local process's runs (no project) are read by the person who made them.
    if (!run || !(await processRights(db, request.user, run)).includes('read')) throw notFound();
    const json = await workerRunJson(db, run.id);
    if (!json) throw notFound();
    return json;
  });

  app.patch<IdParams>(
    '/process/workers/:id/',
    schema('PartialUpdateWorkerRun'),
    async (request) => {
      const user = requireUser(request);
      const id = requireUuid(request.params.id);
      const input = parse(updateBody, request.body);
      return workerRunJson(db, await updateWorkerRun(db, user, id, input));
    },
  );

  app.delete<IdParams>(
    '/process/workers/:id/',
    schema('DestroyWorkerRun'),
    async (request, reply) => {
      const user = requireUser(request);
      const id = requireUuid(request.params.id);
      const run = await db
        .selectFrom('worker_runs')
        .select(['id', 'process_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!run) throw notFound();
      const process = await requireProcess(db, user, run.process_id, 'admin');
      await deleteProcessRun(db, process.id, run.id);
      return reply.code(204).send();
    },
  );
}
