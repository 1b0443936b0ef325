// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Dataset } from '@/api/datasets';
import { DatasetFormModal } from '@/features/datasets/DatasetFormModal';
import { localDb } from '@/offline/db';
import { connectivity, syncScheduler } from '@/offline/runtime';
import {
  apiError,
  fakeDatasetsApi,
  isolateEachTest,
  makeCorpus,
  makeDataset,
  makeUser,
  renderModal,
  type Role,
} from './pageHarness';

isolateEachTest();
beforeEach(async () => {
  await localDb.outbox.clear();
});

/** The create modal; `refusal` answers the creation in place of the fake server. */
function openCreate(role: Role = 'contributor', refusal?: () => Response) {
  const corpus = makeCorpus(role);
  const api = fakeDatasetsApi({
    corpus,
    overrides: refusal ? { [`POST /corpus/${corpus.id}/datasets/`]: refusal } : {},
  });
  const onSaved = vi.fn();
  renderModal((close) => (
    <DatasetFormModal corpusId={corpus.id} canAdmin={false} onClose={close} onSaved={onSaved} />
  ));
  return { corpus, api, onSaved, user: userEvent.setup() };
}

function openEdit(role: Role, fields: Parameters<typeof makeDataset>[1] = {}) {
  const corpus = makeCorpus(role);
  const dataset = makeDataset(corpus, fields);
  const api = fakeDatasetsApi({ corpus, datasets: [dataset] });
  const onSaved = vi.fn();
  renderModal((close) => (
    <DatasetFormModal
      corpusId={corpus.id}
      dataset={dataset}
      canAdmin={role === 'admin'}
      onClose={close}
      onSaved={onSaved}
    />
  ));
  return { corpus, dataset, api, onSaved, user: userEvent.setup() };
}

const dialog = (name: string) => screen.findByRole('dialog', { name });

/** The modal once the project's rights are in: a set's name can be typed then. */
async function editable(modal: HTMLElement, set: string) {
  const field = within(modal).getByRole('textbox', { name: `Name of set ${set}` });
  await waitFor(() => expect(field.hasAttribute('readonly')).toBe(false));
  return field;
}

