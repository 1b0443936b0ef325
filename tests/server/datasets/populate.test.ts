import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect, type TestApp } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import { insertElements } from '../elementsFixtures';
import { NOT_AUTHENTICATED, NOT_FOUND, UNKNOWN_ID, denied, validation } from '../expectedErrors';
import { DATASET_MESSAGES } from '../../../server/services/datasets/datasets';
import { DATASET_ELEMENT_MESSAGES } from '../../../server/services/datasets/elements';
import { POPULATE_MESSAGES } from '../../../server/services/datasets/populate';
import { INTERRUPTED } from '../../../server/jobs/queue';
import { drainWatchingProgress } from '../jobProgress';
import { createElements } from '../../../server/services/elements/create';

const UNVERIFIED = denied('You must verify your email address to perform this action.');
const NOT_CONTRIBUTOR = denied('You do not have contributor access to this project.');
const clientError = (detail: string) => ({
  type: 'client_error',
  errors: [{ code: 'invalid', detail, attr: null }],
});

interface DatasetBody {
  id: string;
  name: string;
  state: string;
  set_elements: Record<string, number>;
}

interface PopulateWorld {
  t: () => TestApp;
  actors: Actors;
  privateId: string;
  publicId: string;
  ids: Record<string, string>;
  as: (role: Role) => ReturnType<typeof clientFor>;
  makeDataset: (body?: Record<string, unknown>, corpusId?: string) => Promise<DatasetBody>;
  populate: (
    dataset: { id: string },
    body: Record<string, unknown>,
    role?: Role,
  ) => ReturnType<ReturnType<typeof clientFor>['post']>;
  /** Every element of the dataset, by id, with its sets, as the API lists them. */
  members: (datasetId: string) => Promise<Map<string, string[]>>;
  dataset: (datasetId: string) => Promise<DatasetBody>;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A book of 12 pages, with a chapter of 8 more pages; 5 lines on page 01; 4 loose pages. */
async function populateWorld(t: () => TestApp): Promise<PopulateWorld> {
  const app = t().app;
  const { actors, privateId, publicId } = await makeActorsAndProjects(app);
  const ids = await insertElements(app, privateId, [
    { name: 'book', type: 'folder' },
    { name: 'chapter', type: 'folder', parent: 'book' },
    ...Array.from({ length: 12 }, (_, i) => ({
      name: `page ${pad(i + 1)}`,
      type: 'page',
      parent: 'book',
    })),
    ...Array.from({ length: 8 }, (_, i) => ({
      name: `page ${pad(i + 13)}`,
      type: 'page',
      parent: 'chapter',
    })),
    ...Array.from({ length: 5 }, (_, i) => ({
      name: `line ${i + 1}`,
      type: 'text_line',
      parent: 'page 01',
    })),
    ...Array.from({ length: 4 }, (_, i) => ({ name: `loose ${i + 1}`, type: 'page' })),
  ]);
  Object.assign(ids, await insertElements(app, publicId, [{ name: 'public page', type: 'page' }]));
  const as = (role: Role) => clientFor(app, actors, role);
  let counter = 0;
  const world: PopulateWorld = {
    t,
    actors,
    privateId,
    publicId,
    ids,
    as,
    async makeDataset(body = {}, corpusId = privateId) {
      counter += 1;
      const response = await as('owner').post(`corpus/${corpusId}/datasets/`, {
        name: `Populated ${counter}`,
        description: 'Ground truth',
        ...body,
      });
      expect(response.statusCode).toBe(201);
      return response.json();
    },
    populate: (dataset, body, role = 'contributor') =>
      as(role).post(`datasets/${dataset.id}/populate/`, body),
    async members(datasetId) {
      const found = new Map<string, string[]>();
      let url: string | null = `datasets/${datasetId}/elements/?page_size=500`;
      while (url) {
        const response = await as('guest').get(url);
        expect(response.statusCode).toBe(200);
        const body = response.json() as {
          next: string | null;
          results: { set: string; element: { id: string } }[];
        };
        for (const row of body.results) {
          found.set(row.element.id, [...(found.get(row.element.id) ?? []), row.set]);
        }
        url = body.next ? new URL(body.next).pathname + new URL(body.next).search : null;
      }
      return found;
    },
    async dataset(datasetId) {
      const response = await as('guest').get(`datasets/${datasetId}/`);
      expect(response.statusCode).toBe(200);
      return response.json();
    },
  };
  return world;
}

const BOOK_PAGES = Array.from({ length: 12 }, (_, i) => `page ${pad(i + 1)}`);
const ALL_BOOK_PAGES = Array.from({ length: 20 }, (_, i) => `page ${pad(i + 1)}`);

describeEachDialect('POST /datasets/{id}/populate/', ({ t }) => {
  let w: PopulateWorld;
  const nameOf = (id: string) => Object.entries(w.ids).find(([, value]) => value === id)?.[0];
  const drain = () => t().app.jobs.drain();

  async function populated(
    body: Record<string, unknown>,
    datasetBody: Record<string, unknown> = {},
  ) {
    const dataset = await w.makeDataset(datasetBody);
    const response = await w.populate(dataset, body);
    expect(response.statusCode).toBe(202);
    await drain();
    const job = await w.as('contributor').get(`jobs/${response.json().job.id}/`);
    return { dataset, job: job.json(), members: await w.members(dataset.id) };
  }

  beforeAll(async () => {
    w = await populateWorld(t);
  });

  describe('a populate from start to end', () => {
    it('answers 202 with the dataset building and its job, then completes it', async () => {
      const dataset = await w.makeDataset();
      const response = await w.populate(dataset, {
        types: ['page'],
        count: 10,
        sets: { train: 0.8, dev: 0.1, test: 0.1 },
        parent_id: w.ids.book,
        seed: 42,
      });
      expect(response.statusCode).toBe(202);
      const started = response.json();
      expect(started.dataset).toMatchObject({ id: dataset.id, state: 'building' });
      expect(started.job).toMatchObject({
        status: 'queued',
        kind: 'dataset.populate',
        description: `Populating dataset ${dataset.name}`,
        progress: 0,
        result: null,
        error: null,
      });
      // Whoever opens the dataset while it builds finds its job, to follow its progress.
      expect(await w.dataset(dataset.id)).toMatchObject({
        state: 'building',
        populate_job_id: started.job.id,
      });

      await drain();
      const job = (await w.as('contributor').get(`jobs/${started.job.id}/`)).json();
      expect(job).toMatchObject({
        status: 'processed',
        progress: 1,
        result: { count: 10, sets: { dev: 1, test: 1, train: 8 }, seed: 42 },
      });
      const after = await w.dataset(dataset.id);
      expect(after).toMatchObject({
        state: 'complete',
        set_elements: { dev: 1, test: 1, train: 8 },
      });
      const members = await w.members(dataset.id);
      expect(members.size).toBe(10);
      for (const [id, sets] of members) {
        expect(BOOK_PAGES).toContain(nameOf(id));
        expect(sets).toHaveLength(1);
      }
    });

    it('draws a seed when none is given and records it, which reproduces the split', async () => {
      const body = { types: ['page'], count: 9, sets: { train: 0.5, dev: 0.5 } };
      const first = await populated(body);
      const seed = first.job.result.seed;
      expect(Number.isInteger(seed)).toBe(true);
      const again = await populated({ ...body, seed });
      expect([...again.members].sort()).toEqual([...first.members].sort());
      expect(again.job.result).toEqual(first.job.result);
    });
  });

  describe('the draw', () => {
    const body = (seed: number) => ({
      types: ['page'],
      count: 12,
      sets: { train: 0.5, dev: 0.25, test: 0.25 },
      parent_id: w.ids.book,
      recursive: true,
      seed,
    });

    it('gives the same split for the same seed and data, another for another seed', async () => {
      const one = await populated(body(7));
      const two = await populated(body(7));
      const other = await populated(body(8));
      const sorted = (members: Map<string, string[]>) => [...members].sort();
      expect(sorted(two.members)).toEqual(sorted(one.members));
      expect(sorted(other.members)).not.toEqual(sorted(one.members));
      expect(one.members.size).toBe(12);
    });

    it('splits by floor(count × ratio), the rest to the last set by name with a ratio', async () => {
      const halves = await populated({
        types: ['page'],
        count: 10,
        sets: { train: 0.5, dev: 0.25, test: 0.25 },
        seed: 1,
      });
      expect(halves.job.result.sets).toEqual({ dev: 2, test: 2, train: 6 });
      // train sorts last but has nothing: test, the last with a ratio, takes the rest.
      const noTrain = await populated({
        types: ['page'],
        count: 5,
        sets: { dev: 0.5, test: 0.5, train: 0 },
        seed: 1,
      });
      expect(noTrain.job.result).toMatchObject({ count: 5, sets: { dev: 2, test: 3, train: 0 } });
      expect((await w.dataset(noTrain.dataset.id)).set_elements).toEqual({
        dev: 2,
        test: 3,
        train: 0,
      });
      // Thirds within the tolerance.
      const thirds = await populated({
        types: ['page'],
        count: 7,
        sets: { dev: 0.333333, test: 0.333333, train: 0.333334 },
        seed: 1,
      });
      expect(thirds.job.result.sets).toEqual({ dev: 2, test: 2, train: 3 });
    });

    it('takes every candidate when count is larger', async () => {
      const all = await populated({
        types: ['page'],
        count: 1000,
        sets: { train: 0.8, dev: 0.1, test: 0.1 },
        parent_id: w.ids.book,
      });
      expect(all.job.result.count).toBe(12);
      expect([...all.members.keys()].map(nameOf).sort()).toEqual(BOOK_PAGES);
      expect(all.job.result.sets).toEqual({ dev: 1, test: 1, train: 10 });
    });

    it('takes the direct children of the parent, or all its descendants when recursive', async () => {
      const sets = { train: 1 };
      const direct = await populated({ types: ['page'], count: 100, sets, parent_id: w.ids.book });
      expect([...direct.members.keys()].map(nameOf).sort()).toEqual(BOOK_PAGES);
      const deep = await populated({
        types: ['page'],
        count: 100,
        sets,
        parent_id: w.ids.book,
        recursive: true,
      });
      expect([...deep.members.keys()].map(nameOf).sort()).toEqual(ALL_BOOK_PAGES);
      const typed = await populated({
        types: ['text_line', 'folder'],
        count: 100,
        sets,
        parent_id: w.ids.book,
        recursive: true,
      });
      expect([...typed.members.keys()].map(nameOf).sort()).toEqual([
        'chapter',
        'line 1',
        'line 2',
        'line 3',
        'line 4',
        'line 5',
      ]);
      const project = await populated({ types: ['page'], count: 100, sets });
      expect(project.members.size).toBe(24);
      expect(project.members.has(w.ids['public page']!)).toBe(false);
    });
  });

  describe('elements already in the dataset', () => {
    async function withPage01In(set: string, datasetBody: Record<string, unknown>) {
      const dataset = await w.makeDataset(datasetBody);
      const added = await w
        .as('contributor')
        .post(`datasets/${dataset.id}/elements/`, { element_id: w.ids['page 01'], set });
      expect(added.statusCode).toBe(201);
      return dataset;
    }

    it('leaves out elements already in a set of a unique dataset', async () => {
      const dataset = await withPage01In('dev', {});
      const response = await w.populate(dataset, {
        types: ['page'],
        count: 100,
        sets: { train: 0.5, test: 0.5 },
        parent_id: w.ids.book,
      });
      expect(response.statusCode).toBe(202);
      await drain();
      const job = (await w.as('contributor').get(`jobs/${response.json().job.id}/`)).json();
      expect(job.result.count).toBe(11);
      const members = await w.members(dataset.id);
      expect(members.get(w.ids['page 01']!)).toEqual(['dev']);
      expect([...members.values()].every((sets) => sets.length === 1)).toBe(true);
      expect(members.size).toBe(12);
    });

    it('in a dataset allowing several sets, only skips those already in the same set', async () => {
      const other = await withPage01In('dev', { unique_elements: false });
      const response = await w.populate(other, {
        types: ['page'],
        count: 100,
        sets: { train: 1 },
        parent_id: w.ids.book,
      });
      await drain();
      const job = (await w.as('contributor').get(`jobs/${response.json().job.id}/`)).json();
      expect(job.result).toMatchObject({ count: 12, sets: { train: 12 } });
      expect((await w.members(other.id)).get(w.ids['page 01']!)?.sort()).toEqual(['dev', 'train']);

      const same = await withPage01In('train', { unique_elements: false });
      const again = await w.populate(same, {
        types: ['page'],
        count: 100,
        sets: { train: 1 },
        parent_id: w.ids.book,
      });
      await drain();
      const sameJob = (await w.as('contributor').get(`jobs/${again.json().job.id}/`)).json();
      expect(sameJob.result).toMatchObject({ count: 11, sets: { train: 11 } });
      expect((await w.dataset(same.id)).set_elements.train).toBe(12);
    });
    it('keeps an element in one set when the dataset is made unique while it is populated', async () => {
      const app = t().app;
      const types = await app.db
        .selectFrom('element_types')
        .select(['id', 'slug'])
        .where('corpus_id', '=', w.privateId)
        .execute();
      const { wide } = await insertElements(app, w.privateId, [{ name: 'wide', type: 'folder' }]);
      const lines = await app.db.transaction().execute((trx) =>
        createElements(
          trx,
          Array.from({ length: 6000 }, (_, i) => ({
            corpusId: w.privateId,
            typeId: types.find((type) => type.slug === 'text_line')!.id,
            name: `wide line ${i}`,
            parentId: wide!,
          })),
        ),
      );
      // The candidates are read by id: the last id is drawn into the last batch.
      const lastId = [...lines].sort().pop()!;
      const dataset = await w.makeDataset({ unique_elements: false });
      const added = await w
        .as('contributor')
        .post(`datasets/${dataset.id}/elements/`, { element_id: lastId, set: 'dev' });
      expect(added.statusCode).toBe(201);
      const response = await w.populate(dataset, {
        types: ['text_line'],
        count: 6000,
        sets: { train: 1 },
        parent_id: wide,
      });
      expect(response.statusCode).toBe(202);
      const draining = drain();
      for (;;) {
        const { train } = (await w.dataset(dataset.id)).set_elements;
        if (train! > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const unique = await w
        .as('contributor')
        .patch(`datasets/${dataset.id}/`, { unique_elements: true });
      expect(unique.statusCode).toBe(200);
      await draining;
      const job = (await w.as('contributor').get(`jobs/${response.json().job.id}/`)).json();
      expect(job.result).toMatchObject({ count: 5999, sets: { train: 5999 } });
      const members = await w.members(dataset.id);
      expect(members.get(lastId)).toEqual(['dev']);
      expect(members.size).toBe(6000);
      expect([...members.values()].every((sets) => sets.length === 1)).toBe(true);
    });
  });

  describe('while a populate runs', () => {
    const body = () => ({
      types: ['page'],
      count: 100,
      sets: { train: 0.5, dev: 0.5 },
      parent_id: w.ids.book,
      recursive: true,
    });

    it('refuses a second populate sent at the same moment: no element is in two sets', async () => {
      for (let round = 0; round < 3; round += 1) {
        const dataset = await w.makeDataset();
        const answers = await Promise.all([
          w.populate(dataset, { ...body(), seed: 1 }),
          w.populate(dataset, { ...body(), seed: 2 }, 'owner'),
        ]);
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 400]);
        const refused = answers.find((answer) => answer.statusCode === 400)!;
        expect(refused.json()).toEqual(clientError(POPULATE_MESSAGES.building));
        await drain();
        const members = await w.members(dataset.id);
        expect(members.size).toBe(20);
        expect([...members.values()].every((sets) => sets.length === 1)).toBe(true);
      }
    });

    it('refuses manual changes and a second populate until it ends; then only open datasets', async () => {
      const dataset = await w.makeDataset();
      expect((await w.populate(dataset, body())).statusCode).toBe(202);
      const add = await w
        .as('contributor')
        .post(`datasets/${dataset.id}/elements/`, { element_id: w.ids['loose 1'], set: 'train' });
      expect(add.statusCode).toBe(400);
      expect(add.json()).toEqual(clientError(DATASET_MESSAGES.notOpen));
      const second = await w.populate(dataset, body());
      expect(second.statusCode).toBe(400);
      expect(second.json()).toEqual(clientError(POPULATE_MESSAGES.building));
      await drain();
      expect((await w.dataset(dataset.id)).state).toBe('complete');
      const third = await w.populate(dataset, body());
      expect(third.statusCode).toBe(400);
      expect(third.json()).toEqual(clientError(DATASET_MESSAGES.notOpen));
    });

    it('reports progress from 0 to 1 while it inserts', async () => {
      const app = t().app;
      const types = await app.db
        .selectFrom('element_types')
        .select(['id', 'slug'])
        .where('corpus_id', '=', w.privateId)
        .execute();
      const folder = await insertElements(app, w.privateId, [{ name: 'big', type: 'folder' }]);
      await app.db.transaction().execute((trx) =>
        createElements(
          trx,
          Array.from({ length: 3500 }, (_, i) => ({
            corpusId: w.privateId,
            typeId: types.find((type) => type.slug === 'text_line')!.id,
            name: `big line ${i}`,
            parentId: folder.big!,
          })),
        ),
      );
      const dataset = await w.makeDataset();
      const response = await w.populate(dataset, {
        types: ['text_line'],
        count: 3500,
        sets: { train: 1 },
        parent_id: folder.big,
      });
      const jobId = response.json().job.id as string;
      const seen = await drainWatchingProgress(app, jobId);
      const job = (await w.as('contributor').get(`jobs/${jobId}/`)).json();
      expect(job).toMatchObject({ status: 'processed', progress: 1, result: { count: 3500 } });
      const between = seen.filter((value) => value > 0 && value < 1);
      expect(between.length).toBeGreaterThan(0);
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    });
  });

  describe('a populate that cannot end', () => {
    const body = () => ({ types: ['page'], count: 5, sets: { train: 1 } });

    it('leaves the dataset in error when its server died with the job', async () => {
      const app = t().app;
      const dataset = await w.makeDataset();
      const response = await w.populate(dataset, body());
      const jobId = response.json().job.id as string;
      const long = new Date(Date.now() - 10 * 60_000).toISOString();
      await app.db
        .updateTable('jobs')
        .set({
          status: 'started',
          claimed_by: 'gone-host:4242:dead',
          started_at: long,
          heartbeat_at: long,
          attempts: 1,
        })
        .where('id', '=', jobId)
        .execute();
      await drain();
      const job = (await w.as('contributor').get(`jobs/${jobId}/`)).json();
      expect(job).toMatchObject({ status: 'error', error: INTERRUPTED });
      expect((await w.dataset(dataset.id)).state).toBe('error');
      const reopened = await w.as('owner').patch(`datasets/${dataset.id}/`, { state: 'open' });
      expect(reopened.json().state).toBe('open');
    });

    it('leaves the dataset in error when its queued job is cancelled', async () => {
      const dataset = await w.makeDataset();
      const response = await w.populate(dataset, body());
      const jobId = response.json().job.id as string;
      expect((await w.as('contributor').delete(`jobs/${jobId}/`)).statusCode).toBe(204);
      expect((await w.dataset(dataset.id)).state).toBe('error');
      expect((await w.members(dataset.id)).size).toBe(0);
    });

    it('ends the dataset and the job in error when the dataset is deleted meanwhile', async () => {
      const dataset = await w.makeDataset();
      const response = await w.populate(dataset, body());
      expect((await w.as('owner').delete(`datasets/${dataset.id}/`)).statusCode).toBe(204);
      await drain();
      const job = (await w.as('contributor').get(`jobs/${response.json().job.id}/`)).json();
      expect(job.status).toBe('error');
    });
  });

  describe('what it refuses', () => {
    const valid = () => ({
      types: ['page'],
      count: 3,
      sets: { train: 0.8, dev: 0.1, test: 0.1 },
    });

    it.each([
      [
        'types missing',
        { types: undefined },
        validation('types', 'This field is required.', 'required'),
      ],
      ['types empty', { types: [] }, validation('types', 'This list may not be empty.', 'empty')],
      [
        'an unknown type',
        { types: ['page', 'nope'] },
        validation('types', 'Object with slug=nope does not exist.', 'does_not_exist'),
      ],
      [
        'count 0',
        { count: 0 },
        validation('count', 'Ensure this value is greater than or equal to 1.', 'min_value'),
      ],
      ['a fractional count', { count: 1.5 }, validation('count', 'A valid integer is required.')],
      ['a text count', { count: 'ten' }, validation('count', 'A valid integer is required.')],
      [
        'sets missing',
        { sets: undefined },
        validation('sets', 'This field is required.', 'required'),
      ],
      [
        'an unknown set',
        { sets: { train: 0.5, valid: 0.5 } },
        validation('sets', DATASET_ELEMENT_MESSAGES.noSet('valid')),
      ],
      [
        'a ratio above 1',
        { sets: { train: 1.5 } },
        validation('sets', POPULATE_MESSAGES.ratioRange('train')),
      ],
      [
        'a negative ratio',
        { sets: { train: 1, dev: -0.1 } },
        validation('sets', POPULATE_MESSAGES.ratioRange('dev')),
      ],
      [
        'a text ratio',
        { sets: { train: '1' } },
        validation('sets', POPULATE_MESSAGES.ratioRange('train')),
      ],
      [
        'ratios below 100%',
        { sets: { train: 0.8, dev: 0.1 } },
        validation('sets', 'The sum of all ratios must be 100%'),
      ],
      [
        'ratios above 100%',
        { sets: { train: 0.8, dev: 0.3 } },
        validation('sets', 'The sum of all ratios must be 100%'),
      ],
      ['no ratio', { sets: {} }, validation('sets', 'The sum of all ratios must be 100%')],
      [
        'a list of sets',
        { sets: ['train'] },
        validation('sets', 'Invalid data. Expected a dictionary, but got list.'),
      ],
      [
        'a malformed parent',
        { parent_id: 'nope' },
        validation('parent_id', 'Must be a valid UUID.'),
      ],
      [
        'an unknown parent',
        { parent_id: UNKNOWN_ID },
        validation(
          'parent_id',
          `Invalid pk "${UNKNOWN_ID}" - object does not exist.`,
          'does_not_exist',
        ),
      ],
      [
        'a text recursive',
        { recursive: 'yes' },
        validation('recursive', 'Must be a valid boolean.'),
      ],
      ['a fractional seed', { seed: 1.5 }, validation('seed', 'A valid integer is required.')],
    ] as const)('refuses %s with a 400 that changes nothing', async (_label, change, expected) => {
      const dataset = await w.makeDataset();
      const response = await w.populate(dataset, { ...valid(), ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
      expect((await w.dataset(dataset.id)).state).toBe('open');
      const jobs = (await w.as('contributor').get('jobs/')).json() as { description: string }[];
      expect(jobs.some((job) => job.description === `Populating dataset ${dataset.name}`)).toBe(
        false,
      );
    });

    it('refuses a parent from another project, naming every bad field at once', async () => {
      const dataset = await w.makeDataset();
      const response = await w.populate(dataset, {
        ...valid(),
        types: [],
        parent_id: w.ids['public page'],
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.map((error: { attr: string }) => error.attr)).toEqual([
        'types',
        'parent_id',
      ]);
    });

    it('refuses malformed JSON', async () => {
      const dataset = await w.makeDataset();
      const response = await w
        .as('contributor')
        .post(`datasets/${dataset.id}/populate/`, '{"types":');
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].code).toBe('parse_error');
    });

    it.each([
      ['anonymous', 'private', 401, NOT_AUTHENTICATED],
      ['unverifiedAdmin', 'private', 403, UNVERIFIED],
      ['guest', 'private', 403, NOT_CONTRIBUTOR],
      ['outsider', 'private', 404, NOT_FOUND],
      ['outsider', 'public', 403, NOT_CONTRIBUTOR],
    ] as const)('refuses %s (%s)', async (role, corpus, status, expected) => {
      const dataset = await w.makeDataset({}, corpus === 'private' ? w.privateId : w.publicId);
      const response = await w.populate(dataset, valid(), role);
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual(expected);
      expect((await w.dataset(dataset.id)).state).toBe('open');
    });

    it('answers 404 for an unknown or malformed dataset id', async () => {
      for (const id of [UNKNOWN_ID, 'nope']) {
        const response = await w.populate({ id }, valid(), 'owner');
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
    });
  });
});
