/**
 * Worker runs (spec 001 §2 "Modals": worker run details): RetrieveWorkerRun at Arkindex's
 * path. A worker run belongs to a process of one project; whoever can read that project reads
 * it, and for anyone else it does not exist (404).
 */
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors';
import { findCorpusAccess, requireUuid } from '../permissions';
import { workerRunJson } from '../services/workerRuns';

type IdParams = { Params: { id: string } };

export async function workerRunRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>('/process/workers/:id/', async (request) => {
    const id = requireUuid(request.params.id);
    const run = await db
      .selectFrom('worker_runs')
      .innerJoin('processes', 'processes.id', 'worker_runs.process_id')
      .select(['worker_runs.id', 'processes.corpus_id'])
      .where('worker_runs.id', '=', id)
      .executeTakeFirst();
    if (!run || !(await findCorpusAccess(db, request.user, run.corpus_id))) throw notFound();
    const json = await workerRunJson(db, run.id);
    if (!json) throw notFound();
    return json;
  });
}
