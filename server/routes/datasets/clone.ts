/** CloneDataset: POST /datasets/{id}/clone/ answers 201 with the new open dataset. */
import type { FastifyInstance } from 'fastify';
import { requireVerified } from '../../auth/plugin';
import { requireDataset } from '../../services/datasets/datasets';
import { cloneDataset } from '../../services/datasets/clone';
import { errors, idParams } from '../../openapi/schemas';
import { datasetSchema } from './schemas';
import { dataset } from '../../openapi/dataset';

type IdParams = { Params: { id: string } };

export async function datasetCloneRoutes(app: FastifyInstance): Promise<void> {
  app.post<IdParams>(
    '/datasets/:id/clone/',
    datasetSchema('CloneDataset', {
      params: idParams,
      response: { 201: dataset, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      const { dataset } = await requireDataset(app.db, user, request.params.id, 'write');
      return reply.code(201).send(await cloneDataset(app.db, user, dataset));
    },
  );
}
