// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import './domStubs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import {
  RouterProvider,
  createMemoryHistory,
  createRoute,
  createRouter,
} from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { applyUpdate, updateAvailable } from '@/app/serviceWorker';
import { Route as rootRoute } from '@/routes/__root';
import { Route as homeRoute } from '@/routes/index';
import { Route as unreachableRoute } from '@/routes/errors/unreachable';
import { Route as unverifiedRoute } from '@/routes/errors/unverified';
import { NotFoundPage } from '@/features/shell/ErrorPages';
import { dismiss, notifications } from '@/components/notifications/store';
import { localDb } from '@/offline/db';
import { UUID, makeInfo, makeUser } from './fixtures';
import { fetchReplies, seededQueryClient, type Seed } from './render';

// The real module registers a service worker through a Vite virtual module.
vi.mock('@/app/serviceWorker', async () => {
  const { createStore } = await import('@/lib/store');
  const updateAvailable = createStore(false);
  return {
    updateAvailable,
    applyUpdate: vi.fn(async () => updateAvailable.set(false)),
    registerServiceWorker: () => {},
  };
});

// The shell's own route files, as the route generator wires them…
const shellRoutes = [
  homeRoute.update({ id: '/', path: '/', getParentRoute: () => rootRoute } as never),
  unreachableRoute.update({
    id: '/errors/unreachable',
    path: '/errors/unreachable',
    getParentRoute: () => rootRoute,
  } as never),
  unverifiedRoute.update({
    id: '/errors/unverified',
    path: '/errors/unverified',
    getParentRoute: () => rootRoute,
  } as never),
];

// …and stand-ins for other areas' pages, guarded as spec 000 §2 says.
function page(path: string, title: string, access = {}) {
  return createRoute({
    getParentRoute: () => rootRoute,
    path,
    beforeLoad: requireAccess(access),
    component: () => <h1>{title}</h1>,
  });
}
const otherRoutes = [
  page('/browse/', 'Projects list'),
  page('/user/login', 'Log in form'),
  page('/search', 'Search page', { feature: 'search' }),
  page('/corpus/new', 'New project', { login: true, verified: true }),
  page('/process/$id', 'Process details', { login: true, uuidParams: ['id'] }),
];
const routeTree = rootRoute.addChildren([...shellRoutes, ...otherRoutes]);

