// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSearch } from '@tanstack/react-router';
import { userKeys } from '@/api/user';
import type { User } from '@/api/types';
import { VerifyEmailPage } from '@/features/account/components/VerifyEmailPage';
import { parseVerifyEmailSearch } from '@/features/account/validation';
import { apiError, clearNotifications, json, makeUser, mockApi, renderPage } from './harness';

function VerifyRoute() {
  const { uidb64, token } = parseVerifyEmailSearch(useSearch({ strict: false }));
  return <VerifyEmailPage uidb64={uidb64} token={token} />;
}

function open(user: User | null, url = '/user/verify-email/?uidb64=MQ&token=cz7x1p-0a1b2c3d') {
  return renderPage({ path: '/user/verify-email/', url, page: VerifyRoute, user, strict: true });
}

afterEach(() => {
  cleanup();
  clearNotifications();
  vi.unstubAllGlobals();
});

describe('verify e-mail page', () => {
  it('posts the link parameters once, even in StrictMode, and refreshes the user', async () => {
    const verified = makeUser({ verified_email: true });
    const api = mockApi({
      'POST /user/verify-email/': () => json(200, verified),
      'GET /user/': () => json(200, verified),
    });
    const { queryClient } = open(makeUser({ verified_email: false }));

    const done = await screen.findByText('Your email address has been verified.');
    expect(done.getAttribute('role')).toBe('status');
    expect(api.callsTo('POST /user/verify-email/')).toEqual([
      {
        method: 'POST',
        path: '/user/verify-email/',
        body: { uidb64: 'MQ', token: 'cz7x1p-0a1b2c3d' },
      },
    ]);
    await waitFor(() =>
      expect(queryClient.getQueryData<User>(userKeys.current)?.verified_email).toBe(true),
    );
    expect(api.callsTo('GET /user/').length).toBeGreaterThan(0);
  });

  it('shows the error and a resend button to the logged-in user', async () => {
    const api = mockApi({
      'POST /user/verify-email/': () =>
        apiError(400, [
          { attr: 'token', detail: 'The verification link is invalid or has expired.' },
        ]),
      'POST /user/verify-email/send/': () => json(201, {}),
    });
    open(makeUser({ verified_email: false }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'The verification link is invalid or has expired.',
    );
    await userEvent
      .setup()
      .click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'You will receive a new email with a validation link soon.',
    );
    expect(api.callsTo('POST /user/verify-email/send/')).toHaveLength(1);
  });

  it('offers no resend button to an anonymous visitor', async () => {
    mockApi({
      'POST /user/verify-email/': () =>
        apiError(400, [
          { attr: 'token', detail: 'The verification link is invalid or has expired.' },
        ]),
    });
    open(null);
    await screen.findByRole('alert');
    expect(screen.queryByRole('button', { name: 'Resend verification email' })).toBeNull();
  });

  it('does not call the server for a link without its token', async () => {
    const api = mockApi({});
    open(null, '/user/verify-email/?uidb64=MQ');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This verification link is incomplete.',
    );
    expect(api.calls).toEqual([]);
  });
});