describe('creating a dataset', () => {
  it('needs a name and a description, and sends nothing without them', async () => {
    const { api, user } = openCreate();
    const modal = await dialog('Create a dataset');
    await user.type(within(modal).getByLabelText('Name'), 'Handwriting');
    await user.click(within(modal).getByRole('button', { name: 'Create' }));
    expect(within(modal).getByRole('alert').textContent).toBe(
      'Name and description fields cannot be empty',
    );
    await user.clear(within(modal).getByLabelText('Name'));
    await user.type(within(modal).getByLabelText('Name'), '   ');
    await user.type(within(modal).getByLabelText('Description'), 'Lines');
    await user.click(within(modal).getByRole('button', { name: 'Create' }));
    expect(within(modal).getByRole('alert').textContent).toBe(
      'Name and description fields cannot be empty',
    );
    expect(api.writes()).toEqual([]);
  });

  it('starts with train, dev and test and unique elements, and drops blank set names', async () => {
    const { corpus, api, onSaved, user } = openCreate();
    const modal = await dialog('Create a dataset');
    expect(
      within(modal)
        .getAllByRole('textbox', { name: /^Set name/ })
        .map((input) => (input as HTMLInputElement).value),
    ).toEqual(['train', 'dev', 'test']);
    expect(
      (within(modal).getByRole('checkbox', { name: /Unique elements/ }) as HTMLInputElement)
        .checked,
    ).toBe(true);

    await user.type(within(modal).getByLabelText('Name'), '  Handwriting ');
    await user.type(within(modal).getByLabelText('Description'), 'Lines for a recogniser');
    await user.click(within(modal).getByRole('checkbox', { name: /Unique elements/ }));
    await user.clear(within(modal).getByRole('textbox', { name: 'Set name 2' }));
    await user.type(within(modal).getByRole('textbox', { name: 'Set name 3' }), '-2024');
    await user.click(within(modal).getByRole('button', { name: 'Add a set' }));
    await user.type(within(modal).getByRole('textbox', { name: 'Set name 4' }), ' validation ');
    await user.click(within(modal).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Modal closed')).toBeTruthy();
    expect(api.writes().map((call) => [call.method, call.path, call.body])).toEqual([
      [
        'POST',
        `/corpus/${corpus.id}/datasets/`,
        {
          name: 'Handwriting',
          description: 'Lines for a recogniser',
          unique_elements: false,
          set_names: ['train', 'test-2024', 'validation'],
        },
      ],
    ]);
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect((onSaved.mock.calls[0]![0] as Dataset).sets.map((set) => set.name)).toEqual([
      'test-2024',
      'train',
      'validation',
    ]);
  });

  it("puts the server's 400 under the fields it names", async () => {
    const { user } = openCreate('contributor', () =>
      apiError(400, [
        { attr: 'name', detail: 'A dataset with this name already exists in this corpus.' },
        { attr: 'set_names.1', detail: 'Ensure this field has no more than 50 characters.' },
        { attr: 'unique_elements', detail: 'Must be a valid boolean.' },
      ]),
    );
    const modal = await dialog('Create a dataset');
    await user.type(within(modal).getByLabelText('Name'), 'Handwriting');
    await user.type(within(modal).getByLabelText('Description'), 'Lines');
    await user.click(within(modal).getByRole('button', { name: 'Create' }));

    const name = within(modal).getByLabelText('Name');
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toBe(
      'A dataset with this name already exists in this corpus.',
    );
    const sets = within(modal).getByRole('group', { name: 'Sets' });
    expect(
      within(sets).getByText('Ensure this field has no more than 50 characters.'),
    ).toBeTruthy();
    expect(within(modal).getByText('Must be a valid boolean.')).toBeTruthy();
    expect(screen.queryByText('Modal closed')).toBeNull();
  });

  it('reports other failures in a notice and stays open', async () => {
    const { user } = openCreate('contributor', () =>
      apiError(500, [{ attr: null, detail: 'The database is down.' }]),
    );
    const modal = await dialog('Create a dataset');
    await user.type(within(modal).getByLabelText('Name'), 'Handwriting');
    await user.type(within(modal).getByLabelText('Description'), 'Lines');
    await user.click(within(modal).getByRole('button', { name: 'Create' }));
    expect(
      await screen.findAllByText(
        'An error occurred while saving the dataset: The database is down.',
      ),
    ).not.toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Create a dataset' })).toBeTruthy();
  });
});

describe('editing a dataset', () => {
  it('sends only what changed', async () => {
    const { dataset, api, onSaved, user } = openEdit('contributor');
    const modal = await dialog('Edit dataset');
    expect((within(modal).getByLabelText('Name') as HTMLInputElement).value).toBe('Handwriting');
    await user.clear(within(modal).getByLabelText('Description'));
    await user.type(within(modal).getByLabelText('Description'), 'Only the clean lines');
    await user.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Modal closed')).toBeTruthy();
    expect(api.writes().map((call) => [call.method, call.path, call.body])).toEqual([
      ['PATCH', `/datasets/${dataset.id}/`, { description: 'Only the clean lines' }],
    ]);
    expect((onSaved.mock.calls[0]![0] as Dataset).description).toBe('Only the clean lines');
  });

  it('adds a set and names it in the notice; a taken name is told under the field', async () => {
    const { dataset, api, user } = openEdit('contributor');
    const modal = await dialog('Edit dataset');
    const field = within(modal).getByRole('textbox', { name: 'New set name' });
    await user.type(field, 'validation');
    await user.click(within(modal).getByRole('button', { name: 'Add set' }));
    expect(await screen.findByText('Dataset set created: validation')).toBeTruthy();
    expect(
      await within(modal).findByRole('textbox', { name: 'Name of set validation' }),
    ).toBeTruthy();

    await user.type(field, 'dev');
    await user.keyboard('{Enter}');
    expect(
      await within(modal).findByText('A set with this name already exists in this dataset.'),
    ).toBeTruthy();
    expect(api.writes().map((call) => [call.method, call.path, call.body])).toEqual([
      ['POST', `/datasets/${dataset.id}/sets/`, { name: 'validation' }],
      ['POST', `/datasets/${dataset.id}/sets/`, { name: 'dev' }],
    ]);
    // Enter in the set field adds the set; it does not save the whole modal.
    expect(screen.getByRole('dialog', { name: 'Edit dataset' })).toBeTruthy();
  });

  it('renames a set through the outbox', async () => {
    const { dataset, api, user } = openEdit('contributor');
    const modal = await dialog('Edit dataset');
    const dev = dataset.sets.find((set) => set.name === 'dev')!;
    const field = await editable(modal, 'dev');
    const rename = within(modal).getByRole('button', { name: 'Rename set dev' });
    expect((rename as HTMLButtonElement).disabled).toBe(true);
    await user.clear(field);
    await user.type(field, 'validation');
    await user.click(rename);
    expect(await screen.findByText('Dataset set updated')).toBeTruthy();
    await waitFor(() =>
      expect(api.writes().map((call) => [call.method, call.path, call.body])).toEqual([
        ['PATCH', `/datasets/${dataset.id}/sets/${dev.id}/`, { name: 'validation' }],
      ]),
    );
    expect(
      await within(modal).findByRole('textbox', { name: 'Name of set validation' }),
    ).toBeTruthy();
  });

  it("tells a set name the server refuses under that set's field", async () => {
    const { dataset, api, user } = openEdit('contributor');
    const modal = await dialog('Edit dataset');
    const field = await editable(modal, 'dev');
    await user.clear(field);
    await user.type(field, 'train{Enter}');
    expect(
      await within(modal).findByText('A set with this name already exists in this dataset.'),
    ).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('Dataset set updated')).toBeNull();
    expect(api.datasets[0]!.sets.map((set) => set.name)).toEqual(['dev', 'test', 'train']);
    expect(dataset.sets.map((set) => set.name)).toEqual(['dev', 'test', 'train']);
  });

  it('lets an admin delete a set once confirmed', async () => {
    const { dataset, api, user } = openEdit('admin');
    const modal = await dialog('Edit dataset');
    const test = dataset.sets.find((set) => set.name === 'test')!;
    const remove = within(modal).getByRole('button', { name: 'Delete set test' });
    await waitFor(() => expect(remove.getAttribute('aria-disabled')).toBeNull());
    await user.click(remove);
    const confirm = await screen.findByRole('dialog', { name: 'Delete set' });
    expect(api.writes()).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Dataset set deleted')).toBeTruthy();
    await waitFor(() =>
      expect(within(modal).queryByRole('textbox', { name: 'Name of set test' })).toBeNull(),
    );
    expect(api.writes().map((call) => `${call.method} ${call.path}`)).toEqual([
      `DELETE /datasets/${dataset.id}/sets/${test.id}/`,
    ]);
  });

  it('leaves deleting sets to admins, and never the only set', async () => {
    const contributor = openEdit('contributor');
    const modal = await dialog('Edit dataset');
    const remove = within(modal).getByRole('button', { name: 'Delete set dev' });
    expect(remove.getAttribute('title')).toBe(
      'You must be an administrator on the project to delete dataset sets',
    );
    await contributor.user.click(remove);
    expect(screen.queryByRole('dialog', { name: 'Delete set' })).toBeNull();
    expect(contributor.api.writes()).toEqual([]);
  });

  it('does not delete the only set', async () => {
    const { api, user } = openEdit('admin', { sets: ['train'] });
    const modal = await dialog('Edit dataset');
    const remove = within(modal).getByRole('button', { name: 'Delete set train' });
    await waitFor(() =>
      expect(remove.getAttribute('title')).toBe(
        'This is the only set in the dataset and cannot be deleted',
      ),
    );
    await user.click(remove);
    expect(api.writes()).toEqual([]);
  });

  it('changes no set of a dataset that is not open', async () => {
    const { api, user } = openEdit('admin', { state: 'complete' });
    const modal = await dialog('Edit dataset');
    const blocked = 'Only open datasets can be edited';
    const title = (name: string) =>
      within(modal).getByRole('button', { name }).getAttribute('title');
    await waitFor(() => expect(title('Rename set dev')).toBe(blocked));
    expect(title('Delete set dev')).toBe(blocked);
    expect(title('Add set')).toBe(blocked);
    await user.type(within(modal).getByRole('textbox', { name: 'New set name' }), 'extra{Enter}');
    await user.click(within(modal).getByRole('button', { name: 'Add set' }));
    expect(api.writes()).toEqual([]);
  });

  it('tells a guest a contributor creates sets and edits the dataset', async () => {
    const { api, user } = openEdit('guest');
    const modal = await dialog('Edit dataset');
    const add = within(modal).getByRole('button', { name: 'Add set' });
    await waitFor(() =>
      expect(add.getAttribute('title')).toBe(
        'You must be a contributor on the project to create a set',
      ),
    );
    expect(
      within(modal).getByRole('button', { name: 'Rename set dev' }).getAttribute('title'),
    ).toBe('You do not have the required rights to edit this dataset');
    expect(within(modal).getByRole('button', { name: 'Save' }).getAttribute('title')).toBe(
      'You do not have the required rights to edit this dataset',
    );
    await user.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(api.writes()).toEqual([]);
  });
});

