// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route as datasetsRoute } from '@/routes/process/$id/datasets';
import type { Dataset } from '@/api/datasets';
import type { Process } from '@/api/processTypes';
import type { Corpus } from '@/api/types';
import { createDatasetProcess } from '@/features/processes/datasets/createDatasetProcess';
import type { ProcessSet } from '@/features/processes/datasets/processSets';
import {
  APP_STALE_TIME,
  apiError,
  isolateEachTest,
  json,
  makeInfo,
  makeRoot,
  overridden,
  pageOf,
  renderRoutes,
  routesUnder,
  stubFetch,
  type Call,
  type Handler,
} from '../support/harness';
import { makeCorpus, makeProcess, makeTask, me, uuid } from './harness';

configure({ asyncUtilTimeout: 5_000 });

isolateEachTest();

const root = makeRoot();
const routeTree = routesUnder(root, [
  datasetsRoute.update({
    id: '/process/$id/datasets',
    path: '/process/$id/datasets',
    getParentRoute: () => root,
  } as never),
] as never);

function makeDataset(corpus: Corpus, name: string, sizes: Record<string, number>): Dataset {
  return {
    id: uuid(),
    name,
    description: `${name} ground truth`,
    state: 'complete',
    sets: Object.keys(sizes).map((setName) => ({ id: uuid(), name: setName })),
    set_elements: sizes,
    unique_elements: true,
    corpus_id: corpus.id,
    creator: 'grace@example.com',
    task_id: null,
    created: '2024-05-01T10:00:00Z',
    updated: '2024-05-01T10:00:00Z',
  };
}

const notFound = () => apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]);
const refusal = (detail: string) => apiError(400, [{ attr: null, detail, code: 'invalid' }]);

