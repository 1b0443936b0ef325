import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  denied,
  validation,
} from '../expectedErrors';
import { DATASET_MESSAGES } from '../../../server/services/datasets/datasets';

const UNVERIFIED = denied('You must verify your email address to perform this action.');
const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');
const NOT_ADMIN = denied('You do not have admin access to this project.');
const NOT_OPEN = {
  type: 'client_error',
  errors: [{ code: 'invalid', detail: 'Only open datasets can be edited', attr: null }],
};

describeEachDialect('datasets and their sets', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  const as = (role: Role) => clientFor(t().app, actors, role);
  let counter = 0;

  async function makeDataset(body: Record<string, unknown> = {}, corpusId = privateId) {
    counter += 1;
    const response = await as('owner').post(`corpus/${corpusId}/datasets/`, {
      name: `Dataset ${counter}`,
      description: 'Ground truth',
      ...body,
    });
    expect(response.statusCode).toBe(201);
    return response.json() as {
      id: string;
      name: string;
      sets: { id: string; name: string }[];
    };
  }

  async function setState(id: string, state: string) {
    await t()
      .app.db.updateTable('datasets')
      .set({ state: state as 'open' })
      .where('id', '=', id)
      .execute();
  }

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
  });

  describe('POST /corpus/{id}/datasets/', () => {
    it('creates a dataset with the sets train, dev and test and unique elements', async () => {
      const response = await as('contributor').post(`corpus/${privateId}/datasets/`, {
        name: '  Lines  ',
        description: 'Handwritten lines',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Lines',
        description: 'Handwritten lines',
        state: 'open',
        sets: [
          { id: expect.stringMatching(UUID), name: 'dev' },
          { id: expect.stringMatching(UUID), name: 'test' },
          { id: expect.stringMatching(UUID), name: 'train' },
        ],
        set_elements: { dev: 0, test: 0, train: 0 },
        unique_elements: true,
        corpus_id: privateId,
        creator: actors.contributor.email,
        task_id: null,
        populate_job_id: null,
        created: expect.any(String),
        updated: expect.any(String),
      });
    });

    it('takes the given set names, dropping empty ones, and unique_elements false', async () => {
      const body = await makeDataset({ set_names: ['a', '', '  ', 'b'], unique_elements: false });
      expect(body).toMatchObject({ unique_elements: false });
      expect(body.sets.map((set) => set.name)).toEqual(['a', 'b']);
    });

    it.each([
      [{ name: '', description: 'x' }, validation('name', 'This field may not be blank.', 'blank')],
      [
        { name: 'x', description: ' ' },
        validation('description', 'This field may not be blank.', 'blank'),
      ],
      [{ description: 'x' }, validation('name', 'This field is required.', 'required')],
      [
        { name: 'x', description: 'x', set_names: ['', ''] },
        validation('set_names', DATASET_MESSAGES.setNamesEmpty),
      ],
      [
        { name: 'x', description: 'x', set_names: ['a', 'a'] },
        validation('set_names', DATASET_MESSAGES.setNamesUnique),
      ],
      [
        { name: 'x', description: 'x', unique_elements: 'yes' },
        validation('unique_elements', 'Must be a valid boolean.'),
      ],
    ])('answers 400 to %j and creates nothing', async (body, expected) => {
      const before = await t().app.db.selectFrom('datasets').select('id').execute();
      const response = await as('owner').post(`corpus/${privateId}/datasets/`, body);
      expect(response.statusCode).toBe(400);
      const json = response.json();
      expect(json.type).toBe('validation_error');
      expect(json.errors[0].attr).toBe(expected.errors[0]!.attr);
      if (expected.errors[0]!.attr !== 'unique_elements') expect(json).toEqual(expected);
      expect(await t().app.db.selectFrom('datasets').select('id').execute()).toHaveLength(
        before.length,
      );
    });

    it('refuses a second dataset of the same name in the project, not in another', async () => {
      const first = await makeDataset();
      const again = await as('owner').post(`corpus/${privateId}/datasets/`, {
        name: first.name,
        description: 'x',
      });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(validation('name', DATASET_MESSAGES.duplicateName, 'unique'));
      await makeDataset({ name: first.name }, publicId);
    });

    it('creates one of two datasets of the same name made at once', async () => {
      const body = { name: 'Raced', description: 'x' };
      const url = `corpus/${privateId}/datasets/`;
      const answers = await Promise.all([as('owner').post(url, body), as('owner').post(url, body)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 400]);
      const loser = answers.find((answer) => answer.statusCode === 400)!;
      expect(loser.json()).toEqual(validation('name', DATASET_MESSAGES.duplicateName, 'unique'));
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['unverifiedAdmin', 'private', 403, UNVERIFIED],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'private', 404, NOT_FOUND],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)('refuses %s (%s)', async (role, corpus, status, expected) => {
      const corpusId = corpus === 'private' ? privateId : publicId;
      const response = await as(role).post(`corpus/${corpusId}/datasets/`, {
        name: 'Refused',
        description: 'x',
      });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(expected);
    });

    it('answers 404 for an unknown or malformed project', async () => {
      for (const id of [UNKNOWN_ID, 'nope']) {
        const response = await as('owner').post(`corpus/${id}/datasets/`, {
          name: 'x',
          description: 'x',
        });
        expect(response.statusCode).toBe(404);
      }
    });
  });

  describe('GET /corpus/{id}/datasets/ and /datasets/{id}/', () => {
    it('lists the datasets of a readable project by name, in pages', async () => {
      const dataset = await makeDataset({}, publicId);
      const list = await as('anonymous').get(`corpus/${publicId}/datasets/?page_size=100`);
      expect(list.statusCode).toBe(200);
      expect(list.json()).toMatchObject({ number: 1, next: null, previous: null });
      const names = list.json().results.map((d: { name: string }) => d.name);
      expect(names).toContain(dataset.name);
      expect(names).toEqual([...names].sort());
      const one = await as('outsider').get(`datasets/${dataset.id}/`);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toEqual(
        list.json().results.find((d: { id: string }) => d.id === dataset.id),
      );
    });

    it('hides the datasets of a private project from outsiders', async () => {
      const dataset = await makeDataset();
      expect((await as('guest').get(`datasets/${dataset.id}/`)).statusCode).toBe(200);
      for (const url of [`datasets/${dataset.id}/`, `corpus/${privateId}/datasets/`]) {
        const response = await as('outsider').get(url);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
        expect((await as('anonymous').get(url)).statusCode).toBe(404);
      }
      expect((await as('owner').get(`datasets/${UNKNOWN_ID}/`)).statusCode).toBe(404);
      expect((await as('owner').get('datasets/nope/')).statusCode).toBe(404);
    });
  });

  describe('PATCH /datasets/{id}/', () => {
    it('renames, describes and changes unique_elements', async () => {
      const dataset = await makeDataset({ unique_elements: false });
      const response = await as('contributor').patch(`datasets/${dataset.id}/`, {
        name: 'Renamed',
        description: 'New',
        unique_elements: true,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        name: 'Renamed',
        description: 'New',
        unique_elements: true,
      });
      const again = await makeDataset();
      const clash = await as('contributor').patch(`datasets/${again.id}/`, { name: 'Renamed' });
      expect(clash.statusCode).toBe(400);
      expect(clash.json()).toEqual(validation('name', DATASET_MESSAGES.duplicateName, 'unique'));
    });

    it('answers PUT as PATCH, with the name and description required', async () => {
      const dataset = await makeDataset();
      const partial = await as('contributor').put(`datasets/${dataset.id}/`, { name: 'Only name' });
      expect(partial.statusCode).toBe(400);
      expect(partial.json()).toEqual(
        validation('description', 'This field is required.', 'required'),
      );
      const full = await as('contributor').put(`datasets/${dataset.id}/`, {
        name: 'Put name',
        description: 'Put description',
      });
      expect(full.statusCode).toBe(200);
      expect(full.json()).toMatchObject({ name: 'Put name', description: 'Put description' });
      const set = dataset.sets[0]!.id;
      const renamed = await as('contributor').put(`datasets/${dataset.id}/sets/${set}/`, {
        name: 'validation',
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toEqual({ id: set, name: 'validation' });
    });

    it('lets only an admin reopen a complete or failed dataset, never a building one', async () => {
      const dataset = await makeDataset();
      const toBuilding = await as('owner').patch(`datasets/${dataset.id}/`, { state: 'building' });
      expect(toBuilding.statusCode).toBe(400);
      expect(toBuilding.json()).toEqual(validation('state', DATASET_MESSAGES.reopenOnly));
      for (const state of ['complete', 'error']) {
        await setState(dataset.id, state);
        const refused = await as('contributor').patch(`datasets/${dataset.id}/`, { state: 'open' });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual(NOT_ADMIN);
        const reopened = await as('owner').patch(`datasets/${dataset.id}/`, { state: 'open' });
        expect(reopened.statusCode).toBe(200);
        expect(reopened.json().state).toBe('open');
      }
      await setState(dataset.id, 'building');
      const building = await as('owner').patch(`datasets/${dataset.id}/`, { state: 'open' });
      expect(building.statusCode).toBe(400);
      expect(building.json()).toEqual(validation('state', DATASET_MESSAGES.building));
      const unknown = await as('owner').patch(`datasets/${dataset.id}/`, { state: 'done' });
      expect(unknown.statusCode).toBe(400);
    });

    it.each([
      ['anonymous', 401, NOT_AUTHENTICATED],
      ['unverifiedAdmin', 403, UNVERIFIED],
      ['guest', 403, NOT_CONTRIBUTOR],
      ['outsider', 404, NOT_FOUND],
    ] as const)('refuses %s', async (role, status, expected) => {
      const dataset = await makeDataset();
      const response = await as(role).patch(`datasets/${dataset.id}/`, { name: 'No' });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(expected);
    });
  });

  describe('DELETE /datasets/{id}/', () => {
    it('lets an admin delete a dataset with its sets', async () => {
      const dataset = await makeDataset();
      const refused = await as('contributor').delete(`datasets/${dataset.id}/`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual(NOT_ADMIN);
      expect((await as('outsider').delete(`datasets/${dataset.id}/`)).statusCode).toBe(404);
      const deleted = await as('owner').delete(`datasets/${dataset.id}/`);
      expect(deleted.statusCode).toBe(204);
      expect((await as('owner').get(`datasets/${dataset.id}/`)).statusCode).toBe(404);
      const sets = await t()
        .app.db.selectFrom('dataset_sets')
        .select('id')
        .where('dataset_id', '=', dataset.id)
        .execute();
      expect(sets).toEqual([]);
    });
  });

  describe('sets', () => {
    it('creates, renames and deletes sets of an open dataset', async () => {
      const dataset = await makeDataset({ set_names: ['a', 'b'] });
      const created = await as('contributor').post(`datasets/${dataset.id}/sets/`, { name: 'c' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({ id: expect.stringMatching(UUID), name: 'c' });
      const duplicate = await as('contributor').post(`datasets/${dataset.id}/sets/`, { name: 'a' });
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json()).toEqual(validation('name', DATASET_MESSAGES.duplicateSet, 'unique'));
      const blank = await as('contributor').post(`datasets/${dataset.id}/sets/`, { name: '' });
      expect(blank.json()).toEqual(validation('name', 'This field may not be blank.', 'blank'));
      const setC = created.json().id as string;
      const renamed = await as('contributor').patch(`datasets/${dataset.id}/sets/${setC}/`, {
        name: 'd',
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toEqual({ id: setC, name: 'd' });
      const clash = await as('contributor').patch(`datasets/${dataset.id}/sets/${setC}/`, {
        name: 'a',
      });
      expect(clash.statusCode).toBe(400);
      const notAdmin = await as('contributor').delete(`datasets/${dataset.id}/sets/${setC}/`);
      expect(notAdmin.statusCode).toBe(403);
      expect(notAdmin.json()).toEqual(denied(DATASET_MESSAGES.deleteSet));
      expect((await as('owner').delete(`datasets/${dataset.id}/sets/${setC}/`)).statusCode).toBe(
        204,
      );
      const after = await as('owner').get(`datasets/${dataset.id}/`);
      expect(after.json().sets.map((set: { name: string }) => set.name)).toEqual(['a', 'b']);
    });

    it('refuses to delete the only set', async () => {
      const dataset = await makeDataset({ set_names: ['only'] });
      const response = await as('owner').delete(
        `datasets/${dataset.id}/sets/${dataset.sets[0]!.id}/`,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        type: 'client_error',
        errors: [{ code: 'invalid', detail: DATASET_MESSAGES.onlySet, attr: null }],
      });
    });

    it('refuses set changes on a dataset that is not open', async () => {
      const dataset = await makeDataset();
      await setState(dataset.id, 'complete');
      const set = dataset.sets[0]!.id;
      for (const response of [
        await as('owner').post(`datasets/${dataset.id}/sets/`, { name: 'x' }),
        await as('owner').patch(`datasets/${dataset.id}/sets/${set}/`, { name: 'x' }),
        await as('owner').delete(`datasets/${dataset.id}/sets/${set}/`),
      ]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(NOT_OPEN);
      }
    });

    it('refuses guests, outsiders and unknown sets', async () => {
      const dataset = await makeDataset();
      const guest = await as('guest').post(`datasets/${dataset.id}/sets/`, { name: 'x' });
      expect(guest.statusCode).toBe(403);
      expect(guest.json()).toEqual(denied(DATASET_MESSAGES.createSet));
      expect(
        (await as('outsider').post(`datasets/${dataset.id}/sets/`, { name: 'x' })).statusCode,
      ).toBe(404);
      const other = await makeDataset();
      const foreign = await as('owner').patch(`datasets/${dataset.id}/sets/${other.sets[0]!.id}/`, {
        name: 'x',
      });
      expect(foreign.statusCode).toBe(404);
      expect((await as('owner').delete(`datasets/${dataset.id}/sets/nope/`)).statusCode).toBe(404);
    });
  });
});
