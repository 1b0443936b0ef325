import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDialect } from './harness';
import {
  PROJECT_ROLES,
  clientFor,
  makeCast,
  makeCorpus,
  type Cast,
  type ProjectRole,
} from './actors';
import {
  CREATION_REFUSED_TO_NON_ADMINS,
  NOT_FOUND,
  REFUSED_TO_NON_ADMINS,
  UNKNOWN_ID,
  UUID,
  invalidPk,
  validation,
} from './expectedErrors';

const DUPLICATE = validation(
  'slug',
  'A type with this slug already exists in this project.',
  'unique',
);

async function typeCount(app: FastifyInstance, corpusId: string): Promise<number> {
  const rows = await app.db
    .selectFrom('element_types')
    .select('id')
    .where('corpus_id', '=', corpusId)
    .execute();
  return rows.length;
}

describeEachDialect('element types', ({ t }) => {
  let actors: Cast<ProjectRole>;
  let privateId: string;
  let publicId: string;
  const as = (role: ProjectRole | 'anonymous') => clientFor(t().app, actors, role);

  async function makeType(corpusId: string, slug: string): Promise<string> {
    const response = await as('owner').post('elements/type/', {
      corpus: corpusId,
      slug,
      display_name: slug,
    });
    expect(response.statusCode).toBe(201);
    return response.json().id;
  }

  beforeAll(async () => {
    const app = t().app;
    actors = await makeCast(app, PROJECT_ROLES);
    privateId = await makeCorpus(app, actors, { name: 'Private' });
    publicId = await makeCorpus(app, actors, { name: 'Public', public: true });
  });

  describe('POST /elements/type/', () => {
    it('creates a type, listed in the corpus by display name', async () => {
      const response = await as('owner').post('elements/type/', {
        corpus: privateId,
        slug: 'Act_2-b',
        display_name: ' Act ',
        folder: true,
        color: 'FF00AA',
      });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        corpus: privateId,
        slug: 'Act_2-b',
        display_name: 'Act',
        folder: true,
        color: 'ff00aa',
      });
      const corpus = (await as('guest').get(`corpus/${privateId}/`)).json();
      expect(corpus.types.map((type: { display_name: string }) => type.display_name)).toEqual([
        'Act',
        'Folder',
        'Page',
        'Paragraph',
        'Text line',
      ]);
      expect(corpus.types[0]).toEqual({
        id: body.id,
        slug: 'Act_2-b',
        display_name: 'Act',
        folder: true,
        color: 'ff00aa',
      });
    });

    it('defaults folder to false and the colour to a fixed one', async () => {
      const response = await as('owner').post('elements/type/', {
        corpus: privateId,
        slug: 'margin',
        display_name: 'Margin',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ folder: false, color: '28b62c' });
    });

    it('refuses a slug already used in the corpus, but not one used elsewhere', async () => {
      const before = await typeCount(t().app, privateId);
      const duplicate = await as('owner').post('elements/type/', {
        corpus: privateId,
        slug: 'page',
        display_name: 'Another page',
      });
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json()).toEqual(DUPLICATE);
      expect(await typeCount(t().app, privateId)).toBe(before);

      await makeType(publicId, 'seal');
      const elsewhere = await as('owner').post('elements/type/', {
        corpus: privateId,
        slug: 'seal',
        display_name: 'Seal',
      });
      expect(elsewhere.statusCode).toBe(201);
    });

    it('lets a site admin add a type to any corpus', async () => {
      const response = await as('siteAdmin').post('elements/type/', {
        corpus: privateId,
        slug: 'by_admin',
        display_name: 'By admin',
      });
      expect(response.statusCode).toBe(201);
    });

    const valid = { slug: 'ok', display_name: 'Ok' };
    it.each([
      [{ ...valid, slug: undefined }, validation('slug', 'This field is required.', 'required')],
      [{ ...valid, slug: '' }, validation('slug', 'This field may not be blank.', 'blank')],
      [
        { ...valid, slug: 'two words' },
        validation(
          'slug',
          'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.',
        ),
      ],
      [
        { ...valid, slug: 's'.repeat(101) },
        validation('slug', 'Ensure this field has no more than 100 characters.', 'max_length'),
      ],
      [
        { ...valid, display_name: '  ' },
        validation('display_name', 'This field may not be blank.', 'blank'),
      ],
      [
        { ...valid, display_name: 'd'.repeat(251) },
        validation(
          'display_name',
          'Ensure this field has no more than 250 characters.',
          'max_length',
        ),
      ],
      [{ ...valid, folder: 'yes' }, validation('folder', 'Must be a valid boolean.')],
      [
        { ...valid, color: '#ff0000' },
        validation('color', 'Enter a colour as 6 hexadecimal digits, without #.'),
      ],
      [
        { ...valid, color: 'zzzzzz' },
        validation('color', 'Enter a colour as 6 hexadecimal digits, without #.'),
      ],
    ])('answers 400 to %j and stores nothing', async (fields, expected) => {
      const before = await typeCount(t().app, privateId);
      const response = await as('owner').post('elements/type/', { corpus: privateId, ...fields });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
      expect(await typeCount(t().app, privateId)).toBe(before);
    });

    it('names the corpus field when it is missing, not a UUID, or unknown', async () => {
      for (const [corpus, expected] of [
        [undefined, validation('corpus', 'This field is required.', 'required')],
        ['nope', validation('corpus', 'Must be a valid UUID.')],
        [UNKNOWN_ID, invalidPk('corpus', UNKNOWN_ID)],
      ] as const) {
        const response = await as('owner').post('elements/type/', {
          corpus,
          slug: 'x',
          display_name: 'X',
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(expected);
      }
    });

    it('answers an outsider exactly as for an unknown corpus, so nothing leaks', async () => {
      const response = await as('outsider').post('elements/type/', {
        corpus: privateId,
        slug: 'spy',
        display_name: 'Spy',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidPk('corpus', privateId));
    });

    it.each(CREATION_REFUSED_TO_NON_ADMINS)(
      'answers %s on a %s corpus with %i',
      async (role, which, status, expected) => {
        const id = which === 'private' ? privateId : publicId;
        const before = await typeCount(t().app, id);
        const response = await as(role).post('elements/type/', {
          corpus: id,
          slug: 'intruder',
          display_name: 'Intruder',
        });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect(await typeCount(t().app, id)).toBe(before);
      },
    );
  });

  describe('GET /elements/type/{id}/', () => {
    it('shows a type to whoever can read its corpus', async () => {
      const id = await makeType(publicId, 'readable');
      for (const role of ['anonymous', 'outsider', 'guest'] as const) {
        const response = await as(role).get(`elements/type/${id}/`);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ id, corpus: publicId, slug: 'readable' });
      }
    });

    it('answers 404 for types of unreadable corpora, unknown and malformed ids', async () => {
      const id = await makeType(privateId, 'hidden');
      for (const [role, path] of [
        ['outsider', id],
        ['anonymous', id],
        ['siteAdmin', UNKNOWN_ID],
        ['siteAdmin', 'not-a-uuid'],
      ] as const) {
        const response = await as(role).get(`elements/type/${path}/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });
  });

  describe('PATCH /elements/type/{id}/', () => {
    it('updates slug, display name, folder and colour', async () => {
      const id = await makeType(privateId, 'draft');
      const response = await as('owner').patch(`elements/type/${id}/`, {
        slug: 'charter',
        display_name: 'Charter',
        folder: true,
        color: 'AbCdEf',
        corpus: publicId,
      });
      expect(response.statusCode).toBe(200);
      // The corpus is not editable: an unknown field for this call.
      expect(response.json()).toEqual({
        id,
        corpus: privateId,
        slug: 'charter',
        display_name: 'Charter',
        folder: true,
        color: 'abcdef',
      });
      expect((await as('guest').get(`elements/type/${id}/`)).json()).toEqual(response.json());
    });

    it("keeps the corpus' top_level_type pointing at a renamed type", async () => {
      const corpusId = await makeCorpus(t().app, actors, { name: 'Renaming' });
      const id = await makeType(corpusId, 'volume');
      await as('owner').patch(`corpus/${corpusId}/`, { top_level_type: 'volume' });
      const response = await as('owner').patch(`elements/type/${id}/`, { slug: 'tome' });
      expect(response.statusCode).toBe(200);
      expect((await as('owner').get(`corpus/${corpusId}/`)).json().top_level_type).toBe('tome');
    });

    it('refuses a slug taken by another type of the corpus, and accepts its own', async () => {
      const id = await makeType(privateId, 'unique_one');
      const taken = await as('owner').patch(`elements/type/${id}/`, { slug: 'page' });
      expect(taken.statusCode).toBe(400);
      expect(taken.json()).toEqual(DUPLICATE);
      expect((await as('owner').get(`elements/type/${id}/`)).json().slug).toBe('unique_one');
      const same = await as('owner').patch(`elements/type/${id}/`, { slug: 'unique_one' });
      expect(same.statusCode).toBe(200);
    });

    it.each([
      [{ slug: 'a b' }, 'slug'],
      [{ display_name: '' }, 'display_name'],
      [{ folder: 'no' }, 'folder'],
      [{ color: 'fff' }, 'color'],
    ])('answers 400 to %j naming %s', async (body, attr) => {
      const id = await makeType(privateId, `bad_${attr}`);
      const response = await as('owner').patch(`elements/type/${id}/`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([expect.objectContaining({ attr })]);
      expect((await as('owner').get(`elements/type/${id}/`)).json()).toMatchObject({
        slug: `bad_${attr}`,
        folder: false,
        color: '28b62c',
      });
    });

    it('lets a site admin edit a type', async () => {
      const id = await makeType(privateId, 'admin_edit');
      const response = await as('siteAdmin').patch(`elements/type/${id}/`, {
        display_name: 'Edited',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().display_name).toBe('Edited');
    });

    it.each(REFUSED_TO_NON_ADMINS)(
      'answers %s on a %s corpus with %i',
      async (role, which, status, expected) => {
        const id = await makeType(
          which === 'private' ? privateId : publicId,
          `patch_${role}_${which}`,
        );
        const response = await as(role).patch(`elements/type/${id}/`, { display_name: 'Hijacked' });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect((await as('owner').get(`elements/type/${id}/`)).json().display_name).toBe(
          `patch_${role}_${which}`,
        );
      },
    );

    it.each(['not-a-uuid', UNKNOWN_ID])('answers 404 to the id %s', async (id) => {
      const response = await as('siteAdmin').patch(`elements/type/${id}/`, { display_name: 'x' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('DELETE /elements/type/{id}/', () => {
    it('deletes the type', async () => {
      const id = await makeType(privateId, 'short_lived');
      const response = await as('owner').delete(`elements/type/${id}/`);
      expect(response.statusCode).toBe(204);
      expect((await as('owner').get(`elements/type/${id}/`)).statusCode).toBe(404);
      const corpus = (await as('owner').get(`corpus/${privateId}/`)).json();
      expect(corpus.types.map((type: { id: string }) => type.id)).not.toContain(id);
    });

    it("resets the corpus' top_level_type when that type goes", async () => {
      const corpusId = await makeCorpus(t().app, actors, { name: 'Top level' });
      const folder = (await as('owner').get(`corpus/${corpusId}/`))
        .json()
        .types.find((type: { slug: string }) => type.slug === 'folder');
      await as('owner').patch(`corpus/${corpusId}/`, { top_level_type: 'folder' });
      expect((await as('owner').delete(`elements/type/${folder.id}/`)).statusCode).toBe(204);
      expect((await as('owner').get(`corpus/${corpusId}/`)).json().top_level_type).toBeNull();
    });

    it('leaves top_level_type alone when another type goes', async () => {
      const corpusId = await makeCorpus(t().app, actors, { name: 'Top level kept' });
      const id = await makeType(corpusId, 'extra');
      await as('owner').patch(`corpus/${corpusId}/`, { top_level_type: 'folder' });
      expect((await as('owner').delete(`elements/type/${id}/`)).statusCode).toBe(204);
      expect((await as('owner').get(`corpus/${corpusId}/`)).json().top_level_type).toBe('folder');
    });

    it('lets a site admin delete a type', async () => {
      const id = await makeType(privateId, 'admin_delete');
      expect((await as('siteAdmin').delete(`elements/type/${id}/`)).statusCode).toBe(204);
    });

    it.each(REFUSED_TO_NON_ADMINS)(
      'answers %s on a %s corpus with %i and keeps the type',
      async (role, which, status, expected) => {
        const id = await makeType(
          which === 'private' ? privateId : publicId,
          `del_${role}_${which}`,
        );
        const response = await as(role).delete(`elements/type/${id}/`);
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect((await as('owner').get(`elements/type/${id}/`)).statusCode).toBe(200);
      },
    );

    it.each(['not-a-uuid', UNKNOWN_ID])('answers 404 to the id %s', async (id) => {
      const response = await as('siteAdmin').delete(`elements/type/${id}/`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });
});
