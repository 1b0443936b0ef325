// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { WAIT_FAILED, WAIT_INTERVAL_MS, WAIT_MAX_ATTEMPTS } from '@/features/processes/WaitPage';
import {
  fakeProcessesServer,
  isolateEachTest,
  makeAgent,
  makeCorpus,
  makeProcess,
  makeTask,
  me,
  renderProcesses,
} from './harness';

configure({ asyncUtilTimeout: 5_000 });

isolateEachTest();

afterEach(() => {
  vi.useRealTimers();
});

const enterprise = { features: { enterprise: true } };

describe('the wait pages', () => {
  it('sends a started process to its details', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { name: 'Started', state: 'pending' });
    process.tasks.push(makeTask(process));
    fakeProcessesServer({ processes: [process], corpora: [corpus] });
    renderProcesses(`/process/${process.id}/wait`, enterprise);
    expect(await screen.findByRole('heading', { level: 1, name: 'Started' })).toBeTruthy();
  });

  it('sends a workers process without tasks to its filters, a dataset one to its datasets', async () => {
    const corpus = makeCorpus();
    const workers = makeProcess(corpus, { mode: 'workers' });
    const dataset = makeProcess(corpus, { mode: 'dataset' });
    const files = makeProcess(corpus, { mode: 'files', name: 'Import' });
    fakeProcessesServer({ processes: [workers, dataset, files], corpora: [corpus] });

    let view = renderProcesses(`/process/${workers.id}/wait`, enterprise);
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /process/${workers.id}/filter`,
    );
    view.unmount();
    view = renderProcesses(`/process/${dataset.id}/wait`, enterprise);
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /process/${dataset.id}/datasets`,
    );
    view.unmount();
    // Neither workers nor dataset: its details, tasks or not.
    renderProcesses(`/process/${files.id}/wait`, enterprise);
    expect(await screen.findByRole('heading', { level: 1, name: 'Import' })).toBeTruthy();
  });

  it('asks again every 2 s until the process exists', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { name: 'Late', mode: 'export' });
    const server = fakeProcessesServer({ processes: [], corpora: [corpus] });
    const { history } = renderProcesses(`/process/${process.id}/wait`, enterprise);
    expect(await screen.findByText('Your process is being created, please wait…')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(WAIT_INTERVAL_MS * 2));
    expect(server.callsTo('GET', `/process/${process.id}/`)).toHaveLength(3);
    server.processes.push(process);
    await act(() => vi.advanceTimersByTimeAsync(WAIT_INTERVAL_MS));
    expect(await screen.findByRole('heading', { level: 1, name: 'Late' })).toBeTruthy();
    // The wait page is replaced: going back does not wait again.
    expect(history.length).toBe(1);
  });

  it('gives up after the maximum attempts and says so', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = fakeProcessesServer({});
    const id = '00000000-0000-4000-d000-999999999999';
    renderProcesses(`/process/${id}/wait`, enterprise);
    await screen.findByRole('status');
    await act(() => vi.advanceTimersByTimeAsync(WAIT_INTERVAL_MS * WAIT_MAX_ATTEMPTS));
    expect((await screen.findByRole('alert')).textContent).toBe(WAIT_FAILED);
    expect(server.callsTo('GET', `/process/${id}/`)).toHaveLength(WAIT_MAX_ATTEMPTS);
    await act(() => vi.advanceTimersByTimeAsync(WAIT_INTERVAL_MS * 3));
    expect(server.callsTo('GET', `/process/${id}/`)).toHaveLength(WAIT_MAX_ATTEMPTS);
  });

  it('sends a project to its navigation once it exists', async () => {
    const corpus = makeCorpus();
    fakeProcessesServer({ corpora: [corpus] });
    renderProcesses(`/corpus/${corpus.id}/wait`, enterprise);
    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      `Now at /browse/${corpus.id}`,
    );
  });

  it('is not there without the enterprise edition', async () => {
    const corpus = makeCorpus();
    fakeProcessesServer({ corpora: [corpus] });
    renderProcesses(`/corpus/${corpus.id}/wait`);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });
});

describe('the workers activity', () => {
  it('shows the counts with bars and follows them while the process runs', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { state: 'running', activity_state: 'ready' });
    process.tasks.push(makeTask(process, { state: 'running' }));
    const stats = { queued: 6, started: 2, processed: 1, error: 1 };
    const server = fakeProcessesServer({
      processes: [process],
      corpora: [corpus],
      activity: { [process.id]: stats },
    });
    renderProcesses(`/process/${process.id}/workers-activity`);
    await waitFor(() => expect(screen.getByTestId('activity-queued').textContent).toBe('6'));
    expect(screen.getByRole('progressbar', { name: 'Queued' }).getAttribute('aria-valuenow')).toBe(
      '60',
    );
    expect(screen.getByRole('progressbar', { name: 'Error' }).getAttribute('aria-valuenow')).toBe(
      '10',
    );
    Object.assign(stats, { queued: 0, started: 0, processed: 9 });
    await act(() => vi.advanceTimersByTimeAsync(4000));
    await waitFor(() => expect(screen.getByTestId('activity-processed').textContent).toBe('9'));

    process.state = 'completed';
    process.tasks[0]!.state = 'completed';
    await act(() => vi.advanceTimersByTimeAsync(4000));
    await waitFor(() => expect(screen.queryByText(/updated every 4 seconds/)).toBeNull());
    const count = server.callsTo('GET', `/process/${process.id}/activity-stats/`).length;
    await act(() => vi.advanceTimersByTimeAsync(12000));
    expect(server.callsTo('GET', `/process/${process.id}/activity-stats/`)).toHaveLength(count);
  });
});

describe('the agents', () => {
  it('lists the agents with their farm, state, last ping, slots and running tasks', async () => {
    const admin = { ...me, is_admin: true };
    fakeProcessesServer({
      user: admin,
      agents: [
        makeAgent('node-1', { running_tasks: 3, slots: 8 }),
        makeAgent('node-2', {
          active: false,
          last_ping: new Date(Date.now() - 7200e3).toISOString(),
        }),
      ],
    });
    renderProcesses('/process/agents', { ...enterprise, user: admin });
    const table = within(await screen.findByRole('table', { name: 'Agents' }));
    const first = within(table.getByRole('row', { name: /node-1/ }));
    expect(first.getByText('Active')).toBeTruthy();
    expect(first.getByText('8')).toBeTruthy();
    expect(first.getByText('3')).toBeTruthy();
    expect(first.getByText('Default farm')).toBeTruthy();
    const second = within(table.getByRole('row', { name: /node-2/ }));
    expect(second.getByText('Inactive')).toBeTruthy();
    expect(second.getByText('2 hours ago')).toBeTruthy();
  });

  it('shows the server’s refusal to others', async () => {
    fakeProcessesServer({ agents: [makeAgent('node-1')] });
    renderProcesses('/process/agents', enterprise);
    expect(
      await screen.findByText(
        'The agents could not be loaded: You do not have permission to perform this action.',
      ),
    ).toBeTruthy();
  });
});
