/**
 * The OpenAPI 3 document of the API, generated from the routes themselves: each route declares
 * its params, querystring, body and responses as zod schemas in its Fastify `schema`, with
 * Arkindex's `operationId` and tags; @fastify/swagger collects them and
 * fastify-type-provider-zod turns the zod schemas into JSON schemas. Served at
 * GET /api/v1/openapi/ (YAML, or JSON with `?format=json`, as Arkindex's own clients fetch it)
 * and browsable at /api/v1/docs/.
 *
 * The schemas describe; they do not validate. Fastify would check a body before the handler
 * runs, answering a 400 where the caller should first learn it may not act at all (401, 403,
 * 404), and in its own words. So every request part is accepted here, handlers keep parsing
 * with `parse()` (validation.ts) using the same zod object their schema declares, and answers
 * keep going out as JSON.stringify writes them.
 */
import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { VERSION } from '../config';
import { operationFor } from './operations';

export const DOCS_PATH = '/docs';

const DESCRIPTION = [
  "Folia's API speaks Arkindex's: the same paths, operation ids, pagination and errors, so",
  'Arkindex clients (arkindex-client, arkindex-base-worker) can use it.',
  '',
  'Authenticate scripts with `Authorization: Token <key>` (the key is `auth_token` in',
  '`GET /api/v1/user/`). Browsers use the session cookie; their unsafe requests also send the',
  'CSRF cookie back in the `X-CSRFToken` header.',
].join('\n');

type PathItem = Record<string, { responses?: Record<string, { content?: unknown }> }>;

/**
 * 204 and 304 answers carry no body, nor those declared `withoutBody()`: their responses say so
 * (zod has no "nothing" schema).
 */
function withoutBodies(document: { paths?: Record<string, PathItem> }): void {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const schema = (response.content as Record<string, { schema?: object }> | undefined)?.[
          'application/json'
        ]?.schema;
        const marked = !!schema && 'x-no-body' in schema;
        if (status === '204' || status === '304' || marked) delete response.content;
      }
    }
  }
}

/**
 * Registers the document generator and the documentation page. Call before any route is
 * registered: the generator collects routes as they are added.
 */
export async function openApiPlugin(app: FastifyInstance, apiPrefix: string): Promise<void> {
  // Every request part accepted: handlers check rights first, then parse (see above).
  app.setValidatorCompiler(() => () => true);
  // Byte for byte what Fastify sends for a route without a response schema.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Folia API', version: VERSION, description: DESCRIPTION },
      components: {
        securitySchemes: {
          tokenAuth: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'An API token, as `Token <key>`.',
          },
          sessionAuth: {
            type: 'apiKey',
            in: 'cookie',
            name: 'folia_session',
            description: 'The session cookie a browser gets at login.',
          },
        },
      },
      // Anonymous calls are allowed where the data is public: `{}` says so.
      security: [{ tokenAuth: [] }, { sessionAuth: [] }, {}],
    },
    transform(document) {
      const { url, route } = document;
      // Only the API: IIIF image URLs, the app shell and the docs page are not operations.
      if (!url.startsWith(`${apiPrefix}/`) || url.startsWith(`${apiPrefix}${DOCS_PATH}`)) {
        return { schema: { hide: true }, url };
      }
      const method = String(Array.isArray(route.method) ? route.method[0] : route.method);
      const schema = operationFor(method, url, document.schema as Record<string, unknown>);
      return jsonSchemaTransform({ ...document, schema } as Parameters<
        typeof jsonSchemaTransform
      >[0]);
    },
    transformObject(documentObject) {
      const document = jsonSchemaTransformObject(documentObject);
      withoutBodies(document as unknown as { paths?: Record<string, PathItem> });
      return document;
    },
  });

  await app.register(fastifySwaggerUi, {
    routePrefix: `${apiPrefix}${DOCS_PATH}`,
    uiConfig: { deepLinking: true, docExpansion: 'none' },
  });
}
