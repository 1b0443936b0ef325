// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LocalWorkerRun } from '@/api/workers';
import {
  apiError,
  fakeWorkersServer,
  isolateEachTest,
  json,
  makeConfiguration,
  makeVersion,
  makeWorker,
  renderWorkers,
  uuid,
} from './harness';

vi.mock('@/app/serviceWorker', async () => {
  const { createStore } = await import('@/lib/store');
  return {
    updateAvailable: createStore(false),
    applyUpdate: vi.fn(),
    registerServiceWorker: () => {},
  };
});

configure({ asyncUtilTimeout: 10_000 });

isolateEachTest();

describe('the workers list', () => {
  it('shows each worker with its type in its colour, searches by name and filters by type', async () => {
    const recognizer = makeWorker('Line recognizer', { type: 'recognizer' });
    const classifier = makeWorker('Page classifier', { type: 'classifier' });
    const custom = makeWorker('Odd one', { type: 'custom' });
    const server = fakeWorkersServer({ workers: [recognizer, classifier, custom] });
    renderWorkers('/process/workers/');
    const user = userEvent.setup();

    const table = within(await screen.findByRole('table', { name: 'Workers' }));
    expect(table.getByRole('link', { name: 'Line recognizer' }).getAttribute('href')).toBe(
      `/process/workers/${recognizer.id}`,
    );
    const badge = (row: string) =>
      table.getByRole('row', { name: new RegExp(row) }).querySelector('[data-worker-type]')!;
    await waitFor(() => expect(badge('Page classifier').textContent).toBe('Classifier'));
    expect(badge('Page classifier').className).toContain('bg-violet-100');
    expect(badge('Line recognizer').className).toContain('bg-sky-100');
    // A type without a colour of its own reads in grey.
    expect(badge('Odd one').className).toContain('bg-slate-100');

    await user.type(screen.getByLabelText('Search by name'), 'classif');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Line recognizer' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Page classifier' })).toBeTruthy();
    expect(server.calls.at(-1)!.query.get('name')).toBe('classif');

    await user.clear(screen.getByLabelText('Search by name'));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.selectOptions(screen.getByLabelText('Type'), 'recognizer');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Page classifier' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Line recognizer' })).toBeTruthy();
    expect(
      server.callsTo('GET', '/workers/').some((call) => call.query.get('type') === 'recognizer'),
    ).toBe(true);
  });

  it('pages through the workers', async () => {
    const workers = Array.from({ length: 25 }, (_, index) =>
      makeWorker(`Worker ${String(index + 1).padStart(2, '0')}`),
    );
    const server = fakeWorkersServer({ workers });
    renderWorkers('/process/workers/');
    const user = userEvent.setup();
    expect(await screen.findByText('Items 1 to 20 out of 25 workers')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('link', { name: 'Worker 25' })).toBeTruthy();
    expect(server.calls.at(-1)!.query.get('page')).toBe('2');
  });

  it('shows a 403 on the list in its place, without a notification', async () => {
    fakeWorkersServer({
      overrides: {
        'GET /workers/': () =>
          apiError(403, [
            { attr: null, detail: 'Verify your e-mail first.', code: 'permission_denied' },
          ]),
      },
    });
    renderWorkers('/process/workers/');
    expect(
      await screen.findByText('You cannot list workers: Verify your e-mail first.'),
    ).toBeTruthy();
    expect(screen.getAllByText(/Verify your e-mail first\./)).toHaveLength(1);
  });

  it('a 403 on the worker types leaves the list without types and without a notification', async () => {
    fakeWorkersServer({
      workers: [makeWorker('Line recognizer', { type: 'recognizer' })],
      overrides: {
        'GET /workers/types/': () =>
          apiError(403, [{ attr: null, detail: 'No types for you.', code: 'permission_denied' }]),
      },
    });
    renderWorkers('/process/workers/');
    expect(await screen.findByRole('link', { name: 'Line recognizer' })).toBeTruthy();
    // The badge falls back to the slug; the type filter offers only All types.
    expect(screen.getByText('recognizer')).toBeTruthy();
    expect(
      [...(screen.getByLabelText('Type') as HTMLSelectElement).options].map((o) => o.text),
    ).toEqual(['All types']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText('No types for you.')).toBeNull();
  });

  it('notifies other failures', async () => {
    fakeWorkersServer({
      overrides: {
        'GET /workers/': () => apiError(500, [{ attr: null, detail: 'Database down.' }]),
      },
    });
    renderWorkers('/process/workers/');
    expect(await screen.findByText('The workers could not be loaded.')).toBeTruthy();
    expect(await screen.findByText('Database down.')).toBeTruthy();
  });
});

