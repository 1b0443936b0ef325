// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Corpus } from '@/api/types';
import { AddToDatasetModal, type AddTarget } from '@/features/datasets/addTo/AddToDatasetModal';
import { localDb } from '@/offline/db';
import { storeElements } from '@/offline/elementStore';
import { SAVED_ON_DEVICE, connectivity } from '@/offline/runtime';
import { elementWith } from '../support/harness';
import {
  apiError,
  datasetServer,
  isolateEachTest,
  json,
  makeCorpus,
  makeDataset,
  makeUser,
  renderModal,
  uuid,
} from './populateHarness';

isolateEachTest();

const ADDED = 'Elements have been added to the dataset set.';
const REQUIRED = 'This field is required';

const folio = { id: uuid(), name: 'Folio 12r', type: 'page' };

function open(corpus: Corpus, target: AddTarget) {
  return renderModal(
    (close) => <AddToDatasetModal corpusId={corpus.id} target={target} onClose={close} />,
    makeUser(),
  );
}

async function dialog() {
  return screen.findByRole('dialog', { name: 'Add to dataset' });
}

/** The messages tied to a field through aria-describedby. */
function messagesOf(label: string): string {
  const describedBy = screen.getByLabelText(label).getAttribute('aria-describedby');
  return describedBy ? (document.getElementById(describedBy)?.textContent ?? '') : '';
}

describe('Add to dataset', () => {
  it('adds one element to the set chosen and says so', async () => {
    const corpus = makeCorpus();
    const lines = makeDataset(corpus, { name: 'Lines' });
    const pages = makeDataset(corpus, { name: 'Pages' });
    const { callsTo } = datasetServer(corpus, [lines, pages], {
      [`POST /datasets/${pages.id}/elements/`]: () => json(201, {}),
    });
    const user = userEvent.setup();
    open(corpus, { kind: 'element', element: folio });
    const modal = await dialog();
    expect(modal.textContent).toContain('Add Folio 12r to a set of a dataset.');
    await user.selectOptions(await screen.findByLabelText('Dataset'), pages.id);
    const set = screen.getByLabelText('Set');
    expect(
      within(set)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose a set', 'train', 'dev', 'test']);
    await user.selectOptions(set, pages.sets[1]!.id);
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await screen.findByText(ADDED)).toBeTruthy();
    expect(await screen.findByText('Modal closed')).toBeTruthy();
    expect(callsTo('POST', `/datasets/${pages.id}/elements/`).map((call) => call.body)).toEqual([
      { element_id: folio.id, set: 'dev' },
    ]);
  });

  it('needs a dataset, then a set', async () => {
    const corpus = makeCorpus();
    const lines = makeDataset(corpus, { name: 'Lines' });
    const pages = makeDataset(corpus, { name: 'Pages' });
    const { calls } = datasetServer(corpus, [lines, pages]);
    const user = userEvent.setup();
    open(corpus, { kind: 'element', element: folio });
    // The project's datasets are read first (from this device's store, then the server).
    await screen.findByLabelText('Dataset');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(messagesOf('Dataset')).toBe(REQUIRED);

    await user.selectOptions(screen.getByLabelText('Dataset'), lines.id);
    expect(messagesOf('Dataset')).toBe('');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(messagesOf('Set')).toBe(REQUIRED);
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('keeps an element added offline for later, and says it is saved on this device', async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus);
    const { calls } = datasetServer(corpus, [dataset]);
    const user = userEvent.setup();
    open(corpus, { kind: 'element', element: folio });
    // The only open dataset is chosen for the user.
    await user.selectOptions(await screen.findByLabelText('Set'), dataset.sets[0]!.id);
    connectivity.store.set({ online: false, checkedAt: null });
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await screen.findByText(SAVED_ON_DEVICE)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's refusal of one element under the set", async () => {
    const corpus = makeCorpus();
    // Opened from its page, the element is in the local store.
    await localDb.transaction('rw', [localDb.elements, localDb.outbox], () =>
      storeElements(localDb, [elementWith({ ...folio, corpus: { id: corpus.id } })], {
        full: false,
      }),
    );
    const dataset = makeDataset(corpus);
    datasetServer(corpus, [dataset], {
      [`POST /datasets/${dataset.id}/elements/`]: () =>
        apiError(400, [{ attr: 'set', detail: 'This element is already in set train.' }]),
    });
    const user = userEvent.setup();
    open(corpus, { kind: 'element', element: folio });
    await user.selectOptions(await screen.findByLabelText('Set'), dataset.sets[2]!.id);
    await user.click(screen.getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(messagesOf('Set')).toBe('This element is already in set train.'));
    expect(screen.queryByText(ADDED)).toBeNull();
    expect(await dialog()).toBeTruthy();
  });

  it("adds the user's selection on the server", async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus);
    const { callsTo } = datasetServer(corpus, [dataset], {
      [`POST /corpus/${corpus.id}/datasets/selection/`]: () => json(201, null),
    });
    const user = userEvent.setup();
    open(corpus, { kind: 'selection' });
    const modal = await dialog();
    expect(modal.textContent).toContain('Add the selected elements of this project');
    await user.selectOptions(await screen.findByLabelText('Set'), dataset.sets[0]!.id);
    await user.click(screen.getByRole('button', { name: 'Add' }));

    expect(await screen.findByText(ADDED)).toBeTruthy();
    expect(
      callsTo('POST', `/corpus/${corpus.id}/datasets/selection/`).map((call) => call.body),
    ).toEqual([{ set_id: dataset.sets[0]!.id }]);
  });

  it('puts set_id errors of the selection under the set field', async () => {
    const corpus = makeCorpus();
    const dataset = makeDataset(corpus);
    datasetServer(corpus, [dataset], {
      [`POST /corpus/${corpus.id}/datasets/selection/`]: () =>
        apiError(400, [{ attr: 'set_id', detail: 'Only open datasets can be edited' }]),
    });
    const user = userEvent.setup();
    open(corpus, { kind: 'selection' });
    await user.selectOptions(await screen.findByLabelText('Set'), dataset.sets[0]!.id);
    await user.click(screen.getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(messagesOf('Set')).toBe('Only open datasets can be edited'));
    expect(screen.queryByText(ADDED)).toBeNull();
  });

  it('cannot add the selection offline', async () => {
    const corpus = makeCorpus();
    datasetServer(corpus, [makeDataset(corpus)]);
    connectivity.store.set({ online: false, checkedAt: null });
    open(corpus, { kind: 'selection' });
    await dialog();
    expect(
      await screen.findByText(
        'You are offline. Connect to the network to add the selection to a dataset.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add' }).hasAttribute('disabled')).toBe(true);
  });

  it("says 'No dataset available' without an open dataset", async () => {
    const corpus = makeCorpus();
    datasetServer(corpus, [makeDataset(corpus, { state: 'building' })]);
    open(corpus, { kind: 'element', element: folio });
    expect(await screen.findByText('No dataset available')).toBeTruthy();
    expect(screen.queryByLabelText('Set')).toBeNull();
  });
});
