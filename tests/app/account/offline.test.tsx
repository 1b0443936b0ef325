// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginPage } from '@/features/account/components/LoginPage';
import { LogoutPage } from '@/features/account/components/LogoutPage';
import { ProfilePage } from '@/features/account/components/ProfilePage';
import { VerifyEmailPage } from '@/features/account/components/VerifyEmailPage';
import { connectivity } from '@/offline/runtime';
import { isolateEachTest } from '../support/harness';
import { json, makeUser, mockApi, renderPage } from './harness';

isolateEachTest();

function setOnline(online: boolean) {
  act(() => connectivity.store.set({ online, checkedAt: Date.now() }));
}

function expectBlocked(button: HTMLElement) {
  expect(button.getAttribute('aria-disabled')).toBe('true');
  expect(button.getAttribute('title')).toBe('Needs the network');
}

describe('Account forms offline', () => {
  it('login says it needs the network, sends nothing, and logs in once back online', async () => {
    const user = makeUser();
    const api = mockApi({ 'POST /user/login/': () => json(200, user) });
    renderPage({ path: '/user/login', url: '/user/login', page: () => <LoginPage />, user: null });
    await userEvent.type(await screen.findByLabelText('E-mail'), 'ada@example.org');
    await userEvent.type(screen.getByLabelText('Password'), 'a passphrase');
    setOnline(false);

    expect(screen.getByText('You are offline. Connect to the network to log in.')).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Log in' });
    expectBlocked(button);
    await userEvent.click(button);
    await userEvent.type(screen.getByLabelText('Password'), '{Enter}');
    expect(api.callsTo('POST /user/login/')).toEqual([]);
    expect(screen.queryByRole('alert')).toBeNull();

    setOnline(true);
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(api.callsTo('POST /user/login/')).toHaveLength(1));
  });

  it('logout waits for the network instead of failing, then logs out', async () => {
    setOnline(false);
    const api = mockApi({ 'DELETE /user/': () => json(204, null) });
    renderPage({ path: '/user/logout', url: '/user/logout', page: LogoutPage, user: makeUser() });
    await screen.findByText('You are offline. Connect to the network to log out.');
    expect(api.calls).toEqual([]);
    expect(screen.queryByRole('alert')).toBeNull();

    setOnline(true);
    await waitFor(() => expect(api.callsTo('DELETE /user/')).toHaveLength(1));
    expect(await screen.findByTestId('elsewhere')).toBeTruthy();
  });

  it('the mailed verification link waits for the network, then verifies', async () => {
    setOnline(false);
    const api = mockApi({
      'POST /user/verify-email/': () => json(200, makeUser()),
      'GET /user/': () => json(200, makeUser()),
    });
    renderPage({
      path: '/user/verify-email',
      url: '/user/verify-email?uidb64=abc&token=def',
      page: () => <VerifyEmailPage uidb64="abc" token="def" />,
      user: makeUser({ verified_email: false }),
    });
    await screen.findByText(
      'You are offline. Connect to the network to verify your email address.',
    );
    expect(api.callsTo('POST /user/verify-email/')).toEqual([]);
    expect(screen.queryByRole('alert')).toBeNull();

    setOnline(true);
    await screen.findByText('Your email address has been verified.');
    expect(api.callsTo('POST /user/verify-email/')).toHaveLength(1);
  });

  it('the profile says changes need the network and sends none', async () => {
    const api = mockApi({});
    renderPage({
      path: '/user/profile',
      url: '/user/profile',
      page: ProfilePage,
      user: makeUser(),
    });
    const name = await screen.findByRole('textbox', { name: 'Display name' });
    setOnline(false);
    screen.getByText('You are offline. Connect to the network to change your profile.');
    await userEvent.clear(name);
    await userEvent.type(name, 'Ada L.');
    const save = screen
      .getAllByRole('button')
      .find((button) => button.closest('form')?.contains(name));
    expectBlocked(save!);
    await userEvent.click(save!);
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});
