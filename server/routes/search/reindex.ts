/** CorpusIndex: POST /corpus/{id}/index/ queues the job that rebuilds a project's search index. */
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../auth/plugin';
import { notFound } from '../../errors';
import { requireCorpusRight } from '../../permissions';
import { startReindex } from '../../services/search/reindex';
import '../../services/search/reindexJob';
import { errors, idParams } from '../../openapi/schemas';
import { jobDetail } from '../../openapi/job';

type IdParams = { Params: { id: string } };

export async function searchReindexRoutes(app: FastifyInstance): Promise<void> {
  app.post<IdParams>(
    '/corpus/:id/index/',
    {
      schema: {
        operationId: 'BuildSearchIndex',
        tags: ['search'],
        params: idParams,
        response: {
          202: jobDetail.describe('The job that rebuilds the index'),
          ...errors(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      // With the search feature off the endpoint does not exist.
      if (!app.config.features.search) throw notFound();
      const user = requireUser(request);
      const { corpus } = await requireCorpusRight(app.db, user, request.params.id, 'admin');
      return reply.code(202).send(await startReindex(app.db, user, corpus));
    },
  );
}
