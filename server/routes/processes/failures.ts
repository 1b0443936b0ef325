/**
 * The elements a process' workers failed on: SelectProcessFailures adds them to the caller's
 * selection, CreateProcessFailures makes a new workers process of them.
 */
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../auth/plugin';
import { badRequest } from '../../errors';
import { SELECTION_MESSAGES } from '../../services/selection';
import { processFailures, selectFailures } from '../../services/processes/failures';
import { processJson } from '../../services/processes/json';
import { requireProcess } from '../../services/processes/rights';
import { errors, idParams, noContent } from '../../openapi/schemas';
import { processSchema } from './schemas';
import { process } from '../../openapi/process';

type IdParams = { Params: { id: string } };

export async function processFailureRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post<IdParams>(
    '/process/:id/select-failures/',
    processSchema('SelectProcessFailures', {
      params: idParams,
      response: { 204: noContent, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'read');
      if (!app.config.features.selection) throw badRequest(SELECTION_MESSAGES.disabled);
      await selectFailures(db, user, process);
      return reply.code(204).send();
    },
  );

  app.post<IdParams>(
    '/process/:id/process-failures/',
    processSchema('CreateProcessFailures', {
      params: idParams,
      response: { 201: process, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      const id = await processFailures(db, user, process);
      return reply.code(201).send(await processJson(db, id));
    },
  );
}
