// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import '../shell/domStubs';
import { describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route as rootRoute } from '@/routes/__root';
import { Route as adminRoute } from '@/routes/admin/route';
import { Route as adminUsersRoute } from '@/routes/admin/index';
import { Route as adminProjectsRoute } from '@/routes/admin/projects/index';
import { Route as adminProjectRoute } from '@/routes/admin/projects/$corpusId';
import type { AllowedMetadata, User } from '@/api/types';
import type { AdminCorpus, AdminUser } from '@/features/admin/api';
import { connectivity } from '@/offline/runtime';
import {
  APP_STALE_TIME,
  apiError,
  corpusWith,
  idSequence,
  isolateEachTest,
  json,
  makeInfo,
  pageOf,
  renderRoutes,
  stubFetch,
  userWith,
  type Call,
} from '../support/harness';

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

const uuid = idSequence('a000');
const info = makeInfo();

// The admin route files as the route generator wires them under the app's root.
const admin = adminRoute.update({
  id: '/admin',
  path: '/admin',
  getParentRoute: () => rootRoute,
} as never);
const routeTree = rootRoute.addChildren([
  admin.addChildren([
    adminUsersRoute.update({ id: '/', path: '/', getParentRoute: () => admin } as never),
    adminProjectsRoute.update({
      id: '/projects/',
      path: '/projects/',
      getParentRoute: () => admin,
    } as never),
    adminProjectRoute.update({
      id: '/projects/$corpusId',
      path: '/projects/$corpusId',
      getParentRoute: () => admin,
    } as never),
  ]),
]);

function adminUser(fields: Partial<AdminUser> & Pick<AdminUser, 'email' | 'display_name'>) {
  return {
    id: uuid(),
    is_admin: false,
    is_active: true,
    verified_email: true,
    can_manage_workers: false,
    has_usable_password: true,
    created: '2024-05-01T10:00:00Z',
    last_login: null,
    ...fields,
  } satisfies AdminUser;
}

const me = adminUser({ email: 'ada@example.org', display_name: 'Ada Lovelace', is_admin: true });
const meAsUser: User = userWith(me.id, { is_admin: true });

/** The admin routes of the server, with its rules: search, paging, no change to oneself. */
function fakeServer(users: AdminUser[], corpora: AdminCorpus[] = []) {
  const allowed: Record<string, AllowedMetadata[]> = {};
  const link = (path: string) => (page: number) => `http://localhost/api/v1${path}?page=${page}`;
  const server = stubFetch((call: Call) => {
    const page = Number(call.query.get('page') ?? '1');
    const search = (call.query.get('search') ?? '').toLowerCase();
    if (call.method === 'GET' && call.path === '/admin/users/') {
      const found = users.filter((user) =>
        `${user.email} ${user.display_name}`.toLowerCase().includes(search),
      );
      return json(200, pageOf(found, page, 20, link(call.path)));
    }
    const userMatch = /^\/admin\/users\/([^/]+)\/$/.exec(call.path);
    if (call.method === 'PATCH' && userMatch) {
      const index = users.findIndex((user) => user.id === userMatch[1]);
      const changes = call.body as Partial<AdminUser>;
      if (users[index]!.id === me.id && changes.is_admin === false) {
        return apiError(400, [
          { attr: 'is_admin', detail: 'You cannot remove your own admin rights.' },
        ]);
      }
      users[index] = { ...users[index]!, ...changes };
      return json(200, users[index]);
    }
    if (call.method === 'GET' && call.path === '/admin/corpora/') {
      const found = corpora.filter((corpus) => corpus.name.toLowerCase().includes(search));
      return json(200, pageOf(found, page, 20, link(call.path)));
    }
    const corpusMatch = /^\/corpus\/([^/]+)\/$/.exec(call.path);
    const corpus = corpora.find((item) => item.id === corpusMatch?.[1]);
    if (call.method === 'GET' && corpus) {
      return json(
        200,
        corpusWith({
          id: corpus.id,
          name: corpus.name,
          public: corpus.public,
          rights: ['read', 'write', 'admin'],
          types: [
            { id: uuid(), slug: 'page', display_name: 'Page', folder: false, color: 'c64f3d' },
          ],
        }),
      );
    }
    const allowedMatch = /^\/corpus\/([^/]+)\/allowed-metadata\/(?:([^/]+)\/)?$/.exec(call.path);
    if (allowedMatch) {
      const list = (allowed[allowedMatch[1]!] ??= []);
      if (call.method === 'GET') return json(200, pageOf(list, page, 20, link(call.path)));
      if (call.method === 'POST') {
        const entry = { id: uuid(), ...(call.body as { name: string; type: string }) };
        if (list.some((item) => item.name === entry.name && item.type === entry.type)) {
          return apiError(400, [
            { attr: null, detail: 'This metadata name and type are already allowed.' },
          ]);
        }
        list.push(entry);
        return json(201, entry);
      }
      if (call.method === 'DELETE') {
        list.splice(
          list.findIndex((item) => item.id === allowedMatch[2]),
          1,
        );
        return json(204, null);
      }
    }
    return apiError(500, [{ attr: null, detail: `Unexpected ${call.method} ${call.path}` }]);
  });
  return { ...server, allowed };
}

