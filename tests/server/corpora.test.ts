import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Client, createTestUser, describeEachDialect } from './harness';
import {
  PROJECT_ROLES,
  UNVERIFIED,
  clientFor,
  makeCast,
  makeCorpus,
  type Cast,
  type ProjectRole,
} from './actors';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  REFUSED_TO_NON_ADMINS,
  UNKNOWN_ID,
  UUID,
  validation,
} from './expectedErrors';

/** Here the unverified user belongs to no project. */
type Actors = Cast<ProjectRole | 'unverified'>;
type Role = keyof Actors | 'anonymous';

async function corpusCount(app: FastifyInstance): Promise<number> {
  const row = await app.db
    .selectFrom('corpora')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDialect('corpora', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    actors = await makeCast(t().app, { ...PROJECT_ROLES, unverified: UNVERIFIED });
    privateId = await makeCorpus(t().app, actors, { name: 'Alpha private' });
    publicId = await makeCorpus(t().app, actors, { name: 'Beta public', public: true });
  });

  describe('POST /corpus/', () => {
    it('creates the corpus with default types and the creator as its only admin', async () => {
      const response = await as('owner').post('corpus/', {
        name: '  Registers of Arras  ',
        description: 'Parish **registers**',
      });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Registers of Arras',
        description: 'Parish **registers**',
        public: false,
        indexable: false,
        created: expect.any(String),
        types: [
          {
            id: expect.stringMatching(UUID),
            slug: 'folder',
            display_name: 'Folder',
            folder: true,
            color: expect.any(String),
          },
          {
            id: expect.stringMatching(UUID),
            slug: 'page',
            display_name: 'Page',
            folder: false,
            color: expect.any(String),
          },
          {
            id: expect.stringMatching(UUID),
            slug: 'paragraph',
            display_name: 'Paragraph',
            folder: false,
            color: expect.any(String),
          },
          {
            id: expect.stringMatching(UUID),
            slug: 'text_line',
            display_name: 'Text line',
            folder: false,
            color: expect.any(String),
          },
        ],
        rights: ['read', 'write', 'admin'],
        top_level_type: null,
        authorized_users: 1,
      });
      expect(new Date(body.created).toISOString()).toBe(body.created);
      const colors = body.types.map((type: { color: string }) => type.color);
      for (const color of colors) expect(color).toMatch(/^[0-9a-f]{6}$/);
      expect(new Set(colors).size).toBe(4);

      const members = (await as('owner').get(`corpus/${body.id}/memberships/`)).json();
      expect(members.results).toEqual([
        expect.objectContaining({
          level: 100,
          user: expect.objectContaining({ id: actors.owner.id }),
        }),
      ]);
      expect((await as('owner').get(`corpus/${body.id}/`)).json()).toEqual(body);
    });

    it('takes public and defaults the description to empty, ignoring unknown fields', async () => {
      const response = await as('owner').post('corpus/', {
        name: 'Open data',
        public: true,
        indexable: true,
        colour: 'blue',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ public: true, description: '', indexable: false });
    });

    it('lets a site admin create without a verified e-mail', async () => {
      const admin = await createTestUser(t().app, { admin: true, verified: false });
      const response = await new Client(t().app, admin.token).post('corpus/', { name: 'By admin' });
      expect(response.statusCode).toBe(201);
      expect(response.json().rights).toEqual(['read', 'write', 'admin']);
    });

    it('refuses anonymous callers with 401 and unverified users with 403, storing nothing', async () => {
      const before = await corpusCount(t().app);
      const anonymous = await as('anonymous').post('corpus/', { name: 'Nope' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual(NOT_AUTHENTICATED);
      const unverified = await as('unverified').post('corpus/', { name: 'Nope' });
      expect(unverified.statusCode).toBe(403);
      expect(unverified.json()).toEqual({
        type: 'client_error',
        errors: [
          {
            code: 'permission_denied',
            detail: 'You must verify your email address to perform this action.',
            attr: null,
          },
        ],
      });
      expect(await corpusCount(t().app)).toBe(before);
    });

    it.each([
      [{}, validation('name', 'This field is required.', 'required')],
      [{ name: '   ' }, validation('name', 'This field may not be blank.', 'blank')],
      [
        { name: 'x'.repeat(101) },
        validation('name', 'Ensure this field has no more than 100 characters.', 'max_length'),
      ],
      [{ name: 5 }, validation('name', 'Not a valid string.')],
      [{ name: 'Ok', public: 'yes' }, validation('public', 'Must be a valid boolean.')],
      [
        { name: 'Ok', description: null },
        validation('description', 'This field may not be null.', 'null'),
      ],
      [
        ['name'],
        validation('non_field_errors', 'Invalid data. Expected a dictionary, but got list.'),
      ],
    ])('answers 400 naming the field for %j and stores nothing', async (body, expected) => {
      const before = await corpusCount(t().app);
      const response = await as('owner').post('corpus/', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
      expect(await corpusCount(t().app)).toBe(before);
    });

    it('answers 400 to malformed JSON and to a missing body', async () => {
      const malformed = await as('owner').post('corpus/', '{"name": ');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({
        type: 'client_error',
        errors: [{ code: 'parse_error', attr: null }],
      });
      const empty = await as('owner').post('corpus/');
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toEqual(validation('name', 'This field is required.', 'required'));
    });
  });

  describe('GET /corpus/', () => {
    it('gives anonymous callers the public corpora only, as a plain array', async () => {
      const response = await as('anonymous').get('corpus/');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Array.isArray(body)).toBe(true);
      const ids = body.map((corpus: { id: string }) => corpus.id);
      expect(ids).toContain(publicId);
      expect(ids).not.toContain(privateId);
      for (const corpus of body) {
        expect(corpus.public).toBe(true);
        expect(corpus.rights).toEqual(['read']);
      }
    });

    it('gives members their corpora with their rights, and public ones read-only', async () => {
      const guest = (await as('guest').get('corpus/')).json();
      const byId = new Map(guest.map((corpus: { id: string }) => [corpus.id, corpus]));
      expect(byId.get(privateId)).toMatchObject({
        name: 'Alpha private',
        rights: ['read'],
        authorized_users: 3,
      });
      expect(byId.get(publicId)).toMatchObject({ rights: ['read'] });
      const contributor = (await as('contributor').get('corpus/')).json();
      expect(contributor.find((corpus: { id: string }) => corpus.id === privateId).rights).toEqual([
        'read',
        'write',
      ]);
    });

    it('hides private corpora from outsiders and shows every corpus to site admins', async () => {
      const outsider = (await as('outsider').get('corpus/')).json();
      const outsiderIds = outsider.map((corpus: { id: string }) => corpus.id);
      expect(outsiderIds).toContain(publicId);
      expect(outsiderIds).not.toContain(privateId);

      const admin = (await as('siteAdmin').get('corpus/')).json();
      expect(admin.length).toBe(await corpusCount(t().app));
      for (const corpus of admin) expect(corpus.rights).toEqual(['read', 'write', 'admin']);
    });

    it('orders by name, then id', async () => {
      const user = await createTestUser(t().app);
      const client = new Client(t().app, user.token);
      const made: string[] = [];
      for (const name of ['Zeta', 'Delta', 'Delta', 'Alpha']) {
        made.push((await client.post('corpus/', { name })).json().id);
      }
      const mine = (await client.get('corpus/'))
        .json()
        .filter((corpus: { id: string }) => made.includes(corpus.id));
      const deltas = [made[1], made[2]].sort();
      expect(mine.map((corpus: { id: string }) => corpus.id)).toEqual([
        made[3],
        deltas[0],
        deltas[1],
        made[0],
      ]);
    });
  });

  describe('GET /corpus/{id}/', () => {
    it.each([
      ['owner', ['read', 'write', 'admin']],
      ['contributor', ['read', 'write']],
      ['guest', ['read']],
      ['siteAdmin', ['read', 'write', 'admin']],
    ] as const)('gives %s the rights %j on a private corpus', async (role, rights) => {
      const response = await as(role).get(`corpus/${privateId}/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: privateId, rights, authorized_users: 3 });
    });

    it.each(['anonymous', 'outsider'] as const)(
      'lets %s read a public corpus with the read right only',
      async (role) => {
        const response = await as(role).get(`corpus/${publicId}/`);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ id: publicId, public: true, rights: ['read'] });
      },
    );

    it.each(['anonymous', 'outsider', 'unverified'] as const)(
      'answers 404 to %s for a private corpus',
      async (role) => {
        const response = await as(role).get(`corpus/${privateId}/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      },
    );

    it.each(['not-a-uuid', UNKNOWN_ID, `${privateId}x`, '%00'])(
      'answers a structured 404 to the id %s',
      async (id) => {
        const response = await as('siteAdmin').get(`corpus/${id}/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      },
    );
  });

  describe('PATCH /corpus/{id}/', () => {
    let corpusId: string;
    beforeAll(async () => {
      corpusId = await makeCorpus(t().app, actors, { name: 'To edit' });
    });

    it('updates name, description, public, indexable and top_level_type', async () => {
      const response = await as('owner').patch(`corpus/${corpusId}/`, {
        name: ' Edited ',
        description: 'New text',
        public: true,
        indexable: true,
        top_level_type: 'folder',
        ignored: 'field',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: corpusId,
        name: 'Edited',
        description: 'New text',
        public: true,
        indexable: true,
        top_level_type: 'folder',
        rights: ['read', 'write', 'admin'],
      });
      expect((await as('anonymous').get(`corpus/${corpusId}/`)).json()).toMatchObject({
        name: 'Edited',
        top_level_type: 'folder',
      });

      const reset = await as('owner').patch(`corpus/${corpusId}/`, {
        public: false,
        top_level_type: null,
      });
      expect(reset.json()).toMatchObject({ public: false, top_level_type: null });
      expect((await as('anonymous').get(`corpus/${corpusId}/`)).statusCode).toBe(404);
    });

    it('answers an empty body with the unchanged corpus', async () => {
      const before = (await as('owner').get(`corpus/${corpusId}/`)).json();
      const response = await as('owner').patch(`corpus/${corpusId}/`, {});
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(before);
    });

    it("refuses a top_level_type that is not one of the corpus' types", async () => {
      const other = (await as('owner').post('corpus/', { name: 'Other' })).json();
      const made = await as('owner').post('elements/type/', {
        corpus: other.id,
        slug: 'volume',
        display_name: 'Volume',
      });
      expect(made.statusCode).toBe(201);
      const response = await as('owner').patch(`corpus/${corpusId}/`, { top_level_type: 'volume' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        validation('top_level_type', 'Object with slug=volume does not exist.', 'does_not_exist'),
      );
      expect((await as('owner').get(`corpus/${corpusId}/`)).json().top_level_type).toBeNull();
    });

    it.each([
      [{ name: '' }, validation('name', 'This field may not be blank.', 'blank')],
      [{ name: 5 }, validation('name', 'Not a valid string.')],
      [{ public: 'yes' }, validation('public', 'Must be a valid boolean.')],
      [{ indexable: 1 }, validation('indexable', 'Must be a valid boolean.')],
      [{ top_level_type: 3 }, validation('top_level_type', 'Not a valid string.')],
    ])('answers 400 to %j and changes nothing', async (body, expected) => {
      const before = (await as('owner').get(`corpus/${corpusId}/`)).json();
      const response = await as('owner').patch(`corpus/${corpusId}/`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
      expect((await as('owner').get(`corpus/${corpusId}/`)).json()).toEqual(before);
    });

    it('lets a site admin edit any corpus', async () => {
      const response = await as('siteAdmin').patch(`corpus/${corpusId}/`, {
        description: 'By admin',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().description).toBe('By admin');
    });

    it.each([...REFUSED_TO_NON_ADMINS, ['anonymous', 'public', 401, NOT_AUTHENTICATED] as const])(
      'answers %s on a %s corpus with %i',
      async (role, which, status, expected) => {
        const id = which === 'private' ? privateId : publicId;
        const before = (await as('owner').get(`corpus/${id}/`)).json();
        // An invalid body too: rights are checked before the body is read.
        const response = await as(role).patch(`corpus/${id}/`, { name: 'Taken over', public: 'x' });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect((await as('owner').get(`corpus/${id}/`)).json()).toEqual(before);
      },
    );

    it.each(['not-a-uuid', UNKNOWN_ID])('answers 404 to the id %s', async (id) => {
      const response = await as('siteAdmin').patch(`corpus/${id}/`, { name: 'x' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('DELETE /corpus/{id}/', () => {
    it('deletes the corpus with its types and memberships', async () => {
      const id = await makeCorpus(t().app, actors, { name: 'Doomed' });
      const response = await as('owner').delete(`corpus/${id}/`);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await as('owner').get(`corpus/${id}/`)).statusCode).toBe(404);
      const db = t().app.db;
      const types = await db
        .selectFrom('element_types')
        .select('id')
        .where('corpus_id', '=', id)
        .execute();
      const members = await db
        .selectFrom('memberships')
        .select('id')
        .where('corpus_id', '=', id)
        .execute();
      expect(types).toEqual([]);
      expect(members).toEqual([]);
    });

    it('lets a site admin delete any corpus', async () => {
      const id = await makeCorpus(t().app, actors, { name: 'Doomed by admin' });
      expect((await as('siteAdmin').delete(`corpus/${id}/`)).statusCode).toBe(204);
      expect((await as('siteAdmin').get(`corpus/${id}/`)).statusCode).toBe(404);
    });

    it.each(REFUSED_TO_NON_ADMINS)(
      'answers %s on a %s corpus with %i and keeps it',
      async (role, which, status, expected) => {
        const id = which === 'private' ? privateId : publicId;
        const response = await as(role).delete(`corpus/${id}/`);
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect((await as('owner').get(`corpus/${id}/`)).statusCode).toBe(200);
      },
    );

    it.each(['not-a-uuid', UNKNOWN_ID])('answers 404 to the id %s', async (id) => {
      const response: LightMyRequestResponse = await as('siteAdmin').delete(`corpus/${id}/`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });
});
