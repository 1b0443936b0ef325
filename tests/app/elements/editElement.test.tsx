// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Element } from '@/api/types';
import {
  apiError,
  elementsApi,
  json,
  makeCorpus,
  makeElement,
  makeUser,
  ref,
  type Handler,
} from '../support/elementsApi';
import { isolateElementPageTests } from '../support/elementPage';
import { menuEntry, openElement, openElementModal } from '../support/elementMenu';

isolateElementPageTests();

type Rights = ('read' | 'write' | 'admin')[];
type Overrides = Record<string, Handler>;

/** An act in its volume behind the element endpoints; `answers` replace the fake's for the act. */
function actInVolume(
  rights: Rights = ['read', 'write', 'admin'],
  answers: (act: Element) => Overrides = () => ({}),
) {
  const corpus = makeCorpus({ rights });
  const volume = makeElement(corpus, { name: 'Volume 1', type: 'folder' });
  const act = makeElement(corpus, { name: 'Act of sale', type: 'act' });
  const neighbours = {
    [act.id]: [{ path: [ref(volume)], ordering: 0, previous: null, next: null }],
  };
  const api = elementsApi({ corpus, elements: [volume, act], neighbours, overrides: answers(act) });
  return { volume, act, api };
}

/** PATCH /element/{id}/ as the API answers it: the changes saved. */
function saves(act: Element): Overrides {
  return {
    [`PATCH /element/${act.id}/`]: (call) => {
      Object.assign(act, call.body);
      return json(200, act);
    },
  };
}

