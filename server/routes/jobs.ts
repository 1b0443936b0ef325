import type { FastifyInstance } from 'fastify';
import { requireVerified } from '../auth/plugin';
import { cancelJob, jobDetailJson, listOwnJobs, requireVisibleJob } from '../jobs/service';

type IdParams = { Params: { id: string } };

/**
 * ListJobs (a plain array, as Arkindex answers), RetrieveJob (our addition: the result and
 * error of one job, e.g. an import report) and DestroyJob (stops a started job, deletes others).
 */
export async function jobRoutes(app: FastifyInstance): Promise<void> {
  app.get('/jobs/', { schema: { operationId: 'ListJobs', tags: ['jobs'] } }, async (request) =>
    listOwnJobs(app.db, requireVerified(request)),
  );

  app.get<IdParams>(
    '/jobs/:id/',
    { schema: { operationId: 'RetrieveJob', tags: ['jobs'] } },
    async (request) =>
      jobDetailJson(await requireVisibleJob(app.db, requireVerified(request), request.params.id)),
  );

  app.delete<IdParams>(
    '/jobs/:id/',
    { schema: { operationId: 'DestroyJob', tags: ['jobs'] } },
    async (request, reply) => {
      const job = await requireVisibleJob(app.db, requireVerified(request), request.params.id);
      await cancelJob(app.db, job.id);
      return reply.code(204).send();
    },
  );
}