it('an unverified account is asked to verify its e-mail before adding a set', async () => {
  const corpus = makeCorpus('admin');
  const dataset = makeDataset(corpus);
  fakeDatasetsApi({ corpus, datasets: [dataset] });
  renderModal(
    (close) => <DatasetFormModal corpusId={corpus.id} dataset={dataset} canAdmin onClose={close} />,
    makeUser({ verified_email: false }),
  );
  const modal = await dialog('Edit dataset');
  await waitFor(() =>
    expect(within(modal).getByRole('button', { name: 'Add set' }).getAttribute('title')).toBe(
      'Your email address should be verified',
    ),
  );
});

it('renames a set offline: shown at once, sent once the API answers again', async () => {
  const { dataset, api, user } = openEdit('contributor');
  const modal = await dialog('Edit dataset');
  const field = await editable(modal, 'test');
  connectivity.store.set({ online: false, checkedAt: null });
  await user.clear(field);
  await user.type(field, 'holdout{Enter}');
  expect(await screen.findByText('Dataset set updated')).toBeTruthy();
  expect(await within(modal).findByRole('textbox', { name: 'Name of set holdout' })).toBeTruthy();
  expect(api.writes()).toEqual([]);
  const queued = await localDb.outbox.toArray();
  expect(queued.map((entry) => entry.kind)).toEqual(['dataset.set.rename']);
  expect(dataset.sets.map((set) => set.name)).toEqual(['dev', 'test', 'train']);

  connectivity.store.set({ online: true, checkedAt: null });
  await syncScheduler.kick();
  const testSet = dataset.sets.find((set) => set.name === 'test')!;
  await waitFor(() =>
    expect(api.writes().map((call) => [call.method, call.path, call.body])).toEqual([
      ['PATCH', `/datasets/${dataset.id}/sets/${testSet.id}/`, { name: 'holdout' }],
    ]),
  );
});
