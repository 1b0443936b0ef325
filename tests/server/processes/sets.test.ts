import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../harness';
import { clientFor, makeActorsAndProjects, type Actors, type Role } from '../actors';
import {
  NOT_ADMIN,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  UNKNOWN_ID,
  UUID,
  validation,
} from '../expectedErrors';
import { newToken } from '../../../server/services/tasks/tokens';
import { addRun, createProcess, makeTree, makeVersion, setTaskStates } from './fixtures';

const refusal = (detail: string, code = 'invalid') => ({
  type: 'client_error',
  errors: [{ code, detail, attr: null }],
});

interface DatasetBody {
  id: string;
  name: string;
  sets: { id: string; name: string }[];
}

describeEachDialect('the dataset sets of a dataset process', ({ t }) => {
  let actors: Actors;
  let privateId: string;
  let publicId: string;
  let ids: Record<string, string>;
  let counter = 0;
  const as = (role: Role) => clientFor(t().app, actors, role);

  beforeAll(async () => {
    ({ actors, privateId, publicId } = await makeActorsAndProjects(t().app));
    ids = await makeTree(t().app, privateId);
  });

  async function makeDataset(corpusId = privateId, name?: string): Promise<DatasetBody> {
    counter += 1;
    const response = await as('owner').post(`corpus/${corpusId}/datasets/`, {
      name: name ?? `Dataset ${counter}`,
      description: 'Ground truth',
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  const setOf = (dataset: DatasetBody, name: string) =>
    dataset.sets.find((set) => set.name === name)!;

  async function addElement(dataset: DatasetBody, set: string, elementName: string) {
    const response = await as('owner').post(`datasets/${dataset.id}/elements/`, {
      element_id: ids[elementName],
      set,
    });
    expect(response.statusCode, response.body).toBe(201);
  }

  async function datasetProcess(corpusId = privateId, name = 'Training') {
    return createProcess(as('owner'), corpusId, { mode: 'dataset', name });
  }

  describe('POST /process/corpus/ with mode dataset', () => {
    it('makes an unscheduled dataset process without filters for a project admin', async () => {
      const process = await datasetProcess();
      expect(process).toMatchObject({
        mode: 'dataset',
        name: 'Training',
        corpus: privateId,
        state: 'unscheduled',
        element: null,
        selection_count: 0,
        tasks: [],
      });
    });

    it('refuses non-admins and element filters', async () => {
      const contributor = await as('contributor').post('process/corpus/', {
        corpus: privateId,
        mode: 'dataset',
      });
      expect(contributor.statusCode).toBe(403);
      expect(contributor.json()).toEqual(NOT_ADMIN);
      const filtered = await as('owner').post('process/corpus/', {
        corpus: privateId,
        mode: 'dataset',
        element_type: 'page',
      });
      expect(filtered.statusCode).toBe(400);
      expect(filtered.json()).toEqual(
        validation(
          'mode',
          'A dataset process runs on dataset sets: it takes no element filters or selection.',
        ),
      );
      const unknown = await as('owner').post('process/corpus/', {
        corpus: privateId,
        mode: 'files',
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().errors[0].attr).toBe('mode');
    });
  });

  describe('choosing sets', () => {
    it('adds, lists and removes sets, each with its dataset', async () => {
      const owner = as('owner');
      const alpha = await makeDataset(privateId, 'Alpha lines');
      const beta = await makeDataset(privateId, 'Beta pages');
      await addElement(alpha, 'train', 'Page 1');
      const process = await datasetProcess();

      const added = await owner.post(`process/${process.id}/set/${setOf(beta, 'test').id}/`);
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json()).toMatchObject({
        id: expect.stringMatching(UUID),
        set_name: 'test',
        dataset: { id: beta.id, name: 'Beta pages', state: 'open', corpus_id: privateId },
      });
      for (const set of [setOf(alpha, 'train'), setOf(alpha, 'dev')]) {
        const response = await owner.post(`process/${process.id}/set/${set.id}/`);
        expect(response.statusCode, response.body).toBe(201);
      }

      const listed = await as('guest').get(`process/${process.id}/sets/`);
      expect(listed.statusCode).toBe(200);
      const body = listed.json();
      expect(body).toMatchObject({ count: 3, number: 1, next: null, previous: null });
      expect(
        body.results.map((item: { dataset: { name: string }; set_name: string }) => [
          item.dataset.name,
          item.set_name,
        ]),
      ).toEqual([
        ['Alpha lines', 'dev'],
        ['Alpha lines', 'train'],
        ['Beta pages', 'test'],
      ]);
      // The dataset as GET /datasets/{id}/ shows it, counts included.
      expect(body.results[1].dataset).toEqual((await owner.get(`datasets/${alpha.id}/`)).json());
      expect(body.results[1].dataset.set_elements).toEqual({ dev: 0, test: 0, train: 1 });

      const paged = (await owner.get(`process/${process.id}/sets/?page_size=2&page=2`)).json();
      expect(paged.results.map((item: { set_name: string }) => item.set_name)).toEqual(['test']);

      const removed = await owner.delete(`process/${process.id}/set/${setOf(alpha, 'dev').id}/`);
      expect(removed.statusCode).toBe(204);
      const again = await owner.delete(`process/${process.id}/set/${setOf(alpha, 'dev').id}/`);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual(NOT_FOUND);
      const after = (await owner.get(`process/${process.id}/sets/`)).json();
      expect(after.count).toBe(2);
    });

    it('refuses the same set twice', async () => {
      const dataset = await makeDataset();
      const process = await datasetProcess();
      const url = `process/${process.id}/set/${setOf(dataset, 'train').id}/`;
      expect((await as('owner').post(url)).statusCode).toBe(201);
      const twice = await as('owner').post(url);
      expect(twice.statusCode).toBe(400);
      expect(twice.json()).toEqual(
        refusal('This dataset set is already chosen for this process.', 'unique'),
      );
    });

    it('leaves the sets to project admins, and tells outsiders nothing', async () => {
      const dataset = await makeDataset();
      const process = await datasetProcess();
      const url = `process/${process.id}/set/${setOf(dataset, 'train').id}/`;
      for (const role of ['guest', 'contributor'] as const) {
        const response = await as(role).post(url);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual(NOT_ADMIN);
        expect((await as(role).delete(url)).statusCode).toBe(403);
      }
      const outsider = await as('outsider').post(url);
      expect(outsider.statusCode).toBe(404);
      expect(outsider.json()).toEqual(NOT_FOUND);
      expect((await as('outsider').get(`process/${process.id}/sets/`)).statusCode).toBe(404);
      const anonymous = await as('anonymous').get(`process/${process.id}/sets/`);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual(NOT_AUTHENTICATED);
      const listed = (await as('owner').get(`process/${process.id}/sets/`)).json();
      expect(listed.count).toBe(0);
    });

    it("refuses a set of another project's dataset as it refuses an unknown one", async () => {
      const foreign = await makeDataset(publicId);
      const process = await datasetProcess();
      const other = await as('owner').post(
        `process/${process.id}/set/${setOf(foreign, 'train').id}/`,
      );
      const unknown = await as('owner').post(`process/${process.id}/set/${UNKNOWN_ID}/`);
      const malformed = await as('owner').post(`process/${process.id}/set/not-a-uuid/`);
      for (const response of [other, unknown, malformed]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
      expect((await as('owner').get(`process/${process.id}/sets/`)).json().count).toBe(0);
    });

    it('only for a dataset process', async () => {
      const dataset = await makeDataset();
      const workers = await createProcess(as('owner'), privateId, { name: 'Workers' });
      const response = await as('owner').post(
        `process/${workers.id}/set/${setOf(dataset, 'train').id}/`,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        refusal('Dataset sets can only be chosen for a dataset process.'),
      );
    });
  });

  describe('starting a dataset process', () => {
    it('refuses a start without sets', async () => {
      const process = await datasetProcess();
      await addRun(as('owner'), process.id, (await makeVersion(t().app)).versionId);
      const response = await as('owner').post(`process/${process.id}/start/`, {});
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(refusal('This process has no dataset sets to run on.'));
      expect((await as('owner').get(`process/${process.id}/`)).json().tasks).toEqual([]);
    });

    it("gives the tasks the chosen sets' elements, once each, and freezes the sets", async () => {
      const owner = as('owner');
      const first = await makeDataset();
      const second = await makeDataset();
      await addElement(first, 'train', 'Page 2');
      await addElement(first, 'train', 'Page 1');
      await addElement(first, 'dev', 'Page 3');
      await addElement(first, 'test', 'Volume B');
      await addElement(second, 'train', 'Page 1');
      const process = await datasetProcess();
      for (const set of [setOf(first, 'train'), setOf(first, 'dev'), setOf(second, 'train')]) {
        expect((await owner.post(`process/${process.id}/set/${set.id}/`)).statusCode).toBe(201);
      }
      const version = await makeVersion(t().app);
      const run = await addRun(owner, process.id, version.versionId);

      const started = await owner.post(`process/${process.id}/start/`, { chunks: 2 });
      expect(started.statusCode, started.body).toBe(201);
      const body = started.json();
      expect(body).toMatchObject({ mode: 'dataset', state: 'pending', activity_state: 'ready' });
      expect(body.tasks.map((task: { elements_count: number }) => task.elements_count)).toEqual([
        2, 1,
      ]);
      const rows = await t()
        .app.db.selectFrom('tasks')
        .select('elements')
        .where('process_id', '=', process.id)
        .orderBy('slug')
        .execute();
      expect(rows.flatMap((row) => JSON.parse(row.elements) as string[])).toEqual([
        ids['Page 1'],
        ids['Page 2'],
        ids['Page 3'],
      ]);
      const queued = await t()
        .app.db.selectFrom('worker_activities')
        .select('element_id')
        .where('worker_run_id', '=', run)
        .execute();
      expect(queued).toHaveLength(3);

      const chosen = setOf(first, 'test').id;
      const late = await owner.post(`process/${process.id}/set/${chosen}/`);
      expect(late.statusCode).toBe(400);
      expect(late.json()).toEqual(
        refusal('The dataset sets cannot be changed once the process has started.'),
      );
      const removal = await owner.delete(`process/${process.id}/set/${setOf(first, 'dev').id}/`);
      expect(removal.statusCode).toBe(400);

      // A worker of the process reads its sets with its task token.
      const { token, hash } = newToken();
      await t()
        .app.db.updateTable('tasks')
        .set({ state: 'running', token_hash: hash })
        .where('process_id', '=', process.id)
        .execute();
      const read = await t().app.inject({
        method: 'GET',
        url: `/api/v1/process/${process.id}/sets/`,
        headers: { authorization: `Ponos ${token}` },
      });
      expect(read.statusCode).toBe(200);
      expect(read.json().count).toBe(3);

      await setTaskStates(t().app, process.id, 'failed');
      const retried = await owner.post(`process/${process.id}/retry/`);
      expect(retried.statusCode, retried.body).toBe(201);
      const runs = retried.json().tasks.map((task: { run: number }) => task.run);
      expect(runs).toEqual([0, 0, 1, 1]);
    });
  });

  describe('deleting a dataset set', () => {
    it('is refused while a process chose it (ISS-1720), allowed otherwise', async () => {
      const owner = as('owner');
      const dataset = await makeDataset();
      const process = await datasetProcess();
      const chosen = setOf(dataset, 'dev');
      await owner.post(`process/${process.id}/set/${chosen.id}/`);
      const refused = await owner.delete(`datasets/${dataset.id}/sets/${chosen.id}/`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual(
        refusal('This dataset set is used by a process and cannot be deleted.'),
      );
      const other = await owner.delete(`datasets/${dataset.id}/sets/${setOf(dataset, 'test').id}/`);
      expect(other.statusCode).toBe(204);

      await owner.delete(`process/${process.id}/set/${chosen.id}/`);
      const freed = await owner.delete(`datasets/${dataset.id}/sets/${chosen.id}/`);
      expect(freed.statusCode).toBe(204);
    });

    it('a deleted dataset leaves the processes that chose its sets, and so does a deleted process', async () => {
      const owner = as('owner');
      const dataset = await makeDataset();
      const kept = await makeDataset();
      const process = await datasetProcess();
      await owner.post(`process/${process.id}/set/${setOf(dataset, 'train').id}/`);
      await owner.post(`process/${process.id}/set/${setOf(kept, 'train').id}/`);
      expect((await owner.delete(`datasets/${dataset.id}/`)).statusCode).toBe(204);
      const listed = (await owner.get(`process/${process.id}/sets/`)).json();
      expect(listed.results.map((item: { dataset: { id: string } }) => item.dataset.id)).toEqual([
        kept.id,
      ]);
      expect((await owner.delete(`process/${process.id}/`)).statusCode).toBe(204);
      const left = await t()
        .app.db.selectFrom('process_sets')
        .select('id')
        .where('process_id', '=', process.id)
        .execute();
      expect(left).toEqual([]);
      const freed = await owner.delete(`datasets/${kept.id}/sets/${setOf(kept, 'train').id}/`);
      expect(freed.statusCode).toBe(204);
    });
  });
});
