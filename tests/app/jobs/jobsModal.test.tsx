// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { act, configure, screen, waitFor } from '@testing-library/react';
import { jobKeys } from '@/api/jobs';
import userEvent from '@testing-library/user-event';
import {
  apiError,
  fakeJobsServer,
  isolateEachTest,
  makeJob,
  navbar,
  openJobs,
  refresh,
  rowOf,
  renderShell,
  unverified,
  verified,
} from './harness';

// The real module registers a service worker through a Vite virtual module.
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

const home = () => screen.findByRole('heading', { level: 1, name: 'Home' });

describe('the navbar jobs button', () => {
  it('counts every job of a verified user, finished ones included, and says how many run', async () => {
    fakeJobsServer([
      makeJob({ status: 'started' }),
      makeJob({ status: 'queued' }),
      makeJob({ status: 'processed' }),
    ]);
    renderShell(verified);
    const button = await (await navbar()).findByRole('button', { name: 'Background jobs: 3' });
    expect(button.textContent).toContain('3');
    expect(button.getAttribute('title')).toBe('2 running');
  });

  it('is not shown to a verified user without jobs', async () => {
    const server = fakeJobsServer([]);
    renderShell(verified);
    await home();
    await waitFor(() => expect(server.listReads()).toBe(1));
    expect((await navbar()).queryByRole('button', { name: /Background jobs/ })).toBeNull();
  });

  it('does not even ask for the jobs of an unverified user or of a visitor', async () => {
    const server = fakeJobsServer([makeJob({ status: 'started' })]);
    renderShell(unverified);
    await home();
    renderShell(null);
    await waitFor(() => expect(screen.getAllByRole('heading', { name: 'Home' })).toHaveLength(2));
    expect(server.listReads()).toBe(0);
    expect(screen.queryByRole('button', { name: /Background jobs/ })).toBeNull();
  });
});

