/**
 * ListCorpusDatasets, CreateDataset, Retrieve/PartialUpdate/DestroyDataset and the dataset set
 * calls (spec 001 §7 "Datasets", api part 2 §5); rules in services/datasets/.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireVerified } from '../../auth/plugin';
import { paginate } from '../../pagination';
import { requireCorpusRight } from '../../permissions';
import { parse, text } from '../../validation';
import {
  DATASET_MESSAGES,
  DATASET_NAME_MAX,
  SET_NAME_MAX,
  corpusDatasetPages,
  createDataset,
  createSet,
  datasetJson,
  deleteDataset,
  deleteSet,
  renameSet,
  requireDataset,
  requireSet,
  updateDataset,
} from '../../services/datasets/datasets';
import { errors, idParams, noContent, pageQuery, paginated } from '../../openapi/schemas';
import { datasetSchema } from './schemas';
import { dataset, datasetSet } from '../../openapi/dataset';

const createBody = z.object({
  name: text(DATASET_NAME_MAX),
  description: z.string().trim().min(1),
  unique_elements: z.boolean().optional(),
  set_names: z.array(z.string().max(SET_NAME_MAX)).optional(),
});

const updateBody = z.object({
  name: text(DATASET_NAME_MAX).optional(),
  description: z.string().trim().min(1).optional(),
  unique_elements: z.boolean().optional(),
  state: z.enum(['open', 'building', 'complete', 'error']).optional(),
});

const replaceBody = updateBody.extend({
  name: text(DATASET_NAME_MAX),
  description: z.string().trim().min(1),
});

const setBody = z.object({ name: text(SET_NAME_MAX) });

type IdParams = { Params: { id: string } };
const setParams = z.object({ id: z.uuid(), setId: z.uuid() });
type SetParams = { Params: { id: string; setId: string } };

export async function datasetRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/corpus/:id/datasets/',
    datasetSchema('ListCorpusDatasets', {
      'x-paginated': true,
      params: idParams,
      querystring: pageQuery,
      response: { 200: paginated(dataset), ...errors(401, 403, 404) },
    }),
    async (request) => {
      const access = await requireCorpusRight(db, request.user ?? null, request.params.id, 'read');
      return paginate(request, corpusDatasetPages(db, access.corpus.id));
    },
  );

  app.post<IdParams>(
    '/corpus/:id/datasets/',
    datasetSchema('CreateDataset', {
      params: idParams,
      body: createBody,
      response: { 201: dataset, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      const access = await requireCorpusRight(db, user, request.params.id, 'write');
      const input = parse(createBody, request.body);
      return reply.code(201).send(await createDataset(db, user, access.corpus.id, input));
    },
  );

  app.get<IdParams>(
    '/datasets/:id/',
    datasetSchema('RetrieveDataset', {
      params: idParams,
      response: { 200: dataset, ...errors(401, 403, 404) },
    }),
    async (request) => {
      const { dataset } = await requireDataset(db, request.user ?? null, request.params.id, 'read');
      return datasetJson(db, dataset);
    },
  );

  app.patch<IdParams>(
    '/datasets/:id/',
    datasetSchema('PartialUpdateDataset', {
      params: idParams,
      body: updateBody,
      response: { 200: dataset, ...errors(400, 401, 403, 404) },
    }),
    async (request) => {
      const user = requireVerified(request);
      const found = await requireDataset(db, user, request.params.id, 'write');
      return updateDataset(db, app.dialect, found, parse(updateBody, request.body));
    },
  );

  // UpdateDataset: the same change, with the name and description required.
  app.put<IdParams>(
    '/datasets/:id/',
    datasetSchema('UpdateDataset', {
      params: idParams,
      body: replaceBody,
      response: { 200: dataset, ...errors(400, 401, 403, 404) },
    }),
    async (request) => {
      const user = requireVerified(request);
      const found = await requireDataset(db, user, request.params.id, 'write');
      return updateDataset(db, app.dialect, found, parse(replaceBody, request.body));
    },
  );

  app.delete<IdParams>(
    '/datasets/:id/',
    datasetSchema('DestroyDataset', {
      params: idParams,
      response: { 204: noContent, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      const { dataset } = await requireDataset(db, user, request.params.id, 'admin');
      await deleteDataset(db, dataset);
      return reply.code(204).send();
    },
  );

  app.post<IdParams>(
    '/datasets/:id/sets/',
    datasetSchema('CreateDatasetSet', {
      params: idParams,
      body: setBody,
      response: { 201: datasetSet, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      const { dataset } = await requireDataset(
        db,
        user,
        request.params.id,
        'write',
        DATASET_MESSAGES.createSet,
      );
      const { name } = parse(setBody, request.body);
      return reply.code(201).send(await createSet(db, dataset, name));
    },
  );

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route<SetParams>({
      method,
      url: '/datasets/:id/sets/:setId/',
      schema: {
        operationId: method === 'PATCH' ? 'PartialUpdateDatasetSet' : 'UpdateDatasetSet',
        tags: ['datasets'],
        params: setParams,
        body: setBody,
        response: { 200: datasetSet, ...errors(400, 401, 403, 404) },
      },
      handler: async (request) => {
        const user = requireVerified(request);
        const { dataset } = await requireDataset(db, user, request.params.id, 'write');
        const set = await requireSet(db, dataset, request.params.setId);
        const { name } = parse(setBody, request.body);
        return renameSet(db, dataset, set, name);
      },
    });
  }

  app.delete<SetParams>(
    '/datasets/:id/sets/:setId/',
    datasetSchema('DestroyDatasetSet', {
      params: setParams,
      response: { 204: noContent, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      const { dataset } = await requireDataset(
        db,
        user,
        request.params.id,
        'admin',
        DATASET_MESSAGES.deleteSet,
      );
      const set = await requireSet(db, dataset, request.params.setId);
      await deleteSet(db, dataset, set);
      return reply.code(204).send();
    },
  );
}
