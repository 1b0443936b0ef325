/**
 * Metadata (spec 001 §7 "Metadata", spec 000 §7 "Corpus"): ListElementMetaData,
 * CreateMetaData, Retrieve/PartialUpdate/DestroyMetaData, and the project's allowed metadata
 * (list, create, update, delete). Edits and deletions of a metadata honour If-Unmodified-Since
 * as element edits do (preconditions.ts). Rights come from permissions.ts before any body is
 * read; rules live in services/metadata.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/plugin';
import { paginate } from '../pagination';
import {
  changedSince,
  lastModifiedHeader,
  listedVersion,
  preconditionFailed,
} from '../preconditions';
import { requireCorpusRight, requireElementRight } from '../permissions';
import { QueryReader, queryValues } from '../services/elements/filters';
import {
  METADATA_MESSAGES,
  METADATA_NAME_MAX,
  allowedMetadataSource,
  createAllowedMetadata,
  createMetadata,
  deleteAllowedMetadata,
  deleteMetadata,
  isMetadataType,
  listElementMetadata,
  requireAllowedMetadataRight,
  requireMetadataRight,
  serializeMetadata,
  updateAllowedMetadata,
  updateMetadata,
  type MetadataAccess,
} from '../services/metadata';
import {
  elementMetadata,
  errors,
  idParams,
  noContent,
  pageQuery,
  paginated,
  queryFlag,
} from '../openapi/schemas';
import type { Metadata, MetadataType } from '../db/schema';
import { parse, text, uuidSchema } from '../validation';
import { bulkList } from '../services/bulk';
import { createMetadataBulk } from '../services/bulkMetadata';

const metadataType = z
  .string()
  .refine(isMetadataType, METADATA_MESSAGES.type)
  .transform((value) => value as MetadataType);

// DRF's CharField takes a number as its text; the emptiness message is the spec's.
const metadataValue = z.preprocess(
  (value) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value),
  z
    .string()
    .trim()
    .refine((value) => value !== '', METADATA_MESSAGES.emptyValue),
);

const metadataName = text(METADATA_NAME_MAX);

const createBody = z.object({
  type: metadataType,
  name: metadataName,
  value: metadataValue,
  worker_run_id: uuidSchema.nullable().optional(),
});

const updateBody = z.object({
  type: metadataType.optional(),
  name: metadataName.optional(),
  value: metadataValue.optional(),
});

// CreateMetaDataBulk: items read as CreateMetaData's body, the worker run given once.
const bulkBody = z.object({
  worker_run_id: uuidSchema.nullable().optional(),
  metadata_list: bulkList(createBody.omit({ worker_run_id: true })),
});

const allowedBody = z.object({ type: metadataType, name: metadataName });
const allowedUpdateBody = z.object({
  type: metadataType.optional(),
  name: metadataName.optional(),
});

const tags = ['metadata'];
const allowedMetadata = z.object({ id: uuidSchema, type: z.string(), name: z.string() });
const allowedParams = z.object({ id: uuidSchema, allowedId: uuidSchema });
const schemas = {
  ListElementMetaData: {
    'x-paginated': false,
    params: idParams,
    querystring: z.object({
      load_parents: queryFlag.describe("Also the metadata of the element's ancestors"),
    }),
    response: { 200: z.array(elementMetadata), ...errors(400, 401, 403, 404) },
  },
  CreateMetaData: {
    params: idParams,
    body: createBody,
    response: { 201: elementMetadata, ...errors(400, 401, 403, 404) },
  },
  CreateMetaDataBulk: {
    params: idParams,
    body: bulkBody,
    response: {
      201: z.object({
        worker_run_id: uuidSchema.nullable(),
        metadata_list: z.array(elementMetadata),
      }),
      ...errors(400, 401, 403, 404),
    },
  },
  RetrieveMetaData: {
    params: idParams,
    response: { 200: elementMetadata, ...errors(401, 403, 404) },
  },
  PartialUpdateMetaData: {
    params: idParams,
    body: updateBody,
    response: { 200: elementMetadata, ...errors(400, 401, 403, 404, 412) },
  },
  DestroyMetaData: {
    params: idParams,
    response: { 204: noContent, ...errors(401, 403, 404, 412) },
  },
  ListCorpusAllowedMetaData: {
    'x-paginated': true,
    params: idParams,
    querystring: pageQuery,
    response: { 200: paginated(allowedMetadata), ...errors(401, 403, 404) },
  },
  CreateAllowedMetaData: {
    params: idParams,
    body: allowedBody,
    response: { 201: allowedMetadata, ...errors(400, 401, 403, 404) },
  },
  PartialUpdateAllowedMetaData: {
    params: allowedParams,
    body: allowedUpdateBody,
    response: { 200: allowedMetadata, ...errors(400, 401, 403, 404) },
  },
  DestroyAllowedMetaData: {
    params: allowedParams,
    response: { 204: noContent, ...errors(401, 403, 404) },
  },
};
/** A route's schema: its operation id, the group's tag and the schemas above. */
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type IdParams = { Params: { id: string } };
type AllowedParams = { Params: { id: string; allowedId: string } };

