// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProcessWorkerRun } from '@/api/processConfiguration';
import type { Corpus } from '@/api/types';
import type { WorkerVersion } from '@/api/workers';
import {
  fakeProcessServer,
  isolateEachTest,
  makeCorpus,
  makeModel,
  makeModelVersion,
  makeProcess,
  makeVersion,
  makeWorker,
  renderProcessStep,
  uuid,
  type FakeProcessOptions,
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

/** A run as the server lists it, of `version` in `processId`. */
function runOf(
  version: WorkerVersion,
  processId: string,
  corpus: Corpus,
  fields: Partial<ProcessWorkerRun> = {},
): ProcessWorkerRun {
  return {
    id: uuid(),
    parents: [],
    worker_version: {
      id: version.id,
      worker: version.worker,
      version: version.version,
      configuration: version.configuration,
      state: version.state,
      revision: null,
      created: version.created,
    },
    configuration: null,
    model_version: null,
    process: { id: processId, corpus: corpus.id, name: null, mode: 'workers' },
    created: '2024-06-01T10:00:00Z',
    summary: `Worker ${version.worker.name} @ ${version.version}`,
    ...fields,
  };
}

function project(fields: Partial<FakeProcessOptions> = {}) {
  const corpus = makeCorpus();
  const process = makeProcess(corpus, { name: 'OCR run' });
  const recognizer = makeWorker('Line recognizer');
  const segmenter = makeWorker('Line segmenter', { type: 'dla' });
  const old = makeVersion(recognizer, { version: 1, created: '2024-01-01T00:00:00Z' });
  const suggested = makeVersion(recognizer, { version: 2, model_usage: 'supported' });
  const newest = makeVersion(recognizer, { version: 3 });
  const unfinished = makeVersion(recognizer, { version: 4, state: 'created' });
  const segmenterVersion = makeVersion(segmenter, { version: 7 });
  const model = makeModel('Latin lines');
  const modelVersions = [
    makeModelVersion(model, { tag: 'v1' }),
    makeModelVersion(model, { tag: 'v2' }),
    makeModelVersion(model, { tag: 'uploading', state: 'created' }),
  ];
  const options: FakeProcessOptions = {
    corpus,
    process,
    workers: [recognizer, segmenter],
    versions: [unfinished, newest, suggested, old, segmenterVersion],
    recommended: { [recognizer.id]: suggested.id },
    configurations: {
      [recognizer.id]: [
        { id: uuid(), name: 'Fast', configuration: { batch: 8 }, archived: false },
        { id: uuid(), name: 'Retired', configuration: {}, archived: true },
      ],
    },
    models: { [recognizer.id]: [model] },
    modelVersions,
    farms: [
      { id: uuid(), name: 'Default farm' },
      { id: uuid(), name: 'GPU farm' },
    ],
    ...fields,
  };
  return {
    ...options,
    process,
    recognizer,
    segmenter,
    suggested,
    newest,
    segmenterVersion,
    model,
    modelVersions,
  };
}

const card = (name: string) => within(screen.getByRole('article', { name }));

describe('the configure step of a new process', () => {
  it('adds a worker with its recommended version first, and only available versions', async () => {
    const setup = project();
    const server = fakeProcessServer(setup);
    renderProcessStep(`/process/${setup.process.id}/configure`);
    const user = userEvent.setup();

    expect(await screen.findByText('This process has no workers yet.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add a worker' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a worker' }));
    await user.type(dialog.getByLabelText('Search workers'), 'recog');
    await waitFor(() =>
      expect(dialog.queryByRole('option', { name: 'Line segmenter (line-segmenter)' })).toBeNull(),
    );
    await user.selectOptions(dialog.getByLabelText('Worker'), 'Line recognizer (line-recognizer)');
    const versions = await dialog.findByLabelText('Version');
    await waitFor(() =>
      expect(
        within(versions)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Version 2 — recommended', 'Version 3', 'Version 1']),
    );
    expect((versions as HTMLSelectElement).value).toBe(setup.suggested.id);
    await user.click(dialog.getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('article', { name: 'Line recognizer' })).toBeTruthy();
    expect(
      server.callsTo('POST', `/process/${setup.process.id}/workers/`).map((c) => c.body),
    ).toEqual([{ worker_version_id: setup.suggested.id, parents: [] }]);

    // The same version again: the server's conflict is told.
    await user.click(screen.getByRole('button', { name: 'Add a worker' }));
    const again = within(await screen.findByRole('dialog', { name: 'Add a worker' }));
    await user.selectOptions(
      await again.findByLabelText('Worker'),
      await again.findByRole('option', { name: 'Line recognizer (line-recognizer)' }),
    );
    await waitFor(() =>
      expect((again.getByLabelText('Version') as HTMLSelectElement).value).toBe(setup.suggested.id),
    );
    await user.click(again.getByRole('button', { name: 'Add' }));
    expect(
      await screen.findByText(
        'A worker run already exists with this worker version, model and configuration.',
      ),
    ).toBeTruthy();
  });

  it('picks an enabled configuration or none, and never offers an archived one', async () => {
    const setup = project();
    const run = runOf(setup.newest, setup.process.id, setup.corpus);
    const server = fakeProcessServer({ ...setup, runs: [run] });
    renderProcessStep(`/process/${setup.process.id}/configure`);
    const user = userEvent.setup();

    const select = (await screen.findByLabelText('Configuration')) as HTMLSelectElement;
    await within(select).findByRole('option', { name: 'Fast' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['No configuration', 'Fast']);
    await user.selectOptions(select, 'Fast');
    await waitFor(() =>
      expect(select.value).toBe(setup.configurations![setup.recognizer.id]![0]!.id),
    );
    await user.selectOptions(select, 'No configuration');
    await waitFor(() => expect(select.value).toBe(''));
    expect(server.callsTo('PATCH', `/process/workers/${run.id}/`).map((c) => c.body)).toEqual([
      { configuration_id: setup.configurations![setup.recognizer.id]![0]!.id },
      { configuration_id: null },
    ]);
    const link = card('Line recognizer').getByRole('link', { name: 'Configure a new one' });
    expect(link.getAttribute('href')).toBe(
      `/process/workers/${setup.recognizer.id}?corpus=${setup.corpus.id}`,
    );
  });

  it('shows a run whose configuration was archived since, without offering it again', async () => {
    const setup = project();
    const retired = setup.configurations![setup.recognizer.id]![1]!;
    const run = runOf(setup.newest, setup.process.id, setup.corpus, { configuration: retired });
    fakeProcessServer({ ...setup, runs: [run] });
    renderProcessStep(`/process/${setup.process.id}/configure`);
    const select = (await screen.findByLabelText('Configuration')) as HTMLSelectElement;
    expect(
      await screen.findByText(
        'This configuration is archived: choose another one before starting.',
      ),
    ).toBeTruthy();
    const archived = within(select).getByRole('option', { name: 'Retired (archived)' });
    expect((archived as HTMLOptionElement).disabled).toBe(true);
  });

  it("picks a compatible model's available version when the worker version uses models", async () => {
    const setup = project();
    const withModels = runOf(setup.suggested, setup.process.id, setup.corpus);
    const without = runOf(setup.segmenterVersion, setup.process.id, setup.corpus);
    const server = fakeProcessServer({ ...setup, runs: [withModels, without] });
    renderProcessStep(`/process/${setup.process.id}/configure`);
    const user = userEvent.setup();

    const recognizer = within(await screen.findByRole('article', { name: 'Line recognizer' }));
    const model = await recognizer.findByLabelText('Model');
    await user.selectOptions(model, await recognizer.findByRole('option', { name: 'Latin lines' }));
    const version = await recognizer.findByLabelText('Model version');
    await recognizer.findByRole('option', { name: 'v2' });
    expect(
      within(version)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose a version', 'v1', 'v2']);
    await user.selectOptions(version, 'v2');
    await waitFor(() =>
      expect((version as HTMLSelectElement).value).toBe(setup.modelVersions[1]!.id),
    );
    expect(
      server.callsTo('PATCH', `/process/workers/${withModels.id}/`).map((c) => c.body),
    ).toEqual([{ model_version_id: setup.modelVersions[1]!.id }]);
    // A version whose model usage is disabled has no model to pick.
    await screen.findByRole('article', { name: 'Line segmenter' });
    await waitFor(() =>
      expect(server.callsTo('GET', `/workers/versions/${setup.segmenterVersion.id}/`)).toHaveLength(
        1,
      ),
    );
    expect(card('Line segmenter').queryByLabelText('Model')).toBeNull();

    await user.selectOptions(recognizer.getByLabelText('Model'), 'No model');
    await waitFor(() => expect(recognizer.queryByLabelText('Model version')).toBeNull());
    expect(server.callsTo('PATCH', `/process/workers/${withModels.id}/`).at(-1)!.body).toEqual({
      model_version_id: null,
    });
  });

  it("sets a run's parents, shows a cycle's refusal, and removes a run", async () => {
    const setup = project();
    const first = runOf(setup.segmenterVersion, setup.process.id, setup.corpus);
    const second = runOf(setup.newest, setup.process.id, setup.corpus, { parents: [first.id] });
    const server = fakeProcessServer({ ...setup, runs: [first, second] });
    renderProcessStep(`/process/${setup.process.id}/configure`);
    const user = userEvent.setup();

    const recognizer = within(await screen.findByRole('article', { name: 'Line recognizer' }));
    const parent = recognizer.getByRole('checkbox', { name: first.summary });
    expect((parent as HTMLInputElement).checked).toBe(true);

    const segmenter = card('Line segmenter');
    await user.click(segmenter.getByRole('checkbox', { name: second.summary }));
    expect(await screen.findByText('Worker runs cannot form a cycle.')).toBeTruthy();
    expect(server.callsTo('PATCH', `/process/workers/${first.id}/`).map((c) => c.body)).toEqual([
      { parents: [second.id] },
    ]);
    expect(
      (segmenter.getByRole('checkbox', { name: second.summary }) as HTMLInputElement).checked,
    ).toBe(false);

    await user.click(parent);
    await waitFor(() => expect((parent as HTMLInputElement).checked).toBe(false));
    expect(server.callsTo('PATCH', `/process/workers/${second.id}/`).map((c) => c.body)).toEqual([
      { parents: [] },
    ]);

    await user.click(segmenter.getByRole('button', { name: 'Remove Line segmenter' }));
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Line segmenter' })).toBeNull(),
    );
    expect(server.callsTo('DELETE', `/process/workers/${first.id}/`)).toHaveLength(1);
    // One run left: no parent to pick.
    expect(recognizer.queryByRole('checkbox')).toBeNull();
  });

  it('applies a template of the project and saves the runs as a new template', async () => {
    const setup = project();
    const template = makeProcess(setup.corpus, { mode: 'template', name: 'Lines then text' });
    const templateRuns = [runOf(setup.segmenterVersion, template.id, setup.corpus)];
    const server = fakeProcessServer({
      ...setup,
      templates: [{ process: template, runs: templateRuns }],
    });
    renderProcessStep(`/process/${setup.process.id}/configure`);
    const user = userEvent.setup();

    await screen.findByText('This process has no workers yet.');
    const templates = screen.getByRole('region', { name: 'Templates' });
    expect(
      within(templates)
        .getByRole('button', { name: 'Create a template' })
        .getAttribute('aria-disabled'),
    ).toBe('true');
    await user.selectOptions(
      within(templates).getByLabelText('Template'),
      await within(templates).findByRole('option', { name: 'Lines then text' }),
    );
    await user.click(within(templates).getByRole('button', { name: 'Apply a template' }));
    expect(await screen.findByRole('article', { name: 'Line segmenter' })).toBeTruthy();
    expect(server.callsTo('POST', `/process/${template.id}/apply/`).map((c) => c.body)).toEqual([
      { process_id: setup.process.id },
    ]);
    expect(screen.getByText('The template has been applied.')).toBeTruthy();
    expect(server.callsTo('GET', '/process/')[0]!.query.get('mode')).toBe('template');

    await user.click(within(templates).getByRole('button', { name: 'Create a template' }));
    expect(await screen.findByText('Template Template of OCR run created.')).toBeTruthy();
    expect(server.callsTo('POST', `/process/${setup.process.id}/template/`)).toHaveLength(1);
    expect(server.templates).toHaveLength(2);
  });

  it('starts the process with its chunks and farm, then opens its details', async () => {
    const setup = project();
    const run = runOf(setup.newest, setup.process.id, setup.corpus);
    const server = fakeProcessServer({ ...setup, runs: [run] });
    renderProcessStep(`/process/${setup.process.id}/configure`);
    const user = userEvent.setup();

    await screen.findByRole('article', { name: 'Line recognizer' });
    const chunks = screen.getByLabelText('Chunks');
    await user.clear(chunks);
    await user.type(chunks, '11');
    const start = screen.getByRole('button', { name: 'Start process' });
    expect(start.getAttribute('title')).toBe('Chunks must be a whole number from 1 to 10');
    await user.click(start);
    expect(server.callsTo('POST', `/process/${setup.process.id}/start/`)).toEqual([]);

    await user.clear(chunks);
    await user.type(chunks, '3');
    await user.selectOptions(
      screen.getByLabelText('Farm'),
      await screen.findByRole('option', { name: 'GPU farm' }),
    );
    expect(
      within(screen.getByLabelText('Farm'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Server default', 'Default farm', 'GPU farm']);
    await user.click(start);
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /process/${setup.process.id}`,
    );
    expect(
      server.callsTo('POST', `/process/${setup.process.id}/start/`).map((c) => c.body),
    ).toEqual([{ chunks: 3, farm: setup.farms![1]!.id }]);
  });

  it("shows the server's refusal to start, and asks for a worker first", async () => {
    const setup = project();
    const retired = setup.configurations![setup.recognizer.id]![1]!;
    const run = runOf(setup.newest, setup.process.id, setup.corpus, { configuration: retired });
    const server = fakeProcessServer({ ...setup, runs: [run] });
    renderProcessStep(`/process/${setup.process.id}/configure`);
    const user = userEvent.setup();

    await screen.findByRole('article', { name: 'Line recognizer' });
    await user.click(screen.getByRole('button', { name: 'Start process' }));
    expect(await screen.findByText('A worker run uses an archived configuration.')).toBeTruthy();
    expect(screen.queryByTestId('elsewhere')).toBeNull();
    expect(
      server.callsTo('POST', `/process/${setup.process.id}/start/`).map((c) => c.body),
    ).toEqual([{ chunks: 1 }]);

    await user.click(screen.getByRole('button', { name: 'Remove Line recognizer' }));
    await screen.findByText('This process has no workers yet.');
    const start = screen.getByRole('button', { name: 'Start process' });
    expect(start.getAttribute('title')).toBe('Add a worker before starting the process');
    await user.click(start);
    expect(server.callsTo('POST', `/process/${setup.process.id}/start/`)).toHaveLength(1);
  });

  it('sends a process that is not a workers process waiting to start to its details', async () => {
    for (const fields of [{ mode: 'template' as const }, { tasks: [{ id: uuid() } as never] }]) {
      const setup = project();
      Object.assign(setup.process, fields);
      const server = fakeProcessServer(setup);
      const view = renderProcessStep(`/process/${setup.process.id}/configure`);
      expect((await screen.findByTestId('elsewhere')).textContent).toBe(
        `Now at /process/${setup.process.id}`,
      );
      expect(server.callsTo('GET', `/process/${setup.process.id}/workers/`)).toEqual([]);
      view.unmount();
    }
  });
});
