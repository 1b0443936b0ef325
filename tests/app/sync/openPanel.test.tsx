// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoute } from '@tanstack/react-router';
import { Route as rootRoute } from '@/routes/__root';
import { Route as syncRoute } from '@/routes/sync';
import { Navbar } from '@/features/shell/Navbar';
import { localDb } from '@/offline/db';
import { createElement } from '@/offline/elementEdits';
import { renderInRouter } from '../shell/render';
import { makeInfo, renderRoutes } from '../support/harness';
import { corpus, isolateSyncTests, stubApi, user } from './harness';

// The real module registers a service worker through a Vite virtual module.
vi.mock('@/app/serviceWorker', async () => {
  const { createStore } = await import('@/lib/store');
  return {
    updateAvailable: createStore(false),
    applyUpdate: vi.fn(),
    registerServiceWorker: () => {},
  };
});

isolateSyncTests();

const projects = createRoute({
  getParentRoute: () => rootRoute,
  path: '/browse/',
  component: () => <h1>Projects list</h1>,
});
const sync = syncRoute.update({
  id: '/sync',
  path: '/sync',
  getParentRoute: () => rootRoute,
} as never);
const routeTree = rootRoute.addChildren([projects, sync]);

function openApp(url: string) {
  return renderRoutes(routeTree, { url, info: makeInfo(), user });
}

async function syncStatus() {
  const bar = within(await screen.findByRole('navigation', { name: 'Main' }));
  return bar.findByRole('button', { name: /^Pending changes:/ });
}

describe('opening the Pending changes', () => {
  it('opens over the page from the navbar sync status', async () => {
    stubApi();
    await createElement(localDb, {
      corpus: corpus.id,
      parent: null,
      type: 'folder',
      name: 'Box 1',
    });
    const person = userEvent.setup();
    openApp('/browse/');
    await screen.findByRole('heading', { name: 'Projects list' });
    const button = await syncStatus();
    await waitFor(() =>
      expect(button.getAttribute('aria-label')).toBe('Pending changes: Offline, 1 pending'),
    );
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');

    await person.click(button);
    const dialog = within(await screen.findByRole('dialog', { name: 'Pending changes' }));
    expect(await dialog.findByRole('listitem', { name: '“Box 1” (Folder): created' })).toBeTruthy();
    await person.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('heading', { name: 'Projects list' })).toBeTruthy();
  });

  it('is a page of its own at /sync', async () => {
    stubApi();
    const person = userEvent.setup();
    openApp('/sync');
    expect(await screen.findByRole('heading', { level: 1, name: 'Pending changes' })).toBeTruthy();
    expect(await screen.findByText('Everything is saved on the server.')).toBeTruthy();
    const button = await syncStatus();
    expect(button.getAttribute('aria-haspopup')).toBeNull();
    await person.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('goes to /sync from a navbar that has no panel to open', async () => {
    stubApi();
    const person = userEvent.setup();
    const { router } = renderInRouter(<Navbar />, { info: makeInfo(), user, path: '/browse/' });
    await person.click(await syncStatus());
    await waitFor(() => expect(router.state.location.pathname).toBe('/sync'));
  });
});
