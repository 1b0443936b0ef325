// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoute } from '@tanstack/react-router';
import type { Corpus } from '@/api/types';
import { WorkerResultsAction } from '@/features/workers/results/WorkerResultsAction';
import { WorkerResultsDeletionModal } from '@/features/workers/results/WorkerResultsDeletionModal';
import {
  INVALID_UUID,
  VALUE_REQUIRED,
  WORKER_RESULTS_DELETION_SCHEDULED,
  deletionFormErrors,
  deletionParams,
  EMPTY_DELETION_FORM,
} from '@/features/workers/results/deletionForm';
import { connectivity } from '@/offline/runtime';
import {
  apiError,
  corpusWith,
  idSequence,
  isolateEachTest,
  json,
  makeInfo,
  makeRoot,
  pageOf,
  renderRoutes,
  routesUnder,
  stubFetch,
  userWith,
  type Call,
} from '../support/harness';

configure({ asyncUtilTimeout: 10_000 });

const uuid = idSequence('c000');
const corpusId = uuid();
const workerId = uuid();
const otherWorkerId = uuid();
const versionId = uuid();
const otherVersionId = uuid();
const configurationId = uuid();
const modelId = uuid();
const modelVersionId = uuid();

const versions = [
  {
    id: versionId,
    worker: { id: workerId, name: 'Kraken', slug: 'kraken', type: 'recognizer' },
    version: 3,
    revision_url: null,
    tag: null,
  },
  {
    id: otherVersionId,
    worker: { id: otherWorkerId, name: 'Tesseract', slug: 'tesseract', type: 'recognizer' },
    version: null,
    revision_url: 'https://git.example.org/tesseract/commit/abc',
    tag: 'v5',
  },
];

function fakeServer(deleteAnswer: (call: Call) => Response = () => json(204, null)) {
  const link = (page: number) => `http://localhost/api/v1/x/?page=${page}`;
  return stubFetch((call) => {
    if (call.path === `/corpus/${corpusId}/versions/`)
      return json(200, pageOf(versions, 1, 500, link));
    if (call.path === `/workers/${workerId}/configurations/`)
      return json(
        200,
        pageOf([{ id: configurationId, name: 'Fast', archived: false }], 1, 500, link),
      );
    if (call.path === '/models/' && call.query.get('compatible_worker') === otherWorkerId) {
      return json(200, pageOf([], 1, 500, link));
    }
    if (call.path === '/models/' && !call.query.get('compatible_worker')) {
      return json(
        200,
        pageOf(
          [
            { id: modelId, name: 'Lines' },
            { id: uuid(), name: 'Words' },
          ],
          1,
          500,
          link,
        ),
      );
    }
    if (call.path === '/models/') {
      const list =
        call.query.get('compatible_worker') === workerId ? [{ id: modelId, name: 'Lines' }] : [];
      return json(200, pageOf(list, 1, 500, link));
    }
    if (call.path === `/model/${modelId}/versions/`)
      return json(
        200,
        pageOf(
          [{ id: modelVersionId, tag: 'v1', state: 'available', created: '2024-05-01T10:00:00Z' }],
          1,
          500,
          link,
        ),
      );
    if (call.method === 'DELETE' && call.path === `/corpus/${corpusId}/worker-results/`)
      return deleteAnswer(call);
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  });
}

function renderModal(element: { id: string; name: string } | null = null) {
  const root = makeRoot();
  const page = createRoute({
    getParentRoute: () => root,
    path: '/',
    component: function Page() {
      return (
        <WorkerResultsDeletionModal
          corpusId={corpusId}
          corpusName="Letters"
          element={element}
          onClose={() => undefined}
        />
      );
    },
  });
  return renderRoutes(routesUnder(root, [page]), { url: '/', info: makeInfo(), user: null });
}

const query = (call: Call) => Object.fromEntries(call.query.entries());

isolateEachTest();

