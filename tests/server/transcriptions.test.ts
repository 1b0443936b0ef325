import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../server/imports/execute';
import { describeEachDialect } from './harness';
import {
  clientFor,
  makeActors,
  makeActorsAndProjects,
  makeCorpus,
  type Actors,
  type Role,
} from './actors';
import {
  INVALID_PAGE,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
  invalidPk,
  validation,
} from './expectedErrors';
import { insertElements } from './elementsFixtures';
import { makeWorkerRun } from './workerRunFixtures';

const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');
const ADMIN_TO_DELETE = denied(
  'An admin right on the project is required to delete a transcription with a worker run.',
);
const MADE_BY_WORKER_RUN = validation(
  'non_field_errors',
  'A transcription made by a worker run cannot be edited: copy it into a manual transcription instead.',
  'made_by_worker_run',
);
const USED_BY_ENTITIES = validation(
  'non_field_errors',
  'A transcription used by entities cannot be edited.',
  'has_entities',
);
const CHANGED = 'This transcription was changed by someone else since your edit was made.';
const SUMMARY = 'Worker Fake worker @ 123412';

/** Who may not write in a project, and what each is answered. */
const REFUSED_TO_READERS = [
  ['anonymous', 'private', 401, NOT_AUTHENTICATED],
  ['anonymous', 'public', 401, NOT_AUTHENTICATED],
  ['guest', 'private', 403, NOT_CONTRIBUTOR],
  ['outsider', 'private', 404, NOT_FOUND],
  ['outsider', 'public', 403, NOT_CONTRIBUTOR],
] as const;

const anHourAgo = () => new Date(Date.now() - 3600_000).toUTCString();