describe('the Background jobs modal', () => {
  it('shows each job with its status, the date that fits it and a progress bar while it runs', async () => {
    fakeJobsServer([
      makeJob({ description: 'Moving 120 elements', status: 'started', progress: 0.4 }),
      makeJob({ description: 'Deleting 3 elements', status: 'queued' }),
      makeJob({ description: 'Populating Train split', status: 'processed' }),
      makeJob({ description: 'Import of broken.zip', status: 'error' }),
    ]);
    renderShell(verified);
    const modal = await openJobs(4);
    const rows = modal.getAllByRole('listitem');
    expect(
      rows.map((row) => document.getElementById(row.getAttribute('aria-labelledby')!)?.textContent),
    ).toEqual([
      'Moving 120 elements',
      'Deleting 3 elements',
      'Populating Train split',
      'Import of broken.zip',
    ]);
    const moving = rowOf(modal, 'Moving 120 elements');
    const deleting = rowOf(modal, 'Deleting 3 elements');
    const populating = rowOf(modal, 'Populating Train split');
    const failed = rowOf(modal, 'Import of broken.zip');

    expect(moving.getByText('Running')).toBeTruthy();
    expect(moving.getByText('Started 5 minutes ago')).toBeTruthy();
    const bar = moving.getByRole('progressbar', { name: 'Progress of Moving 120 elements' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(moving.getByText('40%')).toBeTruthy();
    expect(moving.getByRole('button', { name: 'Stop: Moving 120 elements' })).toBeTruthy();
    expect(moving.queryByRole('button', { name: /^Delete/ })).toBeNull();

    expect(deleting.getByText('Queued')).toBeTruthy();
    expect(deleting.getByText('Queued 10 minutes ago')).toBeTruthy();
    expect(populating.getByText('Finished')).toBeTruthy();
    expect(populating.getByText('Ended 2 minutes ago')).toBeTruthy();
    expect(failed.getByText('Failed')).toBeTruthy();
    expect(failed.getByText('Ended 2 minutes ago')).toBeTruthy();
    for (const row of [deleting, populating, failed]) {
      expect(row.queryByRole('progressbar')).toBeNull();
      expect(row.queryByRole('button', { name: /^Stop/ })).toBeNull();
      expect(row.getByRole('button', { name: /^Delete: / })).toBeTruthy();
    }
  });

  it('shows the progress a screen following the job read since the list was', async () => {
    const job = makeJob({ description: 'Import of letters.zip', status: 'started', progress: 0.1 });
    const server = fakeJobsServer([job]);
    const { queryClient } = renderShell(verified);
    const modal = await openJobs(1);
    const row = rowOf(modal, 'Import of letters.zip');
    expect(row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('10');
    // The job moves on on the server (a list read from now on says so too), and the import
    // screen's own polling leaves it in the cache before the modal reads the list again.
    server.jobs[0] = { ...job, progress: 0.7 };
    act(() => {
      queryClient.setQueryData(jobKeys.detail(job.id), { ...job, progress: 0.7 });
    });
    await waitFor(() =>
      expect(row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('70'),
    );
    expect(row.getByText('70%')).toBeTruthy();
  });

  it('reads the end states of an Arkindex instance, finished and failed, as ended', async () => {
    fakeJobsServer([
      makeJob({ description: 'Export', status: 'finished' as never, ended_at: null }),
      makeJob({
        description: 'Reindex',
        status: 'failed' as never,
        ended_at: new Date(Date.now() - 3 * 3600_000).toISOString(),
      }),
    ]);
    renderShell(verified);
    const modal = await openJobs(2);
    const exported = rowOf(modal, 'Export');
    const reindex = rowOf(modal, 'Reindex');
    expect(exported.getByText('Finished')).toBeTruthy();
    // No end date given: the start is the latest moment known.
    expect(exported.getByText('Started 5 minutes ago')).toBeTruthy();
    expect(reindex.getByText('Failed')).toBeTruthy();
    expect(reindex.getByText('Ended 3 hours ago')).toBeTruthy();
    expect(exported.getByRole('button', { name: 'Delete: Export' })).toBeTruthy();
  });

  it('stops a started job and reads the list again', async () => {
    const running = makeJob({ description: 'Moving 120 elements', status: 'started' });
    const server = fakeJobsServer([running]);
    renderShell(verified);
    const modal = await openJobs(1);
    const reads = server.listReads();
    await userEvent.click(modal.getByRole('button', { name: 'Stop: Moving 120 elements' }));
    await waitFor(() => expect(server.callsTo('DELETE', `/jobs/${running.id}/`)).toHaveLength(1));
    expect(server.stopRequested.has(running.id)).toBe(true);
    await waitFor(() => expect(server.listReads()).toBe(reads + 1));
    // Still started until it reaches a stopping point: the request is not offered again.
    const stopping = modal.getByRole('button', { name: 'Stop: Moving 120 elements' });
    expect(stopping.textContent).toBe('Stopping…');
    expect((stopping as HTMLButtonElement).disabled).toBe(true);
  });

  it('deletes an ended job; once the last is gone it says there are none', async () => {
    const done = makeJob({ description: 'Import of letters.zip', status: 'processed' });
    const server = fakeJobsServer([done]);
    renderShell(verified);
    const modal = await openJobs(1);
    await userEvent.click(modal.getByRole('button', { name: 'Delete: Import of letters.zip' }));
    expect(await modal.findByText('There are no background jobs.')).toBeTruthy();
    expect(server.callsTo('DELETE', `/jobs/${done.id}/`)).toHaveLength(1);
    expect(modal.queryByRole('listitem')).toBeNull();
    // The modal stays open; the navbar button goes with the last job.
    expect((await navbar()).queryByRole('button', { name: /Background jobs/ })).toBeNull();
  });

  it('tells a refused deletion in a notification and keeps the job', async () => {
    const done = makeJob({ description: 'Import of letters.zip', status: 'processed' });
    fakeJobsServer([done], {
      [`DELETE /jobs/${done.id}/`]: () =>
        apiError(403, [
          { attr: null, detail: 'You do not have permission to perform this action.' },
        ]),
    });
    renderShell(verified);
    const modal = await openJobs(1);
    await userEvent.click(modal.getByRole('button', { name: 'Delete: Import of letters.zip' }));
    expect(
      await screen.findByText('You do not have permission to perform this action.'),
    ).toBeTruthy();
    expect(modal.getByRole('listitem', { name: 'Import of letters.zip' })).toBeTruthy();
  });

  it('reads the list again on Refresh', async () => {
    const server = fakeJobsServer([makeJob({ description: 'First', status: 'queued' })]);
    renderShell(verified);
    const modal = await openJobs(1);
    server.jobs.unshift(makeJob({ description: 'Second', status: 'started' }));
    await refresh(modal);
    expect(await modal.findByRole('listitem', { name: 'Second' })).toBeTruthy();
    expect(
      await (await navbar()).findByRole('button', { name: 'Background jobs: 2' }),
    ).toBeTruthy();
  });

  it('tells a failed read in a notification and keeps the jobs it had', async () => {
    let down = false;
    fakeJobsServer([makeJob({ description: 'First', status: 'queued' })], {
      'GET /jobs/': () =>
        down ? apiError(500, [{ attr: null, detail: 'The server is down.' }]) : null,
    });
    renderShell(verified);
    const modal = await openJobs(1);
    down = true;
    await refresh(modal);
    expect(await screen.findByText(/The server is down\./)).toBeTruthy();
    expect(modal.getByRole('listitem', { name: 'First' })).toBeTruthy();
  });
});
