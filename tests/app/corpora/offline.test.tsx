// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CreateCorpusPage } from '@/features/corpora/CreateCorpusPage';
import { EditCorpusPage } from '@/features/corpora/EditCorpusPage';
import { connectivity } from '@/offline/runtime';
import {
  fakeServer,
  isolateEachTest,
  makeCorpus,
  makeMembership,
  makeUser,
  renderPage,
} from './harness';

const me = makeUser({ display_name: 'Ada Lovelace' });
const grace = {
  id: 'a1b2c3d4-0000-4000-8000-000000000011',
  email: 'grace@example.org',
  display_name: 'Grace Hopper',
};

isolateEachTest();

function goOffline(online = false) {
  act(() => connectivity.store.set({ online, checkedAt: Date.now() }));
}

/** Unavailable, saying why, yet still focusable so the reason can be read. */
function expectBlocked(button: HTMLElement) {
  expect(button.getAttribute('aria-disabled')).toBe('true');
  expect(button.getAttribute('title')).toBe('Needs the network');
}

describe('Creating a project offline', () => {
  it('says before trying that it needs the network, sends nothing, and creates once back online', async () => {
    const server = fakeServer();
    renderPage({ path: '/corpus/new', url: '/corpus/new', page: CreateCorpusPage, user: me });
    const name = await screen.findByRole('textbox', { name: /Name/ });
    await userEvent.type(name, 'Letters');
    goOffline();

    expect(
      screen.getByText('You are offline. Connect to the network to create the project.'),
    ).toBeTruthy();
    const create = screen.getByRole('button', { name: 'Create' });
    expectBlocked(create);
    await userEvent.click(create);
    await userEvent.type(name, '{Enter}');
    expect(server.callsTo('POST', '/corpus/')).toHaveLength(0);
    expect(screen.queryByRole('alert')).toBeNull();

    goOffline(true);
    expect(screen.queryByText(/You are offline/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(server.callsTo('POST', '/corpus/')).toHaveLength(1));
  });
});

describe('Project settings offline', () => {
  it('keep every change for the network: details, members, deletion', async () => {
    const corpus = makeCorpus({ name: 'Letters' });
    const server = fakeServer({
      corpora: [corpus],
      members: { [corpus.id]: [makeMembership(me, 100), makeMembership(grace, 50)] },
      accounts: [grace],
    });
    renderPage({
      path: '/corpus/$corpusId',
      url: `/corpus/${corpus.id}`,
      page: () => <EditCorpusPage corpusId={corpus.id} />,
      user: me,
    });
    await screen.findByRole('combobox', { name: 'Role of Grace Hopper' }, { timeout: 5000 });
    goOffline();

    expect(
      screen.getByText(
        "You are offline. Connect to the network to change the project's details, members or deletion.",
      ),
    ).toBeTruthy();
    const save = screen.getByRole('button', { name: 'Save' });
    expectBlocked(save);
    await userEvent.click(save);

    const members = within(screen.getByRole('region', { name: 'Members' }));
    await userEvent.type(members.getByRole('textbox', { name: 'E-mail address' }), 'x@example.org');
    const add = members.getByRole('button', { name: 'Add member' });
    expectBlocked(add);
    await userEvent.click(add);
    const role = members.getByRole('combobox', { name: 'Role of Grace Hopper' });
    expect((role as HTMLSelectElement).disabled).toBe(true);
    expect(role.getAttribute('title')).toBe('Needs the network');
    const remove = members.getByRole('button', { name: 'Remove Grace Hopper' });
    expectBlocked(remove);
    await userEvent.click(remove);

    const deletion = screen.getByRole('button', { name: 'Delete this project' });
    expectBlocked(deletion);
    await userEvent.click(deletion);

    expect(screen.queryByRole('dialog')).toBeNull();
    const writes = server.calls.filter((call) => call.method !== 'GET');
    expect(writes).toEqual([]);
  });
});