export async function metadataRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  async function json(row: Metadata) {
    const [item] = await serializeMetadata(db, [row]);
    return item!;
  }

  /** 412 with the metadata as it is now when it changed since the version the edit was based on. */
  async function requireUnchanged(request: FastifyRequest, found: MetadataAccess): Promise<void> {
    const { metadata } = found;
    if (!changedSince(request.headers['if-unmodified-since'], metadata.updated)) return;
    throw preconditionFailed(
      'This metadata was changed by someone else since your edit was made.',
      await json(metadata),
      metadata.updated,
    );
  }

  app.get<IdParams>(
    '/element/:id/metadata/',
    schema('ListElementMetaData'),
    async (request, reply) => {
      const { element } = await requireElementRight(db, request.user, request.params.id, 'read');
      const reader = new QueryReader(queryValues(request.query));
      const loadParents = reader.boolean('load_parents') ?? false;
      reader.throwIfInvalid();
      if (!loadParents) {
        // Read before the list: a change landing in between makes a conflict, never a miss.
        const versions = await db
          .selectFrom('metadata')
          .select('updated')
          .where('element_id', '=', element.id)
          .execute();
        listedVersion(reply, versions);
      }
      return listElementMetadata(db, element, loadParents);
    },
  );

  app.post<IdParams>('/element/:id/metadata/', schema('CreateMetaData'), async (request, reply) => {
    const user = requireUser(request);
    const found = await requireElementRight(db, user, request.params.id, 'write');
    const input = parse(createBody, request.body);
    const row = await createMetadata(db, user, found, input);
    reply.header('last-modified', lastModifiedHeader(row.updated));
    return reply.code(201).send(await json(row));
  });

  app.post<IdParams>(
    '/element/:id/metadata/bulk/',
    schema('CreateMetaDataBulk'),
    async (request, reply) => {
      const user = requireUser(request);
      const found = await requireElementRight(db, user, request.params.id, 'write');
      const input = parse(bulkBody, request.body);
      return reply.code(201).send(await createMetadataBulk(db, user, found, input));
    },
  );

  app.get<IdParams>('/metadata/:id/', schema('RetrieveMetaData'), async (request, reply) => {
    const { metadata } = await requireMetadataRight(db, request.user, request.params.id, 'read');
    reply.header('last-modified', lastModifiedHeader(metadata.updated));
    return json(metadata);
  });

  app.patch<IdParams>('/metadata/:id/', schema('PartialUpdateMetaData'), async (request, reply) => {
    const user = requireUser(request);
    const found = await requireMetadataRight(db, user, request.params.id, 'write');
    const changes = parse(updateBody, request.body);
    await requireUnchanged(request, found);
    const row = await updateMetadata(db, user, found, changes);
    reply.header('last-modified', lastModifiedHeader(row.updated));
    return json(row);
  });

  app.delete<IdParams>('/metadata/:id/', schema('DestroyMetaData'), async (request, reply) => {
    const user = requireUser(request);
    const found = await requireMetadataRight(db, user, request.params.id, 'write');
    await requireUnchanged(request, found);
    await deleteMetadata(db, user, found);
    return reply.code(204).send();
  });

  app.get<IdParams>(
    '/corpus/:id/allowed-metadata/',
    schema('ListCorpusAllowedMetaData'),
    async (request) => {
      const { corpus } = await requireCorpusRight(db, request.user, request.params.id, 'read');
      return paginate(request, allowedMetadataSource(db, corpus.id));
    },
  );

  app.post<IdParams>(
    '/corpus/:id/allowed-metadata/',
    schema('CreateAllowedMetaData'),
    async (request, reply) => {
      const user = requireUser(request);
      const access = await requireCorpusRight(db, user, request.params.id, 'admin');
      const input = parse(allowedBody, request.body);
      return reply.code(201).send(await createAllowedMetadata(db, access, input));
    },
  );

  app.patch<AllowedParams>(
    '/corpus/:id/allowed-metadata/:allowedId/',
    schema('PartialUpdateAllowedMetaData'),
    async (request) => {
      const user = requireUser(request);
      const { id, allowedId } = request.params;
      const found = await requireAllowedMetadataRight(db, user, id, allowedId, 'admin');
      return updateAllowedMetadata(db, found, parse(allowedUpdateBody, request.body));
    },
  );

  app.delete<AllowedParams>(
    '/corpus/:id/allowed-metadata/:allowedId/',
    schema('DestroyAllowedMetaData'),
    async (request, reply) => {
      const user = requireUser(request);
      const { id, allowedId } = request.params;
      await deleteAllowedMetadata(
        db,
        await requireAllowedMetadataRight(db, user, id, allowedId, 'admin'),
      );
      return reply.code(204).send();
    },
  );
}
