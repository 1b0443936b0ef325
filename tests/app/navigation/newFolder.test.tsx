// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ElementListItem } from '@/api/types';
import {
  TYPES,
  apiError,
  fakeServer,
  isolateEachTest,
  json,
  makeCorpus,
  makeElement,
  makeUser,
  renderNavigation,
  uuid,
  type Call,
} from './harness';

isolateEachTest();

const writer = ['read', 'write'] as const;

async function newFolderButton() {
  return screen.findByRole('button', { name: 'New folder' });
}

describe('New folder on the navigation page', () => {
  it('creates a top-level folder and shows it in the list at once', async () => {
    const corpus = makeCorpus({ rights: [...writer] });
    const elements: ElementListItem[] = [makeElement({ type: 'folder', name: 'Box A' })];
    const server = fakeServer({
      corpora: [corpus],
      elements: { [corpus.id]: elements },
      overrides: {
        'POST /elements/create/': (call: Call) => {
          const body = call.body as { name: string; type: string };
          const folder = makeElement({ id: uuid(), name: body.name, type: body.type });
          elements.push(folder);
          return json(201, folder);
        },
      },
    });
    const user = userEvent.setup();
    renderNavigation(`/browse/${corpus.id}?folder=true&top_level=true`, makeUser());
    await screen.findByRole('link', { name: 'Box A' });
    await user.click(await newFolderButton());
    const dialog = await screen.findByRole('dialog', { name: 'New folder' });

    // Two folder types: none is chosen for the user.
    const type = within(dialog).getByLabelText('Type') as HTMLSelectElement;
    expect(type.value).toBe('');
    expect(
      within(type)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose a type', 'Folder', 'Volume']);
    await user.type(within(dialog).getByLabelText('Name'), 'Register 2');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('A type is required')).toBeTruthy();
    expect(server.calls.some((call) => call.method === 'POST')).toBe(false);

    await user.selectOptions(type, 'Volume');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Folder "Register 2" created.')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Register 2' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    // Top level: no parent is sent.
    expect(server.calls.find((call) => call.method === 'POST')!.body).toEqual({
      corpus: corpus.id,
      type: 'volume',
      name: 'Register 2',
    });
  });

  it('preselects the only folder type of a project', async () => {
    const corpus = makeCorpus({
      rights: [...writer],
      types: TYPES.filter((type) => type.slug !== 'volume'),
    });
    fakeServer({ corpora: [corpus], elements: { [corpus.id]: [] } });
    const user = userEvent.setup();
    renderNavigation(`/browse/${corpus.id}?folder=true`, makeUser());
    await user.click(await newFolderButton());
    const dialog = await screen.findByRole('dialog', { name: 'New folder' });
    expect((within(dialog).getByLabelText('Type') as HTMLSelectElement).value).toBe('folder');
  });

  it("shows a 400's name error in the modal", async () => {
    const corpus = makeCorpus({ rights: [...writer] });
    fakeServer({
      corpora: [corpus],
      elements: { [corpus.id]: [] },
      overrides: {
        'POST /elements/create/': () =>
          apiError(400, [
            { attr: 'name', detail: 'Ensure this field has no more than 250 characters.' },
          ]),
      },
    });
    const user = userEvent.setup();
    renderNavigation(`/browse/${corpus.id}?folder=true`, makeUser());
    await user.click(await newFolderButton());
    const dialog = await screen.findByRole('dialog', { name: 'New folder' });
    await user.type(within(dialog).getByLabelText('Name'), 'Long name');
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Folder');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(
      await within(dialog).findByText('Ensure this field has no more than 250 characters.'),
    ).toBeTruthy();
    expect(screen.queryByText(/An error occurred while creating the folder/)).toBeNull();
  });

  it('says why it is not offered: contributor access, then a verified e-mail', async () => {
    const readOnly = makeCorpus({ rights: ['read'] });
    const writable = makeCorpus({ rights: [...writer] });
    fakeServer({ corpora: [readOnly, writable], elements: {} });
    const user = userEvent.setup();
    renderNavigation(`/browse/${readOnly.id}?folder=true`, null);
    const button = await newFolderButton();
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.title).toBe('You must have a contributor access to this project');
    await user.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    renderNavigation(`/browse/${writable.id}?folder=true`, makeUser({ verified_email: false }));
    await waitFor(async () =>
      expect((await newFolderButton()).title).toBe('Your email address should be verified'),
    );
  });

  it('needs a folder type in the project', async () => {
    const corpus = makeCorpus({
      rights: [...writer],
      types: TYPES.filter((type) => !type.folder),
    });
    fakeServer({ corpora: [corpus], elements: {} });
    renderNavigation(`/browse/${corpus.id}?type=page`, makeUser());
    expect((await newFolderButton()).title).toBe('This project has no folder type');
  });
});
