/**
 * Files for an import (spec 000 §7 "Process"): CreateDataFile, the upload of its content,
 * ListDataFiles, Retrieve/PartialUpdate/DestroyDataFile, and CreateProcessFromFiles, which
 * answers with the files process and, as `job`, its import job (GET /jobs/{id}/ follows it).
 * Rights come from permissions.ts before any body is read; rules live in services/dataFiles.ts.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser, requireVerified } from '../auth/plugin';
import { jobDetailJson } from '../jobs/service';
import { requestOrigin } from '../origin';
import { paginate } from '../pagination';
import { requireCorpusRight } from '../permissions';
import {
  MAX_FILE_SIZE,
  MAX_IMPORT_FILES,
  checkCanUpload,
  createDataFile,
  dataFileJson,
  dataFileSource,
  deleteDataFile,
  importDataFiles,
  receiveUpload,
  requireDataFileRight,
  updateDataFile,
} from '../services/dataFiles';
import { processJson } from '../services/processes/json';
import { parse, text, uuidSchema } from '../validation';
// Registers the import job kind, so the runner knows what an enqueued import does.
import '../imports/job';

const NAME_MAX = 250;

const md5 = z
  .string()
  .regex(/^[0-9a-f]{32}$/i, 'Enter the MD5 hash of the content: 32 hexadecimal digits.');

const createBody = z.object({
  corpus: uuidSchema,
  name: text(NAME_MAX),
  size: z.number().int().min(1).max(MAX_FILE_SIZE),
  content_type: text(255),
  hash: md5.nullable().optional(),
});

const updateBody = z.object({
  name: text(NAME_MAX).optional(),
  status: z.enum(['checked']).optional(),
});

const fromFilesBody = z.object({
  files: z.array(uuidSchema).max(MAX_IMPORT_FILES),
  folder_id: uuidSchema.nullable().optional(),
  folder_name: text(NAME_MAX).nullable().optional(),
});

type IdParams = { Params: { id: string } };

export async function processFileRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const dataDir = () => app.config.dataDir;

  app.post(
    '/process/files/create/',
    { schema: { operationId: 'CreateDataFile', tags: ['process'] } },
    async (request, reply) => {
      const user = requireVerified(request);
      const input = parse(createBody, request.body);
      const file = await createDataFile(db, user, input);
      return reply.code(201).send(dataFileJson(file, requestOrigin(request)));
    },
  );

  app.get<IdParams>(
    '/process/files/:id/',
    { schema: { operationId: 'ListDataFiles', tags: ['process'] } },
    async (request) => {
      const { corpus } = await requireCorpusRight(db, request.user, request.params.id, 'read');
      const page = await paginate(request, dataFileSource(db, corpus.id));
      const origin = requestOrigin(request);
      return { ...page, results: page.results.map((file) => dataFileJson(file, origin)) };
    },
  );

  app.get<IdParams>(
    '/process/file/:id/',
    { schema: { operationId: 'RetrieveDataFile', tags: ['process'] } },
    async (request) => {
      const { file } = await requireDataFileRight(db, request.user, request.params.id, 'read');
      return dataFileJson(file, requestOrigin(request));
    },
  );

  app.patch<IdParams>(
    '/process/file/:id/',
    { schema: { operationId: 'PartialUpdateDataFile', tags: ['process'] } },
    async (request) => {
      const user = requireUser(request);
      const { file } = await requireDataFileRight(db, user, request.params.id, 'write');
      const updated = await updateDataFile(db, dataDir(), file, parse(updateBody, request.body));
      return dataFileJson(updated, requestOrigin(request));
    },
  );

  app.delete<IdParams>(
    '/process/file/:id/',
    { schema: { operationId: 'DestroyDataFile', tags: ['process'] } },
    async (request, reply) => {
      const user = requireUser(request);
      const { file } = await requireDataFileRight(db, user, request.params.id, 'write');
      await deleteDataFile(db, dataDir(), file);
      return reply.code(204).send();
    },
  );

  app.post(
    '/process/fromfiles/',
    { schema: { operationId: 'CreateFilesProcess', tags: ['process'] } },
    async (request, reply) => {
      const user = requireVerified(request);
      const input = parse(fromFilesBody, request.body);
      const { job, processId } = await importDataFiles(db, dataDir(), user, input);
      const process = await processJson(db, processId);
      return reply.code(201).send({ ...process, job: jobDetailJson(job) });
    },
  );

  await app.register(uploadRoute);
}

/**
 * The upload, in a scope of its own: only here is a body of any type accepted, and it reaches
 * the handler as the request stream (never buffered, so the API's 10 MB limit does not apply;
 * the declared size does).
 */
async function uploadRoute(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  // A refusal before the body is read: close the connection rather than read gigabytes of it.
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode >= 400 && !request.raw.readableEnded) reply.header('connection', 'close');
  });

  app.put<IdParams>(
    '/process/file/:id/upload/',
    { schema: { operationId: 'UploadDataFile', tags: ['process'] } },
    async (request) => {
      const user = requireUser(request);
      const found = await requireDataFileRight(app.db, user, request.params.id, 'read');
      checkCanUpload(user, found);
      const stored = await receiveUpload(
        app.db,
        app.config.dataDir,
        found.file,
        request.body as Readable | undefined,
        request.headers['content-length'],
      );
      return dataFileJson(stored, requestOrigin(request));
    },
  );
}
