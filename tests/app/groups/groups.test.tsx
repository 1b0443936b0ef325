// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ada,
  alan,
  fakeGroupsServer,
  grace,
  isolateEachTest,
  makeGroup,
  member,
  renderGroups,
} from './harness';

// The real module registers a service worker through a Vite virtual module.
vi.mock('@/app/serviceWorker', async () => {
  const { createStore } = await import('@/lib/store');
  return {
    updateAvailable: createStore(false),
    applyUpdate: vi.fn(),
    registerServiceWorker: () => {},
  };
});

// The first page of a run waits for the route modules to load, slow on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

isolateEachTest();

const membersTable = () => screen.getByRole('table', { name: /^Members of/ });
const memberNames = () =>
  within(membersTable())
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);

describe('the profile page', () => {
  it("lists the user's groups, each linked to its page", async () => {
    fakeGroupsServer([
      makeGroup('Transcribers', [member(ada, 100), member(grace, 10)]),
      makeGroup('Archivists', [member(ada, 10)]),
      makeGroup('Not mine', [member(grace, 100)]),
    ]);
    renderGroups('/user/profile');
    const list = await screen.findByRole('list', { name: 'Your groups' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Archivists', 'Transcribers']);
    expect(within(list).getByText('Admin · 2 members')).toBeTruthy();
    expect(within(list).getByText('Member · 1 member')).toBeTruthy();
    expect(links[1]!.getAttribute('href')).toMatch(/^\/group\/[0-9a-f-]{36}$/);
  });

  it('creates a group and opens its page', async () => {
    const server = fakeGroupsServer([]);
    const { router } = renderGroups('/user/profile');
    await screen.findByText('You are not a member of any group.');
    const create = screen.getByRole('button', { name: 'Create group' });
    expect(create.hasAttribute('disabled')).toBe(true);
    await userEvent.type(screen.getByRole('textbox', { name: 'New group name' }), ' Scribes ');
    await userEvent.click(create);
    await screen.findByRole('heading', { name: 'Scribes', level: 1 });
    expect(server.callsTo('POST', '/groups/')[0]!.body).toEqual({ name: 'Scribes' });
    expect(router.state.location.pathname).toBe(`/group/${server.stored[0]!.id}`);
    expect(await screen.findByText('The group Scribes was created.')).toBeTruthy();
  });

  it('shows no groups outside the enterprise edition', async () => {
    const server = fakeGroupsServer([makeGroup('Transcribers', [member(ada, 100)])]);
    renderGroups('/user/profile', { enterprise: false });
    await screen.findByRole('heading', { name: 'Profile' });
    expect(screen.queryByRole('heading', { name: 'Groups' })).toBeNull();
    expect(server.callsTo('GET', '/groups/')).toEqual([]);
  });
});

describe('the group page', () => {
  it('shows the members and projects, and lets its admin rename it', async () => {
    const group = makeGroup('Transcribers', [member(ada, 100), member(grace, 10)], ['Letters']);
    fakeGroupsServer([group]);
    renderGroups(`/group/${group.id}`);
    await screen.findByRole('heading', { name: 'Transcribers', level: 1 });
    await waitFor(() => expect(memberNames()).toEqual(['Ada Lovelace(you)', 'Grace Hopper']));
    const projects = screen.getByRole('region', { name: 'Projects' });
    expect(await within(projects).findByRole('link', { name: 'Letters' })).toBeTruthy();
    expect(within(projects).getByText('Contributor')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Proofreaders');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('heading', { name: 'Proofreaders', level: 1 });
  });

  it('adds a member by e-mail, says when nobody has it, and changes a role', async () => {
    const group = makeGroup('Transcribers', [member(ada, 100)]);
    const server = fakeGroupsServer([group]);
    renderGroups(`/group/${group.id}`);
    const email = await screen.findByRole('textbox', { name: 'E-mail address' });
    await userEvent.type(email, 'nobody@example.org');
    await userEvent.click(screen.getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('No user with this email address exists.')).toBeTruthy();

    await userEvent.clear(email);
    await userEvent.type(email, 'alan@example.org');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'Admin');
    await userEvent.click(screen.getByRole('button', { name: 'Add member' }));
    await waitFor(() => expect(memberNames()).toContain('Alan Turing'));
    expect(server.callsTo('POST', `/group/${group.id}/members/`).at(-1)!.body).toEqual({
      user_email: 'alan@example.org',
      level: 100,
    });

    const role = screen.getByRole('combobox', { name: 'Role of Alan Turing' });
    await userEvent.selectOptions(role, 'Member');
    await screen.findByText('Alan Turing is now member of the group.');
    expect(group.members.find((m) => m.user.id === alan.id)!.level).toBe(10);
  });

  it('tells the last admin they cannot step down, and removes a member after asking', async () => {
    const group = makeGroup('Transcribers', [member(ada, 100), member(grace, 10)]);
    fakeGroupsServer([group]);
    renderGroups(`/group/${group.id}`);
    const mine = await screen.findByRole('combobox', { name: 'Role of Ada Lovelace' });
    await userEvent.selectOptions(mine, 'Member');
    expect(await screen.findByText('A group must keep at least one admin.')).toBeTruthy();
    await waitFor(() => expect((mine as HTMLSelectElement).value).toBe('100'));

    await userEvent.click(screen.getByRole('button', { name: 'Remove Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(dialog.textContent).toContain('grace@example.org');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(memberNames()).toEqual(['Ada Lovelace(you)']));
  });

  it('lets a member see it and leave it, without managing it', async () => {
    const group = makeGroup('Transcribers', [member(grace, 100), member(ada, 10)]);
    fakeGroupsServer([group]);
    const { router } = renderGroups(`/group/${group.id}`);
    await screen.findByText('You are a member of this group · 2 members');
    const leave = await screen.findByRole('button', { name: 'Leave the group' });
    expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete group' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Add a member' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Role of Grace Hopper' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Grace Hopper' })).toBeNull();

    await userEvent.click(leave);
    const dialog = await screen.findByRole('dialog', { name: 'Leave the group' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'));
    expect(group.members.map((m) => m.user.id)).toEqual([grace.id]);
  });

  it('is deleted by its admin after a confirmation', async () => {
    const group = makeGroup('Transcribers', [member(ada, 100)]);
    const server = fakeGroupsServer([group]);
    const { router } = renderGroups(`/group/${group.id}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete a group' });
    expect(dialog.textContent).toContain('Are you sure you want to delete the group Transcribers?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'));
    expect(server.stored).toEqual([]);
    expect(await screen.findByText('The group Transcribers was deleted.')).toBeTruthy();
  });

  it('says a group the user is not in could not be loaded', async () => {
    const group = makeGroup('Hidden', [member(grace, 100)]);
    fakeGroupsServer([group]);
    renderGroups(`/group/${group.id}`);
    expect(await screen.findByText('The group could not be loaded: Not found.')).toBeTruthy();
  });
});
