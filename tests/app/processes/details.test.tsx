// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  fakeProcessesServer,
  isolateEachTest,
  makeCorpus,
  makeProcess,
  makeTask,
  makeWorkerRun,
  renderProcesses,
} from './harness';

configure({ asyncUtilTimeout: 5_000 });

isolateEachTest();

const actions = () => screen.getByRole('group', { name: 'Process actions' });
const actionNames = () =>
  [...actions().querySelectorAll('button, a')].map((element) => element.textContent);

describe('the process details', () => {
  it('shows the header, filters, worker runs and the latest run’s tasks by worker run', async () => {
    const corpus = makeCorpus();
    const recognizer = makeWorkerRun('Tesseract');
    const classifier = makeWorkerRun('Classifier');
    const process = makeProcess(corpus, {
      name: 'OCR run',
      state: 'running',
      element_type: 'page',
      element_name_contains: 'folio',
      load_children: 'direct',
      farm: { id: 'f', name: 'Default farm' },
    });
    process.tasks.push(
      makeTask(process, { run: 0, slug: 'tesseract', state: 'failed', worker_run: recognizer }),
      makeTask(process, {
        run: 1,
        slug: 'tesseract',
        state: 'completed',
        worker_run: recognizer,
        agent: { id: 'a', hostname: 'node-1' },
        attempts: 1,
        elements_count: 12,
      }),
      makeTask(process, { run: 1, slug: 'classifier', state: 'running', worker_run: classifier }),
    );
    fakeProcessesServer({
      processes: [process],
      corpora: [corpus],
      workerRuns: { [process.id]: [recognizer, classifier] },
    });
    renderProcesses(`/process/${process.id}/abc`);

    expect(await screen.findByRole('heading', { level: 1, name: 'OCR run' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Letters' }).getAttribute('href')).toBe(
      `/browse/${corpus.id}`,
    );
    const filters = within(screen.getByLabelText('Element filters'));
    expect(filters.getByText('page')).toBeTruthy();
    expect(filters.getByText('folio')).toBeTruthy();
    expect(filters.getByText('The elements and their direct children')).toBeTruthy();
    expect(await screen.findByText('Worker Tesseract @ 1')).toBeTruthy();

    // An invalid run shows the latest one.
    const runs = within(screen.getByRole('navigation', { name: 'Runs' }));
    expect(runs.getByRole('link', { name: 'Run 1' }).getAttribute('aria-current')).toBe('page');
    const tesseract = within(screen.getByRole('table', { name: 'Worker Tesseract @ 1' }));
    const row = within(tesseract.getByRole('row', { name: /tesseract/ }));
    expect(row.getByText('Completed')).toBeTruthy();
    expect(row.getByText('node-1')).toBeTruthy();
    expect(row.getByText('12')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Worker Classifier @ 1' })).toBeTruthy();

    await userEvent.setup().click(runs.getByRole('link', { name: 'Run 0' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Worker Tesseract @ 1' })).getByText('Failed'),
      ).toBeTruthy(),
    );
    expect(screen.queryByRole('table', { name: 'Worker Classifier @ 1' })).toBeNull();
  });

  it('offers the actions a process’ state allows to a project admin', async () => {
    const corpus = makeCorpus();
    const running = makeProcess(corpus, { state: 'running' });
    running.tasks.push(makeTask(running, { state: 'running' }));
    const done = makeProcess(corpus, { state: 'completed' });
    done.tasks.push(makeTask(done, { state: 'completed' }));
    const draft = makeProcess(corpus, { state: 'unscheduled' });
    fakeProcessesServer({ processes: [running, done, draft], corpora: [corpus] });

    let view = renderProcesses(`/process/${running.id}`);
    await waitFor(() => expect(actionNames()).toEqual(['Stop']));
    view.unmount();

    view = renderProcesses(`/process/${done.id}`);
    await waitFor(() => expect(actionNames()).toEqual(['Retry', 'Delete']));
    view.unmount();

    view = renderProcesses(`/process/${draft.id}`, { features: { selection: true } });
    await waitFor(() => expect(actionNames()).toEqual(['Configure', 'Clear', 'Delete']));
    expect(screen.getByRole('link', { name: 'Configure' }).getAttribute('href')).toBe(
      `/process/${draft.id}/configure`,
    );
    view.unmount();

    view = renderProcesses(`/process/${done.id}`, { features: { selection: true } });
    await waitFor(() => expect(actionNames()).toEqual(['Retry', 'Select failures', 'Delete']));
  });

  it('offers no action to a guest of the project but Select failures', async () => {
    const corpus = makeCorpus(['read']);
    const done = makeProcess(corpus, { state: 'failed' });
    done.tasks.push(makeTask(done, { state: 'failed' }));
    const server = fakeProcessesServer({ processes: [done], corpora: [corpus] });
    renderProcesses(`/process/${done.id}`, { features: { selection: true } });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(server.callsTo('GET', `/corpus/${corpus.id}/`)).toHaveLength(1));
    expect(actionNames()).toEqual(['Select failures']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Select failures' }));
    expect(
      await screen.findByText(
        'The elements this process failed on have been added to your selection.',
      ),
    ).toBeTruthy();
    expect(server.callsTo('POST', `/process/${done.id}/select-failures/`)).toHaveLength(1);
  });

  it('stops a running process', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { state: 'running' });
    process.tasks.push(makeTask(process, { state: 'running' }), makeTask(process, { slug: 'b' }));
    const server = fakeProcessesServer({ processes: [process], corpora: [corpus] });
    renderProcesses(`/process/${process.id}`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Stop' }));
    const heading = screen.getByRole('heading', { level: 1 }).parentElement!;
    await waitFor(() => expect(within(heading).getByText('Stopping')).toBeTruthy());
    expect(server.callsTo('PATCH', `/process/${process.id}/`)[0]!.body).toEqual({
      state: 'stopping',
    });
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('retries a finished process and shows its new run', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { state: 'failed' });
    process.tasks.push(makeTask(process, { state: 'failed' }));
    const server = fakeProcessesServer({ processes: [process], corpora: [corpus] });
    renderProcesses(`/process/${process.id}`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Retry' }));
    const runs = within(await screen.findByRole('navigation', { name: 'Runs' }));
    expect(runs.getByRole('link', { name: 'Run 1' }).getAttribute('aria-current')).toBe('page');
    expect(server.callsTo('POST', `/process/${process.id}/retry/`)).toHaveLength(1);
  });

  it('deletes a process with tasks after confirmation, and says the deletion is recorded', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { state: 'completed' });
    process.tasks.push(makeTask(process, { state: 'completed' }));
    const server = fakeProcessesServer({ processes: [process], corpora: [corpus] });
    const { router } = renderProcesses(`/process/${process.id}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete process' }));
    expect(server.callsTo('DELETE', `/process/${process.id}/`)).toHaveLength(0);
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText(
        `Deletion of process ${process.id} has been recorded and will be performed soon.`,
      ),
    ).toBeTruthy();
    expect(server.callsTo('DELETE', `/process/${process.id}/`)).toHaveLength(1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/process/'));
  });

  it('deletes a process without tasks at once, and clears the worker runs of a draft', async () => {
    const corpus = makeCorpus();
    const draft = makeProcess(corpus, { name: 'Draft' });
    const server = fakeProcessesServer({
      processes: [draft],
      corpora: [corpus],
      workerRuns: { [draft.id]: [makeWorkerRun('Tesseract')] },
    });
    const { router } = renderProcesses(`/process/${draft.id}`);
    const user = userEvent.setup();
    expect(await screen.findByText('Worker Tesseract @ 1')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('This process has no worker runs.')).toBeTruthy();
    expect(server.callsTo('DELETE', `/process/${draft.id}/clear/`)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete process' }));
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Process Draft has been deleted.')).toBeTruthy();
    expect(screen.queryByText(/has been recorded/)).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/process/'));
  });

  it('shows the server’s refusal as a notification', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { state: 'running' });
    process.tasks.push(makeTask(process, { state: 'running' }));
    fakeProcessesServer({
      processes: [process],
      corpora: [corpus],
      overrides: {
        [`PATCH /process/${process.id}/`]: () =>
          new Response(
            JSON.stringify({
              type: 'validation_error',
              errors: [{ code: 'invalid', detail: 'Nope.', attr: null }],
            }),
            { status: 400, headers: { 'content-type': 'application/json' } },
          ),
      },
    });
    renderProcesses(`/process/${process.id}`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Stop' }));
    expect(await screen.findByText('Nope.')).toBeTruthy();
  });

  it('shows a files process’ import task and its log, without Retry', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, {
      name: 'Import 3 files',
      mode: 'files',
      state: 'failed',
      started: new Date(Date.now() - 120_000).toISOString(),
    });
    process.tasks.push(
      makeTask(process, {
        slug: 'import_files',
        state: 'failed',
        logs: 'Page 2 is not an image\n',
      }),
    );
    fakeProcessesServer({ processes: [process], corpora: [corpus] });
    renderProcesses(`/process/${process.id}`);
    expect(await screen.findByText('Started 2 minutes ago')).toBeTruthy();
    const table = within(screen.getByRole('table', { name: 'Tasks' }));
    await userEvent.setup().click(table.getByRole('button', { name: 'import_files' }));
    const log = await screen.findByRole('log', { name: 'Logs of import_files' });
    await waitFor(() => expect(log.textContent).toBe('Page 2 is not an image\n'));
    await waitFor(() => expect(actionNames()).toEqual(['Delete']));
  });

  it('opens the old template details address as the process details', async () => {
    const corpus = makeCorpus();
    const template = makeProcess(corpus, { name: 'My template', mode: 'template' });
    fakeProcessesServer({ processes: [template], corpora: [corpus] });
    const { router } = renderProcesses(`/process/${template.id}/template-details`);
    expect(await screen.findByRole('heading', { level: 1, name: 'My template' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/process/${template.id}`);
  });

  it('opens a worker run’s details, whose Process link leads back here', async () => {
    const corpus = makeCorpus();
    const run = makeWorkerRun('Tesseract');
    const process = makeProcess(corpus, { name: 'OCR run' });
    fakeProcessesServer({
      processes: [process],
      corpora: [corpus],
      workerRuns: { [process.id]: [run] },
    });
    renderProcesses(`/process/${process.id}`);
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Details of Worker Tesseract @ 1' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Worker run details' }));
    await waitFor(() =>
      expect(dialog.getByRole('link', { name: 'Process' }).getAttribute('href')).toBe(
        `/process/${process.id}`,
      ),
    );
  });
});

describe('the budget of a process', () => {
  it('is linked from its details in the enterprise edition only', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { name: 'OCR run', state: 'completed' });
    fakeProcessesServer({ processes: [process], corpora: [corpus] });
    renderProcesses(`/process/${process.id}`, { features: { enterprise: true } });
    const link = await screen.findByRole('link', { name: 'Budget' });
    expect(link.getAttribute('href')).toBe(`/process/${process.id}/budget`);
  });

  it('is not linked in the community edition', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { name: 'OCR run', state: 'completed' });
    fakeProcessesServer({ processes: [process], corpora: [corpus] });
    renderProcesses(`/process/${process.id}`);
    await screen.findByRole('heading', { level: 1, name: 'OCR run' });
    expect(screen.getByRole('link', { name: 'Workers activity' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Budget' })).toBeNull();
  });
});
