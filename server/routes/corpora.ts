import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/plugin';
import { requireCanCreateCorpus, requireCorpusRight } from '../permissions';
import {
  corpusJson,
  createCorpus,
  deleteCorpus,
  listCorpora,
  updateCorpus,
} from '../services/corpora';
import { parse, text } from '../validation';
import { corpus, errors, idParams, noContent } from '../openapi/schemas';

const createBody = z.object({
  name: text(100),
  description: z.string().default(''),
  public: z.boolean().default(false),
});

const updateBody = z.object({
  name: text(100).optional(),
  description: z.string().optional(),
  public: z.boolean().optional(),
  indexable: z.boolean().optional(),
  top_level_type: z.string().nullable().optional(),
});

type IdParams = { Params: { id: string } };

const tags = ['corpora'];

const listCorpus = {
  operationId: 'ListCorpus',
  tags,
  'x-paginated': false,
  response: { 200: z.array(corpus) },
};
const createCorpusSchema = {
  operationId: 'CreateCorpus',
  tags,
  body: createBody,
  response: { 201: corpus, ...errors(400, 401, 403) },
};
const retrieveCorpus = {
  operationId: 'RetrieveCorpus',
  tags,
  params: idParams,
  response: { 200: corpus, ...errors(401, 403, 404) },
};
const updateCorpusSchema = {
  operationId: 'PartialUpdateCorpus',
  tags,
  params: idParams,
  body: updateBody,
  response: { 200: corpus, ...errors(400, 401, 403, 404) },
};
const destroyCorpus = {
  operationId: 'DestroyCorpus',
  tags,
  params: idParams,
  response: { 204: noContent, ...errors(401, 403, 404) },
};

/**
 * ListCorpus, CreateCorpus, RetrieveCorpus, PartialUpdateCorpus, DestroyCorpus. Rights are
 * checked before the body is read, so a caller without them learns nothing from validation.
 */
export async function corpusRoutes(app: FastifyInstance): Promise<void> {
  app.get('/corpus/', { schema: listCorpus }, async (request) => listCorpora(app.db, request.user));

  app.post('/corpus/', { schema: createCorpusSchema }, async (request, reply) => {
    const user = requireUser(request);
    requireCanCreateCorpus(user);
    const input = parse(createBody, request.body);
    return reply.code(201).send(await createCorpus(app.db, user, input));
  });

  app.get<IdParams>('/corpus/:id/', { schema: retrieveCorpus }, async (request) => {
    const { corpus, rights } = await requireCorpusRight(
      app.db,
      request.user,
      request.params.id,
      'read',
    );
    return corpusJson(app.db, corpus, rights);
  });

  app.patch<IdParams>('/corpus/:id/', { schema: updateCorpusSchema }, async (request) => {
    const user = requireUser(request);
    const access = await requireCorpusRight(app.db, user, request.params.id, 'admin');
    return updateCorpus(app.db, access, parse(updateBody, request.body));
  });

  app.delete<IdParams>('/corpus/:id/', { schema: destroyCorpus }, async (request, reply) => {
    const user = requireUser(request);
    await deleteCorpus(app.db, await requireCorpusRight(app.db, user, request.params.id, 'admin'));
    return reply.code(204).send();
  });
}
