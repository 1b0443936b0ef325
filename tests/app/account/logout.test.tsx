// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { serverInfoKeys } from '@/api/serverInfo';
import { userKeys } from '@/api/user';
import { LogoutPage } from '@/features/account/components/LogoutPage';
import {
  SERVER_INFO,
  apiError,
  clearNotifications,
  json,
  makeUser,
  mockApi,
  renderPage,
} from './harness';

function open() {
  const page = renderPage({
    path: '/user/logout',
    url: '/user/logout',
    page: LogoutPage,
    user: makeUser(),
    strict: true,
  });
  page.queryClient.setQueryData(['corpora'], [{ id: 'c1', name: 'Private letters' }]);
  return page;
}

afterEach(() => {
  cleanup();
  clearNotifications();
  vi.unstubAllGlobals();
});

describe('logout page', () => {
  it('ends the session once, forgets per-user data and goes home', async () => {
    const api = mockApi({ 'DELETE /user/': () => json(204, null) });
    const { queryClient } = open();

    expect((await screen.findByTestId('elsewhere')).textContent).toBe('Now at /');
    expect(api.callsTo('DELETE /user/')).toHaveLength(1);
    expect(queryClient.getQueryData(userKeys.current)).toBeNull();
    expect(queryClient.getQueryData(['corpora'])).toBeUndefined();
    expect(queryClient.getQueryData(serverInfoKeys.all)).toEqual(SERVER_INFO);
  });

  it('works when the session had already ended', async () => {
    mockApi({
      'DELETE /user/': () =>
        apiError(401, [{ attr: null, detail: 'Authentication credentials were not provided.' }]),
    });
    const { queryClient } = open();
    expect((await screen.findByTestId('elsewhere')).textContent).toBe('Now at /');
    expect(queryClient.getQueryData(userKeys.current)).toBeNull();
  });

  it('keeps the session and offers a retry when the server fails', async () => {
    let fail = true;
    const api = mockApi({
      'DELETE /user/': () =>
        fail
          ? apiError(500, [{ attr: null, detail: 'A server error occurred.' }])
          : json(204, null),
    });
    const { queryClient } = open();
    await screen.findByRole('button', { name: 'Try again' });
    // On the page, and as the error notification every failure gets.
    const alerts = screen.getAllByRole('alert').map((alert) => alert.textContent);
    expect(alerts).toContain('A server error occurred.');
    expect(alerts).toContain('A server error occurred.×');
    expect(queryClient.getQueryData(userKeys.current)).toEqual(makeUser());

    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe('Now at /');
    expect(api.callsTo('DELETE /user/')).toHaveLength(2);
  });
});