function renderAdmin(url: string, user: User | null = meAsUser) {
  return renderRoutes(routeTree as never, {
    url,
    info,
    user,
    staleTime: APP_STALE_TIME,
    wrap: (ui) => ui,
  });
}

async function rowOf(name: string) {
  const cell = await screen.findByRole('cell', { name: new RegExp(`^${name}`) });
  return within(cell.closest('tr')!);
}

isolateEachTest();

describe('the Admin page', () => {
  it('opens from the user menu of a site admin, on the list of users', async () => {
    const server = fakeServer([me]);
    const { router } = renderRoutes(routeTree as never, {
      url: '/admin/projects/',
      info,
      user: meAsUser,
    });
    await screen.findByRole('heading', { name: 'Projects', level: 2 });
    await userEvent.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Admin' }));
    await screen.findByRole('heading', { name: 'Users', level: 2 });
    expect(router.state.location.pathname).toBe('/admin/');
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
    expect(server.callsTo('GET', '/admin/users/')).toHaveLength(1);
  });

  it('is Page not found for a user who is not a site admin, and asks the server nothing', async () => {
    const server = fakeServer([me]);
    renderRoutes(routeTree as never, {
      url: '/admin/',
      info,
      user: userWith(uuid(), { is_admin: false }),
    });
    await screen.findByRole('heading', { name: 'Page not found' });
    expect(screen.queryByRole('heading', { name: 'Users' })).toBeNull();
    expect(server.calls.filter((call) => call.path.startsWith('/admin/'))).toEqual([]);
  });

  it('sends an anonymous visitor to log in first', async () => {
    fakeServer([me]);
    const { router } = renderRoutes(routeTree as never, { url: '/admin/', info, user: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(router.state.location.search).toEqual({ next: '/admin/' });
  });
});

describe('users', () => {
  it('searches by e-mail or name through the address', async () => {
    const server = fakeServer([
      me,
      adminUser({ email: 'grace@example.org', display_name: 'Grace Hopper' }),
    ]);
    const { router } = renderAdmin('/admin/');
    await rowOf('Grace Hopper');
    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search by e-mail or name' }),
      'GRACE',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: /^Ada Lovelace/ })).toBeNull());
    expect(router.state.location.search).toEqual({ search: 'GRACE' });
    expect(server.calls.at(-1)?.query.get('search')).toBe('GRACE');
    expect(screen.getByRole('cell', { name: 'Grace Hopper' })).toBeTruthy();

    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search by e-mail or name' }));
    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search by e-mail or name' }),
      'nobody',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No user matches this search.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lets a user manage workers, and takes that right back', async () => {
    const linus = adminUser({ email: 'linus@example.org', display_name: 'Linus Pauling' });
    const server = fakeServer([me, linus]);
    renderAdmin('/admin/');
    const row = await rowOf('Linus Pauling');
    expect(row.queryByText('Worker manager')).toBeNull();
    await userEvent.click(row.getByRole('button', { name: 'Let manage workers: Linus Pauling' }));
    expect(await screen.findByText('Linus Pauling can now publish workers.')).toBeTruthy();
    await (await rowOf('Linus Pauling')).findByText('Worker manager');
    await userEvent.click(
      (await rowOf('Linus Pauling')).getByRole('button', {
        name: 'Stop managing workers: Linus Pauling',
      }),
    );
    expect(await screen.findByText('Linus Pauling can no longer publish workers.')).toBeTruthy();
    await waitFor(async () =>
      expect((await rowOf('Linus Pauling')).queryByText('Worker manager')).toBeNull(),
    );
    expect(server.callsTo('PATCH', `/admin/users/${linus.id}/`).map((call) => call.body)).toEqual([
      { can_manage_workers: true },
      { can_manage_workers: false },
    ]);
  });

  it('makes a user admin, marks an e-mail verified, and deactivates after confirmation', async () => {
    const grace = adminUser({
      email: 'grace@example.org',
      display_name: 'Grace Hopper',
      verified_email: false,
    });
    const server = fakeServer([me, grace]);
    renderAdmin('/admin/');
    const row = await rowOf('Grace Hopper');
    expect(row.getByText('Unverified')).toBeTruthy();

    await userEvent.click(row.getByRole('button', { name: 'Make admin: Grace Hopper' }));
    expect(await screen.findByText('Grace Hopper is now a site administrator.')).toBeTruthy();
    await (await rowOf('Grace Hopper')).findByText('Admin');

    await userEvent.click(
      (await rowOf('Grace Hopper')).getByRole('button', {
        name: 'Mark e-mail verified: Grace Hopper',
      }),
    );
    await (await rowOf('Grace Hopper')).findByText('Verified');

    await userEvent.click(
      (await rowOf('Grace Hopper')).getByRole('button', { name: 'Deactivate: Grace Hopper' }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Deactivate user' }));
    expect(dialog.getByText(/will no longer be able to log in/)).toBeTruthy();
    expect(server.callsTo('PATCH', `/admin/users/${grace.id}/`)).toHaveLength(2);
    await userEvent.click(dialog.getByRole('button', { name: 'Deactivate' }));
    await (await rowOf('Grace Hopper')).findByText('Deactivated');
    expect(server.callsTo('PATCH', `/admin/users/${grace.id}/`).map((call) => call.body)).toEqual([
      { is_admin: true },
      { verified_email: true },
      { is_active: false },
    ]);

    await userEvent.click(
      (await rowOf('Grace Hopper')).getByRole('button', { name: 'Reactivate: Grace Hopper' }),
    );
    await waitFor(async () =>
      expect((await rowOf('Grace Hopper')).queryByText('Deactivated')).toBeNull(),
    );
  });

  it('does not let an admin remove their own right or deactivate themselves, and says why', async () => {
    const server = fakeServer([me]);
    renderAdmin('/admin/');
    const row = await rowOf('Ada Lovelace');
    const unadmin = row.getByRole('button', { name: 'Remove admin: Ada Lovelace' });
    const deactivate = row.getByRole('button', { name: 'Deactivate: Ada Lovelace' });
    expect(unadmin.getAttribute('aria-disabled')).toBe('true');
    expect(unadmin.getAttribute('title')).toBe('You cannot remove your own admin rights.');
    expect(deactivate.getAttribute('title')).toBe('You cannot deactivate your own account.');
    await userEvent.click(unadmin);
    await userEvent.click(deactivate);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.calls.filter((call) => call.method === 'PATCH')).toEqual([]);
  });

  it('shows the server’s refusal', async () => {
    const grace = adminUser({ email: 'grace@example.org', display_name: 'Grace Hopper' });
    const server = fakeServer([me, grace]);
    renderAdmin('/admin/');
    const button = (await rowOf('Grace Hopper')).getByRole('button', {
      name: 'Make admin: Grace Hopper',
    });
    // Another admin took the right away meanwhile: the server says no.
    vi.stubGlobal('fetch', async () =>
      json(403, {
        type: 'client_error',
        errors: [
          {
            code: 'permission_denied',
            detail: 'Only site administrators can do this.',
            attr: null,
          },
        ],
      }),
    );
    await userEvent.click(button);
    expect(await screen.findByText('Only site administrators can do this.')).toBeTruthy();
    expect(server.calls.filter((call) => call.method === 'PATCH')).toEqual([]);
  });

  it('refuses account changes while offline, saying why', async () => {
    const grace = adminUser({ email: 'grace@example.org', display_name: 'Grace Hopper' });
    const server = fakeServer([me, grace]);
    renderAdmin('/admin/');
    const button = (await rowOf('Grace Hopper')).getByRole('button', {
      name: 'Make admin: Grace Hopper',
    });
    connectivity.store.set({ online: false, checkedAt: Date.now() });
    expect((await screen.findByRole('note')).textContent).toBe(
      'You are offline. Connect to the network to change accounts.',
    );
    expect(button.getAttribute('title')).toBe('Needs the network');
    await userEvent.click(button);
    expect(server.calls.filter((call) => call.method === 'PATCH')).toEqual([]);
  });
});

