/** PopulateDataset: POST /datasets/{id}/populate/ queues the job that fills the dataset's sets. */
import type { FastifyInstance } from 'fastify';
import { requireVerified } from '../../auth/plugin';
import { parse } from '../../validation';
import { requireDataset } from '../../services/datasets/datasets';
import { populateBody, startPopulate } from '../../services/datasets/populate';
import '../../services/datasets/populateJob';
import { errors, idParams } from '../../openapi/schemas';
import { datasetSchema, populateStarted } from './schemas';

type IdParams = { Params: { id: string } };

export async function datasetPopulateRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post<IdParams>(
    '/datasets/:id/populate/',
    datasetSchema('PopulateDataset', {
      params: idParams,
      body: populateBody,
      response: { 202: populateStarted, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      const { dataset } = await requireDataset(db, user, request.params.id, 'write');
      const body = parse(populateBody, request.body);
      return reply.code(202).send(await startPopulate(db, app.dialect, user, dataset, body));
    },
  );
}
