// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onlineManager } from '@tanstack/react-query';
import { artifactUrl } from '@/api/processes';
import {
  apiError,
  fakeProcessesServer,
  isolateEachTest,
  makeCorpus,
  makeProcess,
  makeTask,
  renderProcesses,
} from './harness';

configure({ asyncUtilTimeout: 5_000 });

isolateEachTest();

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets the 4 s polling interval pass `times` times. */
async function pollPasses(times = 1) {
  for (let index = 0; index < times; index += 1) {
    await act(() => vi.advanceTimersByTimeAsync(4000));
  }
}

const userWithTimers = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

describe('following a process', () => {
  it('polls the process every 4 s while it runs and stops once it is finished', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { state: 'running' });
    const task = makeTask(process, { state: 'running' });
    process.tasks.push(task);
    const server = fakeProcessesServer({ processes: [process], corpora: [corpus] });
    renderProcesses(`/process/${process.id}`);
    await screen.findByRole('heading', { level: 1 });
    const gets = () => server.callsTo('GET', `/process/${process.id}/`).length;
    expect(gets()).toBe(1);

    await pollPasses();
    await waitFor(() => expect(gets()).toBe(2));

    task.state = 'completed';
    process.state = 'completed';
    await pollPasses();
    await waitFor(() => expect(gets()).toBe(3));
    const header = screen.getByRole('heading', { level: 1 }).parentElement!;
    await waitFor(() => expect(within(header).getByText('Completed')).toBeTruthy());

    await pollPasses(3);
    expect(gets()).toBe(3);
  });

  it('pauses while the API is out of reach and goes on once it is back', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { state: 'running' });
    process.tasks.push(makeTask(process, { state: 'running' }));
    const server = fakeProcessesServer({ processes: [process], corpora: [corpus] });
    renderProcesses(`/process/${process.id}`);
    await screen.findByRole('heading', { level: 1 });
    const gets = () => server.callsTo('GET', `/process/${process.id}/`).length;
    try {
      act(() => onlineManager.setOnline(false));
      await pollPasses(3);
      expect(gets()).toBe(1);
      act(() => onlineManager.setOnline(true));
      await pollPasses(2);
      await waitFor(() => expect(gets()).toBeGreaterThanOrEqual(3));
    } finally {
      onlineManager.setOnline(true);
    }
  });

  it('stops polling after a 4xx', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { state: 'pending' });
    process.tasks.push(makeTask(process));
    let gone = false;
    const server = fakeProcessesServer({
      processes: [process],
      corpora: [corpus],
      overrides: {
        [`GET /process/${process.id}/`]: () =>
          gone ? apiError(404, [{ attr: null, detail: 'Not found.', code: 'not_found' }]) : null,
      },
    });
    renderProcesses(`/process/${process.id}`);
    await screen.findByRole('heading', { level: 1 });
    const gets = () => server.callsTo('GET', `/process/${process.id}/`).length;
    gone = true;
    await pollPasses();
    await waitFor(() => expect(gets()).toBe(2));
    await pollPasses(3);
    expect(gets()).toBe(2);
  });
});

