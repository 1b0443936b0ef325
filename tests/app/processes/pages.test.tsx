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
  it('lists each farm’s agents with their state, heartbeat, slots, CPU and memory', async () => {
    const admin = { ...me, is_admin: true };
    const gpuFarm = { id: '6f1c2d3e-4a5b-4c6d-8e7f-901234567890', name: 'GPU farm' };
    fakeProcessesServer({
      user: admin,
      agents: [
        makeAgent('node-1', { running_tasks: 3, slots: 8, cpu_load: 0.35, ram_used: 3 * 2 ** 30 }),
        makeAgent('node-2', {
          active: false,
          running_tasks: 0,
          last_ping: new Date(Date.now() - 7200e3).toISOString(),
        }),
        makeAgent('gpu-1', { farm: gpuFarm, gpus: 2, ram_total: 64 * 2 ** 30, running_tasks: 0 }),
      ],
    });
    renderProcesses('/process/agents', { ...enterprise, user: admin });

    const farm = within(await screen.findByRole('region', { name: 'Default farm' }));
    expect(farm.getByText('2 agents, 1 active, 3 of 12 slots in use')).toBeTruthy();
    const table = within(farm.getByRole('table', { name: 'Agents of Default farm' }));
    const first = within(table.getByRole('row', { name: /node-1/ }));
    expect(first.getByText('Active')).toBeTruthy();
    expect(first.getByText('3 of 8')).toBeTruthy();
    expect(first.getByText('35 %')).toBeTruthy();
    expect(first.getByText(`3.0 GiB of ${(16e9 / 2 ** 30).toFixed(0)} GiB`)).toBeTruthy();
    expect(
      first.getByRole('meter', { name: 'CPU load on node-1' }).getAttribute('aria-valuenow'),
    ).toBe('35');
    expect(first.getByText('8 cores')).toBeTruthy();
    const second = within(table.getByRole('row', { name: /node-2/ }));
    expect(second.getByText('Inactive')).toBeTruthy();
    expect(second.getByText('2 hours ago')).toBeTruthy();
    // Nothing reported yet reads as such, not as an idle machine.
    expect(second.getAllByText('Not reported')).toHaveLength(1);
    expect(second.getByText('15 GiB in all')).toBeTruthy();

    const gpus = within(screen.getByRole('region', { name: 'GPU farm' }));
    expect(gpus.getByText('1 agent, 1 active, 0 of 4 slots in use')).toBeTruthy();
    expect(gpus.getByText('8 cores, 2 GPUs')).toBeTruthy();
  });

  it('opens an agent’s running tasks with links to their processes', async () => {
    const admin = { ...me, is_admin: true };
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { name: 'Read the registers', state: 'running' });
    const agent = makeAgent('node-1', { running_tasks: 1 });
    process.tasks = [
      makeTask(process, {
        slug: 'tesseract_1',
        state: 'running',
        agent: { id: agent.id, hostname: 'node-1' },
        started: new Date(Date.now() - 120e3).toISOString(),
      }),
    ];
    fakeProcessesServer({ user: admin, agents: [agent], processes: [process], corpora: [corpus] });
    renderProcesses('/process/agents', { ...enterprise, user: admin });

    const toggle = await screen.findByRole('button', { name: '1 task on node-1' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await act(async () => toggle.click());
    const link = await screen.findByRole('link', { name: 'tesseract_1' });
    expect(link.getAttribute('href')).toBe(`/process/${process.id}`);
    expect(screen.getByText('running, started 2 minutes ago')).toBeTruthy();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
  });

  it('asks the server again every 5 seconds while open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const admin = { ...me, is_admin: true };
    const agents = [makeAgent('node-1', { cpu_load: 0.1 })];
    const server = fakeProcessesServer({ user: admin, agents });
    renderProcesses('/process/agents', { ...enterprise, user: admin });
    expect(await screen.findByText('10 %')).toBeTruthy();
    agents[0]!.cpu_load = 0.9;
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(await screen.findByText('90 %')).toBeTruthy();
    expect(server.callsTo('GET', '/agents/').length).toBeGreaterThanOrEqual(2);
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
