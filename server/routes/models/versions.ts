/**
 * Model versions: list and create under their model, retrieve, edit and delete by id, and
 * the archive's upload (the version's `s3_put_url`) and download (its `s3_url`).
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireVerified } from '../../auth/plugin';
import { notFound } from '../../errors';
import { requestOrigin } from '../../origin';
import { paginate } from '../../pagination';
import { archivePath, storeArchive } from '../../services/models/archives';
import { requireModelRight } from '../../services/models/rights';
import {
  createModelVersion,
  deleteModelVersion,
  modelVersionJson,
  modelVersionPages,
  requireModelVersionRight,
  updateModelVersion,
} from '../../services/models/versions';
import { parse, uuidSchema } from '../../validation';
import { errors, idParams, noContent, pageQuery, paginated } from '../../openapi/schemas';
import { modelSchema, modelVersion } from './schemas';

const TAG_MAX = 50;
const DESCRIPTION_MAX = 10_000;

const tag = z.string().trim().min(1).max(TAG_MAX).nullable().optional();
const description = z.string().max(DESCRIPTION_MAX).optional();
// Any JSON object; a list or a scalar is refused as DRF words it.
const configuration = z.looseObject({}).optional();

const createBody = z.object({
  tag,
  description,
  configuration,
  parent: uuidSchema.nullable().optional(),
});
const updateBody = z.object({ tag, description, configuration });

type IdParams = { Params: { id: string } };

export async function modelVersionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/model/:id/versions/',
    modelSchema('ListModelVersions', {
      'x-paginated': true,
      params: idParams,
      querystring: pageQuery,
      response: { 200: paginated(modelVersion), ...errors(401, 403, 404) },
    }),
    async (request) => {
      const user = requireVerified(request);
      const access = await requireModelRight(db, user, request.params.id, 'read');
      return paginate(request, modelVersionPages(db, access, requestOrigin(request)));
    },
  );

  app.post<IdParams>(
    '/model/:id/versions/',
    modelSchema('CreateModelVersion', {
      params: idParams,
      body: createBody,
      response: { 201: modelVersion, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      // Rights before the body: an outsider learns nothing from their mistakes.
      await requireModelRight(db, user, request.params.id, 'write');
      const input = parse(createBody, request.body);
      const { version, access } = await createModelVersion(db, user, request.params.id, input);
      return reply.code(201).send(modelVersionJson(version, access.model, requestOrigin(request)));
    },
  );

  app.get<IdParams>(
    '/modelversion/:id/',
    modelSchema('RetrieveModelVersion', {
      params: idParams,
      response: { 200: modelVersion, ...errors(401, 403, 404) },
    }),
    async (request) => {
      const user = requireVerified(request);
      const { version, access } = await requireModelVersionRight(
        db,
        user,
        request.params.id,
        'read',
      );
      return modelVersionJson(version, access.model, requestOrigin(request));
    },
  );

  app.patch<IdParams>(
    '/modelversion/:id/',
    modelSchema('PartialUpdateModelVersion', {
      params: idParams,
      body: updateBody,
      response: { 200: modelVersion, ...errors(400, 401, 403, 404) },
    }),
    async (request) => {
      const user = requireVerified(request);
      const { version, access } = await requireModelVersionRight(
        db,
        user,
        request.params.id,
        'write',
      );
      const updated = await updateModelVersion(db, version, parse(updateBody, request.body));
      return modelVersionJson(updated, access.model, requestOrigin(request));
    },
  );

  app.delete<IdParams>(
    '/modelversion/:id/',
    modelSchema('DestroyModelVersion', {
      params: idParams,
      response: { 204: noContent, ...errors(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      const { version } = await requireModelVersionRight(db, user, request.params.id, 'write');
      await deleteModelVersion(db, app.config.dataDir, version);
      return reply.code(204).send();
    },
  );

  app.get<IdParams>(
    '/modelversion/:id/download/',
    modelSchema('DownloadModelVersion', {
      params: idParams,
      response: {
        200: {
          description: 'The archive (tar.zst) as an attachment',
          content: {
            'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) },
          },
        },
        ...errors(401, 403, 404),
      },
    }),
    async (request, reply) => {
      const user = requireVerified(request);
      const { version, access } = await requireModelVersionRight(
        db,
        user,
        request.params.id,
        'read',
      );
      if (version.state !== 'available') throw notFound('This model version has no archive yet.');
      const file = archivePath(app.config.dataDir, version.id);
      let size: number;
      try {
        size = (await fs.promises.stat(file)).size;
      } catch {
        throw notFound('This model version has no archive yet.');
      }
      const name = `${access.model.name}-${version.tag ?? version.id}.tar.zst`.replace(
        /[^\w.-]+/g,
        '_',
      );
      return reply
        .type('application/octet-stream')
        .header('content-length', String(size))
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(fs.createReadStream(file));
    },
  );

  await app.register(uploadRoute);
}

/**
 * The upload, in a scope of its own: only here is a body of any type accepted, and it reaches
 * the handler as the request stream, never buffered (the API's 10 MB limit does not apply).
 */
async function uploadRoute(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  // A refusal before the body is read: close the connection rather than read gigabytes of it.
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode >= 400 && !request.raw.readableEnded) reply.header('connection', 'close');
  });

  app.put<IdParams>(
    '/modelversion/:id/upload/',
    modelSchema('UploadModelVersion', {
      description: 'The body is the archive itself, of any content type.',
      params: idParams,
      response: { 200: modelVersion, ...errors(400, 401, 403, 404) },
    }),
    async (request) => {
      const user = requireVerified(request);
      const { version, access } = await requireModelVersionRight(
        app.db,
        user,
        request.params.id,
        'write',
      );
      const length = request.headers['content-length'];
      const stored = await storeArchive(
        app.db,
        app.config.dataDir,
        version,
        request.body as Readable | undefined,
        length !== undefined && /^\d+$/.test(length) ? Number(length) : null,
      );
      return modelVersionJson(stored, access.model, requestOrigin(request));
    },
  );
}
