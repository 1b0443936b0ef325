/**
 * DestroyWorkerResults: `DELETE /corpus/{id}/worker-results/` schedules the deletion of what
 * worker runs produced in a project (services/workerResults/) and answers 204; the job shows in
 * GET /jobs/. Project admins only; a project the caller cannot read is a 404.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors, idParams, noContent, queryFlag } from '../openapi/schemas';
import { requireVerified } from '../auth/plugin';
import { requireCorpusRight } from '../permissions';
import { scheduleWorkerResultsDeletion } from '../services/workerResults/delete';
import { readWorkerResultsQuery } from '../services/workerResults/filters';
// Registers the job kind, so the runner knows what an enqueued deletion does.
import '../services/workerResults/job';

type IdParams = { Params: { id: string } };

const destroySchema = {
  operationId: 'DestroyWorkerResults',
  tags: ['ml'],
  params: idParams,
  querystring: z.object({
    use_selection: queryFlag.describe("Under the caller's selected elements"),
    element_id: z.uuid().optional().describe('Under this element'),
    worker_run_id: z.uuid().optional(),
    worker_version_id: z.uuid().optional(),
    model_version_id: z.uuid().optional(),
    configuration_id: z.string().optional().describe('A configuration id, or `false` for none'),
  }),
  response: {
    204: noContent.describe('The deletion is scheduled as a job'),
    ...errors(400, 401, 403, 404),
  },
};

export async function workerResultRoutes(app: FastifyInstance): Promise<void> {
  app.delete<IdParams>(
    '/corpus/:id/worker-results/',
    { schema: destroySchema },
    async (request, reply) => {
      const user = requireVerified(request);
      const { corpus } = await requireCorpusRight(app.db, user, request.params.id, 'admin');
      const payload = await readWorkerResultsQuery(
        app.db,
        user,
        corpus.id,
        request.query,
        app.config.features.selection,
      );
      await scheduleWorkerResultsDeletion(app.db, user, payload, corpus.name);
      return reply.code(204).send();
    },
  );
}
