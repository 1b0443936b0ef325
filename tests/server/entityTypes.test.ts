import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from './harness';
import { clientFor, makeActors, makeCorpus, type Actors, type Role } from './actors';
import {
  CREATION_REFUSED_TO_NON_ADMINS,
  NOT_FOUND,
  REFUSED_TO_NON_ADMINS,
  UNKNOWN_ID,
  UUID,
  invalidPk,
  validation,
} from './expectedErrors';
import { insertElements } from './elementsFixtures';

const DUPLICATE = validation(
  'non_field_errors',
  'The fields corpus, name must make a unique set.',
  'unique',
);
const BAD_COLOR = validation('color', 'Enter a colour as 6 hexadecimal digits, without #.');
const IN_USE = validation(
  'non_field_errors',
  'Some transcription entities are using this entity type.',
  'in_use',
);

describeEachDialect('entity types', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  /** A project only the outsider belongs to. */
  let elsewhereId: string;
  let pageId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);

  async function create(corpusId: string, name: string, color?: string) {
    const response = await as('owner').post('entity/types/', { corpus: corpusId, name, color });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; name: string; color: string; corpus: string };
  }

  async function typeCount(corpusId: string): Promise<number> {
    const rows = await t()
      .app.db.selectFrom('entity_types')
      .select('id')
      .where('corpus_id', '=', corpusId)
      .execute();
    return rows.length;
  }

  beforeAll(async () => {
    const { app } = t();
    actors = await makeActors(app);
    privateId = await makeCorpus(app, actors, { name: 'Letters' });
    publicId = await makeCorpus(app, actors, { name: 'Open letters', public: true });
    const elsewhere = await as('outsider').post('corpus/', { name: 'Elsewhere' });
    expect(elsewhere.statusCode).toBe(201);
    elsewhereId = elsewhere.json().id;
    pageId = (await insertElements(app, privateId, [{ name: 'Page', type: 'page' }]))['Page']!;
  });

  describe('POST /entity/types/', () => {
    it('creates a type, in lower case, and the project lists it', async () => {
      const response = await as('owner').post('entity/types/', {
        corpus: privateId,
        name: ' person ',
        color: '00FF7f',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.stringMatching(UUID),
        name: 'person',
        color: '00ff7f',
        corpus: privateId,
      });
      const listed = await as('guest').get(`corpus/${privateId}/entity-types/`);
      expect(listed.statusCode).toBe(200);
      expect(listed.json().results).toContainEqual({
        id: response.json().id,
        name: 'person',
        color: '00ff7f',
      });
    });

    it('gives a type without a colour the default one', async () => {
      const created = await create(privateId, 'place');
      expect(created.color).toBe('ff0000');
    });

    it('lets a site admin create one in any project', async () => {
      const response = await as('siteAdmin').post('entity/types/', {
        corpus: elsewhereId,
        name: 'admin made',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().corpus).toBe(elsewhereId);
    });

    it('refuses a name the project already has, but not one of another project', async () => {
      await create(privateId, 'organisation');
      const before = await typeCount(privateId);
      const again = await as('owner').post('entity/types/', {
        corpus: privateId,
        name: 'organisation',
      });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(DUPLICATE);
      expect(await typeCount(privateId)).toBe(before);
      const other = await as('owner').post('entity/types/', {
        corpus: publicId,
        name: 'organisation',
      });
      expect(other.statusCode).toBe(201);
    });

    it.each(CREATION_REFUSED_TO_NON_ADMINS)(
      'answers %s on a %s project with %i',
      async (role, which, status, expected) => {
        const corpusId = which === 'private' ? privateId : publicId;
        const before = await typeCount(corpusId);
        const response = await as(role).post('entity/types/', { corpus: corpusId, name: 'x' });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect(await typeCount(corpusId)).toBe(before);
      },
    );

    it('answers a project the caller cannot read, or an unknown one, as an invalid pk', async () => {
      const before = await typeCount(privateId);
      for (const corpus of [privateId, UNKNOWN_ID]) {
        const response = await as('outsider').post('entity/types/', { corpus, name: 'x' });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(invalidPk('corpus', corpus));
      }
      expect(await typeCount(privateId)).toBe(before);
    });

    it.each([
      ['no name', { corpus: 'P' }, validation('name', 'This field is required.', 'required')],
      [
        'a blank name',
        { corpus: 'P', name: '  ' },
        validation('name', 'This field may not be blank.', 'blank'),
      ],
      ['a number as name', { corpus: 'P', name: 12 }, validation('name', 'Not a valid string.')],
      [
        'a name of 251 characters',
        { corpus: 'P', name: 'n'.repeat(251) },
        validation('name', 'Ensure this field has no more than 250 characters.', 'max_length'),
      ],
      ['no project', { name: 'x' }, validation('corpus', 'This field is required.', 'required')],
      [
        'a project that is no UUID',
        { corpus: 'nope', name: 'x' },
        validation('corpus', 'Must be a valid UUID.'),
      ],
      ['a colour with #', { corpus: 'P', name: 'x', color: '#ff0000' }, BAD_COLOR],
      ['a colour of 3 digits', { corpus: 'P', name: 'x', color: 'f00' }, BAD_COLOR],
      ['a colour name', { corpus: 'P', name: 'x', color: 'orange' }, BAD_COLOR],
      [
        'a list',
        [{ name: 'x' }],
        validation('non_field_errors', 'Invalid data. Expected a dictionary, but got list.'),
      ],
    ])('answers 400 to %s', async (_label, body, expected) => {
      // 'P' stands for the private project, whose id the table cannot know yet.
      const sent = Array.isArray(body)
        ? body
        : 'corpus' in body && body.corpus === 'P'
          ? { ...body, corpus: privateId }
          : body;
      const before = await typeCount(privateId);
      const response = await as('owner').post('entity/types/', sent);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
      expect(await typeCount(privateId)).toBe(before);
    });

    it('answers malformed JSON with a parse error', async () => {
      const response = await as('owner').post('entity/types/', '{"name": ');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        type: 'client_error',
        errors: [{ code: 'parse_error', attr: null }],
      });
    });
  });

  describe('GET /entity/types/{id}/', () => {
    let privateType: { id: string };
    let publicType: { id: string };

    beforeAll(async () => {
      privateType = await create(privateId, 'read me', 'abcdef');
      publicType = await create(publicId, 'read me');
    });

    it('shows a type to whoever reads its project', async () => {
      const response = await as('guest').get(`entity/types/${privateType.id}/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: privateType.id,
        name: 'read me',
        color: 'abcdef',
        corpus: privateId,
      });
      for (const role of ['anonymous', 'outsider'] as const) {
        const open = await as(role).get(`entity/types/${publicType.id}/`);
        expect(open.statusCode).toBe(200);
        expect(open.json().corpus).toBe(publicId);
      }
    });

    it.each(['anonymous', 'outsider'] as const)(
      'answers 404 to %s for a type of a private project',
      async (role) => {
        const response = await as(role).get(`entity/types/${privateType.id}/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      },
    );

    it.each([UNKNOWN_ID, 'nope'])('answers 404 for the id %s', async (id) => {
      const response = await as('owner').get(`entity/types/${id}/`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('PATCH /entity/types/{id}/', () => {
    it('renames and recolours a type', async () => {
      const type = await create(privateId, 'to rename');
      const response = await as('owner').patch(`entity/types/${type.id}/`, {
        name: 'renamed',
        color: '123ABC',
        corpus: privateId,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: type.id,
        name: 'renamed',
        color: '123abc',
        corpus: privateId,
      });
      expect((await as('guest').get(`entity/types/${type.id}/`)).json()).toEqual(response.json());
      const unchanged = await as('owner').patch(`entity/types/${type.id}/`, {});
      expect(unchanged.json()).toEqual(response.json());
    });

    it('refuses a name the project has, and a move to another project', async () => {
      await create(privateId, 'taken');
      const type = await create(privateId, 'free');
      const taken = await as('owner').patch(`entity/types/${type.id}/`, { name: 'taken' });
      expect(taken.statusCode).toBe(400);
      expect(taken.json()).toEqual(DUPLICATE);
      const moved = await as('owner').patch(`entity/types/${type.id}/`, { corpus: publicId });
      expect(moved.statusCode).toBe(400);
      expect(moved.json()).toEqual(
        validation('corpus', "It is not possible to update an Entity Type's corpus."),
      );
      const bad = await as('owner').patch(`entity/types/${type.id}/`, { color: 'red' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual(BAD_COLOR);
      expect((await as('owner').get(`entity/types/${type.id}/`)).json()).toMatchObject({
        name: 'free',
        color: 'ff0000',
        corpus: privateId,
      });
    });

    it.each(REFUSED_TO_NON_ADMINS)(
      'answers %s on a %s project with %i',
      async (role, which, status, expected) => {
        const type = await create(which === 'private' ? privateId : publicId, `kept ${role}`);
        const response = await as(role).patch(`entity/types/${type.id}/`, { name: 'changed' });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect((await as('owner').get(`entity/types/${type.id}/`)).json().name).toBe(
          `kept ${role}`,
        );
      },
    );
  });

  describe('DELETE /entity/types/{id}/', () => {
    it('deletes a type', async () => {
      const type = await create(privateId, 'to delete');
      const response = await as('owner').delete(`entity/types/${type.id}/`);
      expect(response.statusCode).toBe(204);
      expect((await as('owner').get(`entity/types/${type.id}/`)).statusCode).toBe(404);
    });

    it('keeps a type entities use, until they are gone', async () => {
      const type = await create(privateId, 'used');
      const transcription = await as('contributor').post(`element/${pageId}/transcription/`, {
        text: 'Dear Sir',
      });
      expect(transcription.statusCode).toBe(201);
      const transcriptionId = transcription.json().id;
      const entities = await as('contributor').post(
        `transcription/${transcriptionId}/entities/bulk/`,
        { transcription_entities: [{ type_id: type.id, offset: 5, length: 3 }] },
      );
      expect(entities.statusCode).toBe(201);
      const refused = await as('owner').delete(`entity/types/${type.id}/`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual(IN_USE);
      expect(
        (await as('owner').get(`transcription/${transcriptionId}/entities/`)).json().count,
      ).toBe(1);
      expect((await as('owner').delete(`transcription/${transcriptionId}/`)).statusCode).toBe(204);
      expect((await as('owner').delete(`entity/types/${type.id}/`)).statusCode).toBe(204);
    });

    it.each(REFUSED_TO_NON_ADMINS)(
      'answers %s on a %s project with %i',
      async (role, which, status, expected) => {
        const type = await create(which === 'private' ? privateId : publicId, `stays ${role}`);
        const response = await as(role).delete(`entity/types/${type.id}/`);
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect((await as('owner').get(`entity/types/${type.id}/`)).statusCode).toBe(200);
      },
    );

    it('answers 404 for a malformed id', async () => {
      const response = await as('owner').delete('entity/types/nope/');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });
});
