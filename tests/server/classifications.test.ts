import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
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
  REFUSED_TO_NON_ADMINS,
  UNKNOWN_ID,
  UUID,
  denied,
  invalidPk,
  validation,
} from './expectedErrors';
import { insertElements } from './elementsFixtures';
import { makeWorkerRun } from './workerRunFixtures';

const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');
const UNVERIFIED = denied('You must verify your email address to perform this action.');
const DUPLICATE_MANUAL = validation(
  'non_field_errors',
  'A manual classification for this ML class already exists.',
  'unique',
);
const DUPLICATE = validation(
  'non_field_errors',
  'This classification already exists on this element.',
  'unique',
);

async function classificationRows(app: FastifyInstance, elementId: string) {
  return app.db
    .selectFrom('classifications')
    .selectAll()
    .where('element_id', '=', elementId)
    .execute();
}

async function classCount(app: FastifyInstance, corpusId: string): Promise<number> {
  const rows = await app.db
    .selectFrom('ml_classes')
    .select('id')
    .where('corpus_id', '=', corpusId)
    .execute();
  return rows.length;
}

describeEachDialect('ML classes and classifications', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  /** A project only the outsider is a member of. */
  let elsewhereId: string;
  let run: { id: string };
  const SUMMARY = 'Worker Classifier @ abcdef';
  const as = (role: Role) => clientFor(t().app, actors, role);

  async function makeClass(corpusId: string, name: string): Promise<string> {
    const response = await as('owner').post(`corpus/${corpusId}/classes/`, { name });
    expect(response.statusCode).toBe(201);
    return response.json().id;
  }

  async function makePage(corpusId: string, name = `Page ${randomUUID().slice(0, 8)}`) {
    const ids = await insertElements(t().app, corpusId, [{ name, type: 'page' }]);
    return ids[name]!;
  }

  beforeAll(async () => {
    const app = t().app;
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app));
    const elsewhere = await as('outsider').post('corpus/', { name: 'Elsewhere' });
    expect(elsewhere.statusCode).toBe(201);
    elsewhereId = elsewhere.json().id;
    run = await makeWorkerRun(app, privateId, {
      workerName: 'Classifier',
      revision: 'abcdef123456',
    });
  });

  describe('GET /corpus/{id}/classes/', () => {
    let listedId: string;

    beforeAll(async () => {
      listedId = await makeCorpus(t().app, actors, { name: 'Listed', public: true });
      for (const name of ['dog', 'cat', 'hotdog', 'bird', '100%', 'a_b', 'axb']) {
        await makeClass(listedId, name);
      }
    });

    it('lists the classes by name, paginated', async () => {
      const response = await as('guest').get(`corpus/${listedId}/classes/?page_size=3`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toEqual({
        count: 7,
        number: 1,
        previous: null,
        next: expect.stringContaining(`/api/v1/corpus/${listedId}/classes/?page_size=3&page=2`),
        results: [
          { id: expect.stringMatching(UUID), name: '100%' },
          { id: expect.stringMatching(UUID), name: 'a_b' },
          { id: expect.stringMatching(UUID), name: 'axb' },
        ],
      });
      const last = (await as('guest').get(`corpus/${listedId}/classes/?page_size=3&page=3`)).json();
      expect(last.results.map((item: { name: string }) => item.name)).toEqual(['hotdog']);
      expect(last.next).toBeNull();
      const past = await as('guest').get(`corpus/${listedId}/classes/?page_size=3&page=4`);
      expect(past.statusCode).toBe(404);
      expect(past.json()).toEqual(INVALID_PAGE);
    });

    it.each([
      ['DOG', ['dog', 'hotdog']],
      ['  Cat ', ['cat']],
      ['%', ['100%']],
      ['_', ['a_b']],
      ['zebra', []],
      ['', ['100%', 'a_b', 'axb', 'bird', 'cat', 'dog', 'hotdog']],
    ])('searches %j whatever the case, wildcards taken literally', async (search, expected) => {
      const response = await as('anonymous').get(
        `corpus/${listedId}/classes/?search=${encodeURIComponent(search)}`,
      );
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.results.map((item: { name: string }) => item.name)).toEqual(expected);
      expect(body.count).toBe(expected.length);
    });

    it('answers 404 to those who cannot read the project, and for malformed ids', async () => {
      for (const [role, id] of [
        ['outsider', privateId],
        ['anonymous', privateId],
        ['siteAdmin', UNKNOWN_ID],
        ['siteAdmin', 'not-a-uuid'],
      ] as const) {
        const response = await as(role).get(`corpus/${id}/classes/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
      expect((await as('siteAdmin').get(`corpus/${privateId}/classes/`)).statusCode).toBe(200);
    });
  });

  describe('POST /corpus/{id}/classes/', () => {
    it('creates a class with a trimmed name', async () => {
      const response = await as('owner').post(`corpus/${privateId}/classes/`, {
        name: '  Charter ',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ id: expect.stringMatching(UUID), name: 'Charter' });
    });

    it("refuses a name the project already has, with the spec's message", async () => {
      await makeClass(privateId, 'Map');
      const before = await classCount(t().app, privateId);
      const duplicate = await as('owner').post(`corpus/${privateId}/classes/`, { name: 'Map' });
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json()).toEqual(
        validation('name', 'Class Map already exists in this corpus.', 'unique'),
      );
      expect(await classCount(t().app, privateId)).toBe(before);
      // Another project may have its own "Map", and case tells names apart.
      expect(
        (await as('owner').post(`corpus/${publicId}/classes/`, { name: 'Map' })).statusCode,
      ).toBe(201);
      expect(
        (await as('owner').post(`corpus/${privateId}/classes/`, { name: 'map' })).statusCode,
      ).toBe(201);
    });

    it('lets a site admin add a class to any project', async () => {
      const response = await as('siteAdmin').post(`corpus/${elsewhereId}/classes/`, {
        name: 'By admin',
      });
      expect(response.statusCode).toBe(201);
    });

    it.each([
      ['no name', {}, validation('name', 'This field is required.', 'required')],
      [
        'a blank name',
        { name: '   ' },
        validation('name', 'This field may not be blank.', 'blank'),
      ],
      ['a null name', { name: null }, validation('name', 'This field may not be null.', 'null')],
      ['a number', { name: 12 }, validation('name', 'Not a valid string.')],
      [
        'a name of 1025 characters',
        { name: 'n'.repeat(1025) },
        validation('name', 'Ensure this field has no more than 1024 characters.', 'max_length'),
      ],
      [
        'a list',
        ['name'],
        validation('non_field_errors', 'Invalid data. Expected a dictionary, but got list.'),
      ],
    ])('answers 400 to %s and stores nothing', async (_label, body, expected) => {
      const before = await classCount(t().app, privateId);
      const response = await as('owner').post(`corpus/${privateId}/classes/`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
      expect(await classCount(t().app, privateId)).toBe(before);
    });

    it('answers malformed JSON with a parse error', async () => {
      const response = await as('owner').post(`corpus/${privateId}/classes/`, '{"name": ');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        type: 'client_error',
        errors: [{ code: 'parse_error', attr: null }],
      });
    });

    it.each(REFUSED_TO_NON_ADMINS)(
      'answers %s on a %s project with %i',
      async (role, which, status, expected) => {
        const id = which === 'private' ? privateId : publicId;
        const before = await classCount(t().app, id);
        const response = await as(role).post(`corpus/${id}/classes/`, { name: 'Intruder' });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect(await classCount(t().app, id)).toBe(before);
      },
    );
  });

  describe('GET, PATCH and DELETE /corpus/{id}/classes/{classId}/', () => {
    it('shows a class to whoever reads the project, under its own project only', async () => {
      const id = await makeClass(publicId, 'Seal');
      for (const role of ['anonymous', 'outsider', 'guest'] as const) {
        const response = await as(role).get(`corpus/${publicId}/classes/${id}/`);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ id, name: 'Seal' });
      }
      for (const path of [
        `corpus/${privateId}/classes/${id}/`,
        `corpus/${publicId}/classes/${UNKNOWN_ID}/`,
        `corpus/${publicId}/classes/not-a-uuid/`,
      ]) {
        const response = await as('siteAdmin').get(path);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });

    it('renames a class; a name taken is refused', async () => {
      const id = await makeClass(privateId, 'Draft');
      await makeClass(privateId, 'Taken');
      const renamed = await as('owner').patch(`corpus/${privateId}/classes/${id}/`, {
        name: 'Letter',
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toEqual({ id, name: 'Letter' });
      expect((await as('guest').get(`corpus/${privateId}/classes/${id}/`)).json().name).toBe(
        'Letter',
      );
      const taken = await as('owner').patch(`corpus/${privateId}/classes/${id}/`, {
        name: 'Taken',
      });
      expect(taken.statusCode).toBe(400);
      expect(taken.json()).toEqual(
        validation('name', 'Class Taken already exists in this corpus.', 'unique'),
      );
      const same = await as('owner').patch(`corpus/${privateId}/classes/${id}/`, {
        name: 'Letter',
      });
      expect(same.statusCode).toBe(200);
      const blank = await as('owner').patch(`corpus/${privateId}/classes/${id}/`, { name: '' });
      expect(blank.json()).toEqual(validation('name', 'This field may not be blank.', 'blank'));
    });

    it('deletes an unused class, and keeps one classifications use', async () => {
      const unused = await makeClass(privateId, 'Unused');
      const deleted = await as('owner').delete(`corpus/${privateId}/classes/${unused}/`);
      expect(deleted.statusCode).toBe(204);
      expect((await as('owner').get(`corpus/${privateId}/classes/${unused}/`)).statusCode).toBe(
        404,
      );

      const used = await makeClass(privateId, 'Used');
      const element = await makePage(privateId);
      const classified = await as('contributor').post('classifications/', {
        element,
        ml_class: used,
      });
      expect(classified.statusCode).toBe(201);
      const refused = await as('owner').delete(`corpus/${privateId}/classes/${used}/`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual(
        validation(null, 'Some classifications are using this ML class.'),
      );
      expect((await classificationRows(t().app, element)).length).toBe(1);
    });

    it.each(REFUSED_TO_NON_ADMINS)(
      'answers %s editing or deleting on a %s project with %i',
      async (role, which, status, expected) => {
        const corpusId = which === 'private' ? privateId : publicId;
        const id = await makeClass(corpusId, `Kept ${randomUUID().slice(0, 8)}`);
        const patched = await as(role).patch(`corpus/${corpusId}/classes/${id}/`, {
          name: 'Renamed',
        });
        expect(patched.statusCode).toBe(status);
        expect(patched.json()).toEqual(expected);
        const deleted = await as(role).delete(`corpus/${corpusId}/classes/${id}/`);
        expect(deleted.statusCode).toBe(status);
        expect(deleted.json()).toEqual(expected);
        const now = await as('siteAdmin').get(`corpus/${corpusId}/classes/${id}/`);
        expect(now.json().name).toMatch(/^Kept /);
      },
    );
  });

  describe('POST /classifications/', () => {
    let classId: string;

    beforeAll(async () => {
      classId = await makeClass(privateId, 'Register');
    });

    it('creates a manual classification validated, with confidence 1, on the element', async () => {
      const element = await makePage(privateId);
      const response = await as('contributor').post('classifications/', {
        element,
        ml_class: classId,
        // A person's classification is their assertion: what the body says of it is ignored.
        confidence: 0.3,
        high_confidence: false,
      });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        ml_class: { id: classId, name: 'Register' },
        state: 'validated',
        confidence: 1,
        high_confidence: true,
        worker_run: null,
      });
      const read = (await as('guest').get(`element/${element}/`)).json();
      expect(read.classifications).toEqual([body]);
      const [row] = await classificationRows(t().app, element);
      expect(row).toMatchObject({
        creator_id: actors.contributor.id,
        moderator_id: actors.contributor.id,
      });
    });

    it('refuses a second manual classification of the same class', async () => {
      const element = await makePage(privateId);
      const body = { element, ml_class: classId };
      expect((await as('contributor').post('classifications/', body)).statusCode).toBe(201);
      const again = await as('owner').post('classifications/', body);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(DUPLICATE_MANUAL);
      expect((await classificationRows(t().app, element)).length).toBe(1);
    });

    it('lets one of concurrent identical creations through', async () => {
      const element = await makePage(privateId);
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          as('contributor').post('classifications/', { element, ml_class: classId }),
        ),
      );
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
      for (const response of responses.filter((r) => r.statusCode === 400)) {
        expect(response.json()).toEqual(DUPLICATE_MANUAL);
      }
      expect((await classificationRows(t().app, element)).length).toBe(1);
    });

    it("creates a worker run's classification pending, with its summary", async () => {
      const element = await makePage(privateId);
      const body = {
        element,
        ml_class: classId,
        worker_run_id: run.id,
        confidence: 0.42,
        high_confidence: true,
      };
      const response = await as('contributor').post('classifications/', body);
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.stringMatching(UUID),
        ml_class: { id: classId, name: 'Register' },
        state: 'pending',
        confidence: 0.42,
        high_confidence: true,
        worker_run: { id: run.id, summary: SUMMARY },
      });
      const again = await as('contributor').post('classifications/', body);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(DUPLICATE);
      // A person may still assert the class the worker run found.
      const manual = await as('contributor').post('classifications/', {
        element,
        ml_class: classId,
      });
      expect(manual.statusCode).toBe(201);
      expect((await classificationRows(t().app, element)).length).toBe(2);
    });

    it('needs a confidence for a worker run, and a worker run of the project', async () => {
      const element = await makePage(privateId);
      const noConfidence = await as('contributor').post('classifications/', {
        element,
        ml_class: classId,
        worker_run_id: run.id,
      });
      expect(noConfidence.statusCode).toBe(400);
      expect(noConfidence.json()).toEqual(
        validation(
          'confidence',
          'A classification made by a worker run needs a confidence.',
          'required',
        ),
      );
      const otherRun = await makeWorkerRun(t().app, publicId);
      for (const id of [otherRun.id, UNKNOWN_ID]) {
        const response = await as('contributor').post('classifications/', {
          element,
          ml_class: classId,
          worker_run_id: id,
          confidence: 0.5,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(invalidPk('worker_run_id', id));
      }
      expect(await classificationRows(t().app, element)).toEqual([]);
    });

    it("refuses a class of another project, telling apart one the caller can't see", async () => {
      const element = await makePage(privateId);
      const publicClass = await makeClass(publicId, `Public ${randomUUID().slice(0, 8)}`);
      const other = await as('contributor').post('classifications/', {
        element,
        ml_class: publicClass,
      });
      expect(other.statusCode).toBe(400);
      expect(other.json()).toEqual(
        validation('ml_class', 'The ML class must belong to the same project as the element.'),
      );
      const hidden = (
        await as('outsider').post(`corpus/${elsewhereId}/classes/`, { name: 'Hidden' })
      ).json().id;
      for (const id of [hidden, UNKNOWN_ID]) {
        const response = await as('contributor').post('classifications/', {
          element,
          ml_class: id,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(invalidPk('ml_class', id));
      }
    });

    it('answers an element the caller cannot see as an unknown one', async () => {
      const element = await makePage(privateId);
      for (const [role, id] of [
        ['outsider', element],
        ['contributor', UNKNOWN_ID],
      ] as const) {
        const response = await as(role).post('classifications/', {
          element: id,
          ml_class: classId,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(invalidPk('element', id));
      }
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)('answers %s on a %s project with %i', async (role, which, status, expected) => {
      const corpusId = which === 'private' ? privateId : publicId;
      const element = await makePage(corpusId);
      const mlClass = await makeClass(corpusId, `Refused ${randomUUID().slice(0, 8)}`);
      const response = await as(role).post('classifications/', { element, ml_class: mlClass });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(expected);
      expect(await classificationRows(t().app, element)).toEqual([]);
    });

    it('lets project admins and site admins classify', async () => {
      for (const role of ['owner', 'siteAdmin'] as const) {
        const element = await makePage(privateId);
        const response = await as(role).post('classifications/', { element, ml_class: classId });
        expect(response.statusCode).toBe(201);
      }
    });

    it.each([
      [{ ml_class: UNKNOWN_ID }, validation('element', 'This field is required.', 'required')],
      [{ element: 'nope', ml_class: UNKNOWN_ID }, validation('element', 'Must be a valid UUID.')],
      [
        { element: UNKNOWN_ID, ml_class: UNKNOWN_ID, confidence: 1.5 },
        validation('confidence', 'Ensure this value is less than or equal to 1.', 'max_value'),
      ],
      [
        { element: UNKNOWN_ID, ml_class: UNKNOWN_ID, confidence: -0.1 },
        validation('confidence', 'Ensure this value is greater than or equal to 0.', 'min_value'),
      ],
      [
        { element: UNKNOWN_ID, ml_class: UNKNOWN_ID, high_confidence: 'yes' },
        validation('high_confidence', 'Must be a valid boolean.'),
      ],
      [
        { element: UNKNOWN_ID, ml_class: UNKNOWN_ID, worker_run_id: 42 },
        validation('worker_run_id', 'Not a valid string.'),
      ],
    ])('answers 400 to %j', async (body, expected) => {
      const response = await as('contributor').post('classifications/', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
    });

    it('applies a create once when its Idempotency-Key is replayed', async () => {
      const element = await makePage(privateId);
      const headers = { 'idempotency-key': randomUUID() };
      const body = { element, ml_class: classId };
      const first = await as('contributor').post('classifications/', body, headers);
      expect(first.statusCode).toBe(201);
      const again = await as('contributor').post('classifications/', body, headers);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      expect((await classificationRows(t().app, element)).length).toBe(1);
    });
  });

  describe('PUT /classifications/{id}/validate/ and /reject/', () => {
    let classId: string;

    beforeAll(async () => {
      classId = await makeClass(privateId, 'Moderated');
    });

    async function classify(workerRun: boolean, corpusId = privateId): Promise<string> {
      const element = await makePage(corpusId);
      const mlClass =
        corpusId === privateId
          ? classId
          : await makeClass(corpusId, `C ${randomUUID().slice(0, 8)}`);
      const body = workerRun
        ? { element, ml_class: mlClass, worker_run_id: run.id, confidence: 0.5 }
        : { element, ml_class: mlClass };
      const response = await as('owner').post('classifications/', body);
      expect(response.statusCode).toBe(201);
      return response.json().id;
    }

    async function state(id: string) {
      const row = await t()
        .app.db.selectFrom('classifications')
        .select(['state', 'moderator_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row;
    }

    it("validates a worker run's classification, and again changes nothing", async () => {
      const id = await classify(true);
      const response = await as('contributor').put(`classifications/${id}/validate/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id,
        ml_class: { id: classId, name: 'Moderated' },
        state: 'validated',
        confidence: 0.5,
        high_confidence: false,
        worker_run: { id: run.id, summary: SUMMARY },
      });
      expect(await state(id)).toEqual({
        state: 'validated',
        moderator_id: actors.contributor.id,
      });
      const again = await as('owner').put(`classifications/${id}/validate/`);
      expect(again.statusCode).toBe(200);
      expect(again.json().state).toBe('validated');
      expect((await state(id))!.moderator_id).toBe(actors.contributor.id);
    });

    it("rejects a worker run's classification and keeps it; it can be validated after", async () => {
      const id = await classify(true);
      const rejected = await as('contributor').put(`classifications/${id}/reject/`);
      expect(rejected.statusCode).toBe(200);
      expect(rejected.json()).toMatchObject({ id, state: 'rejected' });
      const again = await as('contributor').put(`classifications/${id}/reject/`);
      expect(again.statusCode).toBe(200);
      expect(again.json().state).toBe('rejected');
      const validated = await as('contributor').put(`classifications/${id}/validate/`);
      expect(validated.json().state).toBe('validated');
    });

    it('deletes a manual classification on rejection, with 204', async () => {
      const id = await classify(false);
      const response = await as('contributor').put(`classifications/${id}/reject/`);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(await state(id)).toBeUndefined();
      const gone = await as('contributor').put(`classifications/${id}/validate/`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toEqual(NOT_FOUND);
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['outsider', 'private', 404, NOT_FOUND],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)('answers %s on a %s project with %i', async (role, which, status, expected) => {
      const id = await classify(which === 'private', which === 'private' ? privateId : publicId);
      for (const action of ['validate', 'reject']) {
        const response = await as(role).put(`classifications/${id}/${action}/`);
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
      }
      expect(await state(id)).toBeDefined();
    });

    it('answers 404 for unknown and malformed ids', async () => {
      for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
        for (const action of ['validate', 'reject']) {
          const response = await as('siteAdmin').put(`classifications/${id}/${action}/`);
          expect(response.statusCode).toBe(404);
          expect(response.json()).toEqual(NOT_FOUND);
        }
      }
    });
  });

  describe('POST /classifications/selection/', () => {
    let selectedId: string;
    let classId: string;
    let otherClassId: string;
    let pages: Record<string, string>;

    /** The caller's stored selection is what the call works on. */
    async function select(role: Role, ids: string[]) {
      const response = await as(role).post('elements/selection/', { ids });
      expect(response.statusCode).toBe(204);
    }

    beforeAll(async () => {
      selectedId = await makeCorpus(t().app, actors, { name: 'Selected' });
      classId = await makeClass(selectedId, 'Deed');
      otherClassId = await makeClass(selectedId, 'Will');
      pages = await insertElements(t().app, selectedId, [
        { name: 'p1', type: 'page' },
        { name: 'p2', type: 'page' },
        { name: 'p3', type: 'page' },
      ]);
    });

    it('gives each selected element a manual classification unless it has one', async () => {
      const first = await as('contributor').post('classifications/', {
        element: pages.p1,
        ml_class: classId,
      });
      expect(first.statusCode).toBe(201);
      await select('contributor', [pages.p1!, pages.p2!, pages.p3!.toUpperCase()]);
      // Selected elements of other projects are left alone.
      const elsewhere = await makePage(publicId);
      await select('contributor', [elsewhere]);
      const response = await as('contributor').post('classifications/selection/', {
        mode: 'create',
        corpus_id: selectedId,
        ml_class: classId,
      });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({
        mode: 'create',
        corpus_id: selectedId,
        ml_class: classId,
        ids: expect.any(Array),
        count: 2,
      });
      expect([...body.ids].sort()).toEqual([pages.p1, pages.p2, pages.p3].sort());
      for (const name of ['p1', 'p2', 'p3']) {
        const rows = await classificationRows(t().app, pages[name]!);
        expect(rows).toEqual([
          expect.objectContaining({
            ml_class_id: classId,
            state: 'validated',
            confidence: 1,
            high_confidence: 1,
            worker_run_id: null,
          }),
        ]);
      }
      expect(await classificationRows(t().app, elsewhere)).toEqual([]);
    });

    it('validates the pending classifications of the selected elements', async () => {
      const runHere = await makeWorkerRun(t().app, selectedId);
      const made: Record<string, string> = {};
      for (const [key, element, mlClass] of [
        ['p1deed', pages.p1, classId],
        ['p1will', pages.p1, otherClassId],
        ['p2will', pages.p2, otherClassId],
        ['p3will', pages.p3, otherClassId],
      ] as const) {
        const response = await as('owner').post('classifications/', {
          element,
          ml_class: mlClass,
          worker_run_id: runHere.id,
          confidence: 0.7,
        });
        expect(response.statusCode).toBe(201);
        made[key] = response.json().id;
      }
      const rejected = await as('owner').put(`classifications/${made.p2will}/reject/`);
      expect(rejected.json().state).toBe('rejected');
      // p3 leaves the selection: its classification stays pending.
      const unselected = await as('contributor').delete('elements/selection/', { id: pages.p3 });
      expect(unselected.statusCode).toBe(204);

      // Of one class only first, then all.
      const willOnly = await as('contributor').post('classifications/selection/', {
        mode: 'validate',
        corpus_id: selectedId,
        ml_class: otherClassId,
      });
      expect(willOnly.statusCode).toBe(201);
      expect(willOnly.json()).toMatchObject({ mode: 'validate', count: 1 });
      const states = async () => {
        const rows = await t()
          .app.db.selectFrom('classifications')
          .select(['id', 'state'])
          .where('id', 'in', Object.values(made))
          .execute();
        const byId = new Map(rows.map((row) => [row.id, row.state]));
        return Object.fromEntries(Object.entries(made).map(([key, id]) => [key, byId.get(id)]));
      };
      expect(await states()).toEqual({
        p1deed: 'pending',
        p1will: 'validated',
        p2will: 'rejected',
        p3will: 'pending',
      });
      const all = await as('contributor').post('classifications/selection/', {
        mode: 'validate',
        corpus_id: selectedId,
      });
      expect(all.json()).toMatchObject({ ml_class: null, count: 1 });
      expect([...all.json().ids].sort()).toEqual([pages.p1, pages.p2].sort());
      expect(await states()).toEqual({
        p1deed: 'validated',
        p1will: 'validated',
        p2will: 'rejected',
        p3will: 'pending',
      });
    });

    it.each([
      [{ mode: 'merge' }, validation('mode', '"merge" is not a valid choice.', 'invalid_choice')],
      [{ mode: undefined }, validation('mode', 'This field is required.', 'required')],
      [{ mode: null }, validation('mode', 'This field may not be null.', 'null')],
      [{ corpus_id: 'nope' }, validation('corpus_id', 'Must be a valid UUID.')],
      [{ ml_class: null }, validation('ml_class', 'This field is required.', 'required')],
      [
        { ids: [UNKNOWN_ID] },
        validation(
          'ids',
          'The elements are those of your selection in the project: add them with POST /elements/selection/.',
        ),
      ],
      [{ ml_class: UNKNOWN_ID }, invalidPk('ml_class', UNKNOWN_ID)],
      [{ corpus_id: UNKNOWN_ID }, invalidPk('corpus_id', UNKNOWN_ID)],
    ])('answers 400 to %j', async (change, expected) => {
      const response = await as('contributor').post('classifications/selection/', {
        mode: 'create',
        corpus_id: selectedId,
        ml_class: classId,
        ...change,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
    });

    it('answers 400 when the selection has no element of the project', async () => {
      // The owner selected nothing here; their selection elsewhere does not count.
      await select('owner', [await makePage(privateId)]);
      const response = await as('owner').post('classifications/selection/', {
        mode: 'validate',
        corpus_id: selectedId,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        validation('non_field_errors', 'Your selection has no elements of this project.', 'empty'),
      );
    });

    it('refuses a project the caller cannot see', async () => {
      const hidden = await as('outsider').post('classifications/selection/', {
        mode: 'validate',
        corpus_id: selectedId,
      });
      expect(hidden.statusCode).toBe(400);
      expect(hidden.json()).toEqual(invalidPk('corpus_id', selectedId));
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverifiedAdmin', 403, UNVERIFIED],
      ['guest', 403, NOT_CONTRIBUTOR],
    ] as const)('answers %s with %i', async (role, status, expected) => {
      const response = await as(role).post('classifications/selection/', {
        mode: 'validate',
        corpus_id: selectedId,
      });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(expected);
    });
  });
});

describeEachDialect(
  'classification of a selection, feature off',
  ({ t }) => {
    it('is refused when the server has no selection feature', async () => {
      const actors = await makeActors(t().app);
      const corpusId = await makeCorpus(t().app, actors, { name: 'No selection' });
      const response = await clientFor(t().app, actors, 'owner').post(
        'classifications/selection/',
        { mode: 'validate', corpus_id: corpusId },
      );
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(denied('The selection feature is disabled on this server.'));
    });
  },
  { FOLIA_FEATURES: 'search,signup' },
);
