/**
 * The served OpenAPI document, read the way clients read it, and the lookups the suites make
 * in it: an operation by method and path, a response schema by status.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

export { documentPath } from '../../../server/openapi/recorder';

export interface Operation {
  operationId?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: object }> }>;
  security?: unknown[];
  [key: `x-${string}`]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, object>;
    securitySchemes: Record<string, Record<string, string>>;
  };
  security?: Record<string, string[]>[];
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export async function servedDocument(app: FastifyInstance): Promise<OpenApiDocument> {
  const response = await app.inject({ method: 'GET', url: '/api/v1/openapi/?format=json' });
  expect(response.statusCode).toBe(200);
  return response.json() as OpenApiDocument;
}

export function operationAt(
  document: OpenApiDocument,
  method: string,
  path: string,
): Operation | undefined {
  return document.paths[path]?.[method.toLowerCase()];
}

export function everyOperation(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );
}
