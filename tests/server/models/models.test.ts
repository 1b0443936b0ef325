import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
  validation,
} from '../expectedErrors';
import {
  clientAs,
  insertWorker,
  makeModel,
  makeModelCast,
  type ModelCast,
  type ModelRole,
} from './fixtures';

const NOT_VERIFIED = denied('You must verify your email address to perform this action.');
const NOT_CONTRIBUTOR = denied('A contributor access level is required to edit a model');
const NOT_MODEL_ADMIN = denied('An admin access level is required for this action on a model.');

describeEachDialect('models', ({ t }) => {
  let cast: ModelCast;
  let privateId: string;
  let publicId: string;
  const as = (role: ModelRole | 'anonymous') => clientAs(t().app, cast, role);

  beforeAll(async () => {
    cast = await makeModelCast(t().app);
    privateId = await makeModel(t().app, cast, { name: 'Private model' });
    publicId = await makeModel(t().app, cast, { name: 'Public model', public: true });
  });

  describe('POST /models/', () => {
    it('creates a model whose creator is its admin', async () => {
      const response = await as('outsider').post('models/', {
        name: '  HTR French  ',
        description: 'Handwriting',
      });
      expect(response.statusCode).toBe(201);
      const model = response.json();
      expect(model).toEqual({
        id: expect.stringMatching(UUID),
        name: 'HTR French',
        description: 'Handwriting',
        created: expect.any(String),
        updated: model.created,
        archived: false,
        public: false,
        rights: ['read', 'write', 'admin'],
      });
      const members = await as('outsider').get(`model/${model.id}/memberships/`);
      expect(members.json().results).toEqual([
        expect.objectContaining({
          level: 100,
          user: expect.objectContaining({ id: cast.outsider.id }),
        }),
      ]);
    });

    it('refuses anonymous and unverified users', async () => {
      const anonymous = await as('anonymous').post('models/', { name: 'Nope' });
      expect([anonymous.statusCode, anonymous.json()]).toEqual([401, NOT_AUTHENTICATED]);
      const unverified = await as('unverified').post('models/', { name: 'Nope' });
      expect([unverified.statusCode, unverified.json()]).toEqual([403, NOT_VERIFIED]);
    });

    it('checks the name: required, not blank, at most 100 characters', async () => {
      const cases: [unknown, object][] = [
        [{}, validation('name', 'This field is required.', 'required')],
        [{ name: '   ' }, validation('name', 'This field may not be blank.', 'blank')],
        [
          { name: 'x'.repeat(101) },
          validation('name', 'Ensure this field has no more than 100 characters.', 'max_length'),
        ],
        [{ name: 12 }, validation('name', 'Not a valid string.')],
      ];
      for (const [body, error] of cases) {
        const response = await as('owner').post('models/', body);
        expect([response.statusCode, response.json()]).toEqual([400, error]);
      }
      const exact = await as('owner').post('models/', { name: 'y'.repeat(100) });
      expect(exact.statusCode).toBe(201);
    });

    it('answers a malformed body with a 400', async () => {
      const response = await as('owner').post('models/', '{"name":');
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].code).toBe('parse_error');
    });

    it('names the existing model when the name is taken by a readable one, 403 otherwise', async () => {
      const readable = await as('guest').post('models/', { name: 'Private model' });
      expect(readable.statusCode).toBe(400);
      expect(readable.json()).toEqual({
        ...validation('name', 'A model with this name already exists.', 'unique'),
        id: privateId,
      });
      const publicTaken = await as('outsider').post('models/', { name: 'Public model' });
      expect([publicTaken.statusCode, publicTaken.json().id]).toEqual([400, publicId]);
      const unreadable = await as('outsider').post('models/', { name: 'Private model' });
      expect([unreadable.statusCode, unreadable.json()]).toEqual([
        403,
        denied('A model with this name already exists and you cannot read it.'),
      ]);
    });
  });

  describe('GET /models/', () => {
    it('lists the models each caller can read, with their rights', async () => {
      const names = async (role: ModelRole) => {
        const response = await as(role).get('models/?name=model&page_size=100');
        expect(response.statusCode).toBe(200);
        return Object.fromEntries(
          (response.json().results as { name: string; rights: string[] }[])
            .filter((m) => m.name === 'Private model' || m.name === 'Public model')
            .map((m) => [m.name, m.rights]),
        );
      };
      expect(await names('owner')).toEqual({
        'Private model': ['read', 'write', 'admin'],
        'Public model': ['read', 'write', 'admin'],
      });
      expect(await names('contributor')).toEqual({
        'Private model': ['read', 'write'],
        'Public model': ['read', 'write'],
      });
      expect(await names('guest')).toEqual({ 'Private model': ['read'], 'Public model': ['read'] });
      expect(await names('outsider')).toEqual({ 'Public model': ['read'] });
      expect(await names('siteAdmin')).toEqual({
        'Private model': ['read', 'write', 'admin'],
        'Public model': ['read', 'write', 'admin'],
      });
    });

    it('refuses anonymous and unverified users', async () => {
      expect((await as('anonymous').get('models/')).statusCode).toBe(401);
      expect((await as('unverified').get('models/')).statusCode).toBe(403);
    });

    it('filters by name, archived state and compatible worker', async () => {
      const archivedId = await makeModel(t().app, cast, { name: 'Old layout', archived: true });
      const workerId = await insertWorker(t().app);
      expect(
        (await as('owner').post(`model/${privateId}/compatible-worker/${workerId}/`)).statusCode,
      ).toBe(201);

      const byName = await as('owner').get('models/?name=PUBLIC');
      expect(byName.json().results.map((m: { id: string }) => m.id)).toEqual([publicId]);
      const unarchived = await as('owner').get('models/?name=old');
      expect(unarchived.json().count).toBe(0);
      const archived = await as('owner').get('models/?name=old&archived=true');
      expect(archived.json().results.map((m: { id: string }) => m.id)).toEqual([archivedId]);
      const compatible = await as('owner').get(`models/?compatible_worker=${workerId}`);
      expect(compatible.json().results.map((m: { id: string }) => m.id)).toEqual([privateId]);
      const noneCompatible = await as('owner').get(`models/?compatible_worker=${UNKNOWN_ID}`);
      expect(noneCompatible.json().count).toBe(0);
      // Empty parameters filter nothing.
      const empty = await as('owner').get('models/?name=PUBLIC&compatible_worker=&archived=');
      expect(empty.json().results.map((m: { id: string }) => m.id)).toEqual([publicId]);
    });

    it('refuses bad filters', async () => {
      const worker = await as('owner').get('models/?compatible_worker=nope');
      expect([worker.statusCode, worker.json()]).toEqual([
        400,
        validation('compatible_worker', 'Must be a valid UUID.'),
      ]);
      const archived = await as('owner').get('models/?archived=maybe');
      expect(archived.statusCode).toBe(400);
      expect(archived.json().errors[0].attr).toBe('archived');
    });

    it('pages the list', async () => {
      const response = await as('siteAdmin').get('models/?page_size=1');
      const page = response.json();
      expect(page.results).toHaveLength(1);
      expect(page.count).toBeGreaterThan(1);
      expect(page.next).toContain('page=2');
    });
  });

  describe('GET /model/{id}/', () => {
    it('shows a readable model to its readers', async () => {
      for (const role of ['owner', 'contributor', 'guest', 'siteAdmin'] as const) {
        const response = await as(role).get(`model/${privateId}/`);
        expect([role, response.statusCode, response.json().name]).toEqual([
          role,
          200,
          'Private model',
        ]);
      }
      const publicOne = await as('outsider').get(`model/${publicId}/`);
      expect([publicOne.statusCode, publicOne.json().rights]).toEqual([200, ['read']]);
    });

    it('hides unreadable, unknown and malformed ids', async () => {
      for (const [role, id] of [
        ['outsider', privateId],
        ['owner', UNKNOWN_ID],
        ['owner', 'not-a-uuid'],
      ] as const) {
        const response = await as(role).get(`model/${id}/`);
        expect([response.statusCode, response.json()]).toEqual([404, NOT_FOUND]);
      }
      expect((await as('anonymous').get(`model/${publicId}/`)).statusCode).toBe(401);
    });
  });

  describe('PATCH /model/{id}/', () => {
    it('lets contributors rename and describe, admins archive and publish', async () => {
      const id = await makeModel(t().app, cast, { name: 'Editable' });
      const renamed = await as('contributor').patch(`model/${id}/`, {
        name: 'Edited',
        description: 'New text',
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ name: 'Edited', description: 'New text' });
      expect(renamed.json().updated >= renamed.json().created).toBe(true);

      const archive = await as('contributor').patch(`model/${id}/`, { archived: true });
      expect([archive.statusCode, archive.json()]).toEqual([403, NOT_MODEL_ADMIN]);
      const publish = await as('contributor').patch(`model/${id}/`, { public: true });
      expect([publish.statusCode, publish.json()]).toEqual([403, NOT_MODEL_ADMIN]);
      // Restating the current value asks for no right beyond write.
      expect((await as('contributor').patch(`model/${id}/`, { public: false })).statusCode).toBe(
        200,
      );

      const byAdmin = await as('owner').patch(`model/${id}/`, { archived: true, public: true });
      expect(byAdmin.json()).toMatchObject({ archived: true, public: true });
      const bySiteAdmin = await as('siteAdmin').patch(`model/${id}/`, { archived: false });
      expect(bySiteAdmin.json().archived).toBe(false);
    });

    it('refuses guests, readers of public models, outsiders and anonymous users', async () => {
      const guest = await as('guest').patch(`model/${privateId}/`, { name: 'Mine' });
      expect([guest.statusCode, guest.json()]).toEqual([403, NOT_CONTRIBUTOR]);
      const reader = await as('outsider').patch(`model/${publicId}/`, { name: 'Mine' });
      expect([reader.statusCode, reader.json()]).toEqual([403, NOT_CONTRIBUTOR]);
      const outsider = await as('outsider').patch(`model/${privateId}/`, { name: 'Mine' });
      expect([outsider.statusCode, outsider.json()]).toEqual([404, NOT_FOUND]);
      expect(
        (await as('anonymous').patch(`model/${privateId}/`, { name: 'Mine' })).statusCode,
      ).toBe(401);
      expect((await as('owner').get(`model/${privateId}/`)).json().name).toBe('Private model');
    });

    it('refuses bad values and taken names, changing nothing', async () => {
      const id = await makeModel(t().app, cast, { name: 'Stable' });
      const cases: [unknown, number, string | null][] = [
        [{ name: '' }, 400, 'name'],
        [{ name: 'x'.repeat(101) }, 400, 'name'],
        [{ archived: 'yes' }, 400, 'archived'],
        [{ public: null }, 400, 'public'],
        [{ name: 'Private model' }, 400, 'name'],
        [[1], 400, 'non_field_errors'],
      ];
      for (const [body, status, attr] of cases) {
        const response = await as('owner').patch(`model/${id}/`, body);
        expect([response.statusCode, response.json().errors[0].attr]).toEqual([status, attr]);
      }
      const taken = await as('owner').patch(`model/${id}/`, { name: 'Private model' });
      expect(taken.json().id).toBe(privateId);
      const model = (await as('owner').get(`model/${id}/`)).json();
      expect(model).toMatchObject({ name: 'Stable', archived: false, public: false });
    });
  });
});
