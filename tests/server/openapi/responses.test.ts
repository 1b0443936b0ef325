/**
 * The answers of a realistic session over the call groups with full schemas — projects, element
 * types, elements, transcriptions, classifications, metadata, memberships, users, refusals included — each match the
 * response schema the served document declares for its route and status. With
 * FOLIA_CHECK_RECORDED naming a file the suites recorded (FOLIA_RECORD_RESPONSES=<file> on a
 * run of other suites), the answers in it are checked too.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RecordedResponse } from '../../../server/openapi/recorder';
import { Client, createTestUser } from '../harness';
import { makeThrowawayApp, type ThrowawayApp } from '../throwawayApp';
import { servedDocument, type OpenApiDocument } from './document';
import { checkAnswers } from './conformance';
import { UNKNOWN_ID } from '../expectedErrors';
import { makeImage } from '../elementsFixtures';

let t: ThrowawayApp;
const answers: RecordedResponse[] = [];
let document: OpenApiDocument;

beforeAll(async () => {
  t = await makeThrowawayApp('sqlite', {
    label: 'openapi',
    build: { mailer: { send: async () => {} }, onApiResponse: (answer) => answers.push(answer) },
  });
  document = await servedDocument(t.app);
});
afterAll(async () => t?.close());

/** Expects a status, and gives the JSON body. */
async function expectStatus(
  pending: Promise<{ statusCode: number; body: string }>,
  status: number,
): Promise<Record<string, unknown> & { id: string }> {
  const response = await pending;
  expect(response.statusCode, response.body).toBe(status);
  return response.body ? JSON.parse(response.body) : { id: '' };
}

