// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, screen, waitFor } from '@testing-library/react';
import { followJob, FOLLOW_POLL_MS, JOBS_POLL_MS } from '@/api/jobs';
import { connectivity } from '@/offline/runtime';
import {
  fakeJobsServer,
  isolateEachTest,
  makeJob,
  navbar,
  openJobs,
  renderShell,
  verified,
} from './harness';

vi.mock('@/app/serviceWorker', async () => {
  const { createStore } = await import('@/lib/store');
  return {
    updateAvailable: createStore(false),
    applyUpdate: vi.fn(),
    registerServiceWorker: vi.fn(),
  };
});

configure({ asyncUtilTimeout: 5_000 });
isolateEachTest();

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('polling the jobs', () => {
  it('reads the jobs every 10 s', async () => {
    expect(JOBS_POLL_MS).toBe(10_000);
    const server = fakeJobsServer([makeJob({ status: 'started' })]);
    renderShell(verified);
    await (await navbar()).findByRole('button', { name: 'Background jobs: 1' });
    expect(server.listReads()).toBe(1);
    await pass(9_000);
    expect(server.listReads()).toBe(1);
    await pass(1_000);
    await waitFor(() => expect(server.listReads()).toBe(2));

    // A job queued elsewhere (another tab, a script) shows at the next read.
    server.jobs.unshift(makeJob({ status: 'queued' }));
    await pass(10_000);
    expect(
      await (await navbar()).findByRole('button', { name: 'Background jobs: 2' }),
    ).toBeTruthy();
  });

  it('pauses while the API is out of reach, keeps the count, and goes on once it is back', async () => {
    const server = fakeJobsServer([makeJob({ status: 'started' })]);
    renderShell(verified);
    await (await navbar()).findByRole('button', { name: 'Background jobs: 1' });
    act(() => connectivity.store.set({ online: false, checkedAt: null }));
    await pass(35_000);
    expect(server.listReads()).toBe(1);
    expect((await navbar()).getByRole('button', { name: 'Background jobs: 1' })).toBeTruthy();

    act(() => connectivity.store.set({ online: true, checkedAt: null }));
    await pass(10_000);
    await waitFor(() => expect(server.listReads()).toBe(2));
  });
});

describe('a job this tab started', () => {
  it('shows its end in the Background jobs modal without waiting for the 10 s poll', async () => {
    const job = makeJob({ description: 'Import of letters.zip', status: 'started' });
    const server = fakeJobsServer([job]);
    const { queryClient } = renderShell(verified);
    const modal = await openJobs(1);
    expect(modal.getByText('Running')).toBeTruthy();
    const ended = vi.fn();
    const reads = server.listReads();
    followJob(queryClient, job.id, ended);
    await waitFor(() => expect(server.listReads()).toBe(reads + 1));

    Object.assign(job, { status: 'processed', progress: 1, ended_at: new Date().toISOString() });
    await pass(FOLLOW_POLL_MS);
    expect(await modal.findByText('Finished')).toBeTruthy();
    expect(modal.getByText(/^Ended \d+ seconds? ago$/)).toBeTruthy();
    expect(ended).toHaveBeenCalledWith(
      expect.objectContaining({ id: job.id, status: 'processed' }),
    );
    expect(server.callsTo('GET', `/jobs/${job.id}/`)).toHaveLength(1);

    // Once ended it is no longer read.
    await pass(3 * FOLLOW_POLL_MS);
    expect(server.callsTo('GET', `/jobs/${job.id}/`)).toHaveLength(1);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('shows at once in the count, is read once however often it is followed, and ends when it is gone', async () => {
    const earlier = makeJob({ status: 'processed' });
    const server = fakeJobsServer([earlier]);
    const { queryClient } = renderShell(verified);
    await (await navbar()).findByRole('button', { name: 'Background jobs: 1' });

    const job = makeJob({ description: 'Moving 3 elements', status: 'queued' });
    server.jobs.unshift(job);
    const first = vi.fn();
    const second = vi.fn();
    followJob(queryClient, job.id, first);
    followJob(queryClient, job.id, second);
    expect(
      await (await navbar()).findByRole('button', { name: 'Background jobs: 2' }),
    ).toBeTruthy();

    await pass(FOLLOW_POLL_MS);
    await waitFor(() => expect(server.callsTo('GET', `/jobs/${job.id}/`)).toHaveLength(1));
    expect(first).not.toHaveBeenCalled();

    // Stopped and deleted elsewhere: the server no longer knows it.
    server.jobs.splice(server.jobs.indexOf(job), 1);
    await pass(FOLLOW_POLL_MS);
    await waitFor(() => expect(first).toHaveBeenCalledWith(null));
    expect(second).toHaveBeenCalledWith(null);
    expect(
      await (await navbar()).findByRole('button', { name: 'Background jobs: 1' }),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
