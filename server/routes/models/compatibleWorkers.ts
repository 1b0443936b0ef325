/** The workers a model suits: list (readers), add and remove (contributors of the model). */
import type { FastifyInstance } from 'fastify';
import { requireVerified } from '../../auth/plugin';
import { paginate } from '../../pagination';
import {
  addCompatibleWorker,
  compatibleWorkerPages,
  removeCompatibleWorker,
} from '../../services/models/compatibleWorkers';
import { requireModelRight } from '../../services/models/rights';

type IdParams = { Params: { id: string } };
type PairParams = { Params: { id: string; workerId: string } };

export async function compatibleWorkerRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/model/:id/compatible-workers/',
    { schema: { operationId: 'ListModelCompatibleWorkers', tags: ['training'] } },
    async (request) => {
      const access = await requireModelRight(
        db,
        requireVerified(request),
        request.params.id,
        'read',
      );
      return paginate(request, compatibleWorkerPages(db, access));
    },
  );

  app.post<PairParams>(
    '/model/:id/compatible-worker/:workerId/',
    { schema: { operationId: 'CreateModelCompatibleWorker', tags: ['training'] } },
    async (request, reply) => {
      const access = await requireModelRight(
        db,
        requireVerified(request),
        request.params.id,
        'write',
      );
      return reply.code(201).send(await addCompatibleWorker(db, access, request.params.workerId));
    },
  );

  app.delete<PairParams>(
    '/model/:id/compatible-worker/:workerId/',
    { schema: { operationId: 'DestroyModelCompatibleWorker', tags: ['training'] } },
    async (request, reply) => {
      const access = await requireModelRight(
        db,
        requireVerified(request),
        request.params.id,
        'write',
      );
      await removeCompatibleWorker(db, access, request.params.workerId);
      return reply.code(204).send();
    },
  );
}
