// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useParams } from '@tanstack/react-router';
import { PasswordResetConfirmPage } from '@/features/account/components/PasswordResetConfirmPage';
import { PasswordResetRequestPage } from '@/features/account/components/PasswordResetRequestPage';
import { apiError, clearNotifications, json, mockApi, renderPage } from './harness';

afterEach(() => {
  cleanup();
  clearNotifications();
  vi.unstubAllGlobals();
});

describe('password reset request', () => {
  it('sends the e-mail and says a link is on its way', async () => {
    const api = mockApi({ 'POST /user/password-reset/': () => json(201, {}) });
    renderPage({
      path: '/user/password_reset',
      url: '/user/password_reset',
      page: PasswordResetRequestPage,
      user: null,
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), ' ada@example.org ');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect((await screen.findByRole('status')).textContent).toBe(
      'If an account exists for this address, an email with a link to reset your password has been sent.',
    );
    expect(api.callsTo('POST /user/password-reset/')[0]?.body).toEqual({
      email: 'ada@example.org',
    });
  });

  it('shows an e-mail error on the field', async () => {
    mockApi({
      'POST /user/password-reset/': () =>
        apiError(400, [{ attr: 'email', detail: 'Enter a valid email address.' }]),
    });
    renderPage({
      path: '/user/password_reset',
      url: '/user/password_reset',
      page: PasswordResetRequestPage,
      user: null,
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), 'ada');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await screen.findByText('Enter a valid email address.');
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
  });
});

function ConfirmRoute() {
  const { uidb64, token } = useParams({ strict: false }) as { uidb64: string; token: string };
  return <PasswordResetConfirmPage uidb64={uidb64} token={token} />;
}

function openConfirm() {
  return renderPage({
    path: '/user/reset/$uidb64/$token',
    url: '/user/reset/MQ/cz7x1p-0a1b2c3d',
    page: ConfirmRoute,
    user: null,
  });
}

async function submitPasswords(password: string, confirmation: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('New password'), password);
  await user.type(screen.getByLabelText('New password confirmation'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Reset password' }));
}

describe('password reset confirm', () => {
  it('says Passwords do not match without calling the server', async () => {
    const api = mockApi({});
    openConfirm();
    await submitPasswords('a new passphrase', 'a new passfrase');
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('sends uidb64, token and the password, then offers to log in', async () => {
    const api = mockApi({
      'POST /user/password-reset/confirm/': () => json(200, {}),
      'GET /user/': () => apiError(401, [{ attr: null, detail: 'Not logged in.' }]),
    });
    openConfirm();
    await submitPasswords('a new passphrase', 'a new passphrase');

    expect((await screen.findByRole('status')).textContent).toBe(
      'Your password has been reset. You can now log in with your new password.',
    );
    expect(api.callsTo('POST /user/password-reset/confirm/')[0]?.body).toEqual({
      uidb64: 'MQ',
      token: 'cz7x1p-0a1b2c3d',
      password: 'a new passphrase',
    });
    await userEvent.setup().click(screen.getByRole('link', { name: 'Log in' }));
    expect((await screen.findByTestId('elsewhere')).textContent).toBe('Now at /user/login');
  });

  it('shows a password error on its field and a token error above the form', async () => {
    mockApi({
      'POST /user/password-reset/confirm/': () =>
        apiError(400, [
          { attr: 'token', detail: 'The password reset link is invalid or has expired.' },
          { attr: 'password', detail: 'This password is too short.' },
        ]),
    });
    openConfirm();
    await submitPasswords('short', 'short');

    const form = screen.getByRole('form', { name: 'Choose a new password' });
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('The password reset link is invalid or has expired.');
    expect(
      within(alert).getByRole('link', { name: 'Request a new link' }).getAttribute('href'),
    ).toBe('/user/password_reset');
    const password = screen.getByLabelText('New password');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(
      document.getElementById(password.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe('This password is too short.');
  });
});
