// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Corpus } from '@/api/types';
import { datasetWith } from '../datasets/datasetFixture';
import { connectivity } from '@/offline/runtime';
import {
  apiError,
  isolateEachTest,
  json,
  makeCorpus,
  makeElement,
  makeUser,
  openSelectionPage,
  resetSelectionEachTest,
  selectionServer,
  uuid,
  type Handler,
} from './harness';

isolateEachTest();
resetSelectionEachTest();

const ACTIONS = [
  'Add to a dataset',
  'Create classifications',
  'Validate classifications',
  'Move to a folder',
  'Link to a parent',
  'Export to a file',
  'Delete elements',
];

/** Deleting the elements and exporting them to a file are for the project's admins. */
const ADMIN_ACTIONS = new Set(['Delete elements', 'Export to a file']);

function project(rights: Corpus['rights']) {
  const corpus = makeCorpus({ name: 'Letters', rights });
  const box = makeElement({ name: 'Box A', type: 'folder', corpus: { id: corpus.id } });
  const letters = [1, 2].map((n) =>
    makeElement({ name: `Letter ${n}`, type: 'page', corpus: { id: corpus.id } }),
  );
  return { corpus, box, letters };
}

function setup(
  rights: Corpus['rights'],
  answers: (corpus: Corpus) => Record<string, Handler> = () => ({}),
  extra: { classes?: { id: string; name: string }[] } = {},
) {
  const { corpus, box, letters } = project(rights);
  const overrides = answers(corpus);
  const server = selectionServer({
    corpora: [corpus],
    elements: { [corpus.id]: [box, ...letters] },
    classes: { [corpus.id]: extra.classes ?? [] },
    selected: letters,
    overrides,
  });
  return { corpus, box, letters, server };
}

async function openPage(user = makeUser()) {
  openSelectionPage(user);
  await screen.findByRole('heading', { name: 'Letters (2 elements)' });
  const actions = screen.getByRole('group', { name: 'Actions on the selection of Letters' });
  // The project's rights are read before the buttons say anything but "loading".
  await waitFor(() =>
    expect(within(actions).getByRole('button', { name: 'Move to a folder' }).title).not.toBe(
      'Loading the project…',
    ),
  );
  return actions;
}

function reasons(actions: HTMLElement) {
  return Object.fromEntries(
    within(actions)
      .getAllByRole('button')
      .map((button) => [button.textContent, button.getAttribute('title')]),
  );
}

