/**
 * ListSecrets, CreateSecret, RetrieveSecret and DestroySecret (enterprise edition; rules and
 * encryption in services/secrets/). Names hold `/`, so one secret's routes end in a wildcard:
 * `GET /secret/ocr/service/key` is Arkindex's RetrieveSecret path.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paginate } from '../../pagination';
import { requireSiteAdmin } from '../../permissions';
import {
  createSecret,
  deleteSecret,
  readableSecret,
  requireSecretsKey,
  reveal,
  secretPages,
} from '../../services/secrets/secrets';
import { parse } from '../../validation';
import { errors, noContent, pageQuery, paginated } from '../../openapi/schemas';

const createBody = z.object({
  name: z.string().trim(),
  content: z.string(),
});

const secretSummary = z
  .object({ id: z.uuid(), name: z.string(), created: z.string(), updated: z.string() })
  .meta({ id: 'SecretSummary' });
const secret = z
  .object({ id: z.uuid(), name: z.string(), content: z.string() })
  .meta({ id: 'Secret' });
const nameParams = z.object({
  '*': z.string().describe("The secret's name, segments joined with /, or its id"),
});

const tags = ['secrets'];
const schemas = {
  ListSecrets: {
    'x-paginated': true,
    querystring: pageQuery,
    response: { 200: paginated(secretSummary), ...errors(401, 403, 404) },
  },
  CreateSecret: {
    body: createBody,
    response: { 201: secretSummary, ...errors(400, 401, 403, 404) },
  },
  RetrieveSecret: {
    params: nameParams,
    response: { 200: secret, ...errors(401, 403, 404) },
  },
  DestroySecret: {
    params: nameParams,
    response: { 204: noContent, ...errors(401, 403, 404) },
  },
};
const schema = <K extends keyof typeof schemas>(operationId: K) => ({
  schema: { operationId, tags, ...schemas[operationId] },
});

type NameParams = { Params: { '*': string } };

export async function secretRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  app.get('/secrets/', schema('ListSecrets'), async (request) => {
    requireSecretsKey(app);
    requireSiteAdmin(request.user);
    return paginate(request, secretPages(db));
  });

  app.post('/secrets/', schema('CreateSecret'), async (request, reply) => {
    const key = requireSecretsKey(app);
    requireSiteAdmin(request.user);
    const input = parse(createBody, request.body);
    return reply.code(201).send(await createSecret(db, key, input));
  });

  app.get<NameParams>('/secret/*', schema('RetrieveSecret'), async (request, reply) => {
    const key = requireSecretsKey(app);
    const value = reveal(key, await readableSecret(db, request, request.params['*']));
    // Not even the browser's private cache keeps a revealed value on disk.
    return reply.header('cache-control', 'no-store').send(value);
  });

  app.delete<NameParams>('/secret/*', schema('DestroySecret'), async (request, reply) => {
    requireSecretsKey(app);
    requireSiteAdmin(request.user);
    await deleteSecret(db, request.params['*']);
    return reply.code(204).send();
  });
}
