/**
 * Worker versions (api/arkindex-api-2.md §3.2, §3.5): ListWorkerVersions, CreateWorkerVersion,
 * RetrieveWorkerVersion, PartialUpdateWorkerVersion, the recommended version of a worker, the
 * version providing a built-in feature, and a version's configuration fields.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paginate } from '../../pagination';
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

type IdParams = { Params: { id: string } };

export async function workerVersionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/workers/:id/versions/',
    { schema: { operationId: 'ListWorkerVersions', tags: ['workers'] } },
    async (request) => {
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
    },
  );

  app.post<IdParams>(
    '/workers/:id/versions/',
    { schema: { operationId: 'CreateWorkerVersion', tags: ['workers'] } },
    async (request, reply) => {
      requireWorkerManager(request);
      const worker = await requireWorker(db, request.params.id);
      const input = parse(createBody, request.body);
      return reply.code(201).send(await createVersion(db, worker, input));
    },
  );

  app.get<IdParams>(
    '/workers/:id/versions/recommended/',
    { schema: { operationId: 'RetrieveRecommendedWorkerVersion', tags: ['workers'] } },
    async (request) => {
      requireWorkerReader(request);
      const worker = await requireWorker(db, request.params.id);
      return recommendedVersion(db, worker.id);
    },
  );

  app.get<{ Params: { feature: string } }>(
    '/workers/versions/feature/:feature/',
    { schema: { operationId: 'RetrieveFeatureWorkerVersion', tags: ['workers'] } },
    async (request) => {
      requireWorkerReader(request);
      return featureVersion(db, request.params.feature);
    },
  );

  app.get<IdParams>(
    '/workers/versions/:id/',
    { schema: { operationId: 'RetrieveWorkerVersion', tags: ['workers'] } },
    async (request) => {
      requireWorkerReader(request);
      return joinedVersionJson(await requireVersion(db, request.params.id));
    },
  );

  app.patch<IdParams>(
    '/workers/versions/:id/',
    { schema: { operationId: 'PartialUpdateWorkerVersion', tags: ['workers'] } },
    async (request) => {
      requireWorkerManager(request);
      const version = await requireVersion(db, request.params.id);
      return updateVersion(db, version, parse(updateBody, request.body));
    },
  );

  app.get<IdParams>(
    '/workers/versions/:id/fields/',
    { schema: { operationId: 'RetrieveWorkerVersionFields', tags: ['workers'] } },
    async (request) => {
      requireWorkerReader(request);
      const version = await requireVersion(db, request.params.id);
      const schema = userConfiguration(version) ?? {};
      return paginate(request, arrayPages(schemaFields(version.id, schema)));
    },
  );
}
