/**
 * ListDatasetElements, CreateDatasetElement, DestroyDatasetElement, ListElementDatasetSets and
 * CreateDatasetElementsSelection (spec 001 §7 "Datasets", api part 2 §5).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser, requireVerified } from '../../auth/plugin';
import { requestOrigin } from '../../origin';
import { paginate, readPageQuery } from '../../pagination';
import { requireCorpusRight, requireElementRight, requireUuid } from '../../permissions';
import { parse, queryBoolean, uuidSchema } from '../../validation';
import { requireDataset } from '../../services/datasets/datasets';
import {
  addElement,
  addSelection,
  datasetElementPage,
  elementSets,
  removeElement,
  requireCorpusSet,
  requireOwnSet,
} from '../../services/datasets/elements';
import { selectionDisabled } from '../../services/selection';
import { errors, idParams, noContent, pageQuery, paginated } from '../../openapi/schemas';
import { addedElement, elementPageAnswer, datasetSchema, elementSet } from './schemas';

const listQuery = z.object({
  set: z.string().optional(),
  cursor: z.string().optional(),
  with_count: queryBoolean.optional(),
});

const addBody = z.object({ element_id: uuidSchema, set: z.string().trim().min(1) });
const removeQuery = z.object({ set: z.string().min(1) });
const setsQuery = z.object({ with_neighbors: queryBoolean.optional() });
const selectionBody = z.object({ set_id: uuidSchema });

type IdParams = { Params: { id: string } };
type ElementParams = { Params: { id: string; elementId: string } };

export async function datasetElementRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/datasets/:id/elements/',
    datasetSchema('ListDatasetElements', {
      params: idParams,
      querystring: listQuery.extend({ page_size: pageQuery.shape.page_size }),
      response: { 200: elementPageAnswer, ...errors(400, 401, 403, 404) },
    }),
    async (request) => {
      const { dataset } = await requireDataset(db, request.user ?? null, request.params.id, 'read');
      const query = parse(listQuery.loose(), request.query);
      const { pageSize } = readPageQuery(
        { page_size: (request.query as Record<string, unknown>)?.page_size },
        { maxPageSize: 500 },
      );
      return datasetElementPage(db, dataset, {
        set: query.set ?? null,
        cursor: query.cursor ?? null,
        pageSize,
        withCount: query.with_count ?? false,
        origin: requestOrigin(request),
        url: new URL(request.url, requestOrigin(request)),
      });
    },
  );

  app.post<IdParams>(
    '/datasets/:id/elements/',
    datasetSchema('CreateDatasetElement', {
      params: idParams,
      body: addBody,
      response: { 201: addedElement, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const { dataset } = await requireDataset(db, user, request.params.id, 'write');
      const input = parse(addBody, request.body);
      return reply.code(201).send(await addElement(db, app.dialect, dataset, input));
    },
  );

  app.delete<ElementParams>(
    '/datasets/:id/elements/:elementId/',
    datasetSchema('DestroyDatasetElement', {
      params: z.object({ id: z.uuid(), elementId: z.uuid() }),
      querystring: removeQuery,
      response: { 204: noContent, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      const { dataset } = await requireDataset(db, user, request.params.id, 'write');
      const elementId = requireUuid(request.params.elementId);
      const { set } = parse(removeQuery, request.query);
      await removeElement(db, dataset, elementId, set);
      return reply.code(204).send();
    },
  );

  app.get<IdParams>(
    '/element/:id/sets/',
    datasetSchema('ListElementDatasetSets', {
      'x-paginated': true,
      params: idParams,
      querystring: pageQuery.extend(setsQuery.shape),
      response: { 200: paginated(elementSet), ...errors(400, 401, 403, 404) },
    }),
    async (request) => {
      const { element } = await requireElementRight(
        db,
        request.user ?? null,
        request.params.id,
        'read',
      );
      const query = parse(setsQuery.loose(), request.query);
      const results = await elementSets(db, element, query.with_neighbors ?? false);
      return paginate(request, {
        count: async () => results.length,
        fetch: async ({ limit, offset }) => results.slice(offset, offset + limit),
      });
    },
  );

  // The same call as Arkindex names it, under the dataset: the set must be one of its own.
  app.post<IdParams>(
    '/datasets/:id/elements/selection/',
    datasetSchema('CreateDatasetElementsSelection', {
      params: idParams,
      body: selectionBody,
      response: { 204: noContent, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      if (!app.config.features.selection) throw selectionDisabled();
      const { dataset } = await requireDataset(db, user, request.params.id, 'write');
      const { set_id } = parse(selectionBody, request.body);
      const set = await requireOwnSet(db, dataset, set_id);
      await addSelection(db, app.dialect, user, dataset, set);
      return reply.code(204).send();
    },
  );

  app.post<IdParams>(
    '/corpus/:id/datasets/selection/',
    datasetSchema('CreateCorpusDatasetsSelection', {
      params: idParams,
      body: selectionBody,
      response: { 204: noContent, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      if (!app.config.features.selection) throw selectionDisabled();
      const access = await requireCorpusRight(db, user, request.params.id, 'write');
      const { set_id } = parse(selectionBody, request.body);
      const set = await requireCorpusSet(db, access.corpus.id, set_id);
      const { dataset } = await requireDataset(db, user, set.dataset_id, 'write');
      await addSelection(db, app.dialect, user, dataset, set);
      return reply.code(204).send();
    },
  );
}