describe('projects', () => {
  it('lists every project with its member count, and opens one', async () => {
    const letters: AdminCorpus = {
      id: uuid(),
      name: 'Letters',
      public: false,
      created: '2024-05-01T10:00:00Z',
      members: 3,
    };
    fakeServer([me], [letters]);
    renderAdmin('/admin/projects/');
    const row = await rowOf('Letters');
    expect(row.getByRole('cell', { name: 'Private' })).toBeTruthy();
    expect(row.getByRole('cell', { name: '3' })).toBeTruthy();
    expect(row.getByRole('link', { name: 'Browse Letters' }).getAttribute('href')).toBe(
      `/browse/${letters.id}`,
    );
    await userEvent.click(row.getByRole('link', { name: 'Letters' }));
    await screen.findByRole('heading', { name: 'Allowed metadata' });
    expect(
      screen
        .getByRole('link', { name: 'Project settings (details, members, deletion)' })
        .getAttribute('href'),
    ).toBe(`/corpus/${letters.id}`);
    expect(screen.getByRole('listitem').textContent).toBe('Page');
  });

  it('adds and deletes the allowed metadata of a project', async () => {
    const letters: AdminCorpus = {
      id: uuid(),
      name: 'Letters',
      public: true,
      created: '2024-05-01T10:00:00Z',
      members: 1,
    };
    const server = fakeServer([me], [letters]);
    renderAdmin(`/admin/projects/${letters.id}`);
    await screen.findByText('There are no allowed metadata for this project.');

    const form = within(screen.getByRole('form', { name: 'Add allowed metadata' }));
    await userEvent.type(form.getByRole('textbox', { name: 'Name' }), '  Author ');
    await userEvent.selectOptions(form.getByRole('combobox', { name: 'Type' }), 'Reference');
    await userEvent.click(form.getByRole('button', { name: 'Add' }));
    await rowOf('Author');
    expect((await rowOf('Author')).getByRole('cell', { name: 'Reference' })).toBeTruthy();
    expect(server.callsTo('POST', `/corpus/${letters.id}/allowed-metadata/`)[0]?.body).toEqual({
      name: 'Author',
      type: 'reference',
    });
    expect((form.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('');

    // The same pair again: the server's refusal shows under the form.
    await userEvent.type(form.getByRole('textbox', { name: 'Name' }), 'Author');
    await userEvent.selectOptions(form.getByRole('combobox', { name: 'Type' }), 'Reference');
    await userEvent.click(form.getByRole('button', { name: 'Add' }));
    expect((await form.findByRole('alert')).textContent).toBe(
      'This metadata name and type are already allowed.',
    );

    await userEvent.click(
      (await rowOf('Author')).getByRole('button', { name: 'Delete Author (Reference)' }),
    );
    await screen.findByText('There are no allowed metadata for this project.');
    expect(server.allowed[letters.id]).toEqual([]);
  });

  it('says offline that changing the allowed metadata needs the network', async () => {
    const letters: AdminCorpus = {
      id: uuid(),
      name: 'Letters',
      public: true,
      created: '2024-05-01T10:00:00Z',
      members: 1,
    };
    const server = fakeServer([me], [letters]);
    renderAdmin(`/admin/projects/${letters.id}`);
    await screen.findByText('There are no allowed metadata for this project.');
    connectivity.store.set({ online: false, checkedAt: Date.now() });
    expect((await screen.findByRole('note')).textContent).toBe(
      'You are offline. Connect to the network to change the allowed metadata.',
    );
    const form = within(screen.getByRole('form', { name: 'Add allowed metadata' }));
    await userEvent.type(form.getByRole('textbox', { name: 'Name' }), 'Author');
    const add = form.getByRole('button', { name: 'Add' });
    expect(add.getAttribute('title')).toBe('Needs the network');
    await userEvent.click(add);
    expect(server.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });
});
