/** CreateProcessTemplate and ApplyProcessTemplate (api part 2 §2.5). */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { parse, uuidSchema } from '../../validation';
import { processJson } from '../../services/processes/json';
import { requireProcess } from '../../services/processes/rights';
import { applyTemplate, createTemplate } from '../../services/processes/templates';

type IdParams = { Params: { id: string } };

const applyBody = z.object({ process_id: uuidSchema });

export async function processTemplateRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post<IdParams>(
    '/process/:id/template/',
    { schema: { operationId: 'CreateProcessTemplate', tags: ['process'] } },
    async (request, reply) => {
      const user = requireUser(request);
      const process = await requireProcess(db, user, request.params.id, 'admin');
      const id = await createTemplate(db, user, process);
      return reply.code(201).send(await processJson(db, id));
    },
  );

  app.post<IdParams>(
    '/process/:id/apply/',
    { schema: { operationId: 'ApplyProcessTemplate', tags: ['process'] } },
    async (request, reply) => {
      const user = requireUser(request);
      const template = await requireProcess(db, user, request.params.id, 'read');
      const { process_id } = parse(applyBody, request.body);
      const id = await applyTemplate(db, user, template, process_id);
      return reply.code(201).send(await processJson(db, id));
    },
  );
}
