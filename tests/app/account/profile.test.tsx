// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { userKeys } from '@/api/user';
import type { User } from '@/api/types';
import { ProfilePage } from '@/features/account/components/ProfilePage';
import { apiError, clearNotifications, json, makeUser, mockApi, renderPage } from './harness';

function open(user: User) {
  return renderPage({ path: '/user/profile', url: '/user/profile', page: ProfilePage, user });
}

afterEach(() => {
  cleanup();
  clearNotifications();
  vi.unstubAllGlobals();
});

function describedText(input: HTMLElement): string | undefined {
  return (
    document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? undefined
  );
}

describe('profile page', () => {
  it('shows the e-mail and verified state', async () => {
    mockApi({});
    open(makeUser({ email: 'ada@example.org', verified_email: true }));
    const account = await screen.findByRole('region', { name: 'Account' });
    expect(within(account).getByText('ada@example.org')).toBeTruthy();
    expect(within(account).getByText('Verified')).toBeTruthy();
    expect(within(account).queryByRole('button', { name: 'Resend verification email' })).toBeNull();
  });

  it('resends the verification e-mail of an unverified account', async () => {
    const api = mockApi({ 'POST /user/verify-email/send/': () => json(201, {}) });
    open(makeUser({ verified_email: false }));
    const account = await screen.findByRole('region', { name: 'Account' });
    expect(within(account).getByText('Not verified')).toBeTruthy();
    await userEvent
      .setup()
      .click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'You will receive a new email with a validation link soon.',
    );
    expect(api.callsTo('POST /user/verify-email/send/')).toHaveLength(1);
  });

  it('changes the display name', async () => {
    const api = mockApi({
      'PATCH /user/': (call) =>
        json(200, makeUser({ display_name: (call.body as { display_name: string }).display_name })),
    });
    const { queryClient } = open(makeUser({ display_name: 'Ada' }));
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Display name' });
    const input = within(form).getByLabelText('Display name');
    await user.clear(input);
    await user.type(input, 'Ada Lovelace');
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    expect((await screen.findByRole('status')).textContent).toContain(
      'Your display name has been updated.',
    );
    expect(api.callsTo('PATCH /user/')[0]?.body).toEqual({ display_name: 'Ada Lovelace' });
    expect(queryClient.getQueryData<User>(userKeys.current)?.display_name).toBe('Ada Lovelace');
  });

  it('sends the current password with the new one', async () => {
    const api = mockApi({ 'PATCH /user/': () => json(200, makeUser()) });
    open(makeUser({ has_usable_password: true }));
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'old secret');
    await user.type(within(form).getByLabelText('New password'), 'new secret');
    await user.type(within(form).getByLabelText('New password confirmation'), 'new secret');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));

    expect((await screen.findByRole('status')).textContent).toContain(
      'Your password has been changed.',
    );
    expect(api.callsTo('PATCH /user/')[0]?.body).toEqual({
      current_password: 'old secret',
      password: 'new secret',
    });
    expect((within(form).getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });

  it("says Passwords don't match without calling the server", async () => {
    const api = mockApi({});
    open(makeUser());
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'old secret');
    await user.type(within(form).getByLabelText('New password'), 'new secret');
    await user.type(within(form).getByLabelText('New password confirmation'), 'new secert');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));

    expect(describedText(within(form).getByLabelText('New password confirmation'))).toBe(
      "Passwords don't match",
    );
    expect(api.calls).toEqual([]);
  });

  it('shows a wrong current password on its field', async () => {
    mockApi({
      'PATCH /user/': () =>
        apiError(400, [
          { attr: 'current_password', detail: 'Your current password is incorrect.' },
        ]),
    });
    open(makeUser());
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'guess');
    await user.type(within(form).getByLabelText('New password'), 'new secret');
    await user.type(within(form).getByLabelText('New password confirmation'), 'new secret');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));

    await within(form).findByText('Your current password is incorrect.');
    const current = within(form).getByLabelText('Current password');
    expect(current.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(current)).toBe('Your current password is incorrect.');
  });

  it('lets an account without a password set one without the current password', async () => {
    const api = mockApi({ 'PATCH /user/': () => json(200, makeUser()) });
    open(makeUser({ has_usable_password: false }));
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Set a password' });
    expect(within(form).queryByLabelText('Current password')).toBeNull();
    await user.type(within(form).getByLabelText('New password'), 'first secret');
    await user.type(within(form).getByLabelText('New password confirmation'), 'first secret');
    await user.click(within(form).getByRole('button', { name: 'Set a password' }));
    await screen.findByText('Your password has been changed.');
    expect(api.callsTo('PATCH /user/')[0]?.body).toEqual({ password: 'first secret' });
  });
});
