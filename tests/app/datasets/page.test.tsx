// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Dataset } from '@/api/datasets';
import type { JobDetail } from '@/api/jobs';
import {
  fakeDatasetsApi,
  isolateEachTest,
  json,
  makeCorpus,
  makeDataset,
  makePages,
  makeUser,
  renderDatasetPage,
  uuid,
} from './pageHarness';
import { NEEDS_NETWORK } from '@/components/NeedsNetwork';
import { connectivity } from '@/offline/runtime';

isolateEachTest();

/** A dataset of 45 pages in train, 5 in dev and none in test. */
function splitDataset(
  role: 'guest' | 'contributor' | 'admin' = 'admin',
  state: Dataset['state'] = 'open',
) {
  const corpus = makeCorpus(role);
  const dataset = makeDataset(corpus, { state });
  const members = {
    [dataset.id]: {
      train: makePages(corpus, 45, 'Train page'),
      dev: makePages(corpus, 5, 'Dev page'),
    },
  };
  const api = fakeDatasetsApi({ corpus, datasets: [dataset], members });
  return { corpus, dataset, api };
}

const cardNames = (list: HTMLElement) =>
  within(list)
    .getAllByRole('article')
    .map((card) => within(card).getByRole('heading').textContent);

describe('the dataset page', () => {
  it('shows the dataset, a chart of its set sizes and the first 20 elements of the first set', async () => {
    const { dataset } = splitDataset();
    renderDatasetPage(`/dataset/${dataset.id}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Handwriting' })).toBeTruthy();
    expect(screen.getByText('Lines for a recogniser')).toBeTruthy();
    expect(screen.getByText('Open')).toBeTruthy();
    expect(screen.getByText('ada@example.org')).toBeTruthy();
    expect(document.title).toBe('Handwriting — Folia');

    const chart = screen.getByRole('list', { name: 'Elements per set' });
    expect(
      within(chart)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('aria-label')),
    ).toEqual(['dev: 5 elements', 'test: 0 elements', 'train: 45 elements']);
    // Bars are scaled to the largest set.
    const widths = within(chart)
      .getAllByTestId('set-bar')
      .map((bar) => bar.style.width);
    expect(widths).toEqual([`${(5 / 45) * 100}%`, '0%', '100%']);
    expect(within(chart).getByText(/^45/).textContent).toBe('45 (90%)');

    const tabs = within(screen.getByRole('tablist', { name: 'Sets' })).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['dev5', 'test0', 'train45']);
    // Set badges cycle through the colours by position.
    expect(
      tabs.map((tab) => tab.querySelector('[data-set-colour]')?.getAttribute('data-set-colour')),
    ).toEqual(['0', '1', '2']);

    const devList = await screen.findByRole('list', { name: 'Elements of set dev' });
    expect(cardNames(devList)).toEqual([
      'Dev page 1',
      'Dev page 2',
      'Dev page 3',
      'Dev page 4',
      'Dev page 5',
    ]);
    const first = within(devList).getByRole('link', { name: 'Dev page 1' });
    expect(first.getAttribute('href')).toMatch(/^\/element\/[0-9a-f-]{36}$/);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it("loads more of the shown set with 'Load more' and with the m key", async () => {
    const { dataset, api } = splitDataset();
    const user = userEvent.setup();
    renderDatasetPage(`/dataset/${dataset.id}?set=train`);

    const list = await screen.findByRole('list', { name: 'Elements of set train' });
    expect(cardNames(list)).toHaveLength(20);
    expect(screen.getByText('20 of 45 shown')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(cardNames(list)).toHaveLength(40));

    await user.keyboard('m');
    await waitFor(() => expect(cardNames(list)).toHaveLength(45));
    expect(cardNames(list).at(-1)).toBe('Train page 45');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    const pages = api.calls.filter((call) => call.path === `/datasets/${dataset.id}/elements/`);
    expect(pages.map((call) => [call.query.get('set'), call.query.get('cursor')])).toEqual([
      ['train', null],
      ['train', '20'],
      ['train', '40'],
    ]);
    // Nothing left: m asks for nothing more.
    await user.keyboard('m');
    expect(
      api.calls.filter((call) => call.path === `/datasets/${dataset.id}/elements/`),
    ).toHaveLength(3);
  });

  it('m loads more of the set whose tab is open', async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus, { sets: ['dev', 'train'] });
    const api = fakeDatasetsApi({
      corpus,
      datasets: [dataset],
      members: {
        [dataset.id]: { dev: makePages(corpus, 25, 'Dev'), train: makePages(corpus, 30, 'Train') },
      },
    });
    const user = userEvent.setup();
    renderDatasetPage(`/dataset/${dataset.id}`);
    await screen.findByRole('list', { name: 'Elements of set dev' });

    await user.click(screen.getByRole('tab', { name: /train/ }));
    const train = await screen.findByRole('list', { name: 'Elements of set train' });
    await user.keyboard('m');
    await waitFor(() => expect(cardNames(train)).toHaveLength(30));
    const cursors = (set: string) =>
      api.calls
        .filter((call) => call.query.get('set') === set)
        .map((call) => call.query.get('cursor'));
    expect(cursors('dev')).toEqual([null]);
    expect(cursors('train')).toEqual([null, '20']);
  });

  it('says when a set is empty', async () => {
    const { dataset } = splitDataset();
    renderDatasetPage(`/dataset/${dataset.id}?set=test`);
    expect(await screen.findByText('No elements to display.')).toBeTruthy();
  });

  it('offers the CSV of the whole dataset and of the set shown', async () => {
    const { dataset } = splitDataset('guest');
    renderDatasetPage(`/dataset/${dataset.id}?set=train`);
    const whole = await screen.findByRole('link', { name: 'Download CSV' });
    expect(whole.getAttribute('href')).toBe(`/api/v1/datasets/${dataset.id}/csv/`);
    expect(
      screen.getByRole('link', { name: 'Download CSV of set train' }).getAttribute('href'),
    ).toBe(`/api/v1/datasets/${dataset.id}/csv/?set=train`);
  });

  it('shows the not-found page for an unknown dataset', async () => {
    const corpus = makeCorpus();
    fakeDatasetsApi({ corpus });
    renderDatasetPage(`/dataset/${uuid()}`);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('Not found.')).toBeTruthy();
  });
});

describe("the dataset page's actions", () => {
  it('tells a guest why editing, cloning and deleting are not allowed', async () => {
    const { dataset, api } = splitDataset('guest');
    const user = userEvent.setup();
    renderDatasetPage(`/dataset/${dataset.id}`);
    const edit = await screen.findByRole('button', { name: 'Edit' });
    await waitFor(() =>
      expect(edit.getAttribute('title')).toBe(
        'You do not have the required rights to edit this dataset',
      ),
    );
    expect(screen.getByRole('button', { name: 'Clone' }).getAttribute('title')).toBe(
      'You must have a contributor access to this project',
    );
    expect(screen.getByRole('button', { name: 'Delete' }).getAttribute('title')).toBe(
      'You must have an admin access to this project',
    );
    await user.click(edit);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.writes()).toEqual([]);
  });

  it('asks an unverified account to verify its e-mail first', async () => {
    const { dataset } = splitDataset('admin');
    renderDatasetPage(`/dataset/${dataset.id}`, makeUser({ verified_email: false }));
    const edit = await screen.findByRole('button', { name: 'Edit' });
    await waitFor(() =>
      expect(edit.getAttribute('title')).toBe('Your email address should be verified'),
    );
  });

  it('clones the dataset and opens the copy', async () => {
    const { dataset, api } = splitDataset('contributor');
    const user = userEvent.setup();
    const { router } = renderDatasetPage(`/dataset/${dataset.id}`);
    const clone = await screen.findByRole('button', { name: 'Clone' });
    await waitFor(() => expect(clone.getAttribute('aria-disabled')).toBeNull());
    await user.click(clone);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Clone of Handwriting' }),
    ).toBeTruthy();
    const copy = api.datasets.at(-1)!;
    expect(router.state.location.pathname).toBe(`/dataset/${copy.id}`);
    expect(api.writes().map((call) => `${call.method} ${call.path}`)).toEqual([
      `POST /datasets/${dataset.id}/clone/`,
    ]);
  });

  it('lets an admin reopen a complete dataset', async () => {
    const { dataset, api } = splitDataset('admin', 'complete');
    const user = userEvent.setup();
    renderDatasetPage(`/dataset/${dataset.id}`);
    expect(await screen.findByText('Complete')).toBeTruthy();
    const reopen = screen.getByRole('button', { name: 'Reopen' });
    await waitFor(() => expect(reopen.getAttribute('aria-disabled')).toBeNull());
    await user.click(reopen);
    expect(await screen.findByText('Open')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reopen' })).toBeNull();
    expect(api.writes().map((call) => [call.method, call.path, call.body])).toEqual([
      ['PATCH', `/datasets/${dataset.id}/`, { state: 'open' }],
    ]);
  });

  it('offers no reopening of an open dataset', async () => {
    const { dataset } = splitDataset('admin');
    renderDatasetPage(`/dataset/${dataset.id}`);
    await screen.findByRole('button', { name: 'Edit' });
    expect(screen.queryByRole('button', { name: 'Reopen' })).toBeNull();
  });

  it('leaves reopening a failed dataset to admins', async () => {
    const { dataset, api } = splitDataset('contributor', 'error');
    const user = userEvent.setup();
    renderDatasetPage(`/dataset/${dataset.id}`);
    const reopen = await screen.findByRole('button', { name: 'Reopen' });
    await waitFor(() =>
      expect(reopen.getAttribute('title')).toBe('You must have an admin access to this project'),
    );
    await user.click(reopen);
    expect(api.writes()).toEqual([]);
  });

  it('deletes the dataset once confirmed and goes back to the project', async () => {
    const { corpus, dataset, api } = splitDataset('admin');
    const user = userEvent.setup();
    renderDatasetPage(`/dataset/${dataset.id}`);
    const remove = await screen.findByRole('button', { name: 'Delete' });
    await waitFor(() => expect(remove.getAttribute('aria-disabled')).toBeNull());
    await user.click(remove);
    const dialog = await screen.findByRole('dialog', { name: 'Delete dataset' });
    expect(api.writes()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /browse/${corpus.id}`,
    );
    expect(api.writes().map((call) => `${call.method} ${call.path}`)).toEqual([
      `DELETE /datasets/${dataset.id}/`,
    ]);
    expect(api.datasets).toEqual([]);
  });
});

