/**
 * Worker versions (api/arkindex-api-2.md §3.2, §3.5): ListWorkerVersions, CreateWorkerVersion,
 * RetrieveWorkerVersion, PartialUpdateWorkerVersion, the recommended version of a worker, the
 * version providing a built-in feature, and a version's configuration fields.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paginate } from '../../pagination';
import { errors, idParams, pageQuery, paginated } from '../../openapi/schemas';
import { workerVersion, workerVersionField } from './schemas';
import { parse } from '../../validation';
import { requireWorkerManager, requireWorkerReader } from '../../services/workers/rights';
import { arrayPages, rowPages } from '../../services/workers/pages';
import { requireWorker } from '../../services/workers/workers';
import { schemaFields } from '../../services/workers/fields';
import {
  FEATURES,
  USAGES,
  VERSION_STATES,
  createVersion,
  featureVersion,
  joinedVersionJson,
  newestFirst,
  recommendedVersion,
  requireVersion,
  updateVersion,
  userConfiguration,
  versionsWithWorker,
} from '../../services/workers/versions';

const label = z.string().trim().min(1).max(250).nullable().optional();

const createBody = z.object({
  configuration: z.looseObject({}).optional(),
  revision_url: z.url({ error: 'Enter a valid URL.' }).max(250).nullable().optional(),
  tag: label,
  branch: label,
  state: z.enum(VERSION_STATES).optional(),
  gpu_usage: z.enum(USAGES).optional(),
  model_usage: z.enum(USAGES).optional(),
  docker_image_iid: z.string().trim().min(1).max(250).nullable().optional(),
  feature: z.enum(FEATURES).nullable().optional(),
});

const updateBody = z.object({
  state: z.enum(VERSION_STATES).optional(),
  tag: label,
  branch: label,
});

const tags = ['workers'];
const schemas = {
  ListWorkerVersions: {
    'x-paginated': true,
    params: idParams,
    querystring: pageQuery,
    response: { 200: paginated(workerVersion), ...errors(401, 403, 404) },
  },
  CreateWorkerVersion: {
    params: idParams,
    body: createBody,
    response: { 201: workerVersion, ...errors(400, 401, 403, 404) },
  },
  RetrieveRecommendedWorkerVersion: {
    params: idParams,
    response: { 200: workerVersion, ...errors(401, 403, 404) },
  },
  RetrieveFeatureWorkerVersion: {
    params: z.object({ feature: z.enum(FEATURES) }),
    response: { 200: workerVersion, ...errors(401, 403, 404) },
  },
  RetrieveWorkerVersion: {
    params: idParams,
    response: { 200: workerVersion, ...errors(401, 403, 404) },
  },
  PartialUpdateWorkerVersion: {
    params: idParams,
    body: updateBody,
    response: { 200: workerVersion, ...errors(400, 401, 403, 404) },
  },
  RetrieveWorkerVersionFields: {
    'x-paginated': true,
    params: idParams,
    querystring: pageQuery,
    response: { 200: paginated(workerVersionField), ...errors(401, 403, 404) },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

export async function workerVersionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>('/workers/:id/versions/', schema('ListWorkerVersions'), async (request) => {
    requireWorkerReader(request);
    const worker = await requireWorker(db, request.params.id);
    return paginate(
      request,
      rowPages(
        versionsWithWorker(db).where('worker_versions.worker_id', '=', worker.id),
        newestFirst,
        joinedVersionJson,
      ),
    );
  });

  app.post<IdParams>(
    '/workers/:id/versions/',
    schema('CreateWorkerVersion'),
    async (request, reply) => {
      requireWorkerManager(request);
      const worker = await requireWorker(db, request.params.id);
      const input = parse(createBody, request.body);
      return reply.code(201).send(await createVersion(db, worker, input));
    },
  );

  app.get<IdParams>(
    '/workers/:id/versions/recommended/',
    schema('RetrieveRecommendedWorkerVersion'),
    async (request) => {
      requireWorkerReader(request);
      const worker = await requireWorker(db, request.params.id);
      return recommendedVersion(db, worker.id);
    },
  );

  app.get<{ Params: { feature: string } }>(
    '/workers/versions/feature/:feature/',
    schema('RetrieveFeatureWorkerVersion'),
    async (request) => {
      requireWorkerReader(request);
      return featureVersion(db, request.params.feature);
    },
  );

  app.get<IdParams>('/workers/versions/:id/', schema('RetrieveWorkerVersion'), async (request) => {
    requireWorkerReader(request);
    return joinedVersionJson(await requireVersion(db, request.params.id));
  });

  app.patch<IdParams>(
    '/workers/versions/:id/',
    schema('PartialUpdateWorkerVersion'),
    async (request) => {
      requireWorkerManager(request);
      const version = await requireVersion(db, request.params.id);
      return updateVersion(db, version, parse(updateBody, request.body));
    },
  );

  app.get<IdParams>(
    '/workers/versions/:id/fields/',
    schema('RetrieveWorkerVersionFields'),
    async (request) => {
      requireWorkerReader(request);
      const version = await requireVersion(db, request.params.id);
      const schema = userConfiguration(version) ?? {};
      return paginate(request, arrayPages(schemaFields(version.id, schema)));
    },
  );
}