async function session(): Promise<void> {
  const { app } = t;
  const owner = await createTestUser(app, { displayName: 'Owner' });
  const outsider = await createTestUser(app, { displayName: 'Outsider' });
  const api = new Client(app, owner.token);
  const stranger = new Client(app, outsider.token);
  const anonymous = new Client(app);

  // Server, user and session.
  await expectStatus(anonymous.get('/api/v1/'), 200);
  await expectStatus(api.get('user/'), 200);
  await expectStatus(anonymous.get('user/'), 401);
  await expectStatus(api.patch('user/', { display_name: 'The owner' }), 200);
  await expectStatus(api.patch('user/', { display_name: '' }), 400);
  const browser = new Client(app);
  await browser.prime();
  await expectStatus(browser.post('user/login/', { email: owner.email, password: 'nope' }), 400);
  await expectStatus(
    browser.post('user/login/', { email: owner.email, password: owner.password }),
    200,
  );
  await expectStatus(browser.delete('user/'), 204);
  await expectStatus(anonymous.post('user/password-reset/', { email: owner.email }), 201);

  // A project and its types.
  const corpus = await expectStatus(api.post('corpus/', { name: 'Letters' }), 201);
  await expectStatus(api.post('corpus/', {}), 400);
  await expectStatus(api.get('corpus/'), 200);
  await expectStatus(api.get(`corpus/${corpus.id}/`), 200);
  await expectStatus(stranger.get(`corpus/${corpus.id}/`), 404);
  await expectStatus(api.patch(`corpus/${corpus.id}/`, { description: 'Family letters' }), 200);
  const joining = { corpus_id: corpus.id, user_email: outsider.email, level: 10 };
  const member = await expectStatus(api.post('memberships/', joining), 201);
  await expectStatus(api.post('memberships/', { ...joining, level: 7 }), 400);
  await expectStatus(api.get(`corpus/${corpus.id}/memberships/`), 200);
  await expectStatus(api.patch(`membership/${member.id}/`, { level: 50 }), 200);
  await expectStatus(api.delete(`membership/${member.id}/`), 204);
  const type = await expectStatus(
    api.post('elements/type/', { corpus: corpus.id, slug: 'envelope', display_name: 'Envelope' }),
    201,
  );
  await expectStatus(api.get(`elements/type/${type.id}/`), 200);
  await expectStatus(api.patch(`elements/type/${type.id}/`, { color: 'AA00FF' }), 200);
  await expectStatus(api.post('elements/type/', { corpus: corpus.id, slug: '' }), 400);
  await expectStatus(api.delete(`elements/type/${type.id}/`), 204);

  // Elements: a folder, a page on an image, a line in it.
  const image = await makeImage(app, corpus.id);
  const folder = await expectStatus(
    api.post('elements/create/', { corpus: corpus.id, type: 'folder', name: 'Box 1' }),
    201,
  );
  const page = await expectStatus(
    api.post('elements/create/', {
      corpus: corpus.id,
      type: 'page',
      name: '1',
      parent: folder.id,
      image: image.id,
    }),
    201,
  );
  const line = await expectStatus(
    api.post('elements/create/?slim_output=true', {
      corpus: corpus.id,
      type: 'text_line',
      name: 'line 1',
      parent: page.id,
      polygon: [
        [10, 10],
        [10, 50],
        [300, 50],
        [300, 10],
      ],
    }),
    201,
  );
  await expectStatus(api.post('elements/create/', { corpus: corpus.id, type: 'page' }), 400);
  await expectStatus(anonymous.post('elements/create/', {}), 401);
  const lists = [
    `corpus/${corpus.id}/elements/`,
    `corpus/${corpus.id}/elements/?with_classes=true&with_metadata=true&with_corpus=true&with_has_children=true`,
    `corpus/${corpus.id}/elements/?top_level=true&folder=true`,
    `elements/${folder.id}/children/?recursive=true&with_zone=false`,
    `elements/${page.id}/children/`,
    `elements/${line.id}/parents/?recursive=true`,
    `image/${image.id}/elements/`,
  ];
  for (const list of lists) await expectStatus(api.get(list), 200);
  await expectStatus(api.get(`corpus/${corpus.id}/elements/?type=nothing`), 400);
  await expectStatus(api.get(`corpus/${corpus.id}/elements/?page=9`), 404);
  await expectStatus(stranger.get(`corpus/${corpus.id}/elements/`), 404);
  await expectStatus(api.get(`elements/${page.id}/neighbors/`), 200);
  await expectStatus(api.get(`element/${page.id}/`), 200);
  await expectStatus(api.get(`element/${UNKNOWN_ID}/`), 404);
  await expectStatus(api.patch(`element/${page.id}/`, { name: '1r' }), 200);
  await expectStatus(api.patch(`element/${page.id}/`, { rotation_angle: 400 }), 400);
  const other = await expectStatus(
    api.post('elements/create/', { corpus: corpus.id, type: 'folder', name: 'Box 2' }),
    201,
  );
  await expectStatus(api.post(`element/${page.id}/parent/${other.id}/`), 201);
  await expectStatus(api.delete(`element/${page.id}/parent/${other.id}/`), 204);
  await expectStatus(api.post('element/move/', { source: page.id, destination: other.id }), 200);

  // Transcriptions.
  const transcription = await expectStatus(
    api.post(`element/${line.id}/transcription/`, { text: 'Dear Anna,', confidence: 0.9 }),
    201,
  );
  await expectStatus(api.post(`element/${line.id}/transcriptions/`, { text: 'Dear' }), 201);
  await expectStatus(api.post(`element/${line.id}/transcription/`, { text: '' }), 400);
  await expectStatus(stranger.post(`element/${line.id}/transcription/`, { text: 'x' }), 404);
  await expectStatus(api.get(`element/${line.id}/transcriptions/`), 200);
  await expectStatus(api.get(`element/${page.id}/transcriptions/?recursive=true`), 200);
  await expectStatus(api.get(`transcription/${transcription.id}/`), 200);
  await expectStatus(api.patch(`transcription/${transcription.id}/`, { text: 'Dear Ann,' }), 200);
  await expectStatus(api.get(`transcription/${transcription.id}/entities/`), 200);
  const entity = { corpus: corpus.id, name: 'person', color: '00AAFF' };
  const entityType = await expectStatus(api.post('entity/types/', entity), 201);
  await expectStatus(api.post('entity/types/', entity), 400);
  await expectStatus(api.get(`entity/types/${entityType.id}/`), 200);
  await expectStatus(api.patch(`entity/types/${entityType.id}/`, { name: 'people' }), 200);
  await expectStatus(api.get(`corpus/${corpus.id}/entity-types/`), 200);
  await expectStatus(api.delete(`transcription/${transcription.id}/`), 204);
  await expectStatus(api.delete(`entity/types/${entityType.id}/`), 204);

  // Classes and classifications.
  const mlClass = await expectStatus(
    api.post(`corpus/${corpus.id}/classes/`, { name: 'cat' }),
    201,
  );
  await expectStatus(api.get(`corpus/${corpus.id}/classes/`), 200);
  await expectStatus(api.get(`corpus/${corpus.id}/classes/${mlClass.id}/`), 200);
  await expectStatus(
    api.patch(`corpus/${corpus.id}/classes/${mlClass.id}/`, { name: 'kitten' }),
    200,
  );
  const classification = await expectStatus(
    api.post('classifications/', { element: page.id, ml_class: mlClass.id }),
    201,
  );
  await expectStatus(api.post('classifications/', { element: page.id }), 400);
  await expectStatus(api.put(`classifications/${classification.id}/validate/`), 200);
  await expectStatus(api.get(`element/${page.id}/`), 200);
  await expectStatus(api.put(`classifications/${classification.id}/reject/`), 204);
  await expectStatus(api.delete(`corpus/${corpus.id}/classes/${mlClass.id}/`), 204);

  // Metadata, of the names and types the project allows.
  const allowed = `corpus/${corpus.id}/allowed-metadata/`;
  await expectStatus(api.post(allowed, { type: 'text', name: 'folio' }), 201);
  await expectStatus(api.post(allowed, { type: 'date', name: 'date' }), 201);
  await expectStatus(api.get(allowed), 200);
  const folio = { type: 'text', name: 'folio', value: '1r' };
  const metadata = await expectStatus(api.post(`element/${page.id}/metadata/`, folio), 201);
  const dated = { metadata_list: [{ type: 'date', name: 'date', value: '1788-05' }] };
  await expectStatus(api.post(`element/${page.id}/metadata/bulk/`, dated), 201);
  await expectStatus(api.get(`element/${page.id}/metadata/?load_parents=true`), 200);
  await expectStatus(api.get(`metadata/${metadata.id}/`), 200);
  await expectStatus(api.patch(`metadata/${metadata.id}/`, { value: '1v' }), 200);
  await expectStatus(api.post(`element/${page.id}/metadata/`, { ...folio, type: 'nope' }), 400);
  await expectStatus(api.delete(`metadata/${metadata.id}/`), 204);

  // Deletions.
  await expectStatus(api.delete(`element/${line.id}/`), 204);
  await expectStatus(api.delete(`elements/${other.id}/children/`), 204);
  await expectStatus(api.delete(`corpus/${corpus.id}/elements/?type=folder`), 204);
  await expectStatus(stranger.delete(`corpus/${corpus.id}/`), 404);
  await expectStatus(api.delete(`corpus/${corpus.id}/`), 204);
}

it('answers a session over several call groups as the document declares', async () => {
  await session();
  const result = await checkAnswers(document, answers);
  expect(result.mismatches).toEqual([]);
  expect(result.undeclared).toEqual(new Set());
  // Every call above was checked, refusals included.
  expect(result.checked).toBe(answers.length);
  expect(answers.length).toBeGreaterThan(70);
  const statuses = new Set(answers.map((answer) => answer.status));
  for (const status of [200, 201, 204, 400, 401, 404]) expect(statuses).toContain(status);
});

const recorded = process.env.FOLIA_CHECK_RECORDED;
it.runIf(recorded)('answers the recorded suites as the document declares', async () => {
  const lines = fs.readFileSync(recorded!, 'utf8').split('\n').filter(Boolean);
  const result = await checkAnswers(
    document,
    lines.map((line) => JSON.parse(line) as RecordedResponse),
  );
  console.log(
    `${lines.length} answers: ${result.checked} checked, ${result.mismatches.length} mismatches; ` +
      `without response schemas: ${[...result.undeclared].sort().join(', ')}`,
  );
  expect(result.mismatches).toEqual([]);
});
