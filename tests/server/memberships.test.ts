import { beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestUser, describeEachDialect, type TestUser } from './harness';
import { clientFor, makeCast, type Cast, type ProjectRole } from './actors';
import {
  CREATION_REFUSED_TO_NON_ADMINS,
  INVALID_PAGE,
  NOT_ADMIN,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
  invalidPk,
  validation,
} from './expectedErrors';

const NOT_MEMBER = denied('Only members of this project can see its members.');
const LAST_ADMIN = 'A project must keep at least one admin.';

interface Entry {
  id: string;
  level: number;
  created: string;
  user: { id: string; email: string; display_name: string };
}

describeEachDialect('memberships', ({ t }) => {
  let actors: Cast<ProjectRole>;
  let privateId: string;
  let publicId: string;
  const as = (role: ProjectRole | 'anonymous') => clientFor(t().app, actors, role);

  async function add(corpusId: string, user: TestUser, level: number): Promise<Entry> {
    const response = await as('owner').post('memberships/', {
      corpus_id: corpusId,
      user_email: user.email,
      level,
    });
    expect(response.statusCode).toBe(201);
    return response.json();
  }

  /** A private corpus of `owner`, with the contributor and the guest. */
  async function makeCorpus(body: Record<string, unknown> = { name: 'Corpus' }) {
    const id = (await as('owner').post('corpus/', body)).json().id as string;
    const contributor = await add(id, actors.contributor, 50);
    const guest = await add(id, actors.guest, 10);
    const entries: Entry[] = (await as('owner').get(`corpus/${id}/memberships/`)).json().results;
    const owner = entries.find((entry) => entry.user.id === actors.owner.id)!;
    return { id, owner, contributor, guest };
  }

  async function levelOf(membershipId: string): Promise<number | undefined> {
    const row = await t()
      .app.db.selectFrom('memberships')
      .select('level')
      .where('id', '=', membershipId)
      .executeTakeFirst();
    return row?.level;
  }

  beforeAll(async () => {
    const app = t().app;
    // Full names, as the list is ordered by them.
    actors = await makeCast(app, {
      owner: { displayName: 'Olga Owner' },
      contributor: { displayName: 'Carl Contributor' },
      guest: { displayName: 'Gina Guest' },
      outsider: { displayName: 'Oscar Outsider' },
      siteAdmin: { displayName: 'Sam Admin', admin: true },
    });
    privateId = (await makeCorpus({ name: 'Private' })).id;
    publicId = (await makeCorpus({ name: 'Public', public: true })).id;
  });

  describe('GET /corpus/{id}/memberships/', () => {
    it('lists members by level, then display name', async () => {
      const id = (await makeCorpus()).id;
      const second = await createTestUser(t().app, { displayName: 'Anna Admin' });
      await add(id, second, 100);
      const response = await as('guest').get(`corpus/${id}/memberships/`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ count: 4, number: 1, next: null, previous: null });
      expect(body.results.map((entry: Entry) => [entry.level, entry.user.display_name])).toEqual([
        [100, 'Anna Admin'],
        [100, 'Olga Owner'],
        [50, 'Carl Contributor'],
        [10, 'Gina Guest'],
      ]);
      expect(body.results[3]).toEqual({
        id: expect.stringMatching(UUID),
        level: 10,
        created: expect.any(String),
        user: { id: actors.guest.id, email: actors.guest.email, display_name: 'Gina Guest' },
      });
    });

    it('pages with absolute next and previous links built from the request', async () => {
      const id = (await makeCorpus()).id;
      const base = `http://folia.example:8443/api/v1/corpus/${id}/memberships/`;
      const host = { host: 'folia.example:8443' };
      const first = await as('owner').get(`corpus/${id}/memberships/?page_size=2&ordering=x`, host);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({
        count: 3,
        number: 1,
        previous: null,
        next: `${base}?page_size=2&ordering=x&page=2`,
      });
      expect(first.json().results).toHaveLength(2);

      const second = await as('owner').get(`corpus/${id}/memberships/?page=2&page_size=2`, host);
      expect(second.json()).toMatchObject({
        count: 3,
        number: 2,
        next: null,
        previous: `${base}?page_size=2`,
      });
      expect(second.json().results.map((entry: Entry) => entry.user.id)).toEqual([actors.guest.id]);

      const last = await as('owner').get(`corpus/${id}/memberships/?page=last&page_size=1`, host);
      expect(last.json()).toMatchObject({
        number: 3,
        next: null,
        previous: `${base}?page=2&page_size=1`,
      });
    });

    it('answers "Invalid page." past the end and for a page that is not a number', async () => {
      for (const page of ['2', '0', 'abc', '-1']) {
        const response = await as('owner').get(`corpus/${privateId}/memberships/?page=${page}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(INVALID_PAGE);
      }
    });

    it('falls back to the default page size for a bad one, and caps a huge one', async () => {
      for (const size of ['abc', '0', '100000']) {
        const response = await as('owner').get(
          `corpus/${privateId}/memberships/?page_size=${size}`,
        );
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ count: 3, next: null });
        expect(response.json().results).toHaveLength(3);
      }
    });

    it.each(['owner', 'contributor', 'guest', 'siteAdmin'] as const)(
      'lets %s read the list',
      async (role) => {
        const response = await as(role).get(`corpus/${privateId}/memberships/`);
        expect(response.statusCode).toBe(200);
        expect(response.json().count).toBe(3);
      },
    );

    it.each([
      ['outsider', 'private', 404, NOT_FOUND],
      ['anonymous', 'private', 404, NOT_FOUND],
      ['outsider', 'public', 403, NOT_MEMBER],
      ['anonymous', 'public', 401, NOT_AUTHENTICATED],
    ] as const)('answers %s on a %s corpus with %i', async (role, which, status, expected) => {
      const id = which === 'private' ? privateId : publicId;
      const response = await as(role).get(`corpus/${id}/memberships/`);
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(expected);
    });

    it.each(['not-a-uuid', UNKNOWN_ID])('answers 404 to the corpus id %s', async (id) => {
      const response = await as('siteAdmin').get(`corpus/${id}/memberships/`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('POST /memberships/', () => {
    it('adds a user found by e-mail, whatever its case, who can then read the corpus', async () => {
      const { id } = await makeCorpus();
      const newcomer = await createTestUser(t().app, { displayName: 'New Comer' });
      expect((await new Client(t().app, newcomer.token).get(`corpus/${id}/`)).statusCode).toBe(404);
      const response = await as('owner').post('memberships/', {
        corpus_id: id,
        user_email: ` ${newcomer.email.toUpperCase()} `,
        level: 50,
        extra: true,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.stringMatching(UUID),
        level: 50,
        created: expect.any(String),
        user: { id: newcomer.id, email: newcomer.email, display_name: 'New Comer' },
      });
      const corpus = await new Client(t().app, newcomer.token).get(`corpus/${id}/`);
      expect(corpus.statusCode).toBe(200);
      expect(corpus.json()).toMatchObject({ rights: ['read', 'write'], authorized_users: 4 });
    });

    it('answers 409 with the existing membership for a member', async () => {
      const { id, guest } = await makeCorpus();
      const response = await as('owner').post('memberships/', {
        corpus_id: id,
        user_email: actors.guest.email,
        level: 100,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        type: 'client_error',
        errors: [
          {
            code: 'conflict',
            detail: 'This user is already a member of this project.',
            attr: null,
          },
        ],
        existing_id: guest.id,
      });
      expect(await levelOf(guest.id)).toBe(10);
    });

    it('lets a site admin add members to any corpus', async () => {
      const { id } = await makeCorpus();
      const response = await as('siteAdmin').post('memberships/', {
        corpus_id: id,
        user_email: actors.outsider.email,
        level: 10,
      });
      expect(response.statusCode).toBe(201);
    });

    it.each([
      [
        { user_email: 'nobody@example.com' },
        validation('user_email', 'No user with this email address exists.', 'does_not_exist'),
      ],
      [{ user_email: 'not an email' }, validation('user_email', 'Enter a valid email address.')],
      [{ user_email: 5 }, validation('user_email', 'Not a valid string.')],
      [{ level: 20 }, validation('level', '"20" is not a valid choice.', 'invalid_choice')],
      [{ level: '50' }, validation('level', 'A valid integer is required.')],
      [{ level: undefined }, validation('level', 'This field is required.', 'required')],
      [{ corpus_id: 'abc' }, validation('corpus_id', 'Must be a valid UUID.')],
      [{ corpus_id: UNKNOWN_ID }, invalidPk('corpus_id', UNKNOWN_ID)],
    ])('answers 400 to %j and stores nothing', async (fields, expected) => {
      const stranger = await createTestUser(t().app);
      const response = await as('owner').post('memberships/', {
        corpus_id: privateId,
        user_email: stranger.email,
        level: 50,
        ...fields,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
      const rows = await t()
        .app.db.selectFrom('memberships')
        .select('id')
        .where('user_id', '=', stranger.id)
        .execute();
      expect(rows).toEqual([]);
    });

    it('answers an outsider of a private corpus as for an unknown one', async () => {
      const response = await as('outsider').post('memberships/', {
        corpus_id: privateId,
        user_email: actors.outsider.email,
        level: 100,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(invalidPk('corpus_id', privateId));
    });

    it.each(CREATION_REFUSED_TO_NON_ADMINS)(
      'answers %s on a %s corpus with %i',
      async (role, which, status, expected) => {
        const stranger = await createTestUser(t().app);
        const response = await as(role).post('memberships/', {
          corpus_id: which === 'private' ? privateId : publicId,
          user_email: stranger.email,
          level: 100,
        });
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
      },
    );
  });

  describe('PATCH /membership/{id}/', () => {
    it('changes a level, which changes the rights', async () => {
      const { id, guest } = await makeCorpus();
      const response = await as('owner').patch(`membership/${guest.id}/`, { level: 50 });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ...guest, level: 50 });
      expect((await as('guest').get(`corpus/${id}/`)).json().rights).toEqual(['read', 'write']);
    });

    it('refuses to downgrade the last admin, but allows it when another admin stays', async () => {
      const { id, owner, contributor } = await makeCorpus();
      const refused = await as('owner').patch(`membership/${owner.id}/`, { level: 50 });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual(validation('level', LAST_ADMIN, 'last_admin'));
      expect(await levelOf(owner.id)).toBe(100);

      await as('owner').patch(`membership/${contributor.id}/`, { level: 100 });
      const allowed = await as('owner').patch(`membership/${owner.id}/`, { level: 10 });
      expect(allowed.statusCode).toBe(200);
      expect((await as('owner').get(`corpus/${id}/`)).json().rights).toEqual(['read']);
      const last = await as('contributor').patch(`membership/${contributor.id}/`, { level: 50 });
      expect(last.statusCode).toBe(400);
    });

    it('refuses a site admin the last admin downgrade too', async () => {
      const { owner } = await makeCorpus();
      const response = await as('siteAdmin').patch(`membership/${owner.id}/`, { level: 10 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(validation('level', LAST_ADMIN, 'last_admin'));
    });

    it('lets a site admin change levels', async () => {
      const { guest } = await makeCorpus();
      const response = await as('siteAdmin').patch(`membership/${guest.id}/`, { level: 100 });
      expect(response.statusCode).toBe(200);
      expect(await levelOf(guest.id)).toBe(100);
    });

    it.each([
      [{ level: 75 }, validation('level', '"75" is not a valid choice.', 'invalid_choice')],
      [{ level: null }, validation('level', 'This field may not be null.', 'null')],
    ])('answers 400 to %j', async (body, expected) => {
      const { guest } = await makeCorpus();
      const response = await as('owner').patch(`membership/${guest.id}/`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
      expect(await levelOf(guest.id)).toBe(10);
    });

    it('does not let members raise their own level', async () => {
      const { contributor } = await makeCorpus();
      const response = await as('contributor').patch(`membership/${contributor.id}/`, {
        level: 100,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(NOT_ADMIN);
      expect(await levelOf(contributor.id)).toBe(50);
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['outsider', 404, NOT_FOUND],
      ['guest', 403, NOT_ADMIN],
      ['contributor', 403, NOT_ADMIN],
    ] as const)('answers %s with %i on a private corpus', async (role, status, expected) => {
      const { guest } = await makeCorpus();
      const response = await as(role).patch(`membership/${guest.id}/`, { level: 100 });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(expected);
      expect(await levelOf(guest.id)).toBe(10);
    });

    it('answers an outsider with 403 on a public corpus', async () => {
      const { guest } = await makeCorpus({ name: 'Open', public: true });
      const response = await as('outsider').patch(`membership/${guest.id}/`, { level: 100 });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(NOT_ADMIN);
    });

    it.each(['not-a-uuid', UNKNOWN_ID])('answers 404 to the id %s', async (id) => {
      const response = await as('siteAdmin').patch(`membership/${id}/`, { level: 10 });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });

  describe('DELETE /membership/{id}/', () => {
    it('lets an admin remove a member, who then loses access', async () => {
      const { id, contributor } = await makeCorpus();
      const response = await as('owner').delete(`membership/${contributor.id}/`);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(await levelOf(contributor.id)).toBeUndefined();
      expect((await as('contributor').get(`corpus/${id}/`)).statusCode).toBe(404);
    });

    it('lets a member leave', async () => {
      const { id, guest } = await makeCorpus();
      expect((await as('guest').delete(`membership/${guest.id}/`)).statusCode).toBe(204);
      expect((await as('guest').get(`corpus/${id}/`)).statusCode).toBe(404);
    });

    it('refuses removing the last admin, to them and to site admins', async () => {
      const { owner } = await makeCorpus();
      for (const role of ['owner', 'siteAdmin'] as const) {
        const response = await as(role).delete(`membership/${owner.id}/`);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(validation('non_field_errors', LAST_ADMIN, 'last_admin'));
      }
      expect(await levelOf(owner.id)).toBe(100);
    });

    it('lets an admin leave when another admin stays', async () => {
      const { id, owner, contributor } = await makeCorpus();
      await as('owner').patch(`membership/${contributor.id}/`, { level: 100 });
      expect((await as('owner').delete(`membership/${owner.id}/`)).statusCode).toBe(204);
      expect((await as('owner').get(`corpus/${id}/`)).statusCode).toBe(404);
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['outsider', 404, NOT_FOUND],
      ['guest', 403, NOT_ADMIN],
      ['contributor', 403, NOT_ADMIN],
    ] as const)(
      "answers %s with %i for someone else's membership",
      async (role, status, expected) => {
        const { id } = await makeCorpus();
        const target = await add(id, await createTestUser(t().app), 10);
        const response = await as(role).delete(`membership/${target.id}/`);
        expect(response.statusCode).toBe(status);
        expect(response.json()).toEqual(expected);
        expect(await levelOf(target.id)).toBe(10);
      },
    );

    it('answers an outsider with 403 on a public corpus', async () => {
      const { guest } = await makeCorpus({ name: 'Open', public: true });
      const response = await as('outsider').delete(`membership/${guest.id}/`);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(NOT_ADMIN);
      expect(await levelOf(guest.id)).toBe(10);
    });

    it.each(['not-a-uuid', UNKNOWN_ID])('answers 404 to the id %s', async (id) => {
      const response = await as('siteAdmin').delete(`membership/${id}/`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });
  });
});
