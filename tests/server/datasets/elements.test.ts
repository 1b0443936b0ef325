import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import { insertElements } from '../elementsFixtures';
import {
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  denied,
  invalidPk,
  validation,
} from '../expectedErrors';
import { DATASET_ELEMENT_MESSAGES } from '../../../server/services/datasets/elements';

const UNVERIFIED = denied('You must verify your email address to perform this action.');
const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');
const NOT_OPEN = {
  type: 'client_error',
  errors: [{ code: 'invalid', detail: 'Only open datasets can be edited', attr: null }],
};

interface DatasetBody {
  id: string;
  name: string;
  sets: { id: string; name: string }[];
}

describeEachDialect('the elements of dataset sets', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let priv: Record<string, string>;
  let pub: Record<string, string>;
  const as = (role: Role) => clientFor(t().app, actors, role);
  let counter = 0;

  async function makeDataset(body: Record<string, unknown> = {}): Promise<DatasetBody> {
    counter += 1;
    const response = await as('owner').post(`corpus/${privateId}/datasets/`, {
      name: `Dataset ${counter}`,
      description: 'Ground truth',
      ...body,
    });
    expect(response.statusCode).toBe(201);
    return response.json();
  }

  async function add(
    dataset: DatasetBody,
    element: string,
    set: string,
    role: Role = 'contributor',
  ) {
    return as(role).post(`datasets/${dataset.id}/elements/`, { element_id: element, set });
  }

  async function added(dataset: DatasetBody, element: string, set: string) {
    const response = await add(dataset, element, set);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ element_id: element, set });
  }

  async function listAll(dataset: DatasetBody, query = '') {
    const response = await as('guest').get(`datasets/${dataset.id}/elements/${query}`);
    expect(response.statusCode).toBe(200);
    return response.json() as {
      next: string | null;
      previous: string | null;
      results: { set: string; element: { id: string; name: string } }[];
      count?: number;
    };
  }

  beforeAll(async () => {
    const app = t().app;
    ({ actors, privateId, publicId } = await makeActorsAndProjects(app));
    priv = await insertElements(app, privateId, [
      { name: 'folder', type: 'folder' },
      { name: 'page 1', type: 'page', parent: 'folder' },
      { name: 'page 2', type: 'page', parent: 'folder' },
      { name: 'page 3', type: 'page', parent: 'folder' },
      { name: 'page 4', type: 'page', parent: 'folder' },
    ]);
    pub = await insertElements(app, publicId, [{ name: 'public page', type: 'page' }]);
  });

  describe('POST /datasets/{id}/elements/', () => {
    it('adds an element to a set, listed with the element summary', async () => {
      const dataset = await makeDataset();
      await added(dataset, priv['page 1']!, 'train');
      const list = await listAll(dataset);
      expect(list).toMatchObject({ next: null, previous: null });
      expect(list.results).toHaveLength(1);
      const element = await as('guest').get(`corpus/${privateId}/elements/?name=page 1`);
      expect(list.results[0]).toEqual({ set: 'train', element: element.json().results[0] });
      const detail = await as('guest').get(`datasets/${dataset.id}/`);
      expect(detail.json().set_elements).toEqual({ dev: 0, test: 0, train: 1 });
    });

    it('refuses an element already in the set, or in another set of a unique dataset', async () => {
      const dataset = await makeDataset();
      await added(dataset, priv['page 1']!, 'train');
      const again = await add(dataset, priv['page 1']!, 'train');
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(validation('set', DATASET_ELEMENT_MESSAGES.alreadyInSet));
      const other = await add(dataset, priv['page 1']!, 'dev');
      expect(other.statusCode).toBe(400);
      expect(other.json()).toEqual(validation('set', DATASET_ELEMENT_MESSAGES.inOtherSet('train')));
      expect((await listAll(dataset)).results).toHaveLength(1);
    });

    it('lets one of two simultaneous additions of an element to a unique dataset pass', async () => {
      const dataset = await makeDataset();
      const answers = await Promise.all([
        add(dataset, priv['page 3']!, 'train'),
        add(dataset, priv['page 3']!, 'dev'),
        add(dataset, priv['page 3']!, 'test'),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 400, 400]);
      expect((await listAll(dataset)).results).toHaveLength(1);
    });

    it('never lets unique_elements be set while an addition puts an element in a second set', async () => {
      for (let round = 0; round < 3; round += 1) {
        const dataset = await makeDataset({ unique_elements: false });
        await added(dataset, priv['page 1']!, 'train');
        const [patched, addition] = await Promise.all([
          as('owner').patch(`datasets/${dataset.id}/`, { unique_elements: true }),
          add(dataset, priv['page 1']!, 'dev'),
        ]);
        expect([patched.statusCode, addition.statusCode].sort()).toEqual(
          patched.statusCode === 200 ? [200, 400] : [201, 400],
        );
      }
    });

    it('forgets an element once it is deleted', async () => {
      const dataset = await makeDataset();
      const [doomed] = Object.values(
        await insertElements(t().app, privateId, [{ name: 'doomed', type: 'page' }]),
      );
      await added(dataset, doomed!, 'train');
      expect((await as('owner').delete(`element/${doomed}/`)).statusCode).toBe(204);
      expect((await listAll(dataset)).results).toEqual([]);
    });

    it('puts an element in two sets when elements need not be unique', async () => {
      const dataset = await makeDataset({ unique_elements: false });
      await added(dataset, priv['page 1']!, 'train');
      await added(dataset, priv['page 1']!, 'dev');
      const list = await listAll(dataset);
      expect(list.results.map((r) => r.set)).toEqual(['dev', 'train']);
      const unique = await as('owner').patch(`datasets/${dataset.id}/`, { unique_elements: true });
      expect(unique.statusCode).toBe(400);
      expect(unique.json()).toEqual(
        validation('unique_elements', 'Elements are currently contained by multiple sets.'),
      );
    });

    it.each([
      [
        'an unknown set',
        () => ({ element_id: priv['page 2'], set: 'nope' }),
        validation('set', DATASET_ELEMENT_MESSAGES.noSet('nope')),
      ],
      [
        'a missing set',
        () => ({ element_id: priv['page 2'] }),
        validation('set', 'This field is required.', 'required'),
      ],
      [
        'a malformed id',
        () => ({ element_id: 'nope', set: 'train' }),
        validation('element_id', 'Must be a valid UUID.'),
      ],
      [
        'an unknown element',
        () => ({ element_id: UNKNOWN_ID, set: 'train' }),
        invalidPk('element_id', UNKNOWN_ID),
      ],
      [
        'an element of another project',
        () => ({ element_id: pub['public page'], set: 'train' }),
        'pk',
      ],
    ] as const)('answers 400 to %s', async (_label, body, expected) => {
      const dataset = await makeDataset();
      const payload = body();
      const response = await as('contributor').post(`datasets/${dataset.id}/elements/`, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        expected === 'pk' ? invalidPk('element_id', payload.element_id as string) : expected,
      );
      expect((await listAll(dataset)).results).toEqual([]);
    });

    it('refuses a dataset that is not open, and callers without write access', async () => {
      const dataset = await makeDataset();
      expect((await add(dataset, priv['page 1']!, 'train', 'anonymous')).json()).toEqual(
        NOT_AUTHENTICATED,
      );
      expect((await add(dataset, priv['page 1']!, 'train', 'guest')).json()).toEqual(
        NOT_CONTRIBUTOR,
      );
      expect((await add(dataset, priv['page 1']!, 'train', 'outsider')).json()).toEqual(NOT_FOUND);
      await t()
        .app.db.updateTable('datasets')
        .set({ state: 'building' })
        .where('id', '=', dataset.id)
        .execute();
      const closed = await add(dataset, priv['page 1']!, 'train');
      expect(closed.statusCode).toBe(400);
      expect(closed.json()).toEqual(NOT_OPEN);
    });
  });

  describe('deleting a project', () => {
    it('takes its datasets, sets and their elements with it', async () => {
      const owner = as('owner');
      const made = await owner.post('corpus/', { name: 'Doomed project' });
      const corpusId = made.json().id as string;
      const ids = await insertElements(t().app, corpusId, [{ name: 'p', type: 'page' }]);
      const dataset = await owner.post(`corpus/${corpusId}/datasets/`, {
        name: 'Doomed',
        description: 'x',
      });
      const datasetId = dataset.json().id as string;
      const add = await owner.post(`datasets/${datasetId}/elements/`, {
        element_id: ids.p,
        set: 'dev',
      });
      expect(add.statusCode).toBe(201);
      expect((await owner.delete(`corpus/${corpusId}/`)).statusCode).toBe(204);
      const db = t().app.db;
      expect(
        await db.selectFrom('datasets').where('id', '=', datasetId).selectAll().execute(),
      ).toEqual([]);
      expect(
        await db
          .selectFrom('dataset_elements')
          .where('element_id', '=', ids.p!)
          .selectAll()
          .execute(),
      ).toEqual([]);
    });
  });

  describe('GET /datasets/{id}/elements/', () => {
    it('filters by set and pages with cursors both ways', async () => {
      const dataset = await makeDataset();
      for (const name of ['page 3', 'page 1', 'page 4']) await added(dataset, priv[name]!, 'train');
      await added(dataset, priv['page 2']!, 'test');
      const all = await listAll(dataset, '?with_count=true');
      expect(all.count).toBe(4);
      expect(all.results.map((r) => r.element.name)).toEqual([
        'page 1',
        'page 2',
        'page 3',
        'page 4',
      ]);
      const first = await listAll(dataset, '?set=train&page_size=2');
      expect(first.results.map((r) => r.element.name)).toEqual(['page 1', 'page 3']);
      expect(first.previous).toBeNull();
      const next = new URL(first.next!);
      const second = await listAll(dataset, next.search);
      expect(second.results.map((r) => r.element.name)).toEqual(['page 4']);
      expect(second.next).toBeNull();
      const back = await listAll(dataset, new URL(second.previous!).search);
      expect(back.results.map((r) => r.element.name)).toEqual(['page 1', 'page 3']);
      expect((await listAll(dataset, '?set=dev')).results).toEqual([]);
    });

    it('answers 404 to a bad cursor and to callers who cannot read the project', async () => {
      const dataset = await makeDataset();
      const bad = await as('guest').get(`datasets/${dataset.id}/elements/?cursor=nope`);
      expect(bad.statusCode).toBe(404);
      for (const role of ['outsider', 'anonymous'] as const) {
        const response = await as(role).get(`datasets/${dataset.id}/elements/`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });
  });

  describe('DELETE /datasets/{id}/elements/{elementId}/', () => {
    it('removes an element from the set the query names', async () => {
      const dataset = await makeDataset({ unique_elements: false });
      await added(dataset, priv['page 1']!, 'train');
      await added(dataset, priv['page 1']!, 'dev');
      const url = `datasets/${dataset.id}/elements/${priv['page 1']}/`;
      const missing = await as('contributor').delete(url);
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual(validation('set', 'This field is required.', 'required'));
      expect((await as('guest').delete(`${url}?set=train`)).json()).toEqual(NOT_CONTRIBUTOR);
      expect((await as('unverifiedAdmin').delete(`${url}?set=train`)).json()).toEqual(UNVERIFIED);
      expect((await as('outsider').delete(`${url}?set=train`)).statusCode).toBe(404);
      expect((await as('contributor').delete(`${url}?set=nope`)).statusCode).toBe(400);
      expect((await as('contributor').delete(`${url}?set=train`)).statusCode).toBe(204);
      expect((await as('contributor').delete(`${url}?set=train`)).statusCode).toBe(404);
      expect((await listAll(dataset)).results.map((r) => r.set)).toEqual(['dev']);
      expect(
        (await as('contributor').delete(`datasets/${dataset.id}/elements/nope/?set=dev`))
          .statusCode,
      ).toBe(404);
      await t()
        .app.db.updateTable('datasets')
        .set({ state: 'complete' })
        .where('id', '=', dataset.id)
        .execute();
      const closed = await as('contributor').delete(`${url}?set=dev`);
      expect(closed.statusCode).toBe(400);
      expect(closed.json()).toEqual(NOT_OPEN);
    });
  });

  describe('GET /element/{id}/sets/', () => {
    it("lists an element's sets, with its neighbours in each when asked", async () => {
      const dataset = await makeDataset({ name: 'AAA neighbours', unique_elements: false });
      for (const name of ['page 1', 'page 2', 'page 3']) await added(dataset, priv[name]!, 'train');
      await added(dataset, priv['page 2']!, 'dev');
      const plain = await as('guest').get(`element/${priv['page 2']}/sets/`);
      expect(plain.statusCode).toBe(200);
      const mine = plain
        .json()
        .results.filter((r: { dataset: { id: string } }) => r.dataset.id === dataset.id);
      expect(mine.map((r: { set: string }) => r.set)).toEqual(['dev', 'train']);
      expect(mine[0]).toMatchObject({ previous: null, next: null });
      expect(mine[0].dataset).toMatchObject({ id: dataset.id, name: 'AAA neighbours' });
      const withNeighbors = await as('guest').get(
        `element/${priv['page 2']}/sets/?with_neighbors=true`,
      );
      const entries = withNeighbors
        .json()
        .results.filter((r: { dataset: { id: string } }) => r.dataset.id === dataset.id);
      expect(
        entries.map((r: { previous: string | null; next: string | null }) => [r.previous, r.next]),
      ).toEqual([
        [null, null],
        [priv['page 1'], priv['page 3']],
      ]);
    });

    it('answers 404 for an element the caller cannot read', async () => {
      for (const id of [priv['page 1']!, UNKNOWN_ID, 'nope']) {
        const response = await as('outsider').get(`element/${id}/sets/`);
        expect(response.statusCode).toBe(404);
      }
      expect((await as('outsider').get(`element/${pub['public page']}/sets/`)).statusCode).toBe(
        200,
      );
    });
  });

  describe('POST /corpus/{id}/datasets/selection/', () => {
    it("adds the caller's selection of the project to a set", async () => {
      const dataset = await makeDataset();
      const selected = await as('contributor').post('elements/selection/', {
        ids: [priv['page 1'], priv['page 2'], pub['public page']],
      });
      expect(selected.statusCode).toBe(204);
      await added(dataset, priv['page 1']!, 'train');
      const train = dataset.sets.find((set) => set.name === 'train')!.id;
      const response = await as('contributor').post(`corpus/${privateId}/datasets/selection/`, {
        set_id: train,
      });
      expect(response.statusCode).toBe(204);
      expect((await listAll(dataset, '?set=train')).results.map((r) => r.element.name)).toEqual([
        'page 1',
        'page 2',
      ]);
      const dev = dataset.sets.find((set) => set.name === 'dev')!.id;
      const refused = await as('contributor').post(`corpus/${privateId}/datasets/selection/`, {
        set_id: dev,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors[0].detail).toBe(DATASET_ELEMENT_MESSAGES.selectionInOtherSet(2));
      expect((await listAll(dataset, '?set=dev')).results).toEqual([]);
      await as('contributor').delete('elements/selection/');
    });

    it('answers the same call under the dataset, for its own sets only', async () => {
      const dataset = await makeDataset();
      const other = await makeDataset();
      await as('contributor').post('elements/selection/', { ids: [priv['page 4']] });
      const url = `datasets/${dataset.id}/elements/selection/`;
      const foreign = await as('contributor').post(url, { set_id: other.sets[0]!.id });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json()).toEqual(invalidPk('set_id', other.sets[0]!.id));
      expect((await as('guest').post(url, { set_id: dataset.sets[0]!.id })).json()).toEqual(
        NOT_CONTRIBUTOR,
      );
      const test = dataset.sets.find((set) => set.name === 'test')!.id;
      expect((await as('contributor').post(url, { set_id: test })).statusCode).toBe(204);
      expect((await listAll(dataset, '?set=test')).results.map((r) => r.element.name)).toEqual([
        'page 4',
      ]);
      await as('contributor').delete('elements/selection/');
    });

    it('refuses bad input and callers without rights', async () => {
      const dataset = await makeDataset();
      const set = dataset.sets[0]!.id;
      const url = `corpus/${privateId}/datasets/selection/`;
      expect((await as('anonymous').post(url, { set_id: set })).statusCode).toBe(401);
      expect((await as('unverifiedAdmin').post(url, { set_id: set })).json()).toEqual(UNVERIFIED);
      expect((await as('guest').post(url, { set_id: set })).json()).toEqual(NOT_CONTRIBUTOR);
      expect((await as('outsider').post(url, { set_id: set })).statusCode).toBe(404);
      const malformed = await as('contributor').post(url, { set_id: 'nope' });
      expect(malformed.json()).toEqual(validation('set_id', 'Must be a valid UUID.'));
      expect((await as('contributor').post(url, { set_id: UNKNOWN_ID })).statusCode).toBe(404);
      const elsewhere = await as('owner').post(`corpus/${publicId}/datasets/selection/`, {
        set_id: set,
      });
      expect(elsewhere.statusCode).toBe(404);
      await t()
        .app.db.updateTable('datasets')
        .set({ state: 'error' })
        .where('id', '=', dataset.id)
        .execute();
      const closed = await as('contributor').post(url, { set_id: set });
      expect(closed.statusCode).toBe(400);
      expect(closed.json()).toEqual(NOT_OPEN);
    });
  });
});
