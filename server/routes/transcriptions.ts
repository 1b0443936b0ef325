/**
 * Transcriptions and entities (spec 001 §7 "Transcriptions and entities"): an element's
 * transcriptions, listed and created; one transcription retrieved, edited and deleted, with
 * Last-Modified and If-Unmodified-Since as for elements (preconditions.ts), so an edit made
 * offline never overwrites a newer version; a project's entity types; a transcription's
 * entities, listed and created in bulk. Rules live in services/transcriptions.ts and
 * services/entities.ts.
 *
 * Where Arkindex's shapes are not known (api/arkindex-api.md §5):
 * - POST /element/{id}/transcriptions/, which spec 001 §7 lists beside the list, creates one
 *   transcription exactly as POST /element/{id}/transcription/ does.
 * - A transcription's `element` ({id, name, type}) is always filled, not only in recursive
 *   lists, and `entity_count` tells the client when editing is refused.
 * - CreateElementTranscriptions (POST /element/{id}/transcriptions/bulk/) numbers its new
 *   elements after the parent's children of their type and always creates them: see
 *   services/bulkElementTranscriptions.ts.
 * - CreateTranscriptionEntities answers 201 `{transcription_entities: [entity, …]}`, the key
 *   base-worker reads, each entity in the list's shape.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/plugin';
import { paginate } from '../pagination';
import { requireCorpusRight, requireElementRight } from '../permissions';
import {
  changedSince,
  lastModifiedHeader,
  listedVersion,
  preconditionFailed,
} from '../preconditions';
import {
  createTranscriptionEntities,
  entityTypeSource,
  MAX_BULK_ENTITIES,
  transcriptionEntitySource,
} from '../services/entities';
import { FILTER_MESSAGES, QueryReader, queryValues } from '../services/elements/filters';
import {
  createTranscription,
  deleteTranscription,
  ORIENTATIONS,
  requireCanDelete,
  requireTranscriptionRight,
  serializeTranscriptions,
  TEXT_MAX_LENGTH,
  transcriptionJson,
  TRANSCRIPTION_MESSAGES,
  transcriptionSource,
  updateTranscription,
  type TranscriptionAccess,
} from '../services/transcriptions';
import { parse, text, uuidSchema } from '../validation';
import { bulkList } from '../services/bulk';
import { createTranscriptionsBulk } from '../services/bulkTranscriptions';
import { createElementTranscriptions } from '../services/bulkElementTranscriptions';
import {
  errors,
  idParams,
  noContent,
  pageQuery,
  paginated,
  queryFlag,
  transcription,
  workerRunSummary,
} from '../openapi/schemas';

// PostgreSQL text cannot hold NUL, and no transcription needs one: refused as DRF does.
const transcriptionText = text(TEXT_MAX_LENGTH).refine(
  (value) => !value.includes('\u0000'),
  'Null characters are not allowed.',
);
const orientation = z.enum(ORIENTATIONS);
const confidence = z.number().min(0).max(1).nullable().optional();

const createBody = z.object({
  text: transcriptionText,
  orientation: orientation.optional(),
  confidence,
  worker_run_id: uuidSchema.nullable().optional(),
});

const updateBody = z.object({
  text: transcriptionText.optional(),
  orientation: orientation.optional(),
});

const entitiesBody = z.object({
  worker_run_id: uuidSchema.nullable().optional(),
  transcription_entities: z
    .array(
      z.object({
        offset: z.number().int().min(0),
        length: z.number().int().min(1),
        type_id: uuidSchema,
        confidence,
      }),
    )
    // DRF's words for list sizes, which zod's too_small/too_big would not give.
    .refine((list) => list.length > 0, 'This list may not be empty.')
    .refine(
      (list) => list.length <= MAX_BULK_ENTITIES,
      `Ensure this field has no more than ${MAX_BULK_ENTITIES} elements.`,
    ),
});

// CreateTranscriptions: a worker's results, so each one has a confidence.
const bulkItem = z.object({
  element_id: uuidSchema,
  text: transcriptionText,
  confidence: z.number().min(0).max(1),
  orientation: orientation.optional(),
});

const bulkBody = z.object({
  worker_run_id: uuidSchema,
  transcriptions: bulkList(bulkItem),
});

// CreateElementTranscriptions: the same results, each on a new element placed by its polygon.
const elementBulkBody = z.object({
  element_type: z.string().trim().min(1).max(100),
  worker_run_id: uuidSchema,
  transcriptions: bulkList(
    bulkItem.omit({ element_id: true }).extend({
      // A list here; its points are checked against the parent's image by the service.
      polygon: z.array(z.unknown()),
      element_confidence: z.number().min(0).max(1).nullable().optional(),
    }),
  ),
  // Arkindex answers the created ids only when asked; this server always answers them.
  return_elements: z.boolean().optional(),
});

type IdParams = { Params: { id: string } };

const tags = ['transcriptions'];
const uuid = uuidSchema;
const entityType = z.object({ id: uuid, name: z.string(), color: z.string() });
const transcriptionEntity = z.object({
  id: uuid,
  type: entityType,
  offset: z.number().int(),
  length: z.number().int(),
  confidence: z.number().nullable(),
  worker_run: workerRunSummary,
});
const workerRunQuery = z
  .string()
  .optional()
  .describe('A worker run id, or `false` for manual results only');

const listTranscriptions = {
  operationId: 'ListTranscriptions',
  tags,
  'x-paginated': true,
  params: idParams,
  querystring: pageQuery.extend({
    recursive: queryFlag,
    worker_run: workerRunQuery,
    element_type: z.string().optional().describe('An element type slug'),
  }),
  response: { 200: paginated(transcription), ...errors(400, 401, 403, 404) },
};
const createTranscriptionSchema = {
  operationId: 'CreateTranscription',
  tags,
  params: idParams,
  body: createBody,
  response: { 201: transcription, ...errors(400, 401, 403, 404) },
};
const retrieveTranscription = {
  operationId: 'RetrieveTranscription',
  tags,
  params: idParams,
  response: { 200: transcription, ...errors(401, 403, 404) },
};
const updateTranscriptionSchema = {
  operationId: 'PartialUpdateTranscription',
  tags,
  params: idParams,
  body: updateBody,
  response: { 200: transcription, ...errors(400, 401, 403, 404, 412) },
};
const destroyTranscription = {
  operationId: 'DestroyTranscription',
  tags,
  params: idParams,
  response: { 204: noContent, ...errors(400, 401, 403, 404, 412) },
};
const listEntityTypes = {
  operationId: 'ListCorpusEntityTypes',
  tags: ['entities'],
  'x-paginated': true,
  params: idParams,
  querystring: pageQuery,
  response: { 200: paginated(entityType), ...errors(401, 403, 404) },
};
const listTranscriptionEntities = {
  operationId: 'ListTranscriptionEntities',
  tags: ['entities'],
  'x-paginated': true,
  params: idParams,
  querystring: pageQuery.extend({ worker_run: workerRunQuery }),
  response: { 200: paginated(transcriptionEntity), ...errors(400, 401, 403, 404) },
};
const createTranscriptionsSchema = {
  operationId: 'CreateTranscriptions',
  tags,
  body: bulkBody,
  response: {
    201: z.object({
      worker_run_id: uuid,
      transcriptions: z.array(
        z.object({
          id: uuid,
          element_id: uuid,
          text: z.string(),
          confidence: z.number(),
          orientation: orientation,
        }),
      ),
    }),
    ...errors(400, 401, 403),
  },
};
const createElementTranscriptionsSchema = {
  operationId: 'CreateElementTranscriptions',
  tags,
  params: idParams,
  body: elementBulkBody,
  response: {
    201: z.array(z.object({ id: uuid, element_id: uuid, created: z.boolean() })),
    ...errors(400, 401, 403, 404),
  },
};
const createEntitiesSchema = {
  operationId: 'CreateTranscriptionEntities',
  tags: ['entities'],
  params: idParams,
  body: entitiesBody,
  response: {
    201: z.object({ transcription_entities: z.array(transcriptionEntity) }),
    ...errors(400, 401, 403, 404),
  },
};

export async function transcriptionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>(
    '/element/:id/transcriptions/',
    { schema: listTranscriptions },
    async (request, reply) => {
      const { element } = await requireElementRight(db, request.user, request.params.id, 'read');
      const reader = new QueryReader(queryValues(request.query));
      const recursive = reader.boolean('recursive') ?? false;
      const workerRun = reader.workerRun('worker_run');
      const typeSlug = reader.string('element_type');
      let elementTypeId: string | undefined;
      if (typeSlug !== undefined) {
        const type = await db
          .selectFrom('element_types')
          .select('id')
          .where('corpus_id', '=', element.corpus_id)
          .where('slug', '=', typeSlug)
          .executeTakeFirst();
        if (type) elementTypeId = type.id;
        else reader.fail('element_type', FILTER_MESSAGES.type(typeSlug));
      }
      reader.throwIfInvalid();
      const page = await paginate(
        request,
        transcriptionSource(db, element.id, { recursive, elementTypeId, workerRun }),
      );
      // The version of every transcription listed, for the edits a client bases on this read.
      listedVersion(reply, page.results);
      return { ...page, results: await serializeTranscriptions(db, page.results) };
    },
  );

  async function create(request: FastifyRequest<IdParams>, reply: FastifyReply) {
    const user = requireUser(request);
    const found = await requireElementRight(db, user, request.params.id, 'write');
    const input = parse(createBody, request.body);
    const created = await createTranscription(db, user, found, input);
    reply.header('last-modified', lastModifiedHeader(created.updated));
    return reply.code(201).send(created.json);
  }
  // CreateTranscription; spec 001 §7 also lists POST on the list's path, which answers the same.
  app.post<IdParams>('/element/:id/transcription/', { schema: createTranscriptionSchema }, create);
  const createOnList = {
    ...createTranscriptionSchema,
    operationId: 'CreateElementTranscription',
    description: 'The same as CreateTranscription, on the path of the list.',
  };
  app.post<IdParams>('/element/:id/transcriptions/', { schema: createOnList }, create);

  /** 412 with the transcription as it is now when it changed since the edit's version. */
  async function requireUnchanged(request: FastifyRequest, found: TranscriptionAccess) {
    const { transcription } = found;
    if (!changedSince(request.headers['if-unmodified-since'], transcription.updated)) return;
    throw preconditionFailed(
      TRANSCRIPTION_MESSAGES.changed,
      await transcriptionJson(db, transcription.id),
      transcription.updated,
    );
  }

  app.get<IdParams>(
    '/transcription/:id/',
    { schema: retrieveTranscription },
    async (request, reply) => {
      const found = await requireTranscriptionRight(db, request.user, request.params.id, 'read');
      reply.header('last-modified', lastModifiedHeader(found.transcription.updated));
      return transcriptionJson(db, found.transcription.id);
    },
  );

  app.patch<IdParams>(
    '/transcription/:id/',
    { schema: updateTranscriptionSchema },
    async (request, reply) => {
      const user = requireUser(request);
      const found = await requireTranscriptionRight(db, user, request.params.id, 'write');
      const changes = parse(updateBody, request.body);
      await requireUnchanged(request, found);
      const updated = await updateTranscription(db, found, changes);
      reply.header('last-modified', lastModifiedHeader(updated.updated));
      return updated.json;
    },
  );

  app.delete<IdParams>(
    '/transcription/:id/',
    { schema: destroyTranscription },
    async (request, reply) => {
      const user = requireUser(request);
      const found = await requireTranscriptionRight(db, user, request.params.id, 'write');
      requireCanDelete(found);
      await requireUnchanged(request, found);
      await deleteTranscription(db, found);
      return reply.code(204).send();
    },
  );

  app.get<IdParams>('/corpus/:id/entity-types/', { schema: listEntityTypes }, async (request) => {
    const { corpus } = await requireCorpusRight(db, request.user, request.params.id, 'read');
    return paginate(request, entityTypeSource(db, corpus.id));
  });

  app.get<IdParams>(
    '/transcription/:id/entities/',
    { schema: listTranscriptionEntities },
    async (request) => {
      const found = await requireTranscriptionRight(db, request.user, request.params.id, 'read');
      const reader = new QueryReader(queryValues(request.query));
      const workerRun = reader.workerRun('worker_run');
      reader.throwIfInvalid();
      return paginate(request, transcriptionEntitySource(db, found.transcription.id, workerRun));
    },
  );

  app.post(
    '/transcription/bulk/',
    { schema: createTranscriptionsSchema },
    async (request, reply) => {
      const user = requireUser(request);
      const input = parse(bulkBody, request.body);
      return reply.code(201).send(await createTranscriptionsBulk(db, user, input));
    },
  );

  app.post<IdParams>(
    '/element/:id/transcriptions/bulk/',
    { schema: createElementTranscriptionsSchema },
    async (request, reply) => {
      const user = requireUser(request);
      const found = await requireElementRight(db, user, request.params.id, 'write');
      const input = parse(elementBulkBody, request.body);
      return reply.code(201).send(await createElementTranscriptions(db, user, found, input));
    },
  );

  app.post<IdParams>(
    '/transcription/:id/entities/bulk/',
    { schema: createEntitiesSchema },
    async (request, reply) => {
      const user = requireUser(request);
      const found = await requireTranscriptionRight(db, user, request.params.id, 'write');
      const input = parse(entitiesBody, request.body);
      const created = await createTranscriptionEntities(db, found, input);
      return reply.code(201).send({ transcription_entities: created });
    },
  );
}
