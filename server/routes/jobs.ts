import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireVerified } from '../auth/plugin';
import { cancelJob, jobDetailJson, listOwnJobs, requireVisibleJob } from '../jobs/service';
import { errors, idParams, noContent } from '../openapi/schemas';
import { job, jobDetail } from '../openapi/job';

const tags = ['jobs'];
const schemas = {
  ListJobs: {
    response: {
      200: z.array(job).describe("The caller's latest jobs, newest first (at most 100)"),
      ...errors(401, 403),
    },
  },
  RetrieveJob: {
    params: idParams,
    response: { 200: jobDetail, ...errors(401, 403, 404) },
  },
  DestroyJob: {
    params: idParams,
    response: { 204: noContent, ...errors(401, 403, 404) },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

/**
 * ListJobs (a plain array, as Arkindex answers), RetrieveJob (our addition: the result and
 * error of one job, e.g. an import report) and DestroyJob (stops a started job, deletes others).
 */
export async function jobRoutes(app: FastifyInstance): Promise<void> {
  app.get('/jobs/', schema('ListJobs'), async (request) =>
    listOwnJobs(app.db, requireVerified(request)),
  );

  app.get<IdParams>('/jobs/:id/', schema('RetrieveJob'), async (request) =>
    jobDetailJson(await requireVisibleJob(app.db, requireVerified(request), request.params.id)),
  );

  app.delete<IdParams>('/jobs/:id/', schema('DestroyJob'), async (request, reply) => {
    const job = await requireVisibleJob(app.db, requireVerified(request), request.params.id);
    await cancelJob(app.db, job.id);
    return reply.code(204).send();
  });
}
