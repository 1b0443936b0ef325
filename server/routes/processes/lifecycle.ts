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
    { schema: { operationId: 'RetrieveProcess', tags: ['process'] } },
    async (request) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'read');
      return processJson(db, process.id);
    },
  );

  app.patch<IdParams>(
    '/process/:id/',
    { schema: { operationId: 'PartialUpdateProcess', tags: ['process'] } },
    async (request) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      await updateProcess(db, process, parse(updateBody, request.body));
      return processJson(db, process.id);
    },
  );

  app.delete<IdParams>(
    '/process/:id/',
    { schema: { operationId: 'DestroyProcess', tags: ['process'] } },
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      const outcome = await deleteProcess(db, app.config.dataDir, user, process);
      return reply.code(outcome === 'scheduled' ? 202 : 204).send();
    },
  );

  app.post(
    '/process/corpus/',
    { schema: { operationId: 'CreateProcess', tags: ['process'] } },
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
    { schema: { operationId: 'StartProcess', tags: ['process'] } },
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      await startProcess(db, process, parse(startBody, request.body));
      return reply.code(201).send(await processJson(db, process.id));
    },
  );

  app.post<IdParams>(
    '/process/:id/retry/',
    { schema: { operationId: 'RetryProcess', tags: ['process'] } },
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      await retryProcess(db, process);
      return reply.code(201).send(await processJson(db, process.id));
    },
  );

  app.delete<IdParams>(
    '/process/:id/clear/',
    { schema: { operationId: 'ClearProcess', tags: ['process'] } },
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      await clearProcessRuns(db, process.id);
      return reply.code(204).send();
    },
  );

  app.get<IdParams>(
    '/process/:id/activity-stats/',
    { schema: { operationId: 'RetrieveProcessActivityStats', tags: ['process'] } },
    async (request) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'read');
      return activityStats(db, process.id);
    },
  );
}
