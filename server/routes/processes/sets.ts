/**
 * The dataset sets of a dataset process (api part 2 §5): ListProcessSets for whoever reads the
 * process (its workers' task tokens too), CreateProcessSet and DestroyProcessSet for the
 * project's admins before the start. Rules live in services/processes/sets.ts.
 */
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../auth/plugin';
import { paginate } from '../../pagination';
import { requireProcess } from '../../services/processes/rights';
import { addProcessSet, processSetPages, removeProcessSet } from '../../services/processes/sets';

type IdParams = { Params: { id: string } };
type SetParams = { Params: { id: string; setId: string } };

export async function processSetRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/process/:id/sets/',
    { schema: { operationId: 'ListProcessSets', tags: ['process'] } },
    async (request) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'read');
      return paginate(request, processSetPages(db, process.id));
    },
  );

  app.post<SetParams>(
    '/process/:id/set/:setId/',
    { schema: { operationId: 'CreateProcessSet', tags: ['process'] } },
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      return reply.code(201).send(await addProcessSet(db, process, request.params.setId));
    },
  );

  app.delete<SetParams>(
    '/process/:id/set/:setId/',
    { schema: { operationId: 'DestroyProcessSet', tags: ['process'] } },
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      await removeProcessSet(db, process, request.params.setId);
      return reply.code(204).send();
    },
  );
}
