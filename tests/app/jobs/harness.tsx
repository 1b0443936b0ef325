/**
 * The app's root layout (navbar, Background jobs modal) over a small stand-in for the jobs API
 * with the server's rules: GET /jobs/ lists the caller's jobs newest first, DELETE /jobs/{id}/
 * asks a started job to stop and removes any other one.
 */
import { createRoute } from '@tanstack/react-router';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { Route as rootRoute } from '@/routes/__root';
import type { Job } from '@/api/jobs';
import type { User } from '@/api/types';
import {
  apiError,
  idSequence,
  json,
  makeInfo,
  overridden,
  renderRoutes,
  stubFetch,
  userWith,
  type Handler,
} from '../support/harness';

export { apiError, isolateEachTest, json } from '../support/harness';

const uuid = idSequence('e000');
export const verified: User = userWith(uuid(), { display_name: 'Ada Lovelace' });
export const unverified: User = userWith(uuid(), { verified_email: false });

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

export function makeJob(fields: Partial<Job> = {}): Job {
  const status = fields.status ?? 'queued';
  return {
    id: uuid(),
    description: 'Import of letters.zip',
    status,
    progress: status === 'queued' ? null : status === 'started' ? 0.4 : 1,
    enqueued_at: ago(600),
    started_at: status === 'queued' ? null : ago(300),
    ended_at: status === 'processed' || status === 'error' ? ago(120) : null,
    ...fields,
  };
}

export function fakeJobsServer(jobs: Job[], overrides: Record<string, Handler> = {}) {
  const stopRequested = new Set<string>();
  const stub = stubFetch(async (call) => {
    const answer = await overridden(overrides, call);
    if (answer) return answer;
    if (call.method === 'GET' && call.path === '/jobs/') return json(200, jobs);
    const one = /^\/jobs\/([^/]+)\/$/.exec(call.path);
    const index = one ? jobs.findIndex((job) => job.id === one[1]) : -1;
    if (one && index < 0) return apiError(404, [{ attr: null, detail: 'Not found.' }]);
    const job = jobs[index];
    if (one && job && call.method === 'GET') return json(200, { ...job, kind: 'import' });
    if (one && job && call.method === 'DELETE') {
      if (job.status === 'started') stopRequested.add(job.id);
      else jobs.splice(index, 1);
      return json(204, null);
    }
    return apiError(404, [{ attr: null, detail: 'Not found.' }]);
  });
  return { ...stub, jobs, stopRequested, listReads: () => stub.callsTo('GET', '/jobs/').length };
}

const home = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: () => <h1>Home</h1>,
});
const routeTree = rootRoute.addChildren([home]);

/** The app's shell on a stand-in home page, for `user` (null: nobody logged in). */
export function renderShell(user: User | null) {
  return renderRoutes(routeTree as never, { url: '/', info: makeInfo(), user });
}

/** The row of the Background jobs modal for the job so described, to look inside. */
export function rowOf(modal: ReturnType<typeof within>, description: string) {
  return within(modal.getByRole('listitem', { name: description }));
}

export const navbar = async () => within(await screen.findByRole('navigation', { name: 'Main' }));

export async function openJobs(count: number) {
  const button = await (await navbar()).findByRole('button', { name: `Background jobs: ${count}` });
  button.click();
  return within(await screen.findByRole('dialog', { name: 'Background jobs' }));
}

/** Refresh, once the read the modal started on opening is over. */
export async function refresh(modal: ReturnType<typeof within>) {
  const button = modal.getByRole('button', { name: 'Refresh' }) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  await userEvent.click(button);
}
