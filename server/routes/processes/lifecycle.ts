/**
 * A process' life: RetrieveProcess, UpdateProcess (name, filters, stop), DestroyProcess,
 * CreateProcess from a project, StartProcess, RetryProcess, ClearProcess and the worker
 * activity counts. Rules live in services/processes/.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { badRequest } from '../../errors';
import { requireCorpusRight } from '../../permissions';
import { parse, uuidSchema } from '../../validation';
import { SELECTION_MESSAGES } from '../../services/selection';
import { createCorpusProcess } from '../../services/processes/create';
import { deleteProcess } from '../../services/processes/deletion';
import { processJson } from '../../services/processes/json';
import { createDatasetProcess } from '../../services/processes/sets';
import { requireProcess } from '../../services/processes/rights';
import { retryProcess } from '../../services/processes/retry';
import { clearProcessRuns } from '../../services/processes/runs';
import { MAX_CHUNKS, startProcess } from '../../services/processes/start';
import { updateProcess } from '../../services/processes/update';
import { activityStats } from '../../services/processes/stats';
import { errors, idParams, noContent, withoutBody } from '../../openapi/schemas';
import { activityCounts, processSchema } from './schemas';
import { process } from '../../openapi/process';

type IdParams = { Params: { id: string } };

const LOAD_CHILDREN = ['none', 'direct', 'all'] as const;

const filterFields = {
  element: uuidSchema.nullable().optional(),
  element_type: z.string().max(100).nullable().optional(),
  element_name_contains: z.string().max(250).nullable().optional(),
  load_children: z.enum(LOAD_CHILDREN).optional(),
  ml_class_id: uuidSchema.nullable().optional(),
};

const updateBody = z.object({
  name: z.string().max(250).nullable().optional(),
  state: z.literal('stopping').optional(),
  ...filterFields,
});

const createBody = z.object({
  corpus: uuidSchema,
  name: z.string().max(250).optional(),
  mode: z.enum(['workers', 'dataset']).optional(),
  selection: z.boolean().optional(),
  ...filterFields,
});

const startBody = z.object({
  farm: uuidSchema.optional(),
  chunks: z.number().int().min(1).max(MAX_CHUNKS).optional(),
  use_gpu: z.boolean().optional(),
  thumbnails: z.boolean().optional(),
});

export async function processLifecycleRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/process/:id/',
    processSchema('RetrieveProcess', {
      params: idParams,
      response: { 200: process, ...errors(401, 403, 404) },
    }),
    async (request) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'read');
      return processJson(db, process.id);
    },
  );

  app.patch<IdParams>(
    '/process/:id/',
    processSchema('PartialUpdateProcess', {
      params: idParams,
      body: updateBody,
      response: { 200: process, ...errors(400, 401, 403, 404) },
    }),
    async (request) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      await updateProcess(db, process, parse(updateBody, request.body));
      return processJson(db, process.id);
    },
  );

  app.delete<IdParams>(
    '/process/:id/',
    processSchema('DestroyProcess', {
      params: idParams,
      response: {
        202: withoutBody('Deletion scheduled as a background job'),
        204: noContent,
        ...errors(400, 401, 403, 404),
      },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      const outcome = await deleteProcess(db, app.config.dataDir, user, process);
      return reply.code(outcome === 'scheduled' ? 202 : 204).send();
    },
  );

  app.post(
    '/process/corpus/',
    processSchema('CreateProcess', {
      body: createBody,
      response: { 201: process, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const input = parse(createBody, request.body);
      const access = await requireCorpusRight(db, user, input.corpus, 'admin');
      if (input.selection && !app.config.features.selection) {
        throw badRequest(SELECTION_MESSAGES.disabled);
      }
      const id =
        input.mode === 'dataset'
          ? await createDatasetProcess(db, user, access.corpus.id, input)
          : await createCorpusProcess(db, user, access.corpus.id, input);
      return reply.code(201).send(await processJson(db, id));
    },
  );

  app.post<IdParams>(
    '/process/:id/start/',
    processSchema('StartProcess', {
      params: idParams,
      body: startBody,
      response: { 201: process, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      await startProcess(db, process, parse(startBody, request.body));
      return reply.code(201).send(await processJson(db, process.id));
    },
  );

  app.post<IdParams>(
    '/process/:id/retry/',
    processSchema('RetryProcess', {
      params: idParams,
      response: { 201: process, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      await retryProcess(db, process);
      return reply.code(201).send(await processJson(db, process.id));
    },
  );

  app.delete<IdParams>(
    '/process/:id/clear/',
    processSchema('ClearProcess', {
      params: idParams,
      response: { 204: noContent, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      await clearProcessRuns(db, process.id);
      return reply.code(204).send();
    },
  );

  app.get<IdParams>(
    '/process/:id/activity-stats/',
    processSchema('RetrieveProcessActivityStats', {
      params: idParams,
      response: { 200: activityCounts, ...errors(401, 403, 404) },
    }),
    async (request) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'read');
      return activityStats(db, process.id);
    },
  );
}
