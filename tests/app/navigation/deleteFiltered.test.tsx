// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ElementListItem } from '@/api/types';
import { connectivity } from '@/offline/runtime';
import {
  apiError,
  fakeServer,
  isolateEachTest,
  json,
  makeCorpus,
  makeElement,
  makeUser,
  renderNavigation,
  type Handler,
} from './harness';

isolateEachTest();

const admin = makeCorpus({ rights: ['read', 'write', 'admin'] });

function folios(count: number): ElementListItem[] {
  return Array.from({ length: count }, (_, i) => makeElement({ name: `Folio ${i + 1}` }));
}

const deleteButton = () => screen.queryByRole('button', { name: 'Delete elements' });

/** Lists `elements` at `query`, the deletion answered by `answer`, and opens the modal. */
async function openDeletion(elements: ElementListItem[], query: string, answer: Handler) {
  const server = fakeServer({
    corpora: [admin],
    elements: { [admin.id]: elements },
    overrides: { [`DELETE /corpus/${admin.id}/elements/`]: answer },
  });
  const user = userEvent.setup();
  renderNavigation(`/browse/${admin.id}?${query}`, makeUser());
  await screen.findByRole('link', { name: elements[elements.length - 1]!.name });
  await user.click(deleteButton()!);
  const dialog = await screen.findByRole('dialog', { name: 'Delete filtered elements' });
  return { server, user, dialog };
}

describe('Delete filtered elements', () => {
  it('is only shown to verified project or site administrators', async () => {
    const writer = makeCorpus({ rights: ['read', 'write'] });
    const reader = makeCorpus({ rights: ['read'] });
    fakeServer({ corpora: [admin, writer, reader], elements: {} });

    renderNavigation(`/browse/${writer.id}?type=page`, makeUser());
    await screen.findByText('No elements to display.');
    expect(deleteButton()).toBeNull();
    cleanup();

    renderNavigation(`/browse/${admin.id}?type=page`, makeUser({ verified_email: false }));
    await screen.findByText('No elements to display.');
    expect(deleteButton()).toBeNull();
    cleanup();

    renderNavigation(`/browse/${reader.id}?type=page`, makeUser({ is_admin: true }));
    expect(await screen.findByRole('button', { name: 'Delete elements' })).toBeTruthy();
  });

  it('shows how many elements go, deletes them and says a job was started', async () => {
    const elements = folios(3);
    const server = fakeServer({
      corpora: [admin],
      elements: { [admin.id]: elements },
      overrides: { [`DELETE /corpus/${admin.id}/elements/`]: () => json(202, {}) },
    });
    const user = userEvent.setup();
    renderNavigation(`/browse/${admin.id}?type=page&name=Folio&page=1`, makeUser());
    await screen.findByRole('link', { name: 'Folio 3' });
    const listed = server.listCalls().length;
    await user.click(deleteButton()!);

    const dialog = await screen.findByRole('dialog', { name: 'Delete filtered elements' });
    expect(dialog.textContent).toContain('3 elements match these filters and will be deleted.');
    const filters = within(dialog).getByRole('list', { name: 'Filters of the deletion' });
    expect(
      within(filters)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Name: Folio', 'Type: Page']);
    await user.click(within(dialog).getByRole('button', { name: 'Delete 3 elements' }));

    expect(await screen.findByText('Elements deletion has been scheduled.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const deletion = server.calls.find((call) => call.method === 'DELETE')!;
    // The list's filters only: nothing that merely pages it.
    expect(Object.fromEntries(deletion.query)).toEqual({
      name: 'Folio',
      type: 'page',
      delete_children: 'true',
    });
    await waitFor(() => expect(server.listCalls().length).toBeGreaterThan(listed));
  });

  it('deletes at once without the children when asked, and the list shows it', async () => {
    const elements = folios(2);
    const { server, user, dialog } = await openDeletion(elements, 'type=page&page=1', () => {
      elements.splice(0);
      return json(204, null);
    });
    await user.click(within(dialog).getByLabelText('Also delete their children'));
    await user.click(within(dialog).getByRole('button', { name: 'Delete 2 elements' }));

    expect(await screen.findByText('Elements deleted.')).toBeTruthy();
    expect(await screen.findByText('No elements to display.')).toBeTruthy();
    const deletion = server.calls.find((call) => call.method === 'DELETE')!;
    expect(deletion.query.get('delete_children')).toBe('false');
  });

  it('is only enabled with filters the deletion can apply', async () => {
    fakeServer({ corpora: [admin], elements: { [admin.id]: folios(2) } });
    const user = userEvent.setup();
    renderNavigation(`/browse/${admin.id}?page=1`, makeUser());
    await screen.findByRole('link', { name: 'Folio 1' });
    expect(deleteButton()!.getAttribute('aria-disabled')).toBe('true');
    expect(deleteButton()!.title).toBe('Add a filter to choose the elements to delete');
    await user.click(deleteButton()!);
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    renderNavigation(`/browse/${admin.id}?type=page&recursive=true`, makeUser());
    await screen.findByRole('link', { name: 'Folio 1' });
    expect(deleteButton()!.title).toBe('Elements cannot be deleted with this filter: Recursive');
  });

  it('is disabled when nothing matches', async () => {
    fakeServer({ corpora: [admin], elements: { [admin.id]: [] } });
    renderNavigation(`/browse/${admin.id}?type=page`, makeUser());
    await screen.findByText('No elements to display.');
    expect(deleteButton()!.title).toBe('No elements to delete');
  });

  it("shows a 400's filter errors in the modal with the filter's label", async () => {
    const { user, dialog } = await openDeletion(folios(1), 'type=page', () =>
      apiError(400, [{ attr: 'type', detail: "Type 'page' not found." }]),
    );
    expect(dialog.textContent).toContain('1 element matches these filters');
    await user.click(within(dialog).getByRole('button', { name: 'Delete 1 element' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      "Type: Type 'page' not found.",
    );
  });

  it('reports a refusal in a notification', async () => {
    const { user, dialog } = await openDeletion(folios(1), 'type=page', () =>
      apiError(403, [
        { attr: null, detail: 'You must verify your email address to perform this action.' },
      ]),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete 1 element' }));
    expect(
      await screen.findByText(
        'An error occurred while deleting the elements: You must verify your email address to perform this action.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Delete filtered elements offline', () => {
  it('says the deletion needs the network instead of opening it', async () => {
    const elements = folios(2);
    const server = fakeServer({ corpora: [admin], elements: { [admin.id]: elements } });
    const user = userEvent.setup();
    renderNavigation(`/browse/${admin.id}?type=page`, makeUser());
    await screen.findByRole('link', { name: 'Folio 2' }, { timeout: 5000 });
    act(() => connectivity.store.set({ online: false, checkedAt: Date.now() }));

    const button = deleteButton()!;
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('title')).toBe('Needs the network');
    await user.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.calls.filter((call) => call.method === 'DELETE')).toEqual([]);
  });
});