describeEachDialect('transcriptions', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let otherId: string;
  /** Elements by name, in the private project unless named "Public …". */
  let ids: Record<string, string>;
  let runId: string;
  let otherRunId: string;
  let personId: string;
  let placeId: string;
  let otherTypeId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);
  const projectOf = (which: 'private' | 'public') => (which === 'private' ? 'Page' : 'Public page');

  async function create(
    elementId: string,
    body: Record<string, unknown>,
    role: Role = 'contributor',
  ): Promise<Record<string, unknown> & { id: string }> {
    const response = await as(role).post(`element/${elementId}/transcription/`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  async function transcriptionCount(elementId: string): Promise<number> {
    const rows = await t()
      .app.db.selectFrom('transcriptions')
      .select('id')
      .where('element_id', '=', elementId)
      .execute();
    return rows.length;
  }

  async function makeEntityType(corpusId: string, name: string, color = 'ff0000') {
    const id = randomUUID();
    await t()
      .app.db.insertInto('entity_types')
      .values({ id, corpus_id: corpusId, name, color })
      .execute();
    return id;
  }

  async function addEntities(transcriptionId: string, entities: unknown[], extra = {}) {
    return as('contributor').post(`transcription/${transcriptionId}/entities/bulk/`, {
      transcription_entities: entities,
      ...extra,
    });
  }

  beforeAll(async () => {
    const { app } = t();
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app, {
      private: 'Letters',
      public: 'Open letters',
    }));
    otherId = await makeCorpus(app, actors, { name: 'Elsewhere' });
    ids = {
      ...(await insertElements(app, privateId, [
        { name: 'Volume', type: 'folder' },
        { name: 'Page', type: 'page', parent: 'Volume' },
        { name: 'Line 1', type: 'text_line', parent: 'Page' },
        { name: 'Line 2', type: 'text_line', parent: 'Page' },
        { name: 'Listed', type: 'page' },
        { name: 'Scratch', type: 'page' },
      ])),
      ...(await insertElements(app, publicId, [{ name: 'Public page', type: 'page' }])),
    };
    runId = (await makeWorkerRun(app, privateId)).id;
    otherRunId = (await makeWorkerRun(app, otherId)).id;
    personId = await makeEntityType(privateId, 'person', '00ff00');
    placeId = await makeEntityType(privateId, 'place');
    otherTypeId = await makeEntityType(otherId, 'person');
    await makeEntityType(publicId, 'date', '0000ff');
  });

  describe('POST /element/{id}/transcription/', () => {
    it('creates a manual transcription, dated, and lists it', async () => {
      const response = await as('contributor').post(`element/${ids['Listed']}/transcription/`, {
        text: '  Dear Sir, ',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.stringMatching(UUID),
        text: 'Dear Sir,',
        confidence: null,
        orientation: 'horizontal-lr',
        worker_run: null,
        element: { id: ids['Listed'], name: 'Listed', type: 'page' },
        entity_count: 0,
      });
      const lastModified = response.headers['last-modified'] as string;
      expect(new Date(lastModified).toUTCString()).toBe(lastModified);
      const listed = await as('guest').get(`element/${ids['Listed']}/transcriptions/`);
      expect(listed.json().results).toEqual([response.json()]);
    });

    it.each(['horizontal-lr', 'horizontal-rl', 'vertical-lr', 'vertical-rl'])(
      'keeps the orientation %s and a confidence',
      async (orientation) => {
        const created = await create(ids['Scratch']!, {
          text: 'ab',
          orientation,
          confidence: 0.25,
        });
        expect(created).toMatchObject({ orientation, confidence: 0.25 });
      },
    );

    it('answers the same on the list path, as the spec calls it', async () => {
      const response = await as('contributor').post(`element/${ids['Scratch']}/transcriptions/`, {
        text: 'Copied text',
        orientation: 'horizontal-rl',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ text: 'Copied text', worker_run: null });
      expect(response.headers['last-modified']).toBeDefined();
    });

    it("attributes a transcription to a worker run of the project, with the run's summary", async () => {
      const created = await create(ids['Scratch']!, {
        text: 'Recognised',
        confidence: 0.9,
        worker_run_id: runId.toUpperCase(),
      });
      expect(created.worker_run).toEqual({ id: runId, summary: SUMMARY });
    });

    it.each([
      ['of another project', () => otherRunId],
      ['unknown', () => UNKNOWN_ID],
    ])('refuses a worker run %s as an unknown one', async (_label, id) => {
      const before = await transcriptionCount(ids['Scratch']!);
      const response = await as('owner').post(`element/${ids['Scratch']}/transcription/`, {
        text: 'x',
        worker_run_id: id(),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidPk('worker_run_id', id()));
      expect(await transcriptionCount(ids['Scratch']!)).toBe(before);
    });

    it.each([
      [{}, validation('text', 'This field is required.', 'required')],
      [{ text: null }, validation('text', 'This field may not be null.', 'null')],
      [{ text: ' \n ' }, validation('text', 'This field may not be blank.', 'blank')],
      [{ text: 12 }, validation('text', 'Not a valid string.')],
      [{ text: 'a\u0000b' }, validation('text', 'Null characters are not allowed.')],
      [
        { text: 'x', orientation: 'diagonal' },
        validation('orientation', '"diagonal" is not a valid choice.', 'invalid_choice'),
      ],
      [
        { text: 'x', confidence: 1.5 },
        validation('confidence', 'Ensure this value is less than or equal to 1.', 'max_value'),
      ],
      [
        { text: 'x', confidence: -0.1 },
        validation('confidence', 'Ensure this value is greater than or equal to 0.', 'min_value'),
      ],
      [{ text: 'x', worker_run_id: 'nope' }, validation('worker_run_id', 'Must be a valid UUID.')],
      [
        ['text'],
        validation('non_field_errors', 'Invalid data. Expected a dictionary, but got list.'),
      ],
    ])('answers 400 to %j and stores nothing', async (body, expected) => {
      const before = await transcriptionCount(ids['Scratch']!);
      const response = await as('contributor').post(
        `element/${ids['Scratch']}/transcription/`,
        body,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
      expect(await transcriptionCount(ids['Scratch']!)).toBe(before);
    });

    it('answers 400 to malformed JSON', async () => {
      const response = await as('contributor').post(
        `element/${ids['Scratch']}/transcription/`,
        '{"text": ',
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        type: 'client_error',
        errors: [{ code: 'parse_error', attr: null }],
      });
    });

    it('accepts a text up to 100,000 characters and no longer', async () => {
      const created = await create(ids['Scratch']!, { text: 'x'.repeat(100_000) });
      expect((created.text as string).length).toBe(100_000);
      const before = await transcriptionCount(ids['Scratch']!);
      const response = await as('contributor').post(`element/${ids['Scratch']}/transcription/`, {
        text: 'x'.repeat(100_001),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        validation('text', 'Ensure this field has no more than 100000 characters.', 'max_length'),
      );
      expect(await transcriptionCount(ids['Scratch']!)).toBe(before);
    });

    it.each(REFUSED_TO_READERS)(
      'answers %s on a %s project with %i',
      async (role, which, status, expected) => {
        const elementId = ids[projectOf(which)]!;
        const before = await transcriptionCount(elementId);
        const response = await as(role).post(`element/${elementId}/transcription/`, {
          text: 'Intruder',
        });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect(await transcriptionCount(elementId)).toBe(before);
      },
    );

    it.each(['contributor', 'owner', 'siteAdmin'] as const)('lets %s create one', async (role) => {
      await create(ids['Scratch']!, { text: `By ${role}` }, role);
    });

    it.each(['not-a-uuid', UNKNOWN_ID])('answers 404 for the element %s', async (id) => {
      const response = await as('siteAdmin').post(`element/${id}/transcription/`, { text: 'x' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('GET /element/{id}/transcriptions/', () => {
    let manualPage: string;
    let runPage: string;
    let manualLine: string;

    beforeAll(async () => {
      manualPage = (await create(ids['Page']!, { text: 'Page text' })).id;
      runPage = (await create(ids['Page']!, { text: 'Page by worker', worker_run_id: runId })).id;
      manualLine = (await create(ids['Line 1']!, { text: 'First line' })).id;
      const runLine = (await create(ids['Line 2']!, { text: 'Second line', worker_run_id: runId }))
        .id;
      // Creation dates a second apart, so the order does not rest on the clock's resolution.
      for (const [index, id] of [manualPage, runPage, manualLine, runLine].entries()) {
        await t()
          .app.db.updateTable('transcriptions')
          .set({ created: `2024-01-01T00:00:0${index}.000Z` })
          .where('id', '=', id)
          .execute();
      }
    });

    it("lists the element's own transcriptions, oldest first, paginated", async () => {
      const response = await as('guest').get(`element/${ids['Page']}/transcriptions/`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ count: 2, number: 1, next: null, previous: null });
      expect(body.results.map((r: { id: string }) => r.id)).toEqual([manualPage, runPage]);
      expect(body.results[1]).toEqual({
        id: runPage,
        text: 'Page by worker',
        confidence: null,
        orientation: 'horizontal-lr',
        worker_run: { id: runId, summary: SUMMARY },
        element: { id: ids['Page'], name: 'Page', type: 'page' },
        entity_count: 0,
      });

      const first = (
        await as('guest').get(`element/${ids['Page']}/transcriptions/?page_size=1`)
      ).json();
      expect(first.results.map((r: { id: string }) => r.id)).toEqual([manualPage]);
      expect(first.next).toMatch(/page=2/);
      const past = await as('guest').get(`element/${ids['Page']}/transcriptions/?page=3`);
      expect(past.statusCode).toBe(404);
      expect(past.json()).toEqual(INVALID_PAGE);
    });

    it('includes the transcriptions of every element below with recursive', async () => {
      const response = await as('guest').get(
        `element/${ids['Volume']}/transcriptions/?recursive=true`,
      );
      const texts = response.json().results.map((r: { text: string }) => r.text);
      expect(texts).toEqual(['Page text', 'Page by worker', 'First line', 'Second line']);
      const line = response.json().results[2];
      expect(line).toMatchObject({
        id: manualLine,
        element: { id: ids['Line 1'], name: 'Line 1', type: 'text_line' },
      });
      const notRecursive = await as('guest').get(`element/${ids['Volume']}/transcriptions/`);
      expect(notRecursive.json().count).toBe(0);
    });

    it('filters by element type and by worker run, or manual ones with false', async () => {
      const base = `element/${ids['Volume']}/transcriptions/?recursive=yes`;
      const texts = async (query: string) =>
        (await as('guest').get(`${base}&${query}`))
          .json()
          .results.map((r: { text: string }) => r.text);
      expect(await texts('element_type=text_line')).toEqual(['First line', 'Second line']);
      expect(await texts(`worker_run=${runId}`)).toEqual(['Page by worker', 'Second line']);
      expect(await texts('worker_run=false')).toEqual(['Page text', 'First line']);
      expect(await texts('element_type=page&worker_run=False')).toEqual(['Page text']);
      expect(await texts(`worker_run=${otherRunId}`)).toEqual([]);
    });

    it('names every bad filter in one 400', async () => {
      const response = await as('guest').get(
        `element/${ids['Page']}/transcriptions/?recursive=maybe&worker_run=abc&element_type=nope`,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        type: 'validation_error',
        errors: [
          { code: 'invalid', detail: 'Only Yes and No are allowed', attr: 'recursive' },
          { code: 'invalid', detail: 'Invalid UUID', attr: 'worker_run' },
          { code: 'invalid', detail: "Type 'nope' not found.", attr: 'element_type' },
        ],
      });
    });

    it('shows a public project to anyone, anonymous included', async () => {
      await create(ids['Public page']!, { text: 'Open text' });
      for (const role of ['anonymous', 'outsider', 'guest'] as const) {
        const response = await as(role).get(`element/${ids['Public page']}/transcriptions/`);
        expect(response.statusCode).toBe(200);
        expect(response.json().results[0].text).toBe('Open text');
      }
    });

    it('answers 404 for unreadable, unknown and malformed elements', async () => {
      for (const [role, id] of [
        ['outsider', ids['Page']],
        ['anonymous', ids['Page']],
        ['siteAdmin', UNKNOWN_ID],
        ['siteAdmin', 'not-a-uuid'],
      ] as const) {
        const response = await as(role).get(`element/${id}/transcriptions/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });
  });

  describe('GET /transcription/{id}/', () => {
    it('answers the transcription with its Last-Modified to readers', async () => {
      const created = await create(ids['Public page']!, { text: 'Readable' });
      for (const role of ['anonymous', 'guest', 'outsider'] as const) {
        const response = await as(role).get(`transcription/${created.id}/`);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual(created);
        expect(response.headers['last-modified']).toBeDefined();
      }
    });

    it('answers 404 for unreadable, unknown and malformed ids', async () => {
      const hidden = await create(ids['Scratch']!, { text: 'Hidden' });
      for (const [role, id] of [
        ['outsider', hidden.id],
        ['anonymous', hidden.id],
        ['siteAdmin', UNKNOWN_ID],
        ['siteAdmin', 'nope'],
      ] as const) {
        const response = await as(role).get(`transcription/${id}/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });
  });

  describe('PATCH /transcription/{id}/', () => {
    it('edits the text and orientation of a manual transcription', async () => {
      const created = await create(ids['Scratch']!, { text: 'Draft' });
      const response = await as('contributor').patch(`transcription/${created.id}/`, {
        text: ' Final ',
        orientation: 'vertical-rl',
        confidence: 0.5,
      });
      expect(response.statusCode).toBe(200);
      // The confidence is not editable: an unknown field for this call.
      expect(response.json()).toEqual({
        ...created,
        text: 'Final',
        orientation: 'vertical-rl',
      });
      expect(response.headers['last-modified']).toBeDefined();
      expect((await as('guest').get(`transcription/${created.id}/`)).json()).toEqual(
        response.json(),
      );
    });

    it('accepts an edit based on the current version and refuses a stale one with 412', async () => {
      const created = await create(ids['Scratch']!, { text: 'Base' });
      const read = await as('contributor').get(`transcription/${created.id}/`);
      const lastModified = read.headers['last-modified'] as string;
      const fresh = await as('contributor').patch(
        `transcription/${created.id}/`,
        { text: 'Mine' },
        { 'if-unmodified-since': lastModified },
      );
      expect(fresh.statusCode).toBe(200);

      const stale = await as('owner').patch(
        `transcription/${created.id}/`,
        { text: 'Theirs' },
        { 'if-unmodified-since': anHourAgo() },
      );
      expect(stale.statusCode).toBe(412);
      expect(stale.json()).toEqual({
        type: 'client_error',
        errors: [{ code: 'precondition_failed', detail: CHANGED, attr: null }],
        current: { ...created, text: 'Mine' },
      });
      expect(stale.headers['last-modified']).toBeDefined();
      expect((await as('guest').get(`transcription/${created.id}/`)).json().text).toBe('Mine');
    });

    it('refuses an edit based on the version read just before a change in the same second', async () => {
      const created = await create(ids['Scratch']!, { text: 'Read' });
      const read = await as('contributor').get(`transcription/${created.id}/`);
      const theirs = await as('owner').patch(`transcription/${created.id}/`, { text: 'Theirs' });
      expect(theirs.statusCode).toBe(200);
      const mine = await as('contributor').patch(
        `transcription/${created.id}/`,
        { text: 'Mine' },
        { 'if-unmodified-since': read.headers['last-modified'] as string },
      );
      expect(mine.statusCode).toBe(412);
      expect(mine.json().current.text).toBe('Theirs');
    });

    it('leaves the date alone when nothing changes', async () => {
      const created = await create(ids['Scratch']!, { text: 'Same' });
      const before = await t()
        .app.db.selectFrom('transcriptions')
        .select('updated')
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const body of [{}, { text: 'Same', orientation: 'horizontal-lr' }]) {
        const response = await as('contributor').patch(`transcription/${created.id}/`, body);
        expect(response.statusCode).toBe(200);
      }
      const after = await t()
        .app.db.selectFrom('transcriptions')
        .select('updated')
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(after.updated).toBe(before.updated);
    });

    it('refuses to edit a transcription made by a worker run, even for an admin', async () => {
      const created = await create(ids['Scratch']!, { text: 'By a worker', worker_run_id: runId });
      for (const role of ['contributor', 'owner', 'siteAdmin'] as const) {
        const response = await as(role).patch(`transcription/${created.id}/`, { text: 'Fixed' });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(MADE_BY_WORKER_RUN);
      }
      expect((await as('guest').get(`transcription/${created.id}/`)).json().text).toBe(
        'By a worker',
      );
    });

    it('refuses to edit a transcription that entities point into', async () => {
      const created = await create(ids['Scratch']!, { text: 'John Smith' });
      expect(
        (await addEntities(created.id, [{ offset: 0, length: 4, type_id: personId }])).statusCode,
      ).toBe(201);
      const response = await as('contributor').patch(`transcription/${created.id}/`, {
        orientation: 'horizontal-rl',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(USED_BY_ENTITIES);
      expect((await as('guest').get(`transcription/${created.id}/`)).json()).toMatchObject({
        orientation: 'horizontal-lr',
        entity_count: 1,
      });
    });

    it.each([
      [{ text: '' }, validation('text', 'This field may not be blank.', 'blank')],
      [{ text: null }, validation('text', 'This field may not be null.', 'null')],
      [{ text: ['a'] }, validation('text', 'Not a valid string.')],
      [
        { orientation: 'up' },
        validation('orientation', '"up" is not a valid choice.', 'invalid_choice'),
      ],
      [
        '"text"',
        validation('non_field_errors', 'Invalid data. Expected a dictionary, but got str.'),
      ],
    ])('answers 400 to %j and keeps the text', async (body, expected) => {
      const created = await create(ids['Scratch']!, { text: 'Kept' });
      const response = await as('contributor').patch(`transcription/${created.id}/`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
      expect((await as('guest').get(`transcription/${created.id}/`)).json()).toEqual(created);
    });

    it.each(REFUSED_TO_READERS)(
      'answers %s on a %s project with %i',
      async (role, which, status, expected) => {
        const created = await create(ids[projectOf(which)]!, { text: 'Original' }, 'owner');
        const response = await as(role).patch(`transcription/${created.id}/`, { text: 'Hijack' });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect((await as('owner').get(`transcription/${created.id}/`)).json().text).toBe(
          'Original',
        );
      },
    );

    it.each(['not-a-uuid', UNKNOWN_ID])('answers 404 to the id %s', async (id) => {
      const response = await as('siteAdmin').patch(`transcription/${id}/`, { text: 'x' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('DELETE /transcription/{id}/', () => {
    it('lets a contributor delete a manual transcription, with its entities', async () => {
      const created = await create(ids['Scratch']!, { text: 'Gone soon' });
      await addEntities(created.id, [{ offset: 0, length: 4, type_id: placeId }]);
      const response = await as('contributor').delete(`transcription/${created.id}/`);
      expect(response.statusCode).toBe(204);
      expect((await as('owner').get(`transcription/${created.id}/`)).statusCode).toBe(404);
      const entities = await t()
        .app.db.selectFrom('transcription_entities')
        .select('id')
        .where('transcription_id', '=', created.id)
        .execute();
      expect(entities).toEqual([]);
    });

    it("keeps a worker run's transcription from contributors and lets admins delete it", async () => {
      for (const role of ['owner', 'siteAdmin'] as const) {
        const created = await create(ids['Scratch']!, { text: 'Worker', worker_run_id: runId });
        const refused = await as('contributor').delete(`transcription/${created.id}/`);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual(ADMIN_TO_DELETE);
        expect((await as('guest').get(`transcription/${created.id}/`)).statusCode).toBe(200);
        expect((await as(role).delete(`transcription/${created.id}/`)).statusCode).toBe(204);
      }
    });

    it('refuses a delete based on a stale version, and deletes with the current one', async () => {
      const created = await create(ids['Scratch']!, { text: 'Contested' });
      const stale = await as('contributor').delete(`transcription/${created.id}/`, undefined, {
        'if-unmodified-since': anHourAgo(),
      });
      expect(stale.statusCode).toBe(412);
      expect(stale.json()).toMatchObject({ current: created });
      const current = (await as('contributor').get(`transcription/${created.id}/`)).headers[
        'last-modified'
      ] as string;
      const deleted = await as('contributor').delete(`transcription/${created.id}/`, undefined, {
        'if-unmodified-since': current,
      });
      expect(deleted.statusCode).toBe(204);
    });

    it.each(REFUSED_TO_READERS)(
      'answers %s on a %s project with %i',
      async (role, which, status, expected) => {
        const created = await create(ids[projectOf(which)]!, { text: 'Staying' }, 'owner');
        const response = await as(role).delete(`transcription/${created.id}/`);
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect((await as('owner').get(`transcription/${created.id}/`)).statusCode).toBe(200);
      },
    );

    it.each(['not-a-uuid', UNKNOWN_ID])('answers 404 to the id %s', async (id) => {
      const response = await as('siteAdmin').delete(`transcription/${id}/`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('GET /corpus/{id}/entity-types/', () => {
    it("lists a project's entity types by name, paginated", async () => {
      const response = await as('guest').get(`corpus/${privateId}/entity-types/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        count: 2,
        number: 1,
        next: null,
        previous: null,
        results: [
          { id: personId, name: 'person', color: '00ff00' },
          { id: placeId, name: 'place', color: 'ff0000' },
        ],
      });
      const first = (await as('guest').get(`corpus/${privateId}/entity-types/?page_size=1`)).json();
      expect(first.results).toEqual([{ id: personId, name: 'person', color: '00ff00' }]);
      expect(first.next).toMatch(/page=2/);
    });

    it('shows a public project to anyone and hides a private one', async () => {
      const open = await as('anonymous').get(`corpus/${publicId}/entity-types/`);
      expect(open.statusCode).toBe(200);
      expect(open.json().results.map((type: { name: string }) => type.name)).toEqual(['date']);
      for (const [role, id] of [
        ['outsider', privateId],
        ['anonymous', privateId],
        ['siteAdmin', UNKNOWN_ID],
        ['siteAdmin', 'nope'],
      ] as const) {
        const response = await as(role).get(`corpus/${id}/entity-types/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });
  });

  describe('transcription entities', () => {
    let text: { id: string };

    beforeAll(async () => {
      text = await create(ids['Scratch']!, { text: 'John Smith went to Paris' });
    });

    it('creates entities in bulk and lists them in text order', async () => {
      const response = await addEntities(
        text.id,
        [
          { offset: 19, length: 5, type_id: placeId, confidence: 0.75 },
          { offset: 0, length: 10, type_id: personId.toUpperCase() },
        ],
        { worker_run_id: runId },
      );
      expect(response.statusCode).toBe(201);
      const worker_run = { id: runId, summary: SUMMARY };
      const place = {
        id: expect.stringMatching(UUID),
        type: { id: placeId, name: 'place', color: 'ff0000' },
        offset: 19,
        length: 5,
        confidence: 0.75,
        worker_run,
      };
      const person = {
        id: expect.stringMatching(UUID),
        type: { id: personId, name: 'person', color: '00ff00' },
        offset: 0,
        length: 10,
        confidence: null,
        worker_run,
      };
      expect(response.json()).toEqual({ transcription_entities: [place, person] });

      const manual = await addEntities(text.id, [{ offset: 11, length: 4, type_id: personId }]);
      expect(manual.statusCode).toBe(201);
      const listed = await as('guest').get(`transcription/${text.id}/entities/`);
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toMatchObject({ count: 3, next: null });
      expect(listed.json().results).toEqual([
        person,
        { ...person, offset: 11, length: 4, worker_run: null },
        place,
      ]);
      const onlyManual = await as('guest').get(
        `transcription/${text.id}/entities/?worker_run=false`,
      );
      expect(onlyManual.json().results.map((e: { offset: number }) => e.offset)).toEqual([11]);
      const onlyRun = await as('guest').get(
        `transcription/${text.id}/entities/?worker_run=${runId}`,
      );
      expect(onlyRun.json().count).toBe(2);
      const bad = await as('guest').get(`transcription/${text.id}/entities/?worker_run=1`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual(validation('worker_run', 'Invalid UUID'));

      const transcription = await as('guest').get(`transcription/${text.id}/`);
      expect(transcription.json().entity_count).toBe(3);
      const list = await as('guest').get(`element/${ids['Scratch']}/transcriptions/?page_size=500`);
      const item = list.json().results.find((r: { id: string }) => r.id === text.id);
      expect(item.entity_count).toBe(3);
    });

    it('counts offsets in characters, not UTF-16 units', async () => {
      const astral = await create(ids['Scratch']!, { text: '𝔄bc' });
      const whole = await addEntities(astral.id, [{ offset: 0, length: 3, type_id: personId }]);
      expect(whole.statusCode).toBe(201);
      const beyond = await addEntities(astral.id, [{ offset: 1, length: 3, type_id: placeId }]);
      expect(beyond.statusCode).toBe(400);
    });

    it('names each bad entity in one 400 and stores none of them', async () => {
      const target = await create(ids['Scratch']!, { text: 'Short' });
      const response = await addEntities(target.id, [
        { offset: 0, length: 5, type_id: personId },
        { offset: 3, length: 3, type_id: personId },
        { offset: 0, length: 1, type_id: otherTypeId },
        { offset: 0, length: 5, type_id: personId },
      ]);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        type: 'validation_error',
        errors: [
          {
            code: 'invalid',
            detail: "This entity exceeds the parent's text length",
            attr: 'transcription_entities.1.non_field_errors',
          },
          {
            code: 'does_not_exist',
            detail: `Invalid pk "${otherTypeId}" - object does not exist.`,
            attr: 'transcription_entities.2.type_id',
          },
          {
            code: 'unique',
            detail: 'This entity is given more than once.',
            attr: 'transcription_entities.3.non_field_errors',
          },
        ],
      });
      expect((await as('guest').get(`transcription/${target.id}/entities/`)).json().count).toBe(0);

      expect(
        (await addEntities(target.id, [{ offset: 0, length: 5, type_id: personId }])).statusCode,
      ).toBe(201);
      const again = await addEntities(target.id, [{ offset: 0, length: 5, type_id: personId }]);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(
        validation(
          'transcription_entities.0.non_field_errors',
          'This entity already exists on this transcription.',
          'unique',
        ),
      );
      // The same entity found by a worker run is another result.
      const byRun = await addEntities(target.id, [{ offset: 0, length: 5, type_id: personId }], {
        worker_run_id: runId,
      });
      expect(byRun.statusCode).toBe(201);
    });

    it.each([
      [
        'an empty list',
        { transcription_entities: [] },
        validation('transcription_entities', 'This list may not be empty.'),
      ],
      ['no list', {}, validation('transcription_entities', 'This field is required.', 'required')],
      [
        'a dictionary',
        { transcription_entities: {} },
        validation('transcription_entities', 'Expected a list of items but got type "dict".'),
      ],
      [
        'a negative offset',
        { transcription_entities: [{ offset: -1, length: 1, type_id: 'TYPE' }] },
        validation(
          'transcription_entities.0.offset',
          'Ensure this value is greater than or equal to 0.',
          'min_value',
        ),
      ],
      [
        'an empty entity',
        { transcription_entities: [{ offset: 0, length: 0, type_id: 'TYPE' }] },
        validation(
          'transcription_entities.0.length',
          'Ensure this value is greater than or equal to 1.',
          'min_value',
        ),
      ],
      [
        'a fractional offset',
        { transcription_entities: [{ offset: 1.5, length: 1, type_id: 'TYPE' }] },
        validation('transcription_entities.0.offset', 'A valid integer is required.'),
      ],
      [
        'a type name for an id',
        { transcription_entities: [{ offset: 0, length: 1, type_id: 'person' }] },
        validation('transcription_entities.0.type_id', 'Must be a valid UUID.'),
      ],
      [
        'a confidence above 1',
        { transcription_entities: [{ offset: 0, length: 1, type_id: 'TYPE', confidence: 2 }] },
        validation(
          'transcription_entities.0.confidence',
          'Ensure this value is less than or equal to 1.',
          'max_value',
        ),
      ],
      [
        '1,001 entities',
        {
          transcription_entities: Array.from({ length: 1001 }, () => ({
            offset: 0,
            length: 1,
            type_id: 'TYPE',
          })),
        },
        validation('transcription_entities', 'Ensure this field has no more than 1000 elements.'),
      ],
      [
        "another project's worker run",
        {
          worker_run_id: 'OTHER_RUN',
          transcription_entities: [{ offset: 0, length: 1, type_id: 'TYPE' }],
        },
        invalidPk('worker_run_id', 'OTHER_RUN'),
      ],
    ])('answers 400 to %s', async (_label, template, expected) => {
      const fill = (value: unknown) =>
        JSON.parse(
          JSON.stringify(value)
            .replaceAll('"TYPE"', JSON.stringify(personId))
            .replaceAll('OTHER_RUN', otherRunId),
        );
      const target = await create(ids['Scratch']!, { text: 'Some text' });
      const response = await as('contributor').post(
        `transcription/${target.id}/entities/bulk/`,
        fill(template),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(fill(expected));
      expect((await as('guest').get(`transcription/${target.id}/entities/`)).json().count).toBe(0);
    });

    it.each(REFUSED_TO_READERS)(
      'answers %s on a %s project with %i',
      async (role, which, status, expected) => {
        const corpusId = which === 'private' ? privateId : publicId;
        const typeId = await makeEntityType(corpusId, `kind ${role} ${which}`);
        const target = await create(ids[projectOf(which)]!, { text: 'Some text' }, 'owner');
        const response = await as(role).post(`transcription/${target.id}/entities/bulk/`, {
          transcription_entities: [{ offset: 0, length: 4, type_id: typeId }],
        });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect((await as('owner').get(`transcription/${target.id}/`)).json().entity_count).toBe(0);
      },
    );

    it('answers 404 for the entities of unreadable, unknown and malformed transcriptions', async () => {
      for (const [role, id] of [
        ['outsider', text.id],
        ['anonymous', text.id],
        ['siteAdmin', UNKNOWN_ID],
        ['siteAdmin', 'nope'],
      ] as const) {
        const listed = await as(role).get(`transcription/${id}/entities/`);
        expect(listed.statusCode).toBe(404);
        expect(listed.json()).toEqual(NOT_FOUND);
      }
      const created = await as('siteAdmin').post(`transcription/${UNKNOWN_ID}/entities/bulk/`, {
        transcription_entities: [{ offset: 0, length: 1, type_id: personId }],
      });
      expect(created.statusCode).toBe(404);
    });
  });
});

describeEachDialect('transcriptions read from imported files', ({ t }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-transcriptions-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('come from the project import worker run: copied, not edited, deleted by admins', async () => {
    const { app } = t();
    const actors = await makeActors(app);
    const corpusId = await makeCorpus(app, actors, { name: 'Imported' });
    await sharp({ create: { width: 400, height: 300, channels: 3, background: '#f4ecd8' } })
      .jpeg()
      .toFile(path.join(dir, 'folio.jpg'));
    fs.writeFileSync(
      path.join(dir, 'folio.xml'),
      `<PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">
        <Page imageFilename="folio.jpg" imageWidth="400" imageHeight="300">
          <TextRegion id="r1" type="paragraph"><Coords points="10,10 390,10 390,290 10,290"/>
            <TextLine id="l1"><Coords points="20,20 380,20 380,60 20,60"/>
              <TextEquiv><Unicode>In the beginning</Unicode></TextEquiv></TextLine>
            <TextLine id="l2"><Coords points="20,70 380,70 380,110 20,110"/>
              <TextEquiv><Unicode>was the word</Unicode></TextEquiv></TextLine>
          </TextRegion>
        </Page></PcGts>`,
    );
    const report = await runImport({ db: app.db, dataDir: t().config.dataDir }, dir, {
      corpusId,
      userId: actors.owner.id,
      parentId: null,
      folderName: 'Batch',
    });
    expect(report.problems).toEqual([]);
    expect(report.transcriptions).toBe(2);

    const contributor = clientFor(app, actors, 'contributor');
    const listed = await contributor.get(
      `element/${report.folder_id}/transcriptions/?recursive=true`,
    );
    const results = listed.json().results as { id: string; worker_run: { id: string } }[];
    expect(results).toHaveLength(2);
    const runId = results[0]!.worker_run.id;
    expect(results.map((r) => r.worker_run)).toEqual([
      { id: runId, summary: 'Worker File import @ 1' },
      { id: runId, summary: 'Worker File import @ 1' },
    ]);
    const run = await contributor.get(`process/workers/${runId}/`);
    expect(run.statusCode).toBe(200);
    expect(run.json().process).toMatchObject({ corpus: corpusId, name: 'File imports' });

    const [first, second] = results;
    const edit = await contributor.patch(`transcription/${first!.id}/`, { text: 'Changed' });
    expect(edit.statusCode).toBe(400);
    expect(edit.json()).toEqual(MADE_BY_WORKER_RUN);
    expect((await contributor.delete(`transcription/${first!.id}/`)).statusCode).toBe(403);
    expect(
      (await clientFor(app, actors, 'owner').delete(`transcription/${second!.id}/`)).statusCode,
    ).toBe(204);

    // A second import into the project reuses its import worker run.
    const again = await runImport({ db: app.db, dataDir: t().config.dataDir }, dir, {
      corpusId,
      userId: null,
      parentId: null,
      folderName: 'Batch again',
    });
    const relisted = await contributor.get(
      `element/${again.folder_id}/transcriptions/?recursive=true&worker_run=${runId}`,
    );
    expect(relisted.json().count).toBe(2);
  });
});
