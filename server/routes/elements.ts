/**
 * Elements (spec 001 §7 "Elements"): lists of a project, of an element's children and parents
 * and of an image; retrieve, create, edit, delete, move and link; neighbours and the folder
 * manifest. Rights come from permissions.ts before any body is read; rules live in
 * services/elements/.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser, requireVerified } from '../auth/plugin';
import { notFound } from '../errors';
import { requestOrigin } from '../origin';
import { paginate } from '../pagination';
import {
  readableCorpusIds,
  requireCorpusRight,
  requireElementRight,
  type ElementAccess,
} from '../permissions';
import { requireReadableImage } from '../services/images';
import { createElement } from '../services/elements/create';
import type { DeletionOutcome } from '../services/elements/delete';
import {
  destroyChildren,
  destroyCorpusElements,
  destroyElement,
} from '../services/elements/destroy';
import { QueryReader, queryValues, readElementFilters } from '../services/elements/filters';
import { childrenLastModified, isNotModified } from '../services/elements/lastModified';
import { changedSince, lastModifiedHeader, preconditionFailed } from '../preconditions';
import { linkElement, moveElement, unlinkElement } from '../services/elements/links';
import { readListOptions, type ListKind } from '../services/elements/listOptions';
import { elementRowSource, type ListScope } from '../services/elements/lists';
import { folderManifest } from '../services/elements/manifest';
import { elementNeighbors } from '../services/elements/neighbors';
import { elementRowById } from '../services/elements/repository';
import { elementJson, serializeElements } from '../services/elements/serialize';
import { updateElement } from '../services/elements/update';
import { parse, text, uuidSchema } from '../validation';
import {
  corpusElementsQuery,
  deletionQuery,
  hierarchyQuery,
  imageElementsQuery,
  parentsQuery,
} from '../openapi/elementQueries';
import {
  element as elementSchema,
  elementListItem,
  errors,
  iiifManifest,
  idParams,
  noContent,
  paginated,
  scheduled,
} from '../openapi/schemas';

const NAME_MAX = 250;
const slug = z.string().trim().min(1).max(100);
const polygon = z.array(z.unknown());

const createBody = z.object({
  corpus: uuidSchema,
  type: slug,
  name: text(NAME_MAX),
  parent: uuidSchema.nullable().optional(),
  image: uuidSchema.nullable().optional(),
  polygon: polygon.nullable().optional(),
  confidence: z.number().min(0).max(1).nullable().optional(),
  worker_run_id: uuidSchema.nullable().optional(),
  rotation_angle: z.number().int().min(0).max(359).optional(),
  mirrored: z.boolean().optional(),
});

const updateBody = z.object({
  name: text(NAME_MAX).optional(),
  type: slug.optional(),
  polygon: polygon.optional(),
  image: uuidSchema.nullable().optional(),
  rotation_angle: z.number().int().min(0).max(359).optional(),
  mirrored: z.boolean().optional(),
  confidence: z.number().min(0).max(1).nullable().optional(),
});

const moveBody = z.object({ source: uuidSchema, destination: uuidSchema });

// Arkindex's parameter names, which its clients pass by name: ListElements(corpus=…).
const corpusParams = z.object({ corpus: uuidSchema });
const linkParams = z.object({ child: uuidSchema, parent: uuidSchema });
const elementList = paginated(elementListItem);
const elementRef = z.object({ id: uuidSchema, type: z.string(), name: z.string() });
const neighbors = z.array(
  z.object({
    path: z.array(elementRef),
    ordering: z.number().int().nullable(),
    previous: elementRef.nullable(),
    next: elementRef.nullable(),
  }),
);
const deletion = { 202: scheduled, 204: noContent };
const tags = ['elements'];

type IdParams = { Params: { id: string } };
type CorpusParams = { Params: { corpus: string } };
type LinkParams = { Params: { child: string; parent: string } };

function sendDeletion(reply: FastifyReply, outcome: DeletionOutcome) {
  // A scheduled deletion answers 202 with an empty object, as Arkindex does.
  return 'job' in outcome ? reply.code(202).send({}) : reply.code(204).send();
}

export async function elementRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  /** The list's filters and options, read and checked together: one 400 names every bad one. */
  async function readList(request: FastifyRequest, kind: ListKind, corpusId: string | null) {
    const reader = new QueryReader(queryValues(request.query));
    const options = readListOptions(reader, kind);
    const filters = corpusId
      ? await readElementFilters(db, corpusId, reader, { topLevel: kind === 'corpus' })
      : {};
    reader.throwIfInvalid();
    return { options, filters };
  }

  async function listPage(
    request: FastifyRequest,
    { options, filters }: Awaited<ReturnType<typeof readList>>,
    scope: ListScope,
  ) {
    const page = await paginate(request, elementRowSource(db, scope, filters, options));
    return {
      ...page,
      results: await serializeElements(db, page.results, requestOrigin(request), options.with),
    };
  }

  const listElements = {
    operationId: 'ListElements',
    tags,
    'x-paginated': true,
    params: corpusParams,
    querystring: corpusElementsQuery,
    response: { 200: elementList, ...errors(400, 401, 403, 404) },
  };
  app.get<CorpusParams>('/corpus/:corpus/elements/', { schema: listElements }, async (request) => {
    const { corpus } = await requireCorpusRight(db, request.user, request.params.corpus, 'read');
    const list = await readList(request, 'corpus', corpus.id);
    return listPage(request, list, { kind: 'corpus', corpusId: corpus.id });
  });

  const destroyElements = {
    operationId: 'DestroyElements',
    tags,
    params: corpusParams,
    querystring: deletionQuery.extend({ top_level: corpusElementsQuery.shape.top_level }),
    response: { ...deletion, ...errors(400, 401, 403, 404) },
  };
  app.delete<CorpusParams>(
    '/corpus/:corpus/elements/',
    { schema: destroyElements },
    async (request, reply) => {
      const user = requireVerified(request);
      const access = await requireCorpusRight(db, user, request.params.corpus, 'admin');
      const outcome = await destroyCorpusElements(db, user, access, queryValues(request.query));
      return sendDeletion(reply, outcome);
    },
  );

  const listChildren = {
    operationId: 'ListElementChildren',
    tags,
    'x-paginated': true,
    params: idParams,
    querystring: hierarchyQuery,
    response: { 200: elementList, 304: noContent, ...errors(400, 401, 403, 404) },
  };
  app.get<IdParams>('/elements/:id/children/', { schema: listChildren }, async (request, reply) => {
    const { element } = await requireElementRight(db, request.user, request.params.id, 'read');
    const list = await readList(request, 'children', element.corpus_id);
    const { recursive } = list.options;
    // Only the direct children move the parent's date; a recursive list has no cheap one.
    if (!recursive) {
      const lastModified = childrenLastModified(element);
      reply
        .header('last-modified', lastModified.header)
        .header('cache-control', 'private, no-cache');
      if (isNotModified(request.headers['if-modified-since'], lastModified)) {
        return reply.code(304).send();
      }
    }
    return listPage(request, list, { kind: 'children', parentId: element.id, recursive });
  });

  const destroyChildrenSchema = {
    operationId: 'DestroyElementChildren',
    tags,
    params: idParams,
    querystring: deletionQuery.extend({ recursive: hierarchyQuery.shape.recursive }),
    response: { ...deletion, ...errors(400, 401, 403, 404, 412) },
  };
  const deleteChildren = { schema: destroyChildrenSchema };
  app.delete<IdParams>('/elements/:id/children/', deleteChildren, async (request, reply) => {
    const user = requireVerified(request);
    const found = await requireElementRight(db, user, request.params.id, 'admin');
    await requireUnchanged(request, found);
    return sendDeletion(reply, await destroyChildren(db, user, found, queryValues(request.query)));
  });

  const listParents = {
    operationId: 'ListElementParents',
    tags,
    'x-paginated': true,
    params: idParams,
    querystring: parentsQuery,
    response: { 200: elementList, ...errors(400, 401, 403, 404) },
  };
  app.get<IdParams>('/elements/:id/parents/', { schema: listParents }, async (request) => {
    const { element } = await requireElementRight(db, request.user, request.params.id, 'read');
    const list = await readList(request, 'parents', element.corpus_id);
    const { recursive } = list.options;
    return listPage(request, list, { kind: 'parents', childId: element.id, recursive });
  });

  const listNeighbors = {
    operationId: 'ListElementNeighbors',
    tags,
    'x-paginated': false,
    params: idParams,
    response: { 200: neighbors, ...errors(401, 403, 404) },
  };
  app.get<IdParams>('/elements/:id/neighbors/', { schema: listNeighbors }, async (request) => {
    const { element } = await requireElementRight(db, request.user, request.params.id, 'read');
    return elementNeighbors(db, element);
  });

  const retrieveElement = {
    operationId: 'RetrieveElement',
    tags,
    params: idParams,
    response: { 200: elementSchema, ...errors(401, 403, 404) },
  };
  app.get<IdParams>('/element/:id/', { schema: retrieveElement }, async (request, reply) => {
    const found = await requireElementRight(db, request.user, request.params.id, 'read');
    reply.header('last-modified', lastModifiedHeader(found.element.updated));
    return retrieve(request, found);
  });

  /** 412 with the element as it is now when it changed since the version the edit was based on. */
  async function requireUnchanged(request: FastifyRequest, found: ElementAccess): Promise<void> {
    const since = request.headers['if-unmodified-since'];
    if (!changedSince(since, found.element.updated)) return;
    throw preconditionFailed(
      'This element was changed by someone else since your edit was made.',
      await retrieve(request, found),
      found.element.updated,
    );
  }

  async function retrieve(request: FastifyRequest, found: ElementAccess) {
    const row = await elementRowById(db, found.element.id);
    if (!row) throw notFound();
    return elementJson(db, row, requestOrigin(request), found.access.rights, found.access.corpus);
  }

  const updateElementSchema = {
    operationId: 'PartialUpdateElement',
    tags,
    params: idParams,
    body: updateBody,
    response: { 200: elementSchema, ...errors(400, 401, 403, 404, 412) },
  };
  app.patch<IdParams>('/element/:id/', { schema: updateElementSchema }, async (request, reply) => {
    const user = requireUser(request);
    const found = await requireElementRight(db, user, request.params.id, 'write');
    const changes = parse(updateBody, request.body);
    await requireUnchanged(request, found);
    const updated = await updateElement(db, user, found, changes, requestOrigin(request));
    reply.header('last-modified', lastModifiedHeader(updated.updated));
    return updated.json;
  });

  const destroyElementSchema = {
    operationId: 'DestroyElement',
    tags,
    params: idParams,
    querystring: deletionQuery.pick({ delete_children: true }),
    response: { ...deletion, ...errors(400, 401, 403, 404, 412) },
  };
  const deleteOne = { schema: destroyElementSchema };
  app.delete<IdParams>('/element/:id/', deleteOne, async (request, reply) => {
    const user = requireVerified(request);
    const found = await requireElementRight(db, user, request.params.id, 'admin');
    await requireUnchanged(request, found);
    return sendDeletion(reply, await destroyElement(db, user, found, queryValues(request.query)));
  });

  const createElementSchema = {
    operationId: 'CreateElement',
    tags,
    querystring: z.object({
      slim_output: z.boolean().optional().describe('Answer only the new element’s id'),
    }),
    body: createBody,
    response: {
      201: z.union([elementSchema, z.object({ id: uuidSchema })]),
      ...errors(400, 401, 403),
    },
  };
  app.post('/elements/create/', { schema: createElementSchema }, async (request, reply) => {
    const user = requireUser(request);
    const input = parse(createBody, request.body);
    const created = await createElement(db, user, input, requestOrigin(request));
    const slim = new QueryReader(queryValues(request.query)).boolean('slim_output') ?? false;
    // The version later conditional edits of this new element are based on.
    reply.header('last-modified', lastModifiedHeader(created.created));
    return reply.code(201).send(slim ? { id: created.id } : created);
  });

  const moveElementSchema = {
    operationId: 'MoveElement',
    tags,
    body: moveBody,
    response: {
      200: z.object({ source: uuidSchema, destination: uuidSchema }),
      ...errors(400, 401, 403),
    },
  };
  app.post('/element/move/', { schema: moveElementSchema }, async (request) => {
    const user = requireUser(request);
    return moveElement(db, user, parse(moveBody, request.body));
  });

  const createParent = {
    operationId: 'CreateElementParent',
    tags,
    params: linkParams,
    response: { 201: linkParams, ...errors(400, 401, 403, 404) },
  };
  app.post<LinkParams>(
    '/element/:child/parent/:parent/',
    { schema: createParent },
    async (request, reply) => {
      const user = requireUser(request);
      const link = await linkElement(db, user, request.params.child, request.params.parent);
      return reply.code(201).send(link);
    },
  );

  const destroyParent = {
    operationId: 'DestroyElementParent',
    tags,
    params: linkParams,
    response: { 204: noContent, ...errors(400, 401, 403, 404) },
  };
  app.delete<LinkParams>(
    '/element/:child/parent/:parent/',
    { schema: destroyParent },
    async (request, reply) => {
      const user = requireUser(request);
      await unlinkElement(db, user, request.params.child, request.params.parent);
      return reply.code(204).send();
    },
  );

  const listImageElements = {
    operationId: 'ListImageElements',
    tags,
    'x-paginated': true,
    params: idParams,
    querystring: imageElementsQuery,
    response: { 200: elementList, ...errors(400, 401, 403, 404) },
  };
  app.get<IdParams>('/image/:id/elements/', { schema: listImageElements }, async (request) => {
    const { image } = await requireReadableImage(db, request.user, request.params.id);
    const list = await readList(request, 'image', null);
    const corpusIds = readableCorpusIds(db, request.user);
    return listPage(request, list, { kind: 'image', imageId: image.id, corpusIds });
  });

  const retrieveFolderManifest = {
    operationId: 'RetrieveFolderManifest',
    tags: ['iiif'],
    params: idParams,
    response: {
      // JSON-LD when the Accept header asks for it (manifestMediaType.ts), else plain JSON.
      200: {
        description: 'The folder as a IIIF Presentation 2.1 manifest',
        content: {
          'application/json': { schema: iiifManifest },
          'application/ld+json': { schema: iiifManifest },
        },
      },
      ...errors(400, 404),
    },
  };
  app.get<IdParams>('/iiif/:id/manifest/', { schema: retrieveFolderManifest }, async (request) => {
    const { element } = await requireElementRight(db, request.user, request.params.id, 'read');
    const type = await db
      .selectFrom('element_types')
      .select('folder')
      .where('id', '=', element.type_id)
      .executeTakeFirst();
    // Only folders have a manifest, as in Arkindex: other elements are not found there.
    if (type?.folder !== 1) throw notFound();
    const origin = requestOrigin(request);
    const url = `${origin}${request.url.split('?')[0]}`;
    return folderManifest(db, element, url, origin);
  });
}
