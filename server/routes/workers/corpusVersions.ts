/**
 * ListCorpusWorkerVersions (spec 000 §7, "worker-version cache listing per project"): the
 * versions of the workers run by the project's processes, which made its worker results, for
 * filters and the worker results deletion to offer. Readers of the project see it.
 */
import type { FastifyInstance } from 'fastify';
import { paginate } from '../../pagination';
import { requireCorpusRight } from '../../permissions';
import { rowPages } from '../../services/workers/pages';
import {
  joinedVersionJson,
  newestFirst,
  versionsWithWorker,
} from '../../services/workers/versions';

type IdParams = { Params: { id: string } };

export async function corpusWorkerVersionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>('/corpus/:id/versions/', async (request) => {
    const { corpus } = await requireCorpusRight(db, request.user, request.params.id, 'read');
    const used = db
      .selectFrom('worker_runs')
      .innerJoin('processes', 'processes.id', 'worker_runs.process_id')
      .select('worker_runs.worker_version_id')
      .where('processes.corpus_id', '=', corpus.id);
    return paginate(
      request,
      rowPages(
        versionsWithWorker(db).where('worker_versions.id', 'in', used),
        newestFirst,
        joinedVersionJson,
      ),
    );
  });
}