describe('the worker results deletion choices', () => {
  it('checks UUIDs and asks for a configuration once that option is chosen', () => {
    expect(deletionFormErrors(EMPTY_DELETION_FORM)).toEqual({});
    expect(
      deletionFormErrors({
        ...EMPTY_DELETION_FORM,
        workerVersionId: 'not-a-uuid',
        modelVersionId: `${modelVersionId}0`,
        configuration: 'one',
      }),
    ).toEqual({
      workerVersionId: INVALID_UUID,
      modelVersionId: INVALID_UUID,
      configurationId: VALUE_REQUIRED,
    });
    expect(INVALID_UUID).toBe('This value must be a valid UUID.');
    expect(VALUE_REQUIRED).toBe('This value must be set.');
  });

  it('sends only the filters chosen, and false for no configuration', () => {
    expect(deletionParams(EMPTY_DELETION_FORM, null)).toEqual({});
    expect(
      deletionParams(
        {
          ...EMPTY_DELETION_FORM,
          workerVersionId: ` ${versionId.toUpperCase()} `,
          configuration: 'none',
        },
        'element-id',
      ),
    ).toEqual({
      element_id: 'element-id',
      worker_version_id: versionId,
      configuration_id: 'false',
    });
  });
});

describe('the worker results deletion modal', () => {
  it('offers the models marked compatible with the chosen worker, or every model when it has none', async () => {
    fakeServer();
    renderModal();
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete worker results' }));
    const workerVersion = dialog.getByRole('combobox', { name: 'Worker version' });
    const model = dialog.getByRole('combobox', { name: 'Model' });
    const names = () =>
      within(model)
        .getAllByRole('option')
        .map((option) => option.textContent);
    await waitFor(() => expect(names()).toEqual(['Any model', 'Lines', 'Words']));
    await waitFor(() => expect(within(workerVersion).getAllByRole('option')).toHaveLength(3));
    await userEvent.selectOptions(workerVersion, 'Kraken (version 3)');
    await waitFor(() => expect(names()).toEqual(['Any model', 'Lines']));
    await userEvent.selectOptions(workerVersion, 'Tesseract (v5)');
    await waitFor(() => expect(names()).toEqual(['Any model', 'Lines', 'Words']));
  });

  it('deletes the results of a worker version, model version and configuration picked from lists', async () => {
    const server = fakeServer();
    renderModal();
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete worker results' }));
    expect(dialog.getByText('Letters')).toBeTruthy();
    const workerVersion = dialog.getByRole('combobox', { name: 'Worker version' });
    await waitFor(() =>
      expect(
        within(workerVersion)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Any worker version', 'Kraken (version 3)', 'Tesseract (v5)']),
    );
    await userEvent.selectOptions(workerVersion, 'Kraken (version 3)');
    const model = dialog.getByRole('combobox', { name: 'Model' });
    await waitFor(() =>
      expect(within(model).queryByRole('option', { name: 'Lines' })).toBeTruthy(),
    );
    await userEvent.selectOptions(model, 'Lines');
    const modelVersion = dialog.getByRole('combobox', { name: 'Model version' });
    await waitFor(() =>
      expect(within(modelVersion).queryByRole('option', { name: 'v1 (available)' })).toBeTruthy(),
    );
    await userEvent.selectOptions(modelVersion, 'v1 (available)');

    await userEvent.click(dialog.getByRole('radio', { name: 'This configuration' }));
    expect(dialog.getByText(VALUE_REQUIRED)).toBeTruthy();
    const remove = dialog.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    const configuration = dialog.getByRole('combobox', { name: 'Configuration of the worker' });
    await waitFor(() =>
      expect(within(configuration).queryByRole('option', { name: 'Fast' })).toBeTruthy(),
    );
    await userEvent.selectOptions(configuration, 'Fast');
    expect(dialog.queryByText(VALUE_REQUIRED)).toBeNull();
    await userEvent.click(remove);

    expect(await screen.findByText(WORKER_RESULTS_DELETION_SCHEDULED)).toBeTruthy();
    const [call] = server.callsTo('DELETE', `/corpus/${corpusId}/worker-results/`);
    expect(query(call!)).toEqual({
      worker_version_id: versionId,
      model_version_id: modelVersionId,
      configuration_id: configurationId,
    });
  });

  it('checks the UUIDs typed in the advanced mode before sending them', async () => {
    const server = fakeServer();
    renderModal({ id: uuid(), name: 'Page 12' });
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete worker results' }));
    expect(dialog.getByText('Page 12')).toBeTruthy();
    await userEvent.click(dialog.getByRole('checkbox', { name: 'Advanced mode: enter the UUIDs' }));
    const workerVersion = dialog.getByRole('textbox', {
      name: 'Worker version ID',
    }) as HTMLInputElement;
    expect(workerVersion.maxLength).toBe(36);
    await userEvent.type(workerVersion, 'abc');
    expect(dialog.getByText(INVALID_UUID)).toBeTruthy();
    const remove = dialog.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    await userEvent.clear(workerVersion);
    await userEvent.type(workerVersion, otherVersionId);
    expect(dialog.queryByText(INVALID_UUID)).toBeNull();

    await userEvent.click(dialog.getByRole('radio', { name: 'This configuration' }));
    expect(dialog.getByText(VALUE_REQUIRED)).toBeTruthy();
    expect(remove.disabled).toBe(true);
    await userEvent.click(dialog.getByRole('radio', { name: 'No configuration' }));
    expect(dialog.queryByText(VALUE_REQUIRED)).toBeNull();
    await userEvent.click(remove);

    expect(await screen.findByText(WORKER_RESULTS_DELETION_SCHEDULED)).toBeTruthy();
    const calls = server.callsTo('DELETE', `/corpus/${corpusId}/worker-results/`);
    expect(calls).toHaveLength(1);
    expect(query(calls[0]!)).toMatchObject({
      worker_version_id: otherVersionId,
      configuration_id: 'false',
    });
    expect(query(calls[0]!).element_id).toBeTruthy();
  });

  it('shows what the server refused in the modal', async () => {
    fakeServer(() =>
      apiError(400, [{ attr: 'worker_version_id', detail: 'This worker version does not exist.' }]),
    );
    renderModal();
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete worker results' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await dialog.findByText('This worker version does not exist.')).toBeTruthy();
    expect(screen.queryByText(WORKER_RESULTS_DELETION_SCHEDULED)).toBeNull();
  });

  it('waits for the network offline', async () => {
    const server = fakeServer();
    connectivity.store.set({ online: false, checkedAt: null });
    renderModal();
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete worker results' }));
    expect(
      dialog.getByText('You are offline. Connect to the network to delete worker results.'),
    ).toBeTruthy();
    const remove = dialog.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    expect(server.calls.filter((call) => call.method === 'DELETE')).toEqual([]);
  });
});

describe('the project page action', () => {
  function renderAction(corpus: Corpus) {
    stubFetch((call) => (call.path === `/corpus/${corpus.id}/` ? json(200, corpus) : fakeAnswer()));
    const root = makeRoot();
    const page = createRoute({
      getParentRoute: () => root,
      path: '/',
      component: () => <WorkerResultsAction corpusId={corpus.id} />,
    });
    return renderRoutes(routesUnder(root, [page]), {
      url: '/',
      info: makeInfo(),
      user: userWith(uuid()),
    });
  }
  // The modal's lists, empty: what matters here is who is offered the action.
  const fakeAnswer = () =>
    json(
      200,
      pageOf([], 1, 20, () => ''),
    );

  it('opens the modal for a project admin', async () => {
    const corpus = corpusWith({
      id: uuid(),
      name: 'Letters',
      public: false,
      types: [],
      rights: ['read', 'write', 'admin'],
    });
    renderAction(corpus);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete worker results' }));
    expect(await screen.findByRole('dialog', { name: 'Delete worker results' })).toBeTruthy();
  });

  it('is not offered to a contributor', async () => {
    const corpus = corpusWith({
      id: uuid(),
      name: 'Letters',
      public: false,
      types: [],
      rights: ['read', 'write'],
    });
    const { queryClient } = renderAction(corpus);
    await waitFor(() =>
      expect(queryClient.getQueryData(['corpora', 'detail', corpus.id])).toBeTruthy(),
    );
    expect(screen.queryByRole('button', { name: 'Delete worker results' })).toBeNull();
  });
});