function renderApp(path: string, seed: Seed = {}) {
  const queryClient = seededQueryClient(seed);
  const router = createRouter({
    routeTree,
    context: { queryClient },
    history: createMemoryHistory({ initialEntries: [path] }),
    trailingSlash: 'preserve',
    defaultNotFoundComponent: NotFoundPage,
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

// Navigations (a retry, a redirect) take a few ticks more than the default second on a busy
// machine: the heading is waited for longer, what it must say is unchanged.
async function heading(text: string) {
  return screen.findByRole('heading', { level: 1, name: text }, { timeout: 5000 });
}

afterEach(async () => {
  cleanup();
  for (const notification of notifications.get()) dismiss(notification.id);
  updateAvailable.set(false);
  vi.unstubAllGlobals();
  await localDb.queries.clear();
});

const info = makeInfo({ signup: true });

describe('home', () => {
  it('welcomes an anonymous visitor inside the full shell', async () => {
    renderApp('/', { info, user: null });
    await heading('Welcome to Folia');
    const main = within(screen.getByRole('main'));
    expect(main.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe(
      '/user/login?next=%2F',
    );
    expect(main.getByRole('link', { name: 'Register' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Not logged in' })).toBeTruthy();
    expect(within(screen.getByRole('contentinfo')).getByText('Version 1.9.0')).toBeTruthy();
  });

  it('has no Register button without signup', async () => {
    renderApp('/', { info: makeInfo({ signup: false }), user: null });
    await heading('Welcome to Folia');
    expect(within(screen.getByRole('main')).queryByRole('link', { name: 'Register' })).toBeNull();
  });

  it('sends a logged-in user to the projects', async () => {
    const { router } = renderApp('/', { info, user: makeUser() });
    await heading('Projects list');
    expect(router.state.location.pathname).toBe('/browse/');
  });
});

describe('navigation guard', () => {
  it('shows Page not found, in the shell, for an unknown path', async () => {
    renderApp('/no/such/page', { info, user: null });
    await heading('Page not found');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Homepage' }).getAttribute('href')).toBe('/');
  });

  it('shows Page not found for an id that is not a UUID', async () => {
    renderApp('/process/12', { info, user: makeUser() });
    await heading('Page not found');
  });

  it('shows a page with a valid UUID', async () => {
    renderApp(`/process/${UUID}`, { info, user: makeUser() });
    await heading('Process details');
  });

  it('shows Page not found for a route whose feature is off, and the page when on', async () => {
    renderApp('/search', { info: makeInfo({ search: false }), user: null });
    await heading('Page not found');
    cleanup();
    renderApp('/search', { info: makeInfo({ search: true }), user: null });
    await heading('Search page');
  });

  it('sends an anonymous visitor to login with next set to the full path', async () => {
    const { router } = renderApp('/corpus/new?from=browse', { info, user: null });
    await heading('Log in form');
    expect(router.state.location.pathname).toBe('/user/login');
    expect(router.state.location.search).toEqual({ next: '/corpus/new?from=browse' });
  });

  it('sends an unverified user to the Unverified email page', async () => {
    const { router } = renderApp('/corpus/new', {
      info,
      user: makeUser({ verified_email: false }),
    });
    await heading('Unverified email');
    expect(router.state.location.pathname).toBe('/errors/unverified');
    expect(screen.getByRole('button', { name: 'Resend verification email' })).toBeTruthy();
  });

  it('asks the server again before refusing: an e-mail verified in another tab lets the user in', async () => {
    const replies = fetchReplies({ status: 200, body: makeUser({ verified_email: true }) });
    vi.stubGlobal('fetch', replies.fetch);
    renderApp('/corpus/new', { info, user: makeUser({ verified_email: false }) });
    await heading('New project');
    // Once verified, the user's background jobs load too (spec 000 §6).
    expect(replies.calls.filter((call) => call.url !== '/api/v1/jobs/')).toEqual([
      { url: '/api/v1/user/', method: 'GET' },
    ]);
  });

  it('lets an admin through without a verified e-mail', async () => {
    renderApp('/corpus/new', { info, user: makeUser({ verified_email: false, is_admin: true }) });
    await heading('New project');
  });
});

describe('unreachable server', () => {
  it('shows Server unreachable, then goes home once the server answers a retry', async () => {
    const replies = fetchReplies(
      // The first navigation: no answer at all. Then the retry, then the user for the home page.
      { status: 200, body: makeInfo({ signup: true }) },
      {
        status: 403,
        body: {
          type: 'client_error',
          errors: [{ code: 'not_authenticated', detail: 'Not logged in.', attr: null }],
        },
      },
    );
    const answers = replies.fetch;
    let reachable = false;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (!reachable) return Promise.reject(new TypeError('Failed to fetch'));
      return answers(input, init);
    });
    const { router } = renderApp('/browse/', {});
    await heading('Server unreachable');
    expect(router.state.location.pathname).toBe('/errors/unreachable');

    reachable = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await heading('Welcome to Folia');
    expect(router.state.location.pathname).toBe('/');
    expect(replies.calls.map((call) => call.url)).toEqual(['/api/v1/', '/api/v1/user/']);
  });
});

describe('update prompt', () => {
  it('appears when a new version waits, reloads on demand or waits for later', async () => {
    renderApp('/', { info, user: null });
    await heading('Welcome to Folia');
    expect(screen.queryByText('A new version of Folia is available.')).toBeNull();

    act(() => updateAvailable.set(true));
    await userEvent.click(await screen.findByRole('button', { name: 'Later' }));
    await waitFor(() =>
      expect(screen.queryByText('A new version of Folia is available.')).toBeNull(),
    );
    expect(applyUpdate).not.toHaveBeenCalled();

    act(() => updateAvailable.set(true));
    await userEvent.click(await screen.findByRole('button', { name: 'Reload' }));
    expect(applyUpdate).toHaveBeenCalledOnce();
  });
});

describe('keyboard help', () => {
  it('opens on ? anywhere in the app', async () => {
    renderApp('/', { info, user: null });
    await heading('Welcome to Folia');
    await userEvent.keyboard('?');
    expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
