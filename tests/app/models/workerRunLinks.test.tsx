// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoute } from '@tanstack/react-router';
import { Route as rootRoute } from '@/routes/__root';
import { Route as modelVersionRoute } from '@/routes/model-version/$versionId';
import { Route as workerVersionRoute } from '@/routes/process/worker-version/$versionId';
import { WorkerRunModal, type WorkerRunDetails } from '@/features/workers/WorkerRunModal';
import { renderRoutes } from '../support/harness';
import {
  fakeModelsServer,
  info,
  isolateEachTest,
  json,
  makeModel,
  makeVersion,
  me,
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

const model = makeModel({ name: 'Lines' });
const modelVersion = makeVersion(model, { tag: 'v7' });
const runId = uuid();
const workerVersionId = uuid();

const run: WorkerRunDetails = {
  id: runId,
  summary: 'Worker Kraken @ 3',
  worker_version: {
    id: workerVersionId,
    worker: { id: uuid(), name: 'Kraken', slug: 'kraken', type: 'recognizer' },
    revision: null,
    version: 3,
  },
  configuration: null,
  model_version: {
    id: modelVersion.id,
    model: { id: model.id, name: model.name },
    tag: 'v7',
    size: 2_500_000,
    configuration: {},
  },
  process: { id: uuid(), name: 'Local' },
};

// The run's modal on a page of its own, beside the real routes its links lead to.
const runPage = createRoute({
  getParentRoute: () => rootRoute,
  path: '/run',
  component: () => <WorkerRunModal id={runId} onClose={() => undefined} />,
});
const routeTree = rootRoute.addChildren([
  runPage,
  modelVersionRoute.update({
    id: '/model-version/$versionId',
    path: '/model-version/$versionId',
    getParentRoute: () => rootRoute,
  } as never),
  workerVersionRoute.update({
    id: '/process/worker-version/$versionId',
    path: '/process/worker-version/$versionId',
    getParentRoute: () => rootRoute,
  } as never),
]);

function open() {
  fakeModelsServer({
    models: [model],
    versions: [modelVersion],
    overrides: { [`GET /process/workers/${runId}/`]: () => json(200, run) },
  });
  return renderRoutes(routeTree as never, { url: '/run', info, user: me });
}

describe('the worker run details modal', () => {
  it('leads to the model version page of the run', async () => {
    const { router } = open();
    const dialog = within(await screen.findByRole('dialog', { name: 'Worker run details' }));
    await dialog.findByText('Worker run ID');
    expect(dialog.getByText('2.5 MB')).toBeTruthy();
    await userEvent.click(dialog.getByRole('link', { name: 'Model version' }));
    await screen.findByRole('heading', { name: 'Model version v7', level: 1 });
    expect(router.state.location.pathname).toBe(`/model-version/${modelVersion.id}`);
  });

  it('leads to the worker version page of the run', async () => {
    const { router } = open();
    const dialog = within(await screen.findByRole('dialog', { name: 'Worker run details' }));
    await dialog.findByText('Worker run ID');
    await userEvent.click(dialog.getByRole('link', { name: 'Worker version' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/process/worker-version/${workerVersionId}`),
    );
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
  });
});
