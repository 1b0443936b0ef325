import { beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, describeEachDialect } from '../harness';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  denied,
  invalidPk,
  validation,
} from '../expectedErrors';
import { clientAs, makeModel, makeModelCast, type ModelCast, type ModelRole } from './fixtures';

const NOT_MODEL_ADMIN = denied('An admin access level is required for this action on a model.');
const LAST_ADMIN = 'A model must keep at least one admin.';

interface Entry {
  id: string;
  level: number;
  user: { id: string; email: string };
}

describeEachDialect('model memberships', ({ t }) => {
  let cast: ModelCast;
  const as = (role: ModelRole | 'anonymous') => clientAs(t().app, cast, role);

  async function members(modelId: string): Promise<Entry[]> {
    const response = await as('owner').get(`model/${modelId}/memberships/`);
    expect(response.statusCode).toBe(200);
    return response.json().results;
  }

  const entryOf = async (modelId: string, userId: string) =>
    (await members(modelId)).find((entry) => entry.user.id === userId)!;

  beforeAll(async () => {
    cast = await makeModelCast(t().app);
  });

  describe('GET /model/{id}/memberships/', () => {
    it('lists members by level for members and site admins', async () => {
      const id = await makeModel(t().app, cast);
      const levels = (await members(id)).map((entry) => [entry.user.id, entry.level]);
      expect(levels).toEqual([
        [cast.owner.id, 100],
        [cast.unverified.id, 100],
        [cast.contributor.id, 50],
        [cast.guest.id, 10],
      ]);
      for (const role of ['guest', 'siteAdmin'] as const) {
        expect((await as(role).get(`model/${id}/memberships/`)).json().count).toBe(4);
      }
    });

    it('hides the list from readers of a public model and outsiders', async () => {
      const publicId = await makeModel(t().app, cast, { public: true });
      const reader = await as('outsider').get(`model/${publicId}/memberships/`);
      expect([reader.statusCode, reader.json()]).toEqual([
        403,
        denied('Only members of this model can see its members.'),
      ]);
      const privateId = await makeModel(t().app, cast);
      const outsider = await as('outsider').get(`model/${privateId}/memberships/`);
      expect([outsider.statusCode, outsider.json()]).toEqual([404, NOT_FOUND]);
      const anonymous = await as('anonymous').get(`model/${privateId}/memberships/`);
      expect([anonymous.statusCode, anonymous.json()]).toEqual([401, NOT_AUTHENTICATED]);
      expect((await as('owner').get('model/nope/memberships/')).statusCode).toBe(404);
    });
  });

  describe('POST /memberships/ with model_id', () => {
    it('lets model admins and site admins add members', async () => {
      const id = await makeModel(t().app, cast);
      const newcomer = await createTestUser(t().app);
      const added = await as('owner').post('memberships/', {
        model_id: id,
        user_email: newcomer.email.toUpperCase(),
        level: 50,
      });
      expect(added.statusCode).toBe(201);
      expect(added.json()).toMatchObject({ level: 50, user: { id: newcomer.id } });
      // The newcomer now reads and writes the model.
      const asNewcomer = clientAs(t().app, { ...cast, owner: newcomer }, 'owner');
      expect((await asNewcomer.get(`model/${id}/`)).json().rights).toEqual(['read', 'write']);

      const other = await createTestUser(t().app);
      const bySiteAdmin = await as('siteAdmin').post('memberships/', {
        model_id: id,
        user_email: other.email,
        level: 10,
      });
      expect(bySiteAdmin.statusCode).toBe(201);
    });

    it('refuses non-admins, hides unreadable models', async () => {
      const id = await makeModel(t().app, cast);
      const body = { model_id: id, user_email: cast.outsider.email, level: 10 };
      for (const role of ['contributor', 'guest'] as const) {
        const response = await as(role).post('memberships/', body);
        expect([response.statusCode, response.json()]).toEqual([403, NOT_MODEL_ADMIN]);
      }
      const outsider = await as('outsider').post('memberships/', body);
      expect([outsider.statusCode, outsider.json()]).toEqual([400, invalidPk('model_id', id)]);
      expect((await as('anonymous').post('memberships/', body)).statusCode).toBe(401);
      expect((await members(id)).some((entry) => entry.user.id === cast.outsider.id)).toBe(false);
    });

    it('refuses bad input', async () => {
      const id = await makeModel(t().app, cast);
      const cases: [unknown, number, object][] = [
        [
          { model_id: UNKNOWN_ID, user_email: cast.outsider.email, level: 10 },
          400,
          invalidPk('model_id', UNKNOWN_ID),
        ],
        [
          { model_id: 'nope', user_email: cast.outsider.email, level: 10 },
          400,
          validation('model_id', 'Must be a valid UUID.'),
        ],
        [
          { model_id: id, user_email: 'nobody@example.com', level: 10 },
          400,
          validation('user_email', 'No user with this email address exists.', 'does_not_exist'),
        ],
        [
          { model_id: id, user_email: cast.outsider.email, level: 42 },
          400,
          validation('level', '"42" is not a valid choice.', 'invalid_choice'),
        ],
        [
          { model_id: id, corpus_id: UNKNOWN_ID, user_email: cast.outsider.email, level: 10 },
          400,
          validation(
            'non_field_errors',
            'A membership is either on a project (corpus_id) or on a model (model_id), not both.',
          ),
        ],
      ];
      for (const [body, status, error] of cases) {
        const response = await as('owner').post('memberships/', body);
        expect([response.statusCode, response.json()]).toEqual([status, error]);
      }
      const twice = await as('owner').post('memberships/', {
        model_id: id,
        user_email: cast.guest.email,
        level: 50,
      });
      expect(twice.statusCode).toBe(409);
      expect(twice.json().existing_id).toBe((await entryOf(id, cast.guest.id)).id);
    });

    it('still adds project members with corpus_id', async () => {
      const corpus = await as('owner').post('corpus/', { name: 'Project' });
      const added = await as('owner').post('memberships/', {
        corpus_id: corpus.json().id,
        user_email: cast.guest.email,
        level: 10,
      });
      expect(added.statusCode).toBe(201);
    });
  });

  describe('PATCH and DELETE /membership/{id}/', () => {
    it('lets admins change levels and remove members, keeping one admin', async () => {
      const id = await makeModel(t().app, cast);
      const guest = await entryOf(id, cast.guest.id);
      const promoted = await as('owner').patch(`membership/${guest.id}/`, { level: 50 });
      expect([promoted.statusCode, promoted.json().level]).toEqual([200, 50]);
      expect((await as('guest').get(`model/${id}/`)).json().rights).toEqual(['read', 'write']);

      const unverified = await entryOf(id, cast.unverified.id);
      expect((await as('owner').delete(`membership/${unverified.id}/`)).statusCode).toBe(204);
      const owner = await entryOf(id, cast.owner.id);
      const demote = await as('owner').patch(`membership/${owner.id}/`, { level: 10 });
      expect([demote.statusCode, demote.json()]).toEqual([
        400,
        validation('level', LAST_ADMIN, 'last_admin'),
      ]);
      const leave = await as('owner').delete(`membership/${owner.id}/`);
      expect([leave.statusCode, leave.json()]).toEqual([
        400,
        validation('non_field_errors', LAST_ADMIN, 'last_admin'),
      ]);
      expect((await entryOf(id, cast.owner.id)).level).toBe(100);
    });

    it('refuses non-admins, lets members leave, hides memberships of unreadable models', async () => {
      const id = await makeModel(t().app, cast);
      const contributor = await entryOf(id, cast.contributor.id);
      const guest = await entryOf(id, cast.guest.id);
      const raise = await as('contributor').patch(`membership/${guest.id}/`, { level: 100 });
      expect([raise.statusCode, raise.json()]).toEqual([403, NOT_MODEL_ADMIN]);
      const outsider = await as('outsider').patch(`membership/${guest.id}/`, { level: 100 });
      expect([outsider.statusCode, outsider.json()]).toEqual([404, NOT_FOUND]);
      const bad = await as('owner').patch(`membership/${guest.id}/`, { level: 'high' });
      expect(bad.statusCode).toBe(400);
      expect((await entryOf(id, cast.guest.id)).level).toBe(10);

      expect((await as('contributor').delete(`membership/${contributor.id}/`)).statusCode).toBe(
        204,
      );
      expect((await as('contributor').get(`model/${id}/`)).statusCode).toBe(404);
      const removeOther = await as('guest').delete(
        `membership/${(await entryOf(id, cast.owner.id)).id}/`,
      );
      expect(removeOther.statusCode).toBe(403);
      expect((await as('siteAdmin').delete(`membership/${guest.id}/`)).statusCode).toBe(204);
      expect((await as('owner').delete('membership/not-a-uuid/')).statusCode).toBe(404);
    });
  });
});