describe('a task’s panel', () => {
  it('follows the log of a running task and keeps to the bottom unless scrolled up', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { state: 'running' });
    const task = makeTask(process, { slug: 'tesseract', state: 'running', logs: 'line 1\n' });
    process.tasks.push(task);
    const server = fakeProcessesServer({ processes: [process], corpora: [corpus] });
    renderProcesses(`/process/${process.id}`);
    const user = userWithTimers();
    await user.click(await screen.findByRole('button', { name: 'tesseract' }));
    const log = await screen.findByRole('log', { name: 'Logs of tesseract' });
    await waitFor(() => expect(log.textContent).toBe('line 1\n'));

    // jsdom has no layout: the box says how tall it is.
    let height = 1000;
    Object.defineProperty(log, 'scrollHeight', { get: () => height, configurable: true });
    Object.defineProperty(log, 'clientHeight', { value: 200, configurable: true });

    task.logs += 'line 2\n';
    await pollPasses();
    await waitFor(() => expect(log.textContent).toContain('line 2'));
    expect(log.scrollTop).toBe(1000);

    // The user scrolls up to read: new lines no longer move the box.
    log.scrollTop = 100;
    log.dispatchEvent(new Event('scroll'));
    height = 1400;
    task.logs += 'line 3\n';
    await pollPasses();
    await waitFor(() => expect(log.textContent).toContain('line 3'));
    expect(log.scrollTop).toBe(100);

    // Back at the bottom, it follows again.
    log.scrollTop = 1200;
    log.dispatchEvent(new Event('scroll'));
    height = 1600;
    task.logs += 'line 4\n';
    await pollPasses();
    await waitFor(() => expect(log.textContent).toContain('line 4'));
    expect(log.scrollTop).toBe(1600);

    // A finished task is no longer asked for.
    task.state = 'completed';
    process.state = 'completed';
    await pollPasses();
    const taskGets = () => server.callsTo('GET', `/task/${task.id}/`).length;
    await waitFor(() => expect(screen.getAllByText('Completed').length).toBeGreaterThan(0));
    const count = taskGets();
    await pollPasses(2);
    expect(taskGets()).toBe(count);
  });

  it('lists artifacts to download and restarts a failed task', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { state: 'failed' });
    const task = makeTask(process, { slug: 'tesseract', state: 'failed', logs: 'boom\n' });
    process.tasks.push(task);
    const server = fakeProcessesServer({
      processes: [process],
      corpora: [corpus],
      artifacts: {
        [task.id]: [
          {
            id: 'art-1',
            path: 'out/result file.json',
            size: 2048,
            content_type: 'application/json',
            s3_put_url: null,
            created: task.created,
            updated: task.created,
          },
        ],
      },
    });
    renderProcesses(`/process/${process.id}`);
    const user = userWithTimers();
    await user.click(await screen.findByRole('button', { name: 'tesseract' }));
    const link = await screen.findByRole('link', { name: 'out/result file.json' });
    expect(link.getAttribute('href')).toBe(
      `/api/v1/task/${task.id}/artifact/out/result%20file.json`,
    );
    expect(artifactUrl(task.id, 'a/b.txt')).toBe(`/api/v1/task/${task.id}/artifact/a/b.txt`);
    expect(screen.getByText('2 KB · application/json')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop task' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Restart task' }));
    await waitFor(() =>
      expect(server.callsTo('POST', `/task/${task.id}/restart/`)).toHaveLength(1),
    );
    const restarted = process.tasks.at(-1)!;
    expect(restarted.original_task_id).toBe(task.id);
    await waitFor(() =>
      expect(server.callsTo('GET', `/task/${restarted.id}/`).length).toBeGreaterThan(0),
    );
    expect(await screen.findByRole('button', { name: 'Stop task' })).toBeTruthy();
    // The table marks the new task as a restart.
    await waitFor(() => expect(screen.getByTitle(`Restart of task ${task.id}`)).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Restart task' })).toBeNull();
  });

  it('stops a running task', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, { state: 'running' });
    const task = makeTask(process, { slug: 'tesseract', state: 'running' });
    process.tasks.push(task);
    const server = fakeProcessesServer({ processes: [process], corpora: [corpus] });
    renderProcesses(`/process/${process.id}`);
    const user = userWithTimers();
    await user.click(await screen.findByRole('button', { name: 'tesseract' }));
    await user.click(await screen.findByRole('button', { name: 'Stop task' }));
    await waitFor(() =>
      expect(server.callsTo('PATCH', `/task/${task.id}/`)[0]?.body).toEqual({ state: 'stopping' }),
    );
    const panel = screen.getByRole('heading', { name: 'Task tesseract' }).parentElement!;
    await waitFor(() => expect(within(panel).getByText('Stopping')).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Stop task' })).toBeNull();
  });
});

describe('the processes list', () => {
  it('follows the states of unfinished processes, and stops once all are finished', async () => {
    const corpus = makeCorpus();
    const process = makeProcess(corpus, {
      name: 'OCR run',
      state: 'running',
      started: new Date().toISOString(),
    });
    const server = fakeProcessesServer({ processes: [process], corpora: [corpus] });
    renderProcesses('/process/');
    const row = () => within(screen.getByRole('row', { name: /OCR run/ }));
    await waitFor(() => expect(row().getByText('Running')).toBeTruthy());
    process.state = 'completed';
    await pollPasses();
    await waitFor(() => expect(row().getByText('Completed')).toBeTruthy());
    const count = server.callsTo('GET', '/process/').length;
    await pollPasses(3);
    expect(server.callsTo('GET', '/process/')).toHaveLength(count);
  });
});
