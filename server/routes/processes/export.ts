/**
 * CreateExportProcess (POST /process/export/{corpus_id}/): a document export of a project's
 * element or of the caller's selection, as a process started at once. Project admins only;
 * the rules live in services/processes/export.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../auth/plugin';
import { requestOrigin } from '../../origin';
import { requireCorpusRight } from '../../permissions';
import { parse, uuidSchema } from '../../validation';
import { createExportProcess } from '../../services/processes/export';
import { processJson } from '../../services/processes/json';
import { EXPORT_FORMATS } from '../../services/workers/builtinWorkers';
import { errors } from '../../openapi/schemas';
import { processSchema } from './schemas';
import { process } from '../../openapi/process';

const exportBody = z.object({
  format: z.enum(EXPORT_FORMATS),
  export_id: uuidSchema.nullable(),
  configuration: z.record(z.string(), z.unknown()).optional(),
  farm_id: uuidSchema.nullable().optional(),
  element_id: uuidSchema.optional(),
  selection: z.boolean().optional(),
});

export async function processExportRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.post<{ Params: { corpusId: string } }>(
    '/process/export/:corpusId/',
    processSchema('CreateExportProcess', {
      params: z.object({ corpusId: z.uuid() }),
      body: exportBody,
      response: { 201: process, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireUser(request);
      const access = await requireCorpusRight(db, user, request.params.corpusId, 'admin');
      const input = parse(exportBody, request.body);
      const id = await createExportProcess(
        { db, dialect: app.dialect, features: app.config.features, origin: requestOrigin(request) },
        user,
        access.corpus.id,
        input,
      );
      return reply.code(201).send(await processJson(db, id));
    },
  );
}