describe('the dataset page offline', () => {
  it('says that cloning, deleting and the CSV need the network, and keeps Edit for set renames', async () => {
    const { dataset, api } = splitDataset('admin');
    renderDatasetPage(`/dataset/${dataset.id}`);
    await screen.findByRole('link', { name: 'Download CSV' });
    const clone = screen.getByRole('button', { name: 'Clone' });
    await waitFor(() => expect(clone.getAttribute('aria-disabled')).toBeNull());
    connectivity.store.set({ online: false, checkedAt: null });
    for (const name of ['Clone', 'Delete', 'Download CSV', 'Create a process']) {
      const button = await screen.findByRole('button', { name });
      expect(button.getAttribute('title')).toBe(NEEDS_NETWORK);
    }
    expect(screen.queryByRole('link', { name: 'Download CSV' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit' }).getAttribute('aria-disabled')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Clone' }));
    expect(api.writes()).toEqual([]);
  });
});

describe("the dataset page's Create a process", () => {
  it('creates a dataset process with every set of the dataset and opens its datasets step', async () => {
    const corpus = makeCorpus('admin');
    const dataset = makeDataset(corpus);
    const processId = uuid();
    const api = fakeDatasetsApi({
      corpus,
      datasets: [dataset],
      overrides: {
        'POST /process/corpus/': () => json(201, { id: processId, mode: 'dataset' }),
        ...Object.fromEntries(
          dataset.sets.map((set) => [
            `POST /process/${processId}/set/${set.id}/`,
            () => json(201, { id: uuid(), dataset, set_name: set.name }),
          ]),
        ),
      },
    });
    const user = userEvent.setup();
    renderDatasetPage(`/dataset/${dataset.id}`);
    const create = await screen.findByRole('button', { name: 'Create a process' });
    await waitFor(() => expect(create.getAttribute('aria-disabled')).toBeNull());
    await user.click(create);
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /process/${processId}/datasets`,
    );
    expect(api.writes().map((call) => [call.method, call.path, call.body])).toEqual([
      ['POST', '/process/corpus/', { corpus: corpus.id, mode: 'dataset' }],
      ...dataset.sets.map((set) => ['POST', `/process/${processId}/set/${set.id}/`, null]),
    ]);
  });

  it('tells a contributor that processes are created by project admins', async () => {
    const { api } = splitDataset('contributor');
    const user = userEvent.setup();
    renderDatasetPage(`/dataset/${api.datasets[0]!.id}`);
    const create = await screen.findByRole('button', { name: 'Create a process' });
    await waitFor(() =>
      expect(create.getAttribute('title')).toBe('You must have an admin access to this project'),
    );
    await user.click(create);
    expect(api.writes()).toEqual([]);
  });
});

describe('a dataset being built', () => {
  it("is read again every 2 s with its job's progress, and lists its sets once complete", async () => {
    const corpus = makeCorpus();
    const job: JobDetail = {
      id: uuid(),
      description: 'Populate Handwriting',
      status: 'started',
      progress: 0.4,
      enqueued_at: '2024-05-01T10:00:00Z',
      started_at: '2024-05-01T10:00:01Z',
      ended_at: null,
      kind: 'populate',
      corpus_id: corpus.id,
      result: null,
      error: null,
    };
    const dataset = makeDataset(corpus, { state: 'building', populate_job_id: job.id });
    const api = fakeDatasetsApi({ corpus, datasets: [dataset], jobs: [job] });
    renderDatasetPage(`/dataset/${dataset.id}`);

    const progress = await screen.findByRole('progressbar', { name: 'Building' });
    await waitFor(() => expect(progress.getAttribute('aria-valuenow')).toBe('40'));
    expect(screen.getByText('Building')).toBeTruthy();
    expect(await screen.findByText('No elements to display.')).toBeTruthy();

    // The job ends: the sets are filled and the dataset complete.
    api.members[dataset.id] = { dev: makePages(corpus, 3, 'Drawn') };
    api.datasets[0]!.state = 'complete';
    expect(await screen.findByText('Complete', {}, { timeout: 4000 })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Elements of set dev' });
    expect(cardNames(list)).toEqual(['Drawn 1', 'Drawn 2', 'Drawn 3']);
    expect(screen.queryByRole('progressbar', { name: 'Building' })).toBeNull();
    const reads = api.calls.filter((call) => call.path === `/datasets/${dataset.id}/`);
    expect(reads.length).toBeGreaterThanOrEqual(2);
  });
});
