// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { FOLLOW_POLL_MS, followJobsStartedBy, jobKeys, type Job } from '@/api/jobs';
import { fakeJobsServer, isolateEachTest, makeJob } from './harness';

// The harness mounts the app's root route, whose module registers a service worker.
vi.mock('@/app/serviceWorker', async () => {
  const { createStore } = await import('@/lib/store');
  return {
    updateAvailable: createStore(false),
    applyUpdate: vi.fn(),
    registerServiceWorker: vi.fn(),
  };
});

isolateEachTest();

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

const newClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });

describe('following the jobs a request started without naming them', () => {
  it('follows only the jobs that were not listed before, to their end', async () => {
    const older = makeJob({ description: 'Import of letters.zip', status: 'started' });
    const server = fakeJobsServer([older]);
    const queryClient = newClient();
    const ended = vi.fn();
    const moved = makeJob({ description: 'Moving 3 elements', status: 'queued' });

    const answer = await followJobsStartedBy(
      queryClient,
      async () => {
        // As POST /elements/selection/move/ does: a job queued, 204 without its id.
        server.jobs.unshift(moved);
        return 'scheduled';
      },
      ended,
    );
    expect(answer).toBe('scheduled');
    // Nothing read yet in this tab: the list before, then the list after.
    const listed = () => queryClient.getQueryData<Job[]>(jobKeys.list())?.map((job) => job.id);
    await vi.waitFor(() => expect(listed()).toEqual([moved.id, older.id]));
    expect(server.listReads()).toBe(2);

    Object.assign(moved, { status: 'processed', ended_at: new Date().toISOString() });
    Object.assign(older, { status: 'processed', ended_at: new Date().toISOString() });
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS);
    await vi.waitFor(() => expect(ended).toHaveBeenCalledTimes(1));
    expect(ended).toHaveBeenCalledWith(expect.objectContaining({ id: moved.id }));
    expect(server.callsTo('GET', `/jobs/${moved.id}/`)).toHaveLength(1);
    expect(server.callsTo('GET', `/jobs/${older.id}/`)).toHaveLength(0);
  });

  it('uses the list this tab already holds, and follows nothing when the request fails', async () => {
    const server = fakeJobsServer([]);
    const queryClient = newClient();
    queryClient.setQueryData(jobKeys.list(), []);
    await expect(
      followJobsStartedBy(queryClient, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await vi.advanceTimersByTimeAsync(FOLLOW_POLL_MS);
    expect(server.calls).toHaveLength(0);
  });
});
