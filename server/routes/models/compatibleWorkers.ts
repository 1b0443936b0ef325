/** The workers a model suits: list (readers), add and remove (contributors of the model). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireVerified } from '../../auth/plugin';
import { paginate } from '../../pagination';
import {
  addCompatibleWorker,
  compatibleWorkerPages,
  removeCompatibleWorker,
} from '../../services/models/compatibleWorkers';
import { requireModelRight } from '../../services/models/rights';
import { errors, idParams, noContent, pageQuery, paginated } from '../../openapi/schemas';
import { compatibleWorkerPair, modelSchema } from './schemas';
import { worker } from '../workers/schemas';

type IdParams = { Params: { id: string } };
const pairParams = z.object({ id: z.uuid(), workerId: z.uuid() });
type PairParams = { Params: { id: string; workerId: string } };

export async function compatibleWorkerRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/model/:id/compatible-workers/',
    modelSchema('ListModelCompatibleWorkers', {
      'x-paginated': true,
      params: idParams,
      querystring: pageQuery,
      response: { 200: paginated(worker), ...errors(401, 403, 404) },
    }),
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
    modelSchema('CreateModelCompatibleWorker', {
      params: pairParams,
      response: { 201: compatibleWorkerPair, ...errors(400, 401, 403, 404) },
    }),
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
    modelSchema('DestroyModelCompatibleWorker', {
      params: pairParams,
      response: { 204: noContent, ...errors(401, 403, 404) },
    }),
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
