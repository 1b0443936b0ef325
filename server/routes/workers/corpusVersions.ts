/**
 * ListCorpusWorkerVersions (spec 000 §7, "worker-version cache listing per project"): the
 * versions of the workers run by the project's processes, which made its worker results, and
 * of local worker runs that wrote results in it, for filters and the worker results deletion to
 * offer. Readers of the project see it.
 */
import type { FastifyInstance } from 'fastify';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../../db/schema';
import { paginate } from '../../pagination';
import { errors, idParams, pageQuery, paginated } from '../../openapi/schemas';
import { workerVersion } from './schemas';
import { requireCorpusRight } from '../../permissions';
import { rowPages } from '../../services/workers/pages';
import {
  joinedVersionJson,
  newestFirst,
  versionsWithWorker,
} from '../../services/workers/versions';

type IdParams = { Params: { id: string } };

const listSchema = {
  operationId: 'ListCorpusWorkerVersions',
  tags: ['workers'],
  'x-paginated': true,
  params: idParams,
  querystring: pageQuery,
  response: { 200: paginated(workerVersion), ...errors(401, 403, 404) },
};
type RunsEb = ExpressionBuilder<Database, 'worker_runs' | 'processes'>;

/** Whether the worker run made an element, or a transcription, class or metadata on one. */
function wroteIn(eb: RunsEb, corpusId: string): Expression<SqlBool> {
  const onElements = (table: 'transcriptions' | 'classifications' | 'metadata') =>
    eb.exists(
      eb
        .selectFrom(table)
        .innerJoin('elements', 'elements.id', `${table}.element_id`)
        .select(eb.lit(1).as('one'))
        .whereRef(`${table}.worker_run_id`, '=', 'worker_runs.id')
        .where('elements.corpus_id', '=', corpusId),
    );
  return eb.or([
    eb.exists(
      eb
        .selectFrom('elements')
        .select(eb.lit(1).as('one'))
        .whereRef('elements.worker_run_id', '=', 'worker_runs.id')
        .where('elements.corpus_id', '=', corpusId),
    ),
    onElements('transcriptions'),
    onElements('classifications'),
    onElements('metadata'),
  ]);
}

export async function corpusWorkerVersionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>('/corpus/:id/versions/', { schema: listSchema }, async (request) => {
    const { corpus } = await requireCorpusRight(db, request.user, request.params.id, 'read');
    const used = db
      .selectFrom('worker_runs')
      .innerJoin('processes', 'processes.id', 'worker_runs.process_id')
      .select('worker_runs.worker_version_id')
      .where((eb) =>
        eb.or([
          eb('processes.corpus_id', '=', corpus.id),
          // Local runs belong to no project: theirs are the projects they wrote results in.
          eb.and([eb('processes.corpus_id', 'is', null), wroteIn(eb, corpus.id)]),
        ]),
      );
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
