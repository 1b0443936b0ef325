/**
 * ML classes and classifications (spec 001 §7 "Classifications", spec 000 §7 "Corpus"):
 * ListCorpusMLClasses, CreateMLClass, Retrieve/PartialUpdate/DestroyMLClass,
 * CreateClassification, Validate/RejectClassification and ClassificationSelection (on the
 * caller's stored selection, routes/selection.ts). Rights come
 * from permissions.ts before any body is read; rules live in services/classifications.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser, requireVerified } from '../auth/plugin';
import { paginate } from '../pagination';
import { requireCorpusRight } from '../permissions';
import {
  CLASS_NAME_MAX,
  classifySelection,
  createClassification,
  createMlClass,
  deleteMlClass,
  mlClassJson,
  mlClassSource,
  rejectClassification,
  renameMlClass,
  requireClassificationRight,
  requireMlClassRight,
  validateClassification,
} from '../services/classifications';
import { selectionDisabled } from '../services/selection';
import { validationError } from '../errors';
import { QueryReader, queryValues } from '../services/elements/filters';
import { parse, text, uuidSchema } from '../validation';
import { bulkList } from '../services/bulk';
import { createClassificationsBulk } from '../services/bulkClassifications';
import {
  classification,
  errors,
  idParams,
  mlClass,
  noContent,
  pageQuery,
  paginated,
} from '../openapi/schemas';

const classBody = z.object({ name: text(CLASS_NAME_MAX) });
const classUpdateBody = z.object({ name: text(CLASS_NAME_MAX).optional() });

const classificationBody = z.object({
  element: uuidSchema,
  ml_class: uuidSchema,
  worker_run_id: uuidSchema.nullable().optional(),
  confidence: z.number().min(0).max(1).nullable().optional(),
  high_confidence: z.boolean().optional(),
});

// The elements are the caller's stored selection in the project (services/selection.ts).
const selectionBody = z.object({
  mode: z.enum(['create', 'validate']),
  corpus_id: uuidSchema,
  ml_class: uuidSchema.nullable().optional(),
  ids: z.unknown().optional(),
});

const SELECTION_IDS_REFUSED =
  'The elements are those of your selection in the project: add them with POST /elements/selection/.';

// CreateClassifications: a worker run's classifications of one element, each with a confidence.
const bulkBody = z.object({
  parent: uuidSchema,
  worker_run_id: uuidSchema,
  classifications: bulkList(
    z.object({
      ml_class: uuidSchema,
      confidence: z.number().min(0).max(1),
      high_confidence: z.boolean().default(false),
    }),
  ),
});

type IdParams = { Params: { id: string } };
type ClassParams = { Params: { id: string; classId: string } };

const tags = ['classifications'];
const classParams = z.object({ id: uuidSchema, classId: uuidSchema });

const listClasses = {
  operationId: 'ListCorpusMLClasses',
  tags,
  'x-paginated': true,
  params: idParams,
  querystring: pageQuery.extend({
    search: z.string().optional().describe('Part of the name, whatever the case'),
  }),
  response: { 200: paginated(mlClass), ...errors(401, 403, 404) },
};
const createClass = {
  operationId: 'CreateMLClass',
  tags,
  params: idParams,
  body: classBody,
  response: { 201: mlClass, ...errors(400, 401, 403, 404) },
};
const retrieveClass = {
  operationId: 'RetrieveMLClass',
  tags,
  params: classParams,
  response: { 200: mlClass, ...errors(401, 403, 404) },
};
const updateClass = {
  operationId: 'PartialUpdateMLClass',
  tags,
  params: classParams,
  body: classUpdateBody,
  response: { 200: mlClass, ...errors(400, 401, 403, 404) },
};
const destroyClass = {
  operationId: 'DestroyMLClass',
  tags,
  params: classParams,
  response: { 204: noContent, ...errors(400, 401, 403, 404) },
};
const createClassificationSchema = {
  operationId: 'CreateClassification',
  tags,
  body: classificationBody,
  response: { 201: classification, ...errors(400, 401, 403) },
};
const createClassificationsSchema = {
  operationId: 'CreateClassifications',
  tags,
  body: bulkBody,
  response: {
    201: z.object({
      parent: uuidSchema,
      worker_run_id: uuidSchema,
      classifications: z.array(
        z.object({
          id: uuidSchema,
          ml_class: uuidSchema,
          confidence: z.number(),
          high_confidence: z.boolean(),
          state: z.enum(['pending', 'validated', 'rejected']),
        }),
      ),
    }),
    ...errors(400, 401, 403),
  },
};
const validate = {
  operationId: 'ValidateClassification',
  tags,
  params: idParams,
  response: { 200: classification, ...errors(401, 403, 404) },
};
const reject = {
  operationId: 'RejectClassification',
  tags,
  params: idParams,
  response: { 200: classification, 204: noContent, ...errors(401, 403, 404) },
};
const selection = {
  operationId: 'ClassificationSelection',
  tags,
  body: selectionBody,
  response: {
    201: z.object({
      mode: z.enum(['create', 'validate']),
      corpus_id: uuidSchema,
      ml_class: uuidSchema.nullable(),
      ids: z.array(uuidSchema),
      count: z.number().int(),
    }),
    ...errors(400, 401, 403, 404),
  },
};

export async function classificationRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get<IdParams>('/corpus/:id/classes/', { schema: listClasses }, async (request) => {
    const { corpus } = await requireCorpusRight(db, request.user, request.params.id, 'read');
    const search = new QueryReader(queryValues(request.query)).string('search')?.trim();
    return paginate(request, mlClassSource(db, corpus.id, search || undefined));
  });

  app.post<IdParams>('/corpus/:id/classes/', { schema: createClass }, async (request, reply) => {
    const user = requireUser(request);
    const access = await requireCorpusRight(db, user, request.params.id, 'admin');
    const { name } = parse(classBody, request.body);
    return reply.code(201).send(await createMlClass(db, access, name));
  });

  app.get<ClassParams>(
    '/corpus/:id/classes/:classId/',
    { schema: retrieveClass },
    async (request) => {
      const { id, classId } = request.params;
      const { mlClass } = await requireMlClassRight(db, request.user, id, classId, 'read');
      return mlClassJson(mlClass);
    },
  );

  app.patch<ClassParams>(
    '/corpus/:id/classes/:classId/',
    { schema: updateClass },
    async (request) => {
      const user = requireUser(request);
      const { id, classId } = request.params;
      const found = await requireMlClassRight(db, user, id, classId, 'admin');
      const { name } = parse(classUpdateBody, request.body);
      return renameMlClass(db, found, name);
    },
  );

  app.delete<ClassParams>(
    '/corpus/:id/classes/:classId/',
    { schema: destroyClass },
    async (request, reply) => {
      const user = requireUser(request);
      const { id, classId } = request.params;
      await deleteMlClass(db, await requireMlClassRight(db, user, id, classId, 'admin'));
      return reply.code(204).send();
    },
  );

  app.post('/classifications/', { schema: createClassificationSchema }, async (request, reply) => {
    const user = requireUser(request);
    const input = parse(classificationBody, request.body);
    return reply.code(201).send(await createClassification(db, user, input));
  });

  app.post(
    '/classification/bulk/',
    { schema: createClassificationsSchema },
    async (request, reply) => {
      const user = requireUser(request);
      const input = parse(bulkBody, request.body);
      return reply.code(201).send(await createClassificationsBulk(db, user, input));
    },
  );

  app.put<IdParams>('/classifications/:id/validate/', { schema: validate }, async (request) => {
    const user = requireUser(request);
    const found = await requireClassificationRight(db, user, request.params.id, 'write');
    return validateClassification(db, user, found);
  });

  app.put<IdParams>('/classifications/:id/reject/', { schema: reject }, async (request, reply) => {
    const user = requireUser(request);
    const found = await requireClassificationRight(db, user, request.params.id, 'write');
    const rejected = await rejectClassification(db, user, found);
    // A manual classification is deleted: the panel reads the 204 as such.
    return rejected ? rejected : reply.code(204).send();
  });

  app.post('/classifications/selection/', { schema: selection }, async (request, reply) => {
    const user = requireVerified(request);
    if (!app.config.features.selection) throw selectionDisabled();
    const { ids, ...input } = parse(selectionBody, request.body);
    // An earlier version of this call took the elements in `ids`: a client still sending them
    // would otherwise act on another list than the one it means.
    if (ids !== undefined) throw validationError('ids', SELECTION_IDS_REFUSED);
    return reply.code(201).send(await classifySelection(db, user, input));
  });
}
