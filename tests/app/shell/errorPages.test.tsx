// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NotFoundPage, UnreachablePage, UnverifiedPage } from '@/features/shell/ErrorPages';
import { Notifications } from '@/components/notifications/Notifications';
import { dismiss, notifications } from '@/components/notifications/store';
import { serverInfoKeys } from '@/api/serverInfo';
import { VERIFICATION_SENT } from '@/api/user';
import { makeInfo, makeUser } from './fixtures';
import { fetchReplies, renderInRouter } from './render';

afterEach(() => {
  cleanup();
  for (const notification of notifications.get()) dismiss(notification.id);
  vi.unstubAllGlobals();
});

/** Renders a page as if the user came to `path` from `/previous`. */
function renderPage(page: React.ReactNode, path: string, seed = {}) {
  const rendered = renderInRouter(
    <>
      {page}
      <Notifications />
    </>,
    seed,
  );
  // Two entries, so that "Go back" has somewhere to go.
  void rendered.router
    .navigate({ to: '/previous' as '/' })
    .then(() => rendered.router.navigate({ to: path as '/' }));
  return rendered;
}

async function atPath(router: { state: { location: { pathname: string } } }, path: string) {
  await waitFor(() => expect(router.state.location.pathname).toBe(path));
}

describe('Page not found', () => {
  it('has a Homepage link and goes back', async () => {
    const { router } = renderPage(<NotFoundPage />, '/no/such/page');
    await atPath(router, '/no/such/page');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Page not found');
    expect(screen.getByRole('link', { name: 'Homepage' }).getAttribute('href')).toBe('/');
    await userEvent.click(screen.getByRole('button', { name: 'Go back' }));
    await atPath(router, '/previous');
  });
});

describe('Unverified email', () => {
  it('resends the verification e-mail and confirms it', async () => {
    const replies = fetchReplies({ status: 201, body: {} });
    vi.stubGlobal('fetch', replies.fetch);
    const { router } = renderPage(<UnverifiedPage />, '/errors/unverified', {
      info: makeInfo(),
      user: makeUser({ verified_email: false }),
    });
    await atPath(router, '/errors/unverified');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Unverified email');
    expect(screen.getByRole('link', { name: 'Homepage' }).getAttribute('href')).toBe('/');
    await userEvent.click(screen.getByRole('button', { name: 'Resend verification email' }));
    const confirmation = await screen.findByText(VERIFICATION_SENT);
    expect(confirmation.closest('[role="status"]')?.getAttribute('data-type')).toBe('success');
    expect(replies.calls).toEqual([{ url: '/api/v1/user/verify-email/send/', method: 'POST' }]);
  });

  it('shows the error when the server refuses', async () => {
    vi.stubGlobal(
      'fetch',
      fetchReplies({
        status: 403,
        body: {
          type: 'client_error',
          errors: [
            {
              code: 'not_authenticated',
              detail: 'Authentication credentials were not provided.',
              attr: null,
            },
          ],
        },
      }).fetch,
    );
    renderPage(<UnverifiedPage />, '/errors/unverified');
    await userEvent.click(await screen.findByRole('button', { name: 'Resend verification email' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Authentication credentials were not provided.',
    );
  });

  it('goes back', async () => {
    const { router } = renderPage(<UnverifiedPage />, '/errors/unverified');
    await atPath(router, '/errors/unverified');
    await userEvent.click(screen.getByRole('button', { name: 'Go back' }));
    await atPath(router, '/previous');
  });
});

describe('Server unreachable', () => {
  it('stays and says why when the server still does not answer', async () => {
    const replies = fetchReplies();
    vi.stubGlobal('fetch', replies.fetch);
    const { router } = renderPage(<UnreachablePage />, '/errors/unreachable');
    await atPath(router, '/errors/unreachable');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Server unreachable');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect((await screen.findByRole('alert')).textContent).toContain('could not be reached');
    expect(replies.calls).toEqual([{ url: '/api/v1/', method: 'GET' }]);
    expect(router.state.location.pathname).toBe('/errors/unreachable');
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('loads the server info again and goes home once the server answers', async () => {
    const info = makeInfo({ search: true }, { version: '1.9.1' });
    const replies = fetchReplies({ status: 200, body: info });
    vi.stubGlobal('fetch', replies.fetch);
    const { router, queryClient } = renderPage(<UnreachablePage />, '/errors/unreachable');
    await atPath(router, '/errors/unreachable');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await atPath(router, '/');
    expect(queryClient.getQueryData(serverInfoKeys.all)).toEqual(info);
  });
});