describe('Element edit modal', () => {
  it('sends only what changed and shows the new name at once', async () => {
    const { act, api } = actInVolume(undefined, saves);
    const { user, dialog } = await openElementModal(act.id, 'Edit element');

    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    // Spec 001 §5: an update needs a changed name or type.
    expect(save.disabled).toBe(true);
    expect(save.title).toBe('Change the name or the type to save.');
    expect((within(dialog).getByLabelText('Type') as HTMLSelectElement).value).toBe('act');

    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Deed of sale');
    await user.click(save);

    expect(await screen.findByRole('heading', { name: 'Deed of sale' })).toBeTruthy();
    expect(await screen.findByText('Element updated.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const patches = api.calls.filter((call) => call.method === 'PATCH');
    expect(patches.map((call) => call.body)).toEqual([{ name: 'Deed of sale' }]);
  });

  it('changes the type alone', async () => {
    const { act, api } = actInVolume(['read', 'write'], saves);
    const { user, dialog } = await openElementModal(act.id, 'Edit element');
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Page');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.find((call) => call.method === 'PATCH')?.body).toEqual({ type: 'page' });
    expect(await screen.findByText('Page')).toBeTruthy();
  });

  it("says 'A type is required' and sends nothing without a type", async () => {
    const { act, api } = actInVolume();
    const { user, dialog } = await openElementModal(act.id, 'Edit element');
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Choose a type');
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('A type is required')).toBeTruthy();
    expect(within(dialog).getByText('A name is required')).toBeTruthy();
    expect(api.calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it("shows a 400's field errors under their fields and keeps the modal open", async () => {
    const { act } = actInVolume(undefined, (act) => ({
      [`PATCH /element/${act.id}/`]: () =>
        json(400, {
          type: 'validation_error',
          errors: [{ code: 'does_not_exist', detail: "Type 'act' not found.", attr: 'type' }],
        }),
    }));
    const { user, dialog } = await openElementModal(act.id, 'Edit element');
    await user.type(within(dialog).getByLabelText('Name'), ' (copy)');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText("Type 'act' not found.")).toBeTruthy();
    expect(within(dialog).getByLabelText('Type').getAttribute('aria-invalid')).toBe('true');
  });

  it('reports other failures with the spec message', async () => {
    const { act } = actInVolume(undefined, (act) => ({
      [`PATCH /element/${act.id}/`]: () => apiError(403, 'Database unavailable'),
    }));
    const { user, dialog } = await openElementModal(act.id, 'Edit element');
    await user.type(within(dialog).getByLabelText('Name'), '!');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const text = 'An error occurred while updating the element: Database unavailable';
    expect(await within(dialog).findByText(text)).toBeTruthy();
    expect(screen.getAllByText(text)).toHaveLength(2);
  });

  it('is closed to users without a write right', async () => {
    const { act } = actInVolume(['read']);
    const user = userEvent.setup();
    openElement(act.id);
    const edit = await menuEntry(user, 'Elements', 'Edit element');
    expect(edit.getAttribute('aria-disabled')).toBe('true');
    expect(edit.getAttribute('title')).toBe('You must have a contributor access to this project');
    const create = screen.getByRole('menuitem', { name: 'Create sub-element' });
    expect(create.getAttribute('aria-disabled')).toBe('true');
  });
});

describe('Deleting an element', () => {
  it('needs an admin right for the Delete button of the edit modal', async () => {
    const { act, api } = actInVolume(['read', 'write']);
    const { user, dialog } = await openElementModal(act.id, 'Edit element');
    const remove = within(dialog).getByRole('button', { name: 'Delete' });
    expect(remove.getAttribute('aria-disabled')).toBe('true');
    expect(remove.title).toBe('You must have an admin access to this project');
    await user.click(remove);
    expect(screen.getByRole('dialog', { name: 'Edit element' })).toBeTruthy();
    expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false);
  });

  it('needs a verified e-mail too', async () => {
    const { act } = actInVolume();
    const user = userEvent.setup();
    openElement(act.id, makeUser({ verified_email: false }));
    const entry = await menuEntry(user, 'Elements', 'Delete element');
    expect(entry.getAttribute('title')).toBe('Your email address should be verified');
  });

  it('deletes from the edit modal with its children, then opens the parent', async () => {
    const { volume, act, api } = actInVolume(undefined, (act) => ({
      [`DELETE /element/${act.id}/`]: () => json(204, null),
    }));
    const { user, dialog: edit, router } = await openElementModal(act.id, 'Edit element');
    await user.click(within(edit).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete element' });
    expect(confirm.textContent).toContain('Are you sure you want to delete Act of sale?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/element/${volume.id}`));
    expect(await screen.findByText('Element deleted.')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Volume 1' })).toBeTruthy();
    const deletion = api.calls.find((call) => call.method === 'DELETE')!;
    expect(deletion.query.get('delete_children')).toBe('true');
    // The deleted element is not asked for again.
    const reads = api.calls.filter((call) => call.path === `/element/${act.id}/`);
    expect(reads.map((call) => call.method)).toEqual(['GET', 'DELETE']);
  });

  it('says a scheduled deletion is scheduled and opens the project without a parent', async () => {
    const corpus = makeCorpus();
    const act = makeElement(corpus, { name: 'Loose act', type: 'act' });
    const api = elementsApi({
      corpus,
      elements: [act],
      overrides: { [`DELETE /element/${act.id}/`]: () => json(202, {}) },
    });
    const { user, dialog: confirm, router } = await openElementModal(act.id, 'Delete element');
    await user.click(within(confirm).getByLabelText('Also delete its children'));
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/browse/${corpus.id}`));
    expect(await screen.findByText('Element deletion has been scheduled.')).toBeTruthy();
    const deletion = api.calls.find((call) => call.method === 'DELETE')!;
    expect(deletion.query.get('delete_children')).toBe('false');
  });

  it('reports a failed deletion and stays on the element', async () => {
    const { act } = actInVolume(undefined, (act) => ({
      [`DELETE /element/${act.id}/`]: () =>
        apiError(403, 'You do not have an admin right on this project.'),
    }));
    const { user, dialog: confirm, router } = await openElementModal(act.id, 'Delete element');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText(
        'An error occurred while deleting the element: You do not have an admin right on this project.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe(`/element/${act.id}`);
  });
});