describe('Bulk actions of the selection page', () => {
  it('are offered with the rights they need, each unavailable one saying why', async () => {
    setup(['read']);
    const actions = await openPage();
    expect(reasons(actions)).toEqual(
      Object.fromEntries(
        ACTIONS.map((label) => [
          label,
          ADMIN_ACTIONS.has(label)
            ? 'You must have an admin access to this project'
            : 'You must have a contributor access to this project',
        ]),
      ),
    );
  });

  it('leave deletion and exports to administrators: a contributor may do everything else', async () => {
    setup(['read', 'write']);
    const actions = await openPage();
    const expected: Record<string, string | null> = Object.fromEntries(
      ACTIONS.map((label) => [
        label,
        ADMIN_ACTIONS.has(label) ? 'You must have an admin access to this project' : null,
      ]),
    );
    expect(reasons(actions)).toEqual(expected);
    // A blocked button sends nothing.
    await userEvent.click(within(actions).getByRole('button', { name: 'Delete elements' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('need the network: offline every one says so', async () => {
    setup(['read', 'write', 'admin']);
    const actions = await openPage();
    connectivity.store.set({ online: false, checkedAt: Date.now() });
    await waitFor(() =>
      expect(reasons(actions)).toEqual(
        Object.fromEntries(ACTIONS.map((label) => [label, 'Needs the network'])),
      ),
    );
    await userEvent.click(within(actions).getByRole('button', { name: 'Move to a folder' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("open the export of the project's selection to a file for its admins", async () => {
    setup(['read', 'write', 'admin']);
    const actions = await openPage();
    await userEvent.click(within(actions).getByRole('button', { name: 'Export to a file' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export to a file' });
    expect(within(dialog).getByRole('region', { name: 'Elements' }).textContent).toContain(
      'The selected elements of Letters',
    );
  });

  it('move the selected elements to a folder picked in the tree', async () => {
    const { corpus, box, server } = setup(['read', 'write'], () => ({
      'POST /elements/selection/move/': () => json(204, null),
    }));
    const user = userEvent.setup();
    const actions = await openPage();
    await user.click(within(actions).getByRole('button', { name: 'Move to a folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move elements' });
    expect(dialog.textContent).toContain('The 2 selected elements of Letters leave');
    await user.click(await within(dialog).findByRole('radio', { name: 'Box A' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));

    expect(await screen.findByText('Elements moving has been scheduled.')).toBeTruthy();
    expect(server.callsTo('POST', '/elements/selection/move/').map((call) => call.body)).toEqual([
      { corpus_id: corpus.id, destination: box.id },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('read the selection again when the job they started ends', async () => {
    const job = {
      id: uuid(),
      description: 'Move 2 selected elements to Box A',
      status: 'queued',
      progress: null,
      enqueued_at: '2024-05-01T10:00:00Z',
      started_at: null,
      ended_at: null,
    };
    let queued = false;
    let jobEnded = () => undefined as void;
    const { letters, server } = setup(['read', 'write'], () => ({
      'GET /jobs/': () => json(200, queued ? [job] : []),
      [`GET /jobs/${job.id}/`]: () => {
        jobEnded();
        return json(200, { ...job, status: 'processed', ended_at: '2024-05-01T10:00:01Z' });
      },
      'POST /elements/selection/move/': () => {
        queued = true;
        return json(204, null);
      },
    }));
    const user = userEvent.setup();
    const actions = await openPage();
    await user.click(within(actions).getByRole('button', { name: 'Move to a folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move elements' });
    await user.click(await within(dialog).findByRole('radio', { name: 'Box A' }));
    // While the job runs, one of them is unselected elsewhere: the page learns it at the end.
    jobEnded = () => server.unselectElsewhere(letters[0]!);
    const reads = server.callsTo('GET', '/elements/selection/').length;
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Elements moving has been scheduled.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Letters (2 elements)' })).toBeTruthy();

    await waitFor(
      () => expect(screen.getByRole('heading', { name: 'Letters (1 element)' })).toBeTruthy(),
      { timeout: 8000 },
    );
    expect(server.callsTo('GET', `/jobs/${job.id}/`).length).toBeGreaterThan(0);
    expect(server.callsTo('GET', '/elements/selection/').length).toBeGreaterThan(reads);
  }, 15_000);

  it("show the server's words on the destination when a move is refused", async () => {
    setup(['read', 'write'], () => ({
      'POST /elements/selection/move/': () =>
        apiError(400, [
          { attr: 'destination', detail: 'A selected element cannot be moved inside itself.' },
        ]),
    }));
    const user = userEvent.setup();
    const actions = await openPage();
    await user.click(within(actions).getByRole('button', { name: 'Move to a folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move elements' });
    await user.click(await within(dialog).findByRole('radio', { name: 'Box A' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(
      await within(dialog).findByText(/A selected element cannot be moved inside itself\./),
    ).toBeTruthy();
    expect(screen.queryByText('Elements moving has been scheduled.')).toBeNull();
  });

  it('link the selected elements to another parent', async () => {
    const { corpus, box, server } = setup(['read', 'write'], () => ({
      'POST /elements/selection/parent/': () => json(204, null),
    }));
    const user = userEvent.setup();
    const actions = await openPage();
    await user.click(within(actions).getByRole('button', { name: 'Link to a parent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link to another parent' });
    await user.click(await within(dialog).findByRole('radio', { name: 'Box A' }));
    await user.click(within(dialog).getByRole('button', { name: 'Link' }));

    expect(await screen.findByText('Element linking has been scheduled.')).toBeTruthy();
    expect(server.callsTo('POST', '/elements/selection/parent/').map((call) => call.body)).toEqual([
      { corpus_id: corpus.id, parent_id: box.id },
    ]);
  });

  it("show a link's parent_id error under the picker", async () => {
    setup(['read', 'write'], () => ({
      'POST /elements/selection/parent/': () =>
        apiError(400, [{ attr: 'parent_id', detail: 'This parent would create a cycle.' }]),
    }));
    const user = userEvent.setup();
    const actions = await openPage();
    await user.click(within(actions).getByRole('button', { name: 'Link to a parent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link to another parent' });
    await user.click(await within(dialog).findByRole('radio', { name: 'Box A' }));
    await user.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await within(dialog).findByText(/This parent would create a cycle\./)).toBeTruthy();
  });

  it('delete the selected elements once confirmed, and take them off the page', async () => {
    const { corpus, server } = setup(['read', 'write', 'admin'], (corpus) => ({
      [`DELETE /corpus/${corpus.id}/selection/`]: () => json(204, null),
    }));
    const user = userEvent.setup();
    const actions = await openPage();
    await user.click(within(actions).getByRole('button', { name: 'Delete elements' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete elements' });
    expect(dialog.textContent).toContain('The 2 selected elements of Letters will be deleted');
    expect(server.callsTo('DELETE', `/corpus/${corpus.id}/selection/`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Elements deletion has been scheduled.')).toBeTruthy();
    expect(server.callsTo('DELETE', `/corpus/${corpus.id}/selection/`)).toHaveLength(1);
    expect(await screen.findByText('Empty selection')).toBeTruthy();
  });

  it('create a classification of the class picked on every selected element', async () => {
    const dated = { id: uuid(), name: 'dated' };
    const undated = { id: uuid(), name: 'undated' };
    const { corpus, server } = setup(
      ['read', 'write'],
      () => ({
        'POST /classifications/selection/': (call) =>
          json(201, { ...(call.body as object), ids: [], count: 2 }),
      }),
      { classes: [undated, dated] },
    );
    const user = userEvent.setup();
    const actions = await openPage();
    await user.click(within(actions).getByRole('button', { name: 'Create classifications' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create classifications' });
    const create = within(dialog).getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    await user.type(await within(dialog).findByLabelText('Class'), 'dat');
    const options = within(dialog).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['dated', 'undated']);
    await user.click(within(dialog).getByRole('option', { name: 'dated' }));
    await user.click(create);

    expect(await screen.findByText('2 classifications of dated created.')).toBeTruthy();
    expect(server.callsTo('POST', '/classifications/selection/').map((call) => call.body)).toEqual([
      { mode: 'create', corpus_id: corpus.id, ml_class: dated.id },
    ]);
  });

  it('validate the pending classifications of the selected elements, of every class by default', async () => {
    const { corpus, server } = setup(
      ['read', 'write'],
      () => ({
        'POST /classifications/selection/': (call) =>
          json(201, { ...(call.body as object), ml_class: null, ids: [], count: 1 }),
      }),
      { classes: [{ id: uuid(), name: 'dated' }] },
    );
    const user = userEvent.setup();
    const actions = await openPage();
    await user.click(within(actions).getByRole('button', { name: 'Validate classifications' }));
    const dialog = await screen.findByRole('dialog', { name: 'Validate classifications' });
    await within(dialog).findByRole('option', { name: 'All classes' });
    await user.click(within(dialog).getByRole('button', { name: 'Validate' }));

    expect(await screen.findByText('1 classification validated.')).toBeTruthy();
    expect(server.callsTo('POST', '/classifications/selection/').map((call) => call.body)).toEqual([
      { mode: 'validate', corpus_id: corpus.id },
    ]);
  });

  it('add the selected elements to a dataset set', async () => {
    const set = { id: uuid(), name: 'train' };
    const { corpus, server } = setup(['read', 'write'], (corpus) => ({
      [`GET /corpus/${corpus.id}/datasets/`]: () =>
        json(200, {
          count: 1,
          number: 1,
          next: null,
          previous: null,
          results: [datasetWith(uuid, corpus, { sets: [], creator: 'Ada' }, { sets: [set.name] })],
        }),
      [`POST /corpus/${corpus.id}/datasets/selection/`]: () => json(201, null),
    }));
    const user = userEvent.setup();
    const actions = await openPage();
    await user.click(within(actions).getByRole('button', { name: 'Add to a dataset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to dataset' });
    const select = (await within(dialog).findByLabelText('Set')) as HTMLSelectElement;
    const train = within(select).getByRole('option', { name: 'train' }) as HTMLOptionElement;
    await user.selectOptions(select, train.value);
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Elements have been added to the dataset set.')).toBeTruthy();
    expect(
      server.callsTo('POST', `/corpus/${corpus.id}/datasets/selection/`).map((call) => call.body),
    ).toEqual([{ set_id: train.value }]);
  });
});
