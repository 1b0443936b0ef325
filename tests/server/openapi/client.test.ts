/**
 * The done criterion of the OpenAPI document: a client that knows only the served document,
 * calling operations by operationId as arkindex-client does, lists a project's elements and
 * creates a transcription on a server running as its own process, with a Token header.
 */
import axios from 'axios';
import { OpenAPIClientAxios } from 'openapi-client-axios';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestUser, makeTestApp, type TestApp } from '../harness';
import { killChildServer, startChildServer, type ChildServer } from '../childProcess';

let t: TestApp;
let server: ChildServer;

beforeAll(async () => {
  t = await makeTestApp('sqlite');
  server = await startChildServer(t.config);
}, 90_000);
afterAll(async () => {
  if (server) await killChildServer(server);
  await t?.close();
});

it('lists elements and creates a transcription by operationId from the served document', async () => {
  const owner = await createTestUser(t.app, { displayName: 'Worker author' });
  const headers = { Authorization: `Token ${owner.token}` };

  // The project the worker reads: set up over plain HTTP, not through the document.
  const http = axios.create({ baseURL: `${server.url}/api/v1/`, headers });
  const corpus = (await http.post('corpus/', { name: 'Registers' })).data;
  const folder = (
    await http.post('elements/create/', { corpus: corpus.id, type: 'folder', name: 'Vol. 1' })
  ).data;
  const page = (
    await http.post('elements/create/', {
      corpus: corpus.id,
      type: 'page',
      name: 'f. 1',
      parent: folder.id,
    })
  ).data;

  const api = new OpenAPIClientAxios({
    definition: `${server.url}/api/v1/openapi/?format=json`,
    axiosConfigDefaults: { baseURL: server.url, headers },
  });
  const client = await api.init();

  const pages = await client.ListElements!({ corpus: corpus.id, type: 'page' });
  expect(pages.status).toBe(200);
  expect(pages.data).toMatchObject({ count: 1, next: null, previous: null });
  expect(pages.data.results.map((element: { id: string }) => element.id)).toEqual([page.id]);

  const children = await client.ListElementChildren!({ id: folder.id, with_has_children: 'true' });
  expect(children.data.results).toEqual([
    expect.objectContaining({ id: page.id, name: 'f. 1', type: 'page', has_children: false }),
  ]);

  const created = await client.CreateTranscription!(
    { id: page.id },
    { text: 'In the year 1788', orientation: 'horizontal-lr', confidence: 0.87 },
  );
  expect(created.status).toBe(201);
  expect(created.data).toMatchObject({ text: 'In the year 1788', confidence: 0.87 });

  const read = await client.RetrieveTranscription!({ id: created.data.id });
  expect(read.data).toMatchObject({
    id: created.data.id,
    text: 'In the year 1788',
    orientation: 'horizontal-lr',
    element: { id: page.id, name: 'f. 1', type: 'page' },
  });
  const listed = await client.ListTranscriptions!({ id: page.id });
  expect(listed.data.results.map((item: { id: string }) => item.id)).toEqual([created.data.id]);
});
