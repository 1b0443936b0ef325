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
import { errors, idParams, noContent, pageQuery, paginated } from '../openapi/schemas';
import { process } from '../openapi/process';
import { jobDetail } from '../openapi/job';

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

const dataFile = z
  .object({
    id: z.uuid(),
    name: z.string(),
    hash: z.string().nullable(),
    size: z.number().int(),
    content_type: z.string(),
    status: z.enum(['unchecked', 'checked', 'error']),
    s3_url: z.null().describe('Files are stored by Folia: there is no download link'),
    s3_put_url: z.string().nullable().describe('Where to PUT the content; null once checked'),
    corpus: z.uuid(),
    created: z.string(),
  })
  .meta({ id: 'DataFile' });

const tags = ['process'];
const schemas = {
  CreateDataFile: { body: createBody, response: { 201: dataFile, ...errors(400, 401, 403) } },
  ListDataFiles: {
    'x-paginated': true,
    params: idParams.describe("The project's id"),
    querystring: pageQuery,
    response: { 200: paginated(dataFile), ...errors(401, 403, 404) },
  },
  RetrieveDataFile: { params: idParams, response: { 200: dataFile, ...errors(401, 403, 404) } },
  PartialUpdateDataFile: {
    params: idParams,
    body: updateBody,
    response: { 200: dataFile, ...errors(400, 401, 403, 404) },
  },
  DestroyDataFile: { params: idParams, response: { 204: noContent, ...errors(401, 403, 404) } },
  CreateFilesProcess: {
    body: fromFilesBody,
    response: {
      201: process.extend({ job: jobDetail.describe('The import job') }),
      ...errors(400, 401, 403, 404),
    },
  },
  UploadDataFile: {
    description: 'The body is the file itself, of any content type.',
    params: idParams,
    response: { 200: dataFile, ...errors(400, 401, 403, 404) },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };

export async function processFileRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const dataDir = () => app.config.dataDir;

  app.post('/process/files/create/', schema('CreateDataFile'), async (request, reply) => {
    const user = requireVerified(request);
    const input = parse(createBody, request.body);
    const file = await createDataFile(db, user, input);
    return reply.code(201).send(dataFileJson(file, requestOrigin(request)));
  });

  app.get<IdParams>('/process/files/:id/', schema('ListDataFiles'), async (request) => {
    const { corpus } = await requireCorpusRight(db, request.user, request.params.id, 'read');
    const page = await paginate(request, dataFileSource(db, corpus.id));
    const origin = requestOrigin(request);
    return { ...page, results: page.results.map((file) => dataFileJson(file, origin)) };
  });

  app.get<IdParams>('/process/file/:id/', schema('RetrieveDataFile'), async (request) => {
    const { file } = await requireDataFileRight(db, request.user, request.params.id, 'read');
    return dataFileJson(file, requestOrigin(request));
  });

  app.patch<IdParams>('/process/file/:id/', schema('PartialUpdateDataFile'), async (request) => {
    const user = requireUser(request);
    const { file } = await requireDataFileRight(db, user, request.params.id, 'write');
    const updated = await updateDataFile(db, dataDir(), file, parse(updateBody, request.body));
    return dataFileJson(updated, requestOrigin(request));
  });

  app.delete<IdParams>('/process/file/:id/', schema('DestroyDataFile'), async (request, reply) => {
    const user = requireUser(request);
    const { file } = await requireDataFileRight(db, user, request.params.id, 'write');
    await deleteDataFile(db, dataDir(), file);
    return reply.code(204).send();
  });

  app.post('/process/fromfiles/', schema('CreateFilesProcess'), async (request, reply) => {
    const user = requireVerified(request);
    const input = parse(fromFilesBody, request.body);
    const { job, processId } = await importDataFiles(db, dataDir(), user, input);
    const process = await processJson(db, processId);
    return reply.code(201).send({ ...process, job: jobDetailJson(job) });
  });

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

  app.put<IdParams>('/process/file/:id/upload/', schema('UploadDataFile'), async (request) => {
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
  });
}