/** The calls of the datasets step, with the server's rules for choosing sets. */
function fakeServer(options: {
  corpus: Corpus;
  process: Process;
  datasets: Dataset[];
  chosen?: ProcessSet[];
  overrides?: Record<string, Handler>;
}) {
  const { corpus, process, datasets } = options;
  const chosen = [...(options.chosen ?? [])];
  const base = `/process/${process.id}`;
  const answer = (call: Call): Response => {
    if (call.path === `${base}/`) return json(200, process);
    if (call.path === `/corpus/${corpus.id}/`) return json(200, corpus);
    if (call.path === `/corpus/${corpus.id}/datasets/`) {
      return json(
        200,
        pageOf(datasets, 1, 100, () => ''),
      );
    }
    if (call.path === `${base}/sets/`) {
      return json(
        200,
        pageOf(chosen, 1, 100, () => ''),
      );
    }
    const setCall = new RegExp(`^${base}/set/([^/]+)/$`).exec(call.path);
    if (setCall) {
      if (!corpus.rights.includes('admin')) return apiError(403, [{ attr: null, detail: 'No' }]);
      if (process.tasks.length) {
        return refusal('The dataset sets cannot be changed once the process has started.');
      }
      const dataset = datasets.find((item) => item.sets.some((set) => set.id === setCall[1]));
      const set = dataset?.sets.find((item) => item.id === setCall[1]);
      if (!dataset || !set) return notFound();
      const index = chosen.findIndex(
        (item) => item.set_name === set.name && item.dataset.id === dataset.id,
      );
      if (call.method === 'POST') {
        if (index >= 0) return refusal('This dataset set is already chosen for this process.');
        const added = { id: uuid(), dataset, set_name: set.name };
        chosen.push(added);
        return json(201, added);
      }
      if (call.method === 'DELETE') {
        if (index < 0) return notFound();
        chosen.splice(index, 1);
        return json(204, null);
      }
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  };
  const server = stubFetch(
    async (call) => (await overridden(options.overrides, call)) ?? answer(call),
  );
  return { ...server, chosen };
}

function renderStep(process: Process) {
  return renderRoutes(routeTree as never, {
    url: `/process/${process.id}/datasets`,
    info: makeInfo({}),
    user: me,
    staleTime: APP_STALE_TIME,
  });
}

function setup(rights: Corpus['rights'] = ['read', 'write', 'admin']) {
  const corpus = makeCorpus(rights);
  const process = makeProcess(corpus, { mode: 'dataset', name: 'Train HTR' });
  const lines = makeDataset(corpus, 'Lines', { dev: 10, test: 12, train: 80 });
  const pages = makeDataset(corpus, 'Pages', { train: 5, validation: 1 });
  return { corpus, process, lines, pages };
}

const group = (name: string) => screen.findByRole('group', { name });

describe('the datasets step of a dataset process', () => {
  it("lists the project's datasets with their sets, the chosen ones ticked", async () => {
    const { corpus, process, lines, pages } = setup();
    fakeServer({
      corpus,
      process,
      datasets: [lines, pages],
      chosen: [{ id: uuid(), dataset: lines, set_name: 'train' }],
    });
    renderStep(process);

    expect(await screen.findByRole('heading', { level: 1, name: 'Train HTR' })).toBeTruthy();
    expect(
      screen.getByText('Step 1 of 2: choose the dataset sets the workers will run on.'),
    ).toBeTruthy();
    const linesGroup = within(await group('Lines'));
    expect(linesGroup.getByRole('link', { name: 'Lines' }).getAttribute('href')).toBe(
      `/dataset/${lines.id}`,
    );
    expect(linesGroup.getByText('Complete · 102 elements')).toBeTruthy();
    const boxes = linesGroup.getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((box) => [box.labels?.[0]?.textContent, box.checked])).toEqual([
      ['dev10 elements', false],
      ['test12 elements', false],
      ['train80 elements', true],
    ]);
    const pagesGroup = within(await group('Pages'));
    expect(
      (pagesGroup.getAllByRole('checkbox') as HTMLInputElement[]).map((box) => box.checked),
    ).toEqual([false, false]);
    // The set names wear the datasets' colour badges, by the set's place in its dataset.
    expect(
      linesGroup.getByText('train').closest('[data-set-colour]')?.getAttribute('data-set-colour'),
    ).toBe('2');
    expect(screen.getByTestId('chosen-summary').textContent).toBe(
      '1 set chosen, 80 elements in them (counted per set: an element in two sets runs once).',
    );
    expect(screen.getByRole('link', { name: 'Configure workers' }).getAttribute('href')).toBe(
      `/process/${process.id}/configure`,
    );
  });

  it('ticking chooses a set and unticking lets it go, saved at once', async () => {
    const { corpus, process, lines, pages } = setup();
    const server = fakeServer({ corpus, process, datasets: [lines, pages] });
    renderStep(process);
    const user = userEvent.setup();
    expect((await screen.findByTestId('chosen-summary')).textContent).toBe(
      'No set chosen yet: choose at least one before starting the process.',
    );

    const linesGroup = within(await group('Lines'));
    await user.click(linesGroup.getByRole('checkbox', { name: /^train/ }));
    const pagesGroup = within(await group('Pages'));
    await user.click(pagesGroup.getByRole('checkbox', { name: /^train/ }));
    await waitFor(() =>
      expect(screen.getByTestId('chosen-summary').textContent).toBe(
        '2 sets chosen, 85 elements in them (counted per set: an element in two sets runs once).',
      ),
    );
    expect(server.callsTo('POST', `/process/${process.id}/set/${lines.sets[2]!.id}/`)).toHaveLength(
      1,
    );
    expect(server.chosen.map((item) => `${item.dataset.name}/${item.set_name}`)).toEqual([
      'Lines/train',
      'Pages/train',
    ]);

    const box = linesGroup.getByRole('checkbox', { name: /^train/ }) as HTMLInputElement;
    await waitFor(() => expect(box.checked).toBe(true));
    await user.click(box);
    await waitFor(() =>
      expect(screen.getByTestId('chosen-summary').textContent).toBe(
        '1 set chosen, 5 elements in them (counted per set: an element in two sets runs once).',
      ),
    );
    expect(box.checked).toBe(false);
    expect(
      server.callsTo('DELETE', `/process/${process.id}/set/${lines.sets[2]!.id}/`),
    ).toHaveLength(1);
    expect(server.chosen.map((item) => item.set_name)).toEqual(['train']);
  });

  it('says why a set could not be chosen and leaves it unticked', async () => {
    const { corpus, process, lines } = setup();
    fakeServer({
      corpus,
      process,
      datasets: [lines],
      overrides: {
        [`POST /process/${process.id}/set/${lines.sets[0]!.id}/`]: () =>
          refusal('The dataset sets cannot be changed once the process has started.'),
      },
    });
    renderStep(process);
    const user = userEvent.setup();
    const box = within(await group('Lines')).getByRole('checkbox', {
      name: /^dev/,
    }) as HTMLInputElement;
    await user.click(box);
    expect(
      await screen.findByText('The dataset sets cannot be changed once the process has started.'),
    ).toBeTruthy();
    await waitFor(() => expect(box.checked).toBe(false));
  });

  it("keeps the sets of someone who is not the project's admin unchangeable, and says why", async () => {
    const { corpus, process, lines } = setup(['read', 'write']);
    const server = fakeServer({ corpus, process, datasets: [lines] });
    renderStep(process);
    const box = within(await group('Lines')).getByRole('checkbox', {
      name: /^dev/,
    }) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(true));
    expect(box.closest('label')?.getAttribute('title')).toBe(
      'You must have an admin access to this project',
    );
    expect(screen.getByText('You must have an admin access to this project')).toBeTruthy();
    await userEvent.setup().click(box);
    expect(server.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('says when the project has no dataset, or when they cannot be read', async () => {
    const { corpus, process } = setup();
    fakeServer({ corpus, process, datasets: [] });
    const view = renderStep(process);
    expect(await screen.findByText('No dataset available')).toBeTruthy();
    view.unmount();

    fakeServer({
      corpus,
      process,
      datasets: [],
      overrides: {
        [`/corpus/${corpus.id}/datasets/`]: () => apiError(500, [{ attr: null, detail: 'Down' }]),
      },
    });
    renderStep(process);
    expect(
      await screen.findByText('An error occurred fetching datasets for this corpus.'),
    ).toBeTruthy();
  });

  it('sends a started process to its details and a workers process to its filters', async () => {
    const { corpus, process, lines } = setup();
    process.tasks.push(makeTask(process));
    fakeServer({ corpus, process, datasets: [lines] });
    let view = renderStep(process);
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /process/${process.id}`,
    );
    view.unmount();

    const workers = makeProcess(corpus, { mode: 'workers' });
    fakeServer({ corpus, process: workers, datasets: [lines] });
    view = renderStep(workers);
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /process/${workers.id}/filter`,
    );
  });
});

describe('creating a dataset process', () => {
  it("makes a dataset process of the dataset's project with the dataset's sets chosen", async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus, 'Lines', { dev: 1, train: 2 });
    const made = makeProcess(corpus, { mode: 'dataset' });
    const server = stubFetch((call) => {
      if (call.method === 'POST' && call.path === '/process/corpus/') return json(201, made);
      if (call.method === 'POST' && call.path.startsWith(`/process/${made.id}/set/`)) {
        return json(201, { id: uuid(), dataset, set_name: 'x' });
      }
      return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
    });
    await expect(createDatasetProcess(dataset)).resolves.toBe(made.id);
    expect(server.callsTo('POST', '/process/corpus/')[0]!.body).toEqual({
      corpus: corpus.id,
      mode: 'dataset',
    });
    expect(
      server.calls.filter((call) => call.path !== '/process/corpus/').map((call) => call.path),
    ).toEqual(dataset.sets.map((set) => `/process/${made.id}/set/${set.id}/`));
  });

  it('fails with the reason the server gives', async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus, 'Lines', { train: 2 });
    stubFetch(() =>
      apiError(403, [{ attr: null, detail: 'You do not have admin access to this project.' }]),
    );
    await expect(createDatasetProcess(dataset)).rejects.toThrow(
      'You do not have admin access to this project.',
    );
  });
});
