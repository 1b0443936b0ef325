import SwaggerParser from '@apidevtools/swagger-parser';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../harness';
import {
  HTTP_METHODS,
  documentPath,
  everyOperation,
  operationAt,
  servedDocument,
  type OpenApiDocument,
} from './document';

let t: TestApp;
let document: OpenApiDocument;

beforeAll(async () => {
  t = await makeTestApp('sqlite');
  document = await servedDocument(t.app);
});
afterAll(async () => t?.close());

describe('GET /api/v1/openapi/', () => {
  it('serves JSON with ?format=json that a maintained OpenAPI validator accepts', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/openapi/?format=json' });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(document.openapi).toBe('3.0.3');
    // validate() resolves references in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('serves the same document as YAML by default, which validates too', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/openapi/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/yaml/);
    const parsed = YAML.parse(response.body) as OpenApiDocument;
    expect(parsed).toEqual(document);
    await expect(SwaggerParser.validate(parsed as never)).resolves.toBeTruthy();
  });

  it('names every registered API route with an operationId, each one unique', () => {
    expect(t.app.apiRoutes.length).toBeGreaterThan(100);
    const missing = t.app.apiRoutes.filter(
      (route) => !operationAt(document, route.method, documentPath(route.url))?.operationId,
    );
    expect(missing).toEqual([]);
    const routes = new Set(
      t.app.apiRoutes.map((route) => `${route.method} ${documentPath(route.url)}`),
    );
    const ids = everyOperation(document).map(({ operation }) => operation.operationId);
    expect(ids.length).toBe(routes.size);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents only API operations, each with tags', () => {
    for (const { path, operation } of everyOperation(document)) {
      expect(path).toMatch(/^\/api\/v1\//);
      expect(operation.tags?.length, path).toBeGreaterThan(0);
    }
    expect(Object.keys(document.paths).some((path) => path.startsWith('/api/v1/docs'))).toBe(false);
  });

  it('has what arkindex-client reads: operations only in path items, named parameters', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      // The client looks every value of a path item up as an operation with an operationId.
      for (const key of Object.keys(item)) expect(HTTP_METHODS, `${path} ${key}`).toContain(key);
      for (const operation of Object.values(item)) {
        const declared = (operation.parameters ?? []).filter((p) => p.in === 'path');
        const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
        expect(declared.map((p) => p.name).sort(), path).toEqual(inPath.sort());
        for (const parameter of operation.parameters ?? []) {
          expect(['path', 'query', 'header', 'cookie']).toContain(parameter.in);
        }
      }
    }
  });

  it('keeps to the keys arkindex-client’s strict OpenAPI reader accepts', () => {
    // Its reader (apistar's) refuses an object with a key it does not list, x- extensions aside.
    const allowed = {
      operation: ['tags', 'summary', 'description', 'externalDocs', 'operationId', 'parameters'],
      operationMore: ['requestBody', 'responses', 'deprecated', 'security', 'servers'],
      parameter: ['name', 'in', 'description', 'required', 'deprecated', 'allowEmptyValue'],
      parameterMore: ['style', 'schema', 'example'],
      response: ['description', 'content', 'headers'],
      requestBody: ['description', 'content', 'required'],
      mediaType: ['schema', 'example'],
    };
    const unknownKeys = (object: object, keys: string[]) =>
      Object.keys(object).filter((key) => !keys.includes(key) && !key.startsWith('x-'));
    for (const { path, operation } of everyOperation(document)) {
      const where = `${path} ${operation.operationId}`;
      const operationKeys = [...allowed.operation, ...allowed.operationMore];
      expect(unknownKeys(operation, operationKeys), where).toEqual([]);
      for (const parameter of operation.parameters ?? []) {
        const keys = [...allowed.parameter, ...allowed.parameterMore];
        expect(unknownKeys(parameter, keys), where).toEqual([]);
      }
      if (operation.requestBody) {
        expect(unknownKeys(operation.requestBody, allowed.requestBody), where).toEqual([]);
      }
      for (const response of Object.values(operation.responses)) {
        expect(unknownKeys(response, allowed.response), where).toEqual([]);
        for (const media of Object.values(response.content ?? {})) {
          expect(unknownKeys(media, allowed.mediaType), where).toEqual([]);
        }
      }
    }
    // Its JSON schema reader wants `required` lists that are not empty and boolean exclusive
    // bounds (OpenAPI 3.0's, not JSON Schema's later numbers).
    const text = JSON.stringify(document);
    expect(text).not.toContain('"required":[]');
    expect(text).not.toMatch(/"exclusive(Minimum|Maximum)":\d/);
  });

  it('uses the Arkindex operation ids and parameter names the official clients call', () => {
    const expected: [string, string, string][] = [
      ['ListElements', 'get', '/api/v1/corpus/{corpus}/elements/'],
      ['ListElementChildren', 'get', '/api/v1/elements/{id}/children/'],
      ['ListElementParents', 'get', '/api/v1/elements/{id}/parents/'],
      ['RetrieveElement', 'get', '/api/v1/element/{id}/'],
      ['CreateElement', 'post', '/api/v1/elements/create/'],
      ['CreateElements', 'post', '/api/v1/element/{id}/children/bulk/'],
      ['CreateElementParent', 'post', '/api/v1/element/{child}/parent/{parent}/'],
      ['CreateTranscription', 'post', '/api/v1/element/{id}/transcription/'],
      ['CreateElementTranscriptions', 'post', '/api/v1/element/{id}/transcriptions/bulk/'],
      ['ListTranscriptions', 'get', '/api/v1/element/{id}/transcriptions/'],
      ['CreateClassification', 'post', '/api/v1/classifications/'],
      ['CreateClassifications', 'post', '/api/v1/classification/bulk/'],
      ['ListCorpusMLClasses', 'get', '/api/v1/corpus/{id}/classes/'],
      ['RetrieveCorpus', 'get', '/api/v1/corpus/{id}/'],
      ['ListCorpus', 'get', '/api/v1/corpus/'],
      ['Login', 'post', '/api/v1/user/login/'],
      ['RetrieveUser', 'get', '/api/v1/user/'],
    ];
    for (const [operationId, method, path] of expected) {
      expect(operationAt(document, method, path)?.operationId, path).toBe(operationId);
    }
  });

  it('declares the list filters, bodies and paginated answers of the element calls', () => {
    const list = operationAt(document, 'get', '/api/v1/corpus/{corpus}/elements/')!;
    const query = list.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
    expect(query).toEqual(
      expect.arrayContaining(['page', 'page_size', 'type', 'name', 'folder', 'with_classes']),
    );
    expect(list['x-paginated']).toBe(true);
    const page = list.responses['200']!.content!['application/json']!.schema as {
      required: string[];
    };
    expect(page.required).toEqual(['count', 'number', 'next', 'previous', 'results']);
    for (const status of ['400', '401', '403', '404']) {
      expect(list.responses[status]!.content!['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/Error',
      });
    }
    const create = operationAt(document, 'post', '/api/v1/element/{id}/transcription/')!;
    const body = create.requestBody!.content!['application/json']!.schema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['text', 'orientation', 'confidence', 'worker_run_id']),
    );
    expect(body.required).toEqual(['text']);
  });

  it('declares the Token header and the session cookie as security schemes', () => {
    expect(document.components.securitySchemes.tokenAuth).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    expect(document.components.securitySchemes.sessionAuth).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'folia_session',
    });
    expect(document.security).toEqual([{ tokenAuth: [] }, { sessionAuth: [] }, {}]);
    expect(operationAt(document, 'post', '/api/v1/user/login/')!.security).toEqual([]);
  });
});

describe('/api/v1/docs/', () => {
  it('serves the browsable page and the assets it loads', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="\.\/(static\/[^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(assets).toEqual(expect.arrayContaining(['static/swagger-ui.css']));
    for (const asset of assets) {
      const response = await t.app.inject({ method: 'GET', url: `/api/v1/docs/${asset}` });
      expect(response.statusCode, asset).toBe(200);
    }
    const json = await t.app.inject({ method: 'GET', url: '/api/v1/docs/json' });
    expect(json.json()).toEqual(document);
  });
});
