import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import { insertElements } from '../elementsFixtures';
import { NOT_AUTHENTICATED, NOT_FOUND, UNKNOWN_ID, denied } from '../expectedErrors';
import { CLONE_MESSAGES, cloneName } from '../../../server/services/datasets/clone';

const UNVERIFIED = denied('You must verify your email address to perform this action.');
const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');

interface DatasetBody {
  id: string;
  name: string;
  description: string;
  state: string;
  unique_elements: boolean;
  creator: string | null;
  sets: { id: string; name: string }[];
  set_elements: Record<string, number>;
}

describeEachDialect('POST /datasets/{id}/clone/', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let ids: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);
  let counter = 0;

  async function makeDataset(body: Record<string, unknown> = {}, corpusId = privateId) {
    counter += 1;
    const response = await as('owner').post(`corpus/${corpusId}/datasets/`, {
      name: `Source ${counter}`,
      description: 'Ground truth, "quoted"',
      ...body,
    });
    expect(response.statusCode).toBe(201);
    return response.json() as DatasetBody;
  }

  async function members(datasetId: string) {
    const response = await as('guest').get(`datasets/${datasetId}/elements/?page_size=500`);
    expect(response.statusCode).toBe(200);
    return (response.json().results as { set: string; element: { id: string } }[])
      .map((row) => `${row.set}:${row.element.id}`)
      .sort();
  }

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
    ids = await insertElements(
      t().app,
      privateId,
      Array.from({ length: 6 }, (_, i) => ({ name: `page ${i}`, type: 'page' })),
    );
  });

  it('makes an open copy with the same description, uniqueness, sets and elements', async () => {
    const source = await makeDataset({ unique_elements: false, set_names: ['a', 'b', 'c'] });
    const add = (element: string, set: string) =>
      as('contributor').post(`datasets/${source.id}/elements/`, { element_id: ids[element], set });
    for (const [element, set] of [
      ['page 0', 'a'],
      ['page 1', 'a'],
      ['page 1', 'b'],
      ['page 2', 'c'],
    ] as const) {
      expect((await add(element, set)).statusCode).toBe(201);
    }
    await t()
      .app.db.updateTable('datasets')
      .set({ state: 'complete' })
      .where('id', '=', source.id)
      .execute();

    const response = await as('contributor').post(`datasets/${source.id}/clone/`);
    expect(response.statusCode).toBe(201);
    const clone = response.json() as DatasetBody;
    expect(clone).toMatchObject({
      name: `Clone of ${source.name}`,
      description: source.description,
      state: 'open',
      unique_elements: false,
      creator: actors.contributor.email,
      set_elements: { a: 2, b: 1, c: 1 },
      corpus_id: privateId,
    });
    expect(clone.id).not.toBe(source.id);
    expect(clone.sets.map((set) => set.name)).toEqual(['a', 'b', 'c']);
    expect(clone.sets.map((set) => set.id)).not.toEqual(source.sets.map((set) => set.id));
    expect(await members(clone.id)).toEqual(await members(source.id));
    expect((await as('guest').get(`datasets/${clone.id}/`)).json()).toEqual(clone);

    // The copy is its own: removing from it leaves the source as it was.
    const removed = await as('owner').delete(
      `datasets/${clone.id}/elements/${ids['page 0']}/?set=a`,
    );
    expect(removed.statusCode).toBe(204);
    expect((await members(source.id)).length).toBe(4);
    expect((await members(clone.id)).length).toBe(3);
  });

  it('numbers the name when "Clone of" is taken, and keeps names within the limit', async () => {
    const source = await makeDataset();
    const names = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await as('owner').post(`datasets/${source.id}/clone/`);
      expect(response.statusCode).toBe(201);
      names.push(response.json().name);
    }
    expect(names).toEqual([
      `Clone of ${source.name}`,
      `Clone of ${source.name} (2)`,
      `Clone of ${source.name} (3)`,
    ]);
    expect(cloneName('x'.repeat(100), 12)).toHaveLength(100);
    expect(cloneName('x'.repeat(100), 12).endsWith('x (12)')).toBe(true);
    const long = await makeDataset({ name: 'L'.repeat(100) });
    const first = await as('owner').post(`datasets/${long.id}/clone/`);
    const second = await as('owner').post(`datasets/${long.id}/clone/`);
    expect(first.json().name).toBe(`Clone of ${'L'.repeat(91)}`);
    expect(second.json().name).toBe(`Clone of ${'L'.repeat(87)} (2)`);
  });

  it('gives two clones made at the same moment two names', async () => {
    const source = await makeDataset();
    const answers = await Promise.all([
      as('owner').post(`datasets/${source.id}/clone/`),
      as('contributor').post(`datasets/${source.id}/clone/`),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201]);
    expect(new Set(answers.map((answer) => answer.json().name)).size).toBe(2);
  });

  it('refuses to clone a dataset being built', async () => {
    const source = await makeDataset();
    await t()
      .app.db.updateTable('datasets')
      .set({ state: 'building' })
      .where('id', '=', source.id)
      .execute();
    const response = await as('owner').post(`datasets/${source.id}/clone/`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      type: 'client_error',
      errors: [{ code: 'invalid', detail: CLONE_MESSAGES.building, attr: null }],
    });
  });

  describe('rights', () => {
    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['unverifiedAdmin', 'private', 403, UNVERIFIED],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'private', 404, NOT_FOUND],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)('refuses %s (%s), making nothing', async (role, corpus, status, expected) => {
      const corpusId = corpus === 'private' ? privateId : publicId;
      const source = await makeDataset({}, corpusId);
      const response = await as(role).post(`datasets/${source.id}/clone/`);
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(expected);
      const list = await as('owner').get(`corpus/${corpusId}/datasets/?page_size=100`);
      const names = list.json().results.map((dataset: { name: string }) => dataset.name);
      expect(names).not.toContain(`Clone of ${source.name}`);
    });

    it('answers 404 for an unknown or malformed dataset id', async () => {
      for (const id of [UNKNOWN_ID, 'nope']) {
        const response = await as('owner').post(`datasets/${id}/clone/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });
  });
});