describe('the worker page', () => {
  it('lists its versions: number or revision link, state, tag and branch, date', async () => {
    const worker = makeWorker('Line recognizer', {
      repository_url: 'https://git.example.org/ocr',
      description: 'Reads lines.',
    });
    const numbered = makeVersion(worker, { version: 3, tag: 'v3', state: 'available' });
    const revision = makeVersion(worker, {
      version: null,
      revision_url: 'https://git.example.org/ocr/commit/0123456789abcdef0123',
      branch: 'main',
      state: 'error',
      configuration: {},
    });
    fakeWorkersServer({ workers: [worker], versions: [numbered, revision] });
    renderWorkers(`/process/workers/${worker.id}`);

    expect(await screen.findByRole('heading', { name: 'Line recognizer', level: 1 })).toBeTruthy();
    expect(screen.getByText('Reads lines.')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Line recognizer — Folia'));
    const table = within(await screen.findByRole('table', { name: 'Versions' }));
    const rows = table.getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Version 3')).toBeTruthy();
    expect(within(rows[0]!).getByText('available')).toBeTruthy();
    expect(within(rows[0]!).getByText('v3')).toBeTruthy();
    const commit = within(rows[1]!).getByRole('link', { name: '0123456789ab' });
    expect(commit.getAttribute('href')).toBe(revision.revision_url);
    expect(within(rows[1]!).getByText('error')).toBeTruthy();
    expect(within(rows[1]!).getByText('main')).toBeTruthy();
    expect(within(rows[1]!).getByRole('link', { name: 'Details' }).getAttribute('href')).toBe(
      `/process/worker-version/${revision.id}`,
    );
  });
});

describe('the worker version page', () => {
  it('shows its details, its fields and its worker configurations', async () => {
    const worker = makeWorker('Line recognizer');
    const version = makeVersion(worker, { tag: 'stable', docker_image_iid: 'sha256:abc' });
    const configuration = makeConfiguration('Fast', { label: 'x' });
    fakeWorkersServer({
      workers: [worker],
      versions: [version],
      configurations: { [worker.id]: [configuration] },
      overrides: {
        [`/workers/versions/${version.id}/fields/`]: () =>
          json(200, {
            count: 2,
            number: 1,
            next: null,
            previous: null,
            results: [
              {
                id: uuid(),
                parent_id: null,
                key: 'options',
                type: 'group',
                title: 'Options',
                required: true,
                default: null,
                choices: null,
                subtype: null,
                multiline: false,
                help_text: null,
                children: [],
              },
              {
                id: uuid(),
                parent_id: null,
                key: 'sizes',
                type: 'list',
                title: 'Sizes',
                required: false,
                default: [1, 2],
                choices: null,
                subtype: 'int',
                multiline: false,
                help_text: 'Sizes to try',
                children: [],
              },
            ],
          }),
      },
    });
    renderWorkers(`/process/worker-version/${version.id}`);
    const details = within(await screen.findByRole('region', { name: 'Details' }));
    await waitFor(() => expect(document.title).toBe('Line recognizer Version 1 — Folia'));
    expect(details.getByRole('link', { name: 'Line recognizer' }).getAttribute('href')).toBe(
      `/process/workers/${worker.id}`,
    );
    expect(details.getByText('stable')).toBeTruthy();
    expect(details.getByText('sha256:abc')).toBeTruthy();
    const fields = within(await screen.findByRole('table', { name: 'Configuration fields' }));
    expect(fields.getByText('list of int')).toBeTruthy();
    expect(fields.getByText('[1,2]')).toBeTruthy();
    expect(fields.getByText('Sizes to try')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Fast' })).toBeTruthy();
  });
});

describe('running a version locally', () => {
  it('adds a worker run of the version to the local process, listed on Worker runs', async () => {
    const worker = makeWorker('Line recognizer');
    const version = makeVersion(worker, { version: 7 });
    const server = fakeWorkersServer({ workers: [worker], versions: [version] });
    renderWorkers(`/process/worker-version/${version.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Run locally' }));
    expect(await screen.findByText('Worker run added to your local process.')).toBeTruthy();
    expect(server.callsTo('POST', '/process/local/workers/create/')[0]!.body).toEqual({
      worker_version_id: version.id,
    });
    expect(server.runs).toHaveLength(1);
    const link = screen.getByRole('link', { name: 'See your worker runs' });
    expect(link.getAttribute('href')).toBe('/process/worker-runs');
  });
});

describe('the worker runs page', () => {
  it("lists the user's local worker runs, each opening its details", async () => {
    const worker = makeWorker('Line recognizer');
    const version = makeVersion(worker);
    const run: LocalWorkerRun = {
      id: uuid(),
      worker_version: version,
      model_version: null,
      configuration: { id: uuid(), name: 'Fast' },
    };
    fakeWorkersServer({ workers: [worker], versions: [version], runs: [run] });
    renderWorkers('/process/worker-runs');
    const user = userEvent.setup();
    const table = within(await screen.findByRole('table', { name: 'Worker runs' }));
    expect(table.getByRole('link', { name: 'Line recognizer' })).toBeTruthy();
    expect(table.getByText('Fast')).toBeTruthy();
    await user.click(table.getByRole('button', { name: 'Details of the Line recognizer run' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Worker run details' }));
    expect(await modal.findByText(run.id)).toBeTruthy();
    expect(modal.getByRole('link', { name: 'Worker version' }).getAttribute('href')).toBe(
      `/process/worker-version/${version.id}`,
    );
  });
});
