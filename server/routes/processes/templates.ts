/** CreateProcessTemplate and ApplyProcessTemplate (api part 2 §2.5). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { parse, uuidSchema } from '../../validation';
import { processJson } from '../../services/processes/json';
import { requireProcess } from '../../services/processes/rights';
import { applyTemplate, createTemplate } from '../../services/processes/templates';
import { errors, idParams } from '../../openapi/schemas';
import { processSchema } from './schemas';
import { process } from '../../openapi/process';

type IdParams = { Params: { id: string } };

const applyBody = z.object({ process_id: uuidSchema });

export async function processTemplateRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post<IdParams>(
    '/process/:id/template/',
    processSchema('CreateProcessTemplate', {
      params: idParams,
      response: { 201: process.describe('The template'), ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      const id = await createTemplate(db, user, process);
      return reply.code(201).send(await processJson(db, id));
    },
  );

  app.post<IdParams>(
    '/process/:id/apply/',
    processSchema('ApplyProcessTemplate', {
      params: idParams,
      body: applyBody,
      response: { 201: process, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const template = await requireProcess(db, user, request.params.id, 'read');
      const { process_id } = parse(applyBody, request.body);
      const id = await applyTemplate(db, user, template, process_id);
      return reply.code(201).send(await processJson(db, id));
    },
  );
}
